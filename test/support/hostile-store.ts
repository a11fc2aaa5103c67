// A small store builder for the end-to-end tests: an empty store from schema/store.sql
// (createStore), then the given rows inserted with better-sqlite3. Foreign keys stay off, so a test
// can plant dangling references as a hand-edited or foreign store may have them.
import Database from "better-sqlite3";
import { createStore } from "../../src/store/write/init.ts";

export type Cell = string | number | bigint | null | Buffer;
export type Row = Record<string, Cell>;
export type Table =
  | "clubs"
  | "tournaments"
  | "players"
  | "rounds"
  | "games"
  | "source_standings"
  | "source_standing_rows"
  | "recaps"
  | "club_tournaments"
  | "club_tournament_tags"
  | "publications"
  | "publication_tags";
export type StoreRows = Partial<Record<Table, Row[]>>;

/** Parents before children, so a store filled in this order satisfies its foreign keys. */
export const TABLE_ORDER: readonly Table[] = [
  "clubs",
  "tournaments",
  "players",
  "rounds",
  "games",
  "source_standings",
  "source_standing_rows",
  "recaps",
  "club_tournaments",
  "club_tournament_tags",
  "publications",
  "publication_tags",
];

export function insertRow(db: Database.Database, table: string, row: Row): void {
  const columns = Object.keys(row);
  db.prepare(
    `INSERT INTO ${table} (${columns.join(", ")}) VALUES (${columns.map((c) => `@${c}`).join(", ")})`,
  ).run(row);
}

/**
 * Creates the store `file` (which must not exist) with `rows`, then runs `change` (raw SQL edits:
 * drop a table, set user_version ...) in the same connection.
 */
export function makeStore(file: string, rows: StoreRows, change?: (db: Database.Database) => void): string {
  createStore(file);
  const db = new Database(file);
  try {
    db.pragma("foreign_keys = OFF");
    db.transaction(() => {
      for (const table of TABLE_ORDER) for (const row of rows[table] ?? []) insertRow(db, table, row);
    })();
    change?.(db);
  } finally {
    db.close();
  }
  return file;
}

/** Rows deep enough to copy and edit one cell without touching the original. */
export function cloneRows(rows: StoreRows): StoreRows {
  return Object.fromEntries(
    Object.entries(rows).map(([t, list]) => [t, list.map((r) => ({ ...r }))]),
  ) as StoreRows;
}

export const TS = "2026-11-20T10:00:00Z";
export const BASE_NOW = Date.parse("2026-11-22T12:00:00Z");

/** External ids of the base store. */
export const BASE = {
  /** Published globally (tag "open") and in club "river-club". */
  published: 5001,
  /** Only in the catalog of "river-club". */
  clubOnly: 5002,
} as const;

function players(tournamentId: number, count: number): Row[] {
  return Array.from({ length: count }, (_, i) => ({
    tournament_id: tournamentId,
    source_player_number: i + 1,
    starting_rank: i + 1,
    name: `Player ${tournamentId}-${i + 1}`,
    rating: 1800 + 10 * i,
    federation: "ESP",
  }));
}

function game(
  tournamentId: number,
  round: number,
  board: number,
  white: number | null,
  black: number | null,
  raw: string | null,
): Row {
  return {
    tournament_id: tournamentId,
    round_number: round,
    board_number: board,
    white_player_number: white,
    black_player_number: black,
    raw_result: raw,
    first_seen_at: TS,
    last_seen_at: TS,
  };
}

/** A valid store: one enabled club, two published tournaments with players, rounds, games, a recap. */
export function baseRows(): StoreRows {
  const rows: StoreRows = {
    clubs: [
      {
        club_id: 1,
        uuid: "6f1c2a52-3d0e-4b8e-9a57-2f6d1c0b9e11",
        slug: "river-club",
        name: "River Club",
        default_language: "es",
        time_zone: "Europe/Madrid",
      },
    ],
    tournaments: [],
    players: [],
    rounds: [],
    games: [],
    recaps: [],
    club_tournaments: [
      { club_id: 1, tournament_id: 1, display_order: 1 },
      { club_id: 1, tournament_id: 2, display_order: 2 },
    ],
    club_tournament_tags: [{ club_id: 1, tournament_id: 2, tag: "rapid" }],
    publications: [{ tournament_id: 1, published_at: TS }],
    publication_tags: [{ tournament_id: 1, tag: "open" }],
  };
  for (const [id, externalId] of [
    [1, BASE.published],
    [2, BASE.clubOnly],
  ] as const) {
    rows.tournaments!.push({
      tournament_id: id,
      external_id: externalId,
      source_url: `https://results.example/t/${externalId}`,
      name: `River Open ${id}`,
      start_date: "2026-11-19",
      end_date: "2026-11-21",
      total_rounds: 3,
      created_at: TS,
      last_scraped_at: TS,
    });
    rows.players!.push(...players(id, 4));
    for (const r of [1, 2]) {
      rows.rounds!.push({ tournament_id: id, round_number: r, first_scraped_at: TS, last_scraped_at: TS });
    }
    rows.games!.push(
      game(id, 1, 1, 1, 2, "1 - 0"),
      game(id, 1, 2, 3, 4, "½ - ½"),
      game(id, 2, 1, 4, 1, "0 - 1"),
      game(id, 2, 2, 2, 3, null),
    );
    rows.recaps!.push({
      recap_id: id,
      tournament_id: id,
      language: "es",
      kind: "Round",
      round_number: 1,
      headline: `Crónica ${id}`,
      paragraphs: '["Primera ronda."]',
    });
  }
  return rows;
}
