// A build's report names why each tournament and list it rendered was rendered: a first build,
// a tick whose store rows changed, a tick after a status window passed, --rebuild, and a changed
// option (the program's key).
import { copyFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build, type BuildReport } from "../../../src/pipeline/build.ts";
import { explainLines } from "../../../src/cli/build-report.ts";
import { makeSampleStore, SAMPLE_NOW } from "../../support/e2e.ts";
import { removeTempDirs, tempDir } from "../../support/temp.ts";

let dir: string;
let db: string;
beforeAll(() => {
  dir = tempDir("plan-reasons");
  db = path.join(dir, "s.sqlite");
  copyFileSync(makeSampleStore(dir), db);
});
afterAll(removeTempDirs);

const reasons = (r: BuildReport): Record<string, string> =>
  Object.fromEntries((r.render.plan?.tournaments ?? []).map((t) => [t.id, t.reason]));

describe("the plan's reasons", () => {
  it("name a first build, changed rows, a passed window, a changed option and --rebuild", async () => {
    const out = path.join(dir, "dist");
    const first = await build({ db, out, now: SAMPLE_NOW, jobs: 1 });
    expect(Object.values(reasons(first))).toHaveLength(first.render.tournaments);
    expect(new Set(Object.values(reasons(first)))).toEqual(new Set(["first-build"]));
    expect(first.render.plan?.lists).toEqual([{ list: "*", reason: "first-build" }]);

    const w = new Database(db);
    w.exec(
      "UPDATE players SET name = name || ' Jr' WHERE source_player_number = 1 AND tournament_id = (SELECT tournament_id FROM tournaments WHERE external_id = 1270466)",
    );
    w.close();
    const edited = await build({ db, out, now: SAMPLE_NOW, jobs: 1 });
    expect(reasons(edited)).toEqual({ "1270466": "rows-changed" });
    expect(explainLines(edited)).toContain("explain: tournament 1270466: its rows changed in the store");

    // Past the end of the snapshot's window, the tournaments whose window ended are rendered again.
    const later = edited.render.validUntil;
    const passed = await build({ db, out, now: later, jobs: 1 });
    expect(Object.keys(reasons(passed)).length).toBeGreaterThan(0);
    expect(new Set(Object.values(reasons(passed)))).toEqual(new Set(["window-passed"]));

    const graced = await build({
      db,
      out,
      now: later,
      jobs: 1,
      statusOptions: { graceMs: 60_000, resultsWindowMs: 21_600_000 },
    });
    expect(new Set(Object.values(reasons(graced)))).toEqual(new Set(["program-changed"]));
    expect(graced.render.plan?.lists).toEqual([{ list: "*", reason: "program-changed" }]);

    const rebuilt = await build({ db, out, now: later, jobs: 1, rebuild: true });
    expect(new Set(Object.values(reasons(rebuilt)))).toEqual(new Set(["rebuild"]));
    expect(rebuilt.render.plan?.lists).toEqual([{ list: "*", reason: "rebuild" }]);
  });

  it("never reach the snapshot's record", async () => {
    const out = path.join(dir, "recorded");
    const report = await build({ db, out, now: SAMPLE_NOW, jobs: 1 });
    expect(report.render.plan?.tournaments.length).toBeGreaterThan(0);
    const { readFileSync } = await import("node:fs");
    expect(readFileSync(path.join(out, "_build-api.json"), "utf8")).not.toContain("first-build");
  });
});
