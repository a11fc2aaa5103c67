// The synthetic store generator: deterministic per seed, and the sizes and shapes it promises.
import { createHash } from "node:crypto";
import { rmSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateStore } from "../../../scripts/gen-store.ts";
import { bergerRounds } from "../../../scripts/lib/synthetic.ts";
import { COLUMNS, PRIVATE_COLUMNS } from "../../../src/store/columns.ts";
import { STORE_SCHEMA_VERSION, VERSION_3_COLUMNS } from "../../../src/store/schema.ts";
import { readRevisions, revisionTrouble } from "../../../src/store/read/revisions.ts";
import { tempDir } from "../../support/temp.ts";

const TABLES: Record<string, string> = {
  clubs: "club_id",
  tournaments: "tournament_id",
  players: "tournament_id, source_player_number",
  rounds: "tournament_id, round_number",
  games: "tournament_id, round_number, board_number",
  source_standings: "tournament_id, after_round",
  source_standing_rows: "tournament_id, after_round, source_player_number",
  recaps: "recap_id",
  club_tournaments: "club_id, tournament_id",
  club_tournament_tags: "club_id, tournament_id, tag",
  publications: "tournament_id",
  publication_tags: "tournament_id, tag",
};

/** One hash per table over its rows in primary-key order. */
function tableHashes(file: string): Record<string, string> {
  const db = new Database(file, { readonly: true });
  try {
    db.defaultSafeIntegers(true);
    const hashes: Record<string, string> = {};
    for (const [table, key] of Object.entries(TABLES)) {
      const hash = createHash("sha256");
      for (const row of db.prepare(`SELECT * FROM ${table} ORDER BY ${key}`).raw().iterate()) {
        hash.update(JSON.stringify(row, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v)));
        hash.update("\n");
      }
      hashes[table] = hash.digest("hex");
    }
    return hashes;
  } finally {
    db.close();
  }
}

/** One hash over every table's written columns (columns.ts: read and private), in key order:
 * independent of columns or triggers the schema may add. */
function writtenRowsHash(file: string): string {
  const db = new Database(file, { readonly: true });
  try {
    db.defaultSafeIntegers(true);
    const hash = createHash("sha256");
    for (const [table, key] of Object.entries(TABLES)) {
      // Columns that schema version 3 added postdate that hash (the test below checks them).
      const later = new Set(VERSION_3_COLUMNS.filter((c) => c.table === table).map((c) => c.column));
      const columns = [
        ...Object.keys(COLUMNS[table as keyof typeof COLUMNS]),
        ...((PRIVATE_COLUMNS as Partial<Record<string, readonly string[]>>)[table] ?? []),
      ].filter((c) => !later.has(c));
      for (const row of db
        .prepare(`SELECT ${columns.join(", ")} FROM ${table} ORDER BY ${key}`)
        .raw()
        .iterate()) {
        hash.update(JSON.stringify(row, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v)));
        hash.update("\n");
      }
    }
    return hash.digest("hex");
  } finally {
    db.close();
  }
}

const N = 40;
let dir: string;
let first: string;
let db: Database.Database;

function count(sql: string): number {
  return Number(db.prepare(sql).pluck().get());
}

beforeAll(() => {
  dir = tempDir("gen-store-test");
  first = join(dir, "a.sqlite");
  generateStore({ tournaments: N, seed: 7, out: first });
  db = new Database(first, { readonly: true });
});

