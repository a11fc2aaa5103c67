// The bench's changes (scripts/bench.ts Harness): a tick renames a player of one tournament; a
// live tick scrapes one tournament set up Live again; a team tick turns a result of a team
// event's newest round. Each must render one tournament, the live one must change its summary and
// keep it Live (so it costs what a tick during rounds does), the team one its match.
import { readFileSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Harness } from "../../../scripts/bench.ts";
import { generateStore, statusSetUp } from "../../../scripts/gen-store.ts";
import { CLI } from "../../support/run.ts";
import { removeTempDirs, tempDir } from "../../support/temp.ts";

afterAll(removeTempDirs);

interface Summary {
  id: number;
  status: string;
  lastScrapedAt: string;
}

let dir: string;
let db: string;
const out = (): string => join(dir, "dist");
const h = new Harness(CLI, "1");
/** The global list's summaries by external id (one page at this size). */
const summaries = (): Map<number, Summary> =>
  new Map(
    (JSON.parse(readFileSync(join(out(), "api/public/v1/tournaments/index.json"), "utf8")) as Summary[]).map(
      (s) => [s.id, s],
    ),
  );
/** External id by store row. */
let external: Map<number, number>;

beforeAll(() => {
  dir = tempDir("bench-harness");
  db = join(dir, "store.sqlite");
  generateStore({ tournaments: 21, seed: 7, out: db });
  const r = new Database(db, { readonly: true });
  external = new Map(
    r
      .prepare<[], [number, number]>("SELECT tournament_id, external_id FROM tournaments")
      .raw()
      .all()
      .map(([t, e]) => [t, e]),
  );
  r.close();
  expect(h.build(db, out(), dir).rendered).toBeGreaterThan(0);
});

describe("bench harness", () => {
  it("names the status each generated tournament shows (statusSetUp)", () => {
    const listed = summaries();
    let checked = 0;
    for (const [row, ext] of external) {
      const s = listed.get(ext);
      if (!s) continue; // a draft or unpublished one
      expect(s.status, `tournament ${row}`).toBe(statusSetUp(row));
      checked++;
    }
    expect(checked).toBeGreaterThan(14);
  });

  it("a tick renders the one renamed tournament", () => {
    const run = h.build(db, out(), dir);
    expect(run.upToDate).toBe(true);
    h.changeOneTournament(db, 0);
    const tick = h.build(db, out(), dir);
    expect(tick.rendered).toBe(1);
    // Its CPU time (user + system) is measured: more than nothing, less than the wall time allows
    // on the cores there are.
    expect(tick.cpuSeconds).toBeGreaterThan(0);
    expect(tick.cpuSeconds).toBeLessThan(tick.seconds * os.cpus().length + 0.05);
  });

  it("a live tick renders one Live tournament, whose summary changes and stays Live", () => {
    const before = summaries();
    h.changeOneLiveTournament(db, 0);
    const run = h.build(db, out(), dir);
    expect(run.rendered).toBe(1);
    const after = summaries();
    const moved = [...after.values()].filter((s) => s.lastScrapedAt !== before.get(s.id)?.lastScrapedAt);
    expect(moved).toHaveLength(1);
    expect(moved[0]!.status).toBe("Live");
    expect(before.get(moved[0]!.id)!.status).toBe("Live");
    expect(Date.parse(moved[0]!.lastScrapedAt)).toBeLessThanOrEqual(Date.parse("2026-11-22T12:00:00Z"));
  });
});

describe("bench harness, team events", () => {
  it("a team tick renders the one team event whose newest round changed, and its match turns", () => {
    const teamDir = tempDir("bench-harness-teams");
    const store = join(teamDir, "store.sqlite");
    const dist = join(teamDir, "dist");
    generateStore({ tournaments: 14, seed: 7, out: store, teamEvents: 3 });
    h.build(store, dist, teamDir);
    const r = new Database(store, { readonly: true });
    const before = r
      .prepare("SELECT tournament_id, round_number, board_number, result FROM games ORDER BY 1, 2, 3")
      .raw()
      .all() as [number, number, number, string | null][];
    h.changeOneTeamEvent(store, 0);
    const after = r
      .prepare("SELECT tournament_id, round_number, board_number, result FROM games ORDER BY 1, 2, 3")
      .raw()
      .all() as [number, number, number, string | null][];
    const changed = after.filter((g, k) => g[3] !== before[k]![3]);
    expect(changed).toHaveLength(1);
    const [t, round] = changed[0]!;
    const external = Number(
      r.prepare("SELECT external_id FROM tournaments WHERE tournament_id = ?").pluck().get(t),
    );
    expect(r.prepare("SELECT 1 FROM team_events WHERE tournament_id = ?").pluck().get(t)).toBe(1);
    r.close();
    const matches = (): string =>
      readFileSync(
        join(dist, `api/public/v1/tournaments/${external}/teams/matches/${round}/index.json`),
        "utf8",
      );
    const was = matches();
    expect(h.build(store, dist, teamDir).rendered).toBe(1);
    expect(matches()).not.toBe(was);
  });
});
