// `gen-store --team-events k`: k of the tournaments are team events (teams, members in board
// order, matches from board games), deterministic per seed, and a build publishes them valid.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateStore, REFERENCE_NOW, teamEventIndexes } from "../../../scripts/gen-store.ts";
import { TeamMatchesResponse, TeamStandingsResponse, TeamsResponse } from "../../../src/contracts/teams.ts";
import { build } from "../../../src/pipeline/build.ts";
import { removeTempDirs, tempDir } from "../../support/temp.ts";

let dir: string;
let file: string;
let db: Database.Database;

beforeAll(() => {
  dir = tempDir("gen-store-teams");
  file = join(dir, "store.sqlite");
  generateStore({ tournaments: 14, seed: 7, out: file, teamEvents: 3 });
  db = new Database(file, { readonly: true });
});

afterAll(() => {
  db?.close();
  removeTempDirs();
});

const rows = <T>(sql: string, ...args: unknown[]): T[] => db.prepare(sql).all(...args) as T[];

/**
 * The match points a team event's rounds 1..n hand out, from the store's rows: 2 per match with
 * board games (a win 2 + 0 or a draw 1 + 1), 2 per forfeited match with a winner (none for `--`),
 * 2 per pairing-allocated or full bye, 1 per half bye, none for a zero bye.
 */
function expectedMatchPoints(t: number, n: number, d: Database.Database = db): number {
  const one = (sql: string): number => (d.prepare(sql).get(t, n) as { n: number }).n;
  const forfeited = one(
    "SELECT count(*) AS n FROM team_forfeited_matches WHERE tournament_id = ? AND round_number <= ? AND result <> '--'",
  );
  const byes = one(
    `SELECT coalesce(sum(CASE kind WHEN 'half' THEN 1 WHEN 'zero' THEN 0 ELSE 2 END), 0) AS n
     FROM team_byes WHERE tournament_id = ? AND round_number <= ?`,
  );
  // Matches with board games: pairs of teams whose members met, one per round and pair.
  const played = one(
    `SELECT count(*) AS n FROM (SELECT DISTINCT g.round_number, min(w.team_number, b.team_number)
       FROM games g JOIN team_members w ON w.tournament_id = g.tournament_id
         AND w.source_player_number = g.white_player_number
       JOIN team_members b ON b.tournament_id = g.tournament_id
         AND b.source_player_number = g.black_player_number
       WHERE g.tournament_id = ? AND g.round_number <= ?)`,
  );
  return 2 * (played + forfeited) + byes;
}