afterAll(() => {
  db?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("generateStore", () => {
  it("gives identical rows for the same seed and different rows for another seed", () => {
    const same = join(dir, "b.sqlite");
    const other = join(dir, "c.sqlite");
    generateStore({ tournaments: N, seed: 7, out: same });
    generateStore({ tournaments: N, seed: 8, out: other });
    const a = tableHashes(first);
    expect(tableHashes(same)).toEqual(a);
    const c = tableHashes(other);
    expect(c.games).not.toBe(a.games);
    expect(c.players).not.toBe(a.players);
  });

  it("writes through the store writer exactly the rows of the positional inserts it replaced", () => {
    // Hash of `--tournaments 40 --seed 7` from scripts/gen-store.ts as of 4cfe694 (before the
    // store writer): the same seed must keep giving the same store.
    expect(writtenRowsHash(first)).toBe("b39515f5201fb381aef3efa681b011cba6f1f3bab3dadc30a14e999188365c23");
  });

  it("leaves the columns of schema version 3 NULL (the written tie-break rules)", () => {
    expect(count("SELECT count(*) FROM tournaments WHERE tiebreak_practice IS NOT NULL")).toBe(0);
    expect(count("SELECT count(*) FROM tournaments")).toBe(N);
  });

  it("writes a current store whose revisions are trusted, each stamped at random", () => {
    expect(db.pragma("user_version", { simple: true })).toBe(STORE_SCHEMA_VERSION);
    expect(revisionTrouble(db)).toBeNull();
    const again = join(dir, "e.sqlite");
    generateStore({ tournaments: N, seed: 7, out: again });
    const same = new Database(again, { readonly: true });
    try {
      // Same seed, same rows, same counts; the stamps tell the two files' histories apart.
      const a = readRevisions(db)!;
      const b = readRevisions(same)!;
      expect(b.tournaments.size).toBe(N);
      for (const [id, token] of a.tournaments) {
        expect(b.tournaments.get(id)!.split(".")[0]).toBe(token.split(".")[0]);
        expect(b.tournaments.get(id)).not.toBe(token);
      }
    } finally {
      same.close();
    }
  });

  it("creates exactly n tournaments and reports its counts", () => {
    const out = join(dir, "d.sqlite");
    const report = generateStore({ tournaments: 9, seed: "x", out });
    const small = new Database(out, { readonly: true });
    try {
      expect(small.prepare("SELECT count(*) FROM tournaments").pluck().get()).toBe(9);
      expect(small.prepare("SELECT count(*) FROM players").pluck().get()).toBe(report.players);
      expect(small.prepare("SELECT count(*) FROM games").pluck().get()).toBe(report.games);
    } finally {
      small.close();
    }
    expect(count("SELECT count(*) FROM tournaments")).toBe(N);
  });

  it("keeps 10 to 300 players and 5 to 13 rounds per tournament", () => {
    const sizes = db
      .prepare(
        `SELECT t.total_rounds AS total, count(p.source_player_number) AS players,
                (SELECT max(round_number) FROM rounds r WHERE r.tournament_id = t.tournament_id) AS played
         FROM tournaments t JOIN players p USING (tournament_id) GROUP BY t.tournament_id`,
      )
      .all() as { total: number; players: number; played: number | null }[];
    expect(sizes).toHaveLength(N);
    for (const s of sizes) {
      expect(s.players).toBeGreaterThanOrEqual(10);
      expect(s.players).toBeLessThanOrEqual(300);
      expect(s.total).toBeGreaterThanOrEqual(5);
      expect(s.total).toBeLessThanOrEqual(13);
      expect(s.played ?? 0).toBeLessThanOrEqual(s.total);
    }
  });

  it("has both systems, byes, forfeits, pending games, both tag surfaces and recaps in two languages", () => {
    expect(count("SELECT count(DISTINCT pairing_system) FROM tournaments")).toBe(2);
    expect(
      count("SELECT count(*) FROM games WHERE result = 'Bye' AND black_player_number IS NULL"),
    ).toBeGreaterThan(0);
    expect(
      count("SELECT count(*) FROM games WHERE result IN ('WhiteForfeitWin', 'BlackForfeitWin')"),
    ).toBeGreaterThan(0);
    expect(
      count("SELECT count(*) FROM games WHERE raw_result = '' AND (result IS NULL OR result = 'Pending')"),
    ).toBeGreaterThan(0);
    expect(count("SELECT count(*) FROM publication_tags")).toBeGreaterThan(0);
    expect(count("SELECT count(*) FROM club_tournament_tags")).toBeGreaterThan(0);
    expect(count("SELECT count(DISTINCT language) FROM recaps WHERE is_draft = 0")).toBeGreaterThanOrEqual(2);
  });

  it("has three or more clubs with one disabled, drafts and unpublished tournaments", () => {
    expect(count("SELECT count(*) FROM clubs")).toBeGreaterThanOrEqual(3);
    expect(count("SELECT count(*) FROM clubs WHERE enabled = 0")).toBe(1);
    expect(count("SELECT count(*) FROM tournaments WHERE is_draft = 1")).toBeGreaterThan(0);
    expect(
      count(`SELECT count(*) FROM tournaments
             WHERE tournament_id NOT IN (SELECT tournament_id FROM publications)
               AND tournament_id NOT IN (SELECT tournament_id FROM club_tournaments)`),
    ).toBeGreaterThan(0);
  });

  it("sets up every status's time frame relative to 2026-11-22T12:00:00Z", () => {
    // UpdateDelayed: tracked and overdue by more than the 30-minute grace period.
    expect(
      count(`SELECT count(*) FROM tournaments WHERE tracking_enabled = 1
             AND next_refresh_at < '2026-11-22T11:30:00Z'`),
    ).toBeGreaterThan(0);
    // Upcoming: no games and a start date in the future.
    expect(
      count(`SELECT count(*) FROM tournaments t WHERE start_date > '2026-11-22'
             AND NOT EXISTS (SELECT 1 FROM games g WHERE g.tournament_id = t.tournament_id)`),
    ).toBeGreaterThan(0);
    // Live and ResultsPending: unfinished games in a round changed within / before the 6 h window.
    const unfinishedNewest = `SELECT r.last_source_change_at FROM rounds r
      WHERE r.round_number = (SELECT max(round_number) FROM games g WHERE g.tournament_id = r.tournament_id)
        AND EXISTS (SELECT 1 FROM games g WHERE g.tournament_id = r.tournament_id AND g.round_number = r.round_number
                    AND (g.result IN ('Pending', 'Adjourned', 'Unknown') OR (g.result IS NULL AND g.raw_result = '')))`;
    expect(
      count(
        `SELECT count(*) FROM (${unfinishedNewest}) WHERE last_source_change_at >= '2026-11-22T06:00:00Z'`,
      ),
    ).toBeGreaterThan(0);
    expect(
      count(
        `SELECT count(*) FROM (${unfinishedNewest}) WHERE last_source_change_at < '2026-11-22T06:00:00Z'`,
      ),
    ).toBeGreaterThan(0);
    // Imported: snapshots that are not tracked.
    expect(
      count(
        "SELECT count(*) FROM tournaments WHERE tracking_enabled = 0 AND total_rounds > (SELECT max(round_number) FROM games g WHERE g.tournament_id = tournaments.tournament_id)",
      ),
    ).toBeGreaterThan(0);
    // Nothing was scraped after the reference time.
    expect(count("SELECT count(*) FROM tournaments WHERE last_scraped_at > '2026-11-22T12:00:00Z'")).toBe(0);
  });

  it("rejects a non-positive tournament count", () => {
    expect(() => generateStore({ tournaments: 0, seed: 1, out: join(dir, "e.sqlite") })).toThrow(
      /positive integer/,
    );
  });
});

describe("bergerRounds", () => {
  it.each([10, 12, 14])(
    "pairs %i players so that everyone meets everyone once with balanced colours",
    (n) => {
      const rounds = bergerRounds(n);
      expect(rounds).toHaveLength(n - 1);
      const met = new Set<string>();
      const whites = new Array<number>(n + 1).fill(0);
      for (const round of rounds) {
        expect(new Set(round.flatMap((p) => [p.white, p.black])).size).toBe(n);
        for (const { white, black } of round) {
          met.add([white, black].sort((a, b) => a - b).join("-"));
          whites[white]!++;
        }
      }
      expect(met.size).toBe((n * (n - 1)) / 2);
      for (let p = 1; p <= n; p++) expect(Math.abs(2 * whites[p]! - (n - 1))).toBeLessThanOrEqual(1);
    },
  );

  it("matches the FIDE Berger table's first two rounds for 6 players", () => {
    const [r1, r2] = bergerRounds(6);
    expect(r1).toEqual([
      { white: 1, black: 6 },
      { white: 2, black: 5 },
      { white: 3, black: 4 },
    ]);
    expect(r2).toEqual([
      { white: 6, black: 4 },
      { white: 5, black: 3 },
      { white: 1, black: 2 },
    ]);
  });
});
