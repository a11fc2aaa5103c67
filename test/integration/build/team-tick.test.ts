// Issue 46: a tick covers each team's own resource (`teams/{team}`, both surfaces) and page. The
// shared Swiss-Manager team Swiss is imported after round 6, built, then re-imported after round 7
// and built again (a tick): every team's file is rewritten and named for purging, its round 7 is
// there, and the tick's team files are byte-identical to a full build of the same store.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TeamDetailResponse } from "../../../src/contracts/teams.ts";
import { build, type BuildReport } from "../../../src/pipeline/build.ts";
import { addClub } from "../../../src/store/write/add-club.ts";
import { createStore } from "../../../src/store/write/init.ts";
import { importTrf } from "../../../src/trf/import.ts";
import { removeTempDirs, tempDir } from "../../support/temp.ts";
import { hashTree } from "../../support/tree.ts";
import { trfAfterRound } from "../../support/trf-rounds.ts";

afterAll(removeTempDirs);

const FINAL = readFileSync(
  fileURLToPath(new URL("../../fixtures/trf/teams/sm-2025-eschlkam-team-swiss.trf", import.meta.url)),
  "utf8",
);
/** The file after round 6: the round 7 cells cut, and the round 7 bye of the 320 record. */
const AFTER_6 = trfAfterRound(FINAL, 6, false)
  .split("\n")
  .map((l) => (l.startsWith("320") ? l.slice(0, 14 + 6 * 4).trimEnd() : l))
  .join("\n");
const TEAMS = [...FINAL.matchAll(/^310 +(\d+)/gm)].map((m) => Number(m[1]));
const ID = "4600";
const dir = tempDir("team-tick");
const db = path.join(dir, "s.sqlite");
const out = path.join(dir, "dist");
let tick: BuildReport;
let before: Map<string, string>;

const teamFiles = (root: string) =>
  new Map(
    TEAMS.flatMap((n) =>
      [
        `api/public/v1/tournaments/${ID}/teams/${n}/index.json`,
        `api/clubs/eschlkam/tournaments/${ID}/teams/${n}/index.json`,
        `tournaments/${ID}/teams/${n}/index.html`,
      ].map((f) => [f, readFileSync(path.join(root, f), "utf8")] as const),
    ),
  );

function importFile(text: string, now: string): void {
  const file = path.join(dir, "event.trf");
  writeFileSync(file, text);
  importTrf({
    file,
    db,
    externalId: BigInt(ID),
    tiebreaks: ["BH", "SB"],
    practice: "swiss-manager",
    teamTiebreaks: ["GP", "BH:MP"],
    publish: true,
    club: "eschlkam",
    now,
    sourceUrl: "https://example.org/team-swiss",
  });
}

beforeAll(async () => {
  createStore(db);
  addClub(db, { slug: "eschlkam", name: "Eschlkam" });
  importFile(AFTER_6, "2026-11-22T12:00:00Z");
  await build({ db, out, now: Date.parse("2026-11-22T12:00:00Z"), jobs: 1 });
  before = teamFiles(out);
  importFile(FINAL, "2026-11-22T14:00:00Z");
  tick = await build({ db, out, now: Date.parse("2026-11-22T14:00:00Z"), jobs: 1 });
}, 120_000);

describe("a team tick", () => {
  it("publishes each team's resource after round 6, then after round 7", () => {
    for (const n of TEAMS) {
      const read = (m: Map<string, string>) =>
        TeamDetailResponse.parse(JSON.parse(m.get(`api/public/v1/tournaments/${ID}/teams/${n}/index.json`)!));
      expect([n, read(before).afterRound, read(teamFiles(out)).afterRound]).toEqual([n, 6, 7]);
      expect(read(teamFiles(out)).rounds.map((r) => r.round)).toContain(7);
    }
  });

  it("rewrites every team's files and names their URLs for purging", () => {
    const after = teamFiles(out);
    for (const [f, text] of after) expect([f, text === before.get(f)]).toEqual([f, false]);
    const urls = new Set(tick.changedUrls!.paths);
    expect(tick.changedUrls!.complete).toBe(true);
    for (const n of TEAMS) {
      expect(urls).toContain(`/api/public/v1/tournaments/${ID}/teams/${n}`);
      expect(urls).toContain(`/api/clubs/eschlkam/tournaments/${ID}/teams/${n}`);
    }
  });

  it("leaves the same team files as a full build of the same store", async () => {
    const fresh = path.join(dir, "fresh");
    await build({ db, out: fresh, now: Date.parse("2026-11-22T14:00:00Z"), jobs: 1 });
    expect(teamFiles(out)).toEqual(teamFiles(fresh));
    const tree = (root: string) =>
      Object.fromEntries(Object.entries(hashTree(root)).filter(([f]) => f.includes(`/${ID}/teams/`)));
    expect(Object.keys(tree(out)).length).toBeGreaterThanOrEqual(TEAMS.length * 3);
    expect(tree(out)).toEqual(tree(fresh));
  });
});
