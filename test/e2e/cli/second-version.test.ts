// --no-second-version: a one-off first build makes one snapshot version, not the pair; the next
// build in the same --out makes the second one, and serves what a paired build serves.
import { readdirSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { makeSampleStore } from "../../support/e2e.ts";
import { runCli } from "../../support/run.ts";
import { removeTempDirs, tempDir } from "../../support/temp.ts";
import { hashTree } from "../../support/tree.ts";

afterAll(removeTempDirs);

const NOW = "2026-11-22T12:00:00Z";
/** The numbered version directories beside `out` (.<name>.snapshots/<n>). */
const versions = (out: string): string[] =>
  readdirSync(path.join(path.dirname(out), `.${path.basename(out)}.snapshots`)).filter((e) =>
    /^[0-9]+$/.test(e),
  );

describe("build --no-second-version", () => {
  it("makes one version; the next build makes the second, and the snapshots are the same", async () => {
    const dir = tempDir("second-version");
    const db = makeSampleStore(dir);
    const once = path.join(dir, "once");
    const paired = path.join(dir, "paired");

    const a = await runCli(["build", "--db", db, "--out", once, "--now", NOW, "--no-second-version"]);
    expect(a.code, a.stderr).toBe(0);
    expect(versions(once)).toHaveLength(1);
    const b = await runCli(["build", "--db", db, "--out", paired, "--now", NOW]);
    expect(b.code, b.stderr).toBe(0);
    expect(versions(paired)).toHaveLength(2);
    expect(hashTree(once)).toEqual(hashTree(paired));

    // A later instant changes statuses: the next build in `once` renders and makes the other version.
    const later = "2026-11-29T12:00:00Z";
    const c = await runCli(["build", "--db", db, "--out", once, "--now", later]);
    expect(c.code, c.stderr).toBe(0);
    expect(versions(once)).toHaveLength(2);
    const d = await runCli(["build", "--db", db, "--out", paired, "--now", later]);
    expect(d.code, d.stderr).toBe(0);
    expect(hashTree(once)).toEqual(hashTree(paired));
    // Compared by sha256 per file: toEqual on two maps of 1,263 Buffers compares them byte by byte
    // in JavaScript (10 s a pair); the hashes say the same, and a failure names the files.
  }, 180_000);
});