describe("gen-store --team-events", () => {
  it("spreads the team events over the store", () => {
    expect([...teamEventIndexes(14, 3)]).toEqual([2, 7, 11]);
    const ids = rows<{ tournament_id: number }>("SELECT tournament_id FROM team_events ORDER BY 1");
    expect(ids.map((r) => r.tournament_id)).toEqual([3, 8, 12]);
    const types = rows<{ tournament_type: string }>(
      "SELECT tournament_type FROM tournaments WHERE tournament_id IN (3, 8, 12)",
    );
    for (const t of types) expect(t.tournament_type).toMatch(/^Team: /);
  });

  it("gives every player one team, boards in rating order, and games only between teams", () => {
    for (const { tournament_id: t } of rows<{ tournament_id: number }>(
      "SELECT tournament_id FROM team_events",
    )) {
      const [players] = rows<{ n: number }>("SELECT count(*) AS n FROM players WHERE tournament_id = ?", t);
      const [members] = rows<{ n: number }>(
        "SELECT count(*) AS n FROM team_members WHERE tournament_id = ?",
        t,
      );
      expect(members!.n).toBe(players!.n);
      // Starting numbers follow the rating, so a team's boards go up in starting number.
      const disorder = rows(
        `SELECT 1 FROM team_members a JOIN team_members b USING (tournament_id, team_number)
         WHERE a.tournament_id = ? AND a.board_order < b.board_order
           AND a.source_player_number > b.source_player_number`,
        t,
      );
      expect(disorder).toEqual([]);
      // No board game between two members of one team, and no individual bye rows.
      const inside = rows(
        `SELECT 1 FROM games g JOIN team_members w ON w.tournament_id = g.tournament_id
           AND w.source_player_number = g.white_player_number
         JOIN team_members b ON b.tournament_id = g.tournament_id
           AND b.source_player_number = g.black_player_number
         WHERE g.tournament_id = ? AND w.team_number = b.team_number`,
        t,
      );
      expect(inside).toEqual([]);
      expect(rows("SELECT 1 FROM games WHERE tournament_id = ? AND black_player_number IS NULL", t)).toEqual(
        [],
      );
    }
  });

  it("gives the same rows for the same seed and team events", () => {
    const again = join(dir, "again.sqlite");
    generateStore({ tournaments: 14, seed: 7, out: again, teamEvents: 3 });
    const other = new Database(again, { readonly: true });
    try {
      for (const table of ["team_members", "team_byes", "team_forfeited_matches", "games", "teams"]) {
        const dump = (d: Database.Database): string =>
          JSON.stringify(d.prepare(`SELECT * FROM ${table} ORDER BY 1, 2, 3`).raw().all());
        expect(dump(other)).toBe(dump(db));
      }
    } finally {
      other.close();
    }
  });

  it("builds, and the team resources of a generated team event validate and add up", async () => {
    const out = join(dir, "dist");
    await build({ db: file, out, now: Date.parse(REFERENCE_NOW) });
    // Tournament 3 (set up AwaitingNextRound, so it has complete rounds) is published globally.
    const [t] = rows<{ external_id: number; boards: number; teams: number }>(
      `SELECT external_id, (SELECT max(board_order) FROM team_members WHERE tournament_id = 3) AS boards,
              (SELECT count(*) FROM teams WHERE tournament_id = 3) AS teams
       FROM tournaments WHERE tournament_id = 3`,
    );
    const read = (rel: string): unknown =>
      JSON.parse(
        readFileSync(join(out, `api/public/v1/tournaments/${t!.external_id}`, rel, "index.json"), "utf8"),
      );
    const roster = TeamsResponse.parse(read("teams"));
    expect(roster.teams).toHaveLength(t!.teams);
    for (const team of roster.teams)
      expect(team.members.map((m) => m.boardOrder)).toEqual(
        Array.from({ length: t!.boards }, (_, k) => k + 1),
      );
    const matches = TeamMatchesResponse.parse(read("teams/matches/1"));
    // Every team not on a bye meets another one: played or forfeited.
    const [byes1] = rows<{ n: number }>(
      "SELECT count(*) AS n FROM team_byes WHERE tournament_id = 3 AND round_number = 1",
    );
    expect(matches.matches).toHaveLength((t!.teams - byes1!.n) / 2);
    for (const m of matches.matches) {
      if (m.forfeit !== null) {
        expect(m.boards).toEqual([]);
        continue;
      }
      expect(m.boards).toHaveLength(t!.boards);
      // The first-named team has white on board 1, colours alternating by board.
      expect(m.boards.map((b) => b.colour)).toEqual(
        Array.from({ length: t!.boards }, (_, k) => (k % 2 === 0 ? "white" : "black")),
      );
      // Boards are from the first-named team's side: its game points are theirs; a double
      // forfeit gives nobody its point.
      expect(m.whiteGamePoints).toBe(m.boards.reduce((s, b) => s + b.points, 0));
      expect(m.whiteGamePoints + m.blackGamePoints).toBeLessThanOrEqual(t!.boards);
    }
    const standings = TeamStandingsResponse.parse(read("teams/standings"));
    expect(standings.rows).toHaveLength(t!.teams);
    // 2/1/0 per match, 2 for a pairing-allocated or full bye, 1 for a half bye, none for a zero
    // bye; a forfeited match gives its winner 2, a double forfeit nobody anything.
    const complete = standings.afterRound!;
    expect(complete).toBeGreaterThan(0);
    const mp = standings.rows.reduce((s, r) => s + r.matchPoints, 0);
    expect(mp).toBe(expectedMatchPoints(3, complete));
  });

  it("gives team events forfeited matches and requested byes, and the standings score them", async () => {
    const big = join(dir, "big.sqlite");
    generateStore({ tournaments: 60, seed: 11, out: big, teamEvents: 20 });
    const b = new Database(big, { readonly: true });
    try {
      const count = (sql: string): number => (b.prepare(sql).get() as { n: number }).n;
      const forfeits = count("SELECT count(*) AS n FROM team_forfeited_matches");
      const requested = count("SELECT count(*) AS n FROM team_byes WHERE kind <> 'pab'");
      expect([forfeits > 0, requested > 0]).toEqual([true, true]);
      // No board game in a forfeited match, nor for a team on a bye.
      const played = count(
        `SELECT count(*) AS n FROM games g JOIN team_members m ON m.tournament_id = g.tournament_id
           AND m.source_player_number IN (g.white_player_number, g.black_player_number)
         WHERE EXISTS (SELECT 1 FROM team_byes y WHERE y.tournament_id = g.tournament_id
             AND y.round_number = g.round_number AND y.team_number = m.team_number)
            OR EXISTS (SELECT 1 FROM team_forfeited_matches f WHERE f.tournament_id = g.tournament_id
             AND f.round_number = g.round_number AND m.team_number IN (f.white_team, f.black_team))`,
      );
      expect(played).toBe(0);
    } finally {
      b.close();
    }
    const out = join(dir, "big-dist");
    await build({ db: big, out, now: Date.parse(REFERENCE_NOW) });
    const b2 = new Database(big, { readonly: true });
    try {
      // Each published team event with a forfeited match or a requested bye in a complete round:
      // its team standings' match points add up as the rules score them.
      const events = b2
        .prepare(
          `SELECT DISTINCT e.tournament_id AS id, t.external_id AS ext FROM team_events e
           JOIN tournaments t USING (tournament_id) JOIN publications p USING (tournament_id)
           WHERE t.is_draft = 0 AND (e.tournament_id IN (SELECT tournament_id FROM team_forfeited_matches)
             OR e.tournament_id IN (SELECT tournament_id FROM team_byes WHERE kind <> 'pab'))`,
        )
        .all() as { id: number; ext: number }[];
      let checked = 0;
      for (const e of events) {
        const file = join(out, `api/public/v1/tournaments/${e.ext}/teams/standings/index.json`);
        if (!existsSync(file)) continue; // published only in a club's catalog
        const standings = TeamStandingsResponse.parse(JSON.parse(readFileSync(file, "utf8")));
        if (standings.afterRound === null) continue;
        const mp = standings.rows.reduce((s, r) => s + r.matchPoints, 0);
        expect([e.id, mp]).toEqual([e.id, expectedMatchPoints(e.id, standings.afterRound, b2)]);
        checked++;
      }
      expect(checked).toBeGreaterThan(0);
    } finally {
      b2.close();
    }
  });
});
