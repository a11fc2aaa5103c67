// A tournament taken down leaves no file on disk once the build that drops it has switched: not
// in the live version, and not in the standby version (the one live until then) either
// (issue 49). The next builds still equal a full build.
import { copyFileSync, readlinkSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import fg from "fast-glob";
import { afterAll, describe, expect, it } from "vitest";
import { build } from "../../../src/pipeline/build.ts";
import { verify } from "../../../src/pipeline/verify.ts";
import { makeSampleStore, SAMPLE_NOW } from "../../support/e2e.ts";
import { removeTempDirs, tempDir } from "../../support/temp.ts";
import { hashTree } from "../../support/tree.ts";

afterAll(removeTempDirs);

/** The files of tournament `id`: named by it, or under a folder named by it. */
const files = (dir: string, id: string): string[] =>
  fg.sync([`**/*${id}*`, `**/*${id}*/**`], { cwd: dir, dot: true });

describe("a tournament taken down", () => {
  it("leaves the standby version as well as the live one when its build switches", async () => {
    const dir = tempDir("standby-take-down");
    const db = path.join(dir, "s.sqlite");
    copyFileSync(makeSampleStore(dir), db);
    const out = path.join(dir, "dist");
    await build({ db, out, now: SAMPLE_NOW, jobs: 1 });
    const store = path.join(dir, ".dist.snapshots");
    const versions = ["1", "2"].map((v) => path.join(store, v));
    expect(versions.map((v) => files(v, "1187520").length > 50)).toEqual([true, true]);

    const w = new Database(db);
    w.exec("UPDATE tournaments SET is_draft = 1 WHERE external_id = 1187520");
    w.close();
    const tick = await build({ db, out, now: SAMPLE_NOW, jobs: 1 });
    expect(tick.publish.filesRemoved).toBeGreaterThan(0);
    const live = path.join(store, readlinkSync(out).split("/").pop()!);
    const standby = versions.find((v) => v !== live)!;
    expect(files(live, "1187520")).toEqual([]);
    expect(files(standby, "1187520")).toEqual([]);
    expect(verify({ out }).problems).toEqual([]);

    // The next tick brings the standby up to date and equals a full build.
    const w2 = new Database(db);
    w2.exec("UPDATE tournaments SET is_draft = 0 WHERE external_id = 1187520");
    w2.close();
    await build({ db, out, now: SAMPLE_NOW, jobs: 1 });
    const full = path.join(dir, "full");
    await build({ db, out: full, now: SAMPLE_NOW, jobs: 1 });
    expect(hashTree(out)).toEqual(hashTree(full));
    expect(verify({ out }).problems).toEqual([]);
  });
});
