// The one store builder of the tests: an empty store from schema/store.sql (createStore), rows
// inserted with better-sqlite3 (parents first), then a raw change. Foreign keys stay off, so a test
// can plant dangling references as a hand-edited or foreign store may have them. Two baselines
// sit on it: the reader's (fillBaseline: drafts, an unpublished tournament, a disabled club, each
// test breaking one thing) and the rows of baseRows (a small valid club store that end-to-end
// tests copy and edit cell by cell).
import { join } from "node:path";
import Database from "better-sqlite3";
import { formatProblem } from "../../src/shared/errors.ts";
import { createStore } from "../../src/store/write/init.ts";
import { openStore, type Store } from "../../src/store/read/open.ts";
import { tempDir } from "./temp.ts";

export type Row = Record<string, unknown>;
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

/** Baseline row ids and external ids. */
export const IDS = {
  club: 1,
  disabledClub: 2,
  /** Globally published and in the enabled club's catalog. */
  published: 3,
  /** Only in the enabled club's catalog. */
  clubOnly: 4,
  draft: 5,
  unpublished: 6,
  /** Only in the disabled club's catalog. */
  disabledOnly: 7,
} as const;

export const EXTERNAL = {
  published: 9_007_199_254_740_993n, // 2^53 + 1: not representable as a JS number
  clubOnly: 2002n,
  draft: 3003n,
  unpublished: 4004n,
  disabledOnly: 5005n,
} as const;

export function insert(db: Database.Database, table: string, row: Row): void {
  const columns = Object.keys(row);
  db.prepare(
    `INSERT INTO ${table} (${columns.join(", ")}) VALUES (${columns.map((c) => `@${c}`).join(", ")})`,
  ).run(
    Object.fromEntries(Object.entries(row).map(([k, v]) => [k, typeof v === "boolean" ? (v ? 1 : 0) : v])),
  );
}

export const TS = "2026-11-20T10:00:00Z";

function tournament(id: number, externalId: bigint, extra: Row = {}): Row {
  return {
    tournament_id: id,
    external_id: externalId,
    source_url: `https://chess-results.example/tnr${externalId}.aspx`,
    name: `Open ${id}`,
    created_at: TS,
    last_scraped_at: TS,
    internal_notes: `SECRET-NOTES-${id}`,
    ...extra,
  };
}

/** Four players, two rounds (round 2 with a bye), standings after round 1, recaps. */
function fillTournament(db: Database.Database, id: number): void {
  for (let n = 1; n <= 5; n++) {
    insert(db, "players", {
      tournament_id: id,
      source_player_number: n,
      starting_rank: n,
      name: `Player ${n}`,
      rating: 2000 + n,
      birth_date: "1990-01-01",
      email: `secret${n}@example.org`,
    });
  }
  for (const r of [1, 2]) {
    insert(db, "rounds", { tournament_id: id, round_number: r, first_scraped_at: TS, last_scraped_at: TS });
  }
  const game = (
    round: number,
    board: number,
    white: number | null,
    black: number | null,
    raw: string | null,
  ): Row => ({
    tournament_id: id,
    round_number: round,
    board_number: board,
    white_player_number: white,
    black_player_number: black,
    raw_result: raw,
    first_seen_at: TS,
    last_seen_at: TS,
  });
  insert(db, "games", game(1, 1, 1, 2, "1 - 0"));
  insert(db, "games", game(1, 2, 3, 4, "½ - ½"));
  insert(db, "games", game(2, 1, 2, 3, null));
  insert(db, "games", game(2, 2, 4, 1, "0 - 1"));
  insert(db, "games", game(2, 3, 5, null, "bye"));
  insert(db, "source_standings", {
    tournament_id: id,
    after_round: 1,
    retrieved_at: TS,
    tie_break_labels: '["BH", "SB"]',
  });
  for (const [n, rank] of [
    [1, 1],
    [3, 2],
  ] as const) {
    insert(db, "source_standing_rows", {
      tournament_id: id,
      after_round: 1,
      source_player_number: n,
      rank,
      name: `Player ${n}`,
      points: 1,
      tie_break_values: '["1", "0.5"]',
    });
  }
  const recap = (
    recapId: number,
    language: string,
    kind: string,
    round: number | null,
    draft: number,
  ): Row => ({
    recap_id: recapId,
    tournament_id: id,
    language,
    kind,
    round_number: round,
    headline: `Headline ${recapId}`,
    paragraphs: '["First paragraph.", "Second."]',
    is_draft: draft,
    generator: "SECRET-GENERATOR",
  });
  insert(db, "recaps", recap(id * 10 + 1, "es", "Round", 1, 0));
  insert(db, "recaps", recap(id * 10 + 2, "en", "Preview", null, 0));
  insert(db, "recaps", recap(id * 10 + 3, "de", "Final", null, 1));
}

/** Fills an empty store with the baseline. */
export function fillBaseline(db: Database.Database): void {
  insert(db, "clubs", {
    club_id: IDS.club,
    uuid: "123e4567-e89b-12d3-a456-426614174000",
    slug: "madrid-chess",
    name: "Madrid Chess",
    website_url: "https://madrid-chess.example",
    default_language: "es",
    time_zone: "Europe/Madrid",
    brand_color: "#1a2b3c",
    internal_notes: "SECRET-CLUB-NOTES",
  });
  insert(db, "clubs", {
    club_id: IDS.disabledClub,
    uuid: "223e4567-e89b-12d3-a456-426614174000",
    slug: "closed-club",
    name: "Closed Club",
    enabled: 0,
  });
  insert(
    db,
    "tournaments",
    tournament(IDS.published, EXTERNAL.published, { total_rounds: 5, fide_event_id: 2n ** 62n }),
  );
  insert(db, "tournaments", tournament(IDS.clubOnly, EXTERNAL.clubOnly));
  insert(db, "tournaments", tournament(IDS.draft, EXTERNAL.draft, { is_draft: 1 }));
  insert(db, "tournaments", tournament(IDS.unpublished, EXTERNAL.unpublished));
  insert(db, "tournaments", tournament(IDS.disabledOnly, EXTERNAL.disabledOnly));
  for (const id of Object.values(IDS).filter((i) => i >= IDS.published)) fillTournament(db, id);

  insert(db, "publications", { tournament_id: IDS.published, published_at: "SECRET-PUBLISHED-AT" });
  insert(db, "publications", { tournament_id: IDS.draft, published_at: TS });
  insert(db, "publication_tags", { tournament_id: IDS.published, tag: "open" });
  insert(db, "publication_tags", { tournament_id: IDS.published, tag: "elite" });
  insert(db, "publication_tags", { tournament_id: IDS.draft, tag: "draft-only-tag" });

  insert(db, "club_tournaments", { club_id: IDS.club, tournament_id: IDS.published, display_order: 2 });
  insert(db, "club_tournaments", { club_id: IDS.club, tournament_id: IDS.clubOnly, display_order: 1 });
  insert(db, "club_tournaments", { club_id: IDS.club, tournament_id: IDS.draft, display_order: 3 });
  insert(db, "club_tournaments", {
    club_id: IDS.disabledClub,
    tournament_id: IDS.disabledOnly,
    display_order: 1,
  });
  insert(db, "club_tournament_tags", { club_id: IDS.club, tournament_id: IDS.published, tag: "youth" });
  insert(db, "club_tournament_tags", { club_id: IDS.club, tournament_id: IDS.clubOnly, tag: "blitz" });
  insert(db, "club_tournament_tags", { club_id: IDS.club, tournament_id: IDS.draft, tag: "draft-club-tag" });
  insert(db, "club_tournament_tags", {
    club_id: IDS.disabledClub,
    tournament_id: IDS.disabledOnly,
    tag: "hidden",
  });
}

/**
 * Creates the store `file` (which must not exist) with `rows`, in one transaction, then runs
 * `change` (raw SQL edits: drop a table, set user_version ...) in the same connection.
 */
export function storeFromRows(
  file: string,
  rows: StoreRows,
  change?: (db: Database.Database) => void,
): string {
  createStore(file);
  const db = new Database(file);
  try {
    db.pragma("foreign_keys = OFF");
    db.transaction(() => {
      for (const table of TABLE_ORDER) for (const row of rows[table] ?? []) insert(db, table, row);
    })();
    change?.(db);
  } finally {
    db.close();
  }
  return file;
}

/** A new store in a temp dir with the reader's baseline, then `change`, in one transaction. */
export function makeStore(
  change?: (db: Database.Database) => void,
  options: { baseline?: boolean } = {},
): string {
  return storeFromRows(join(tempDir("store"), "sample.sqlite"), {}, (db) =>
    db.transaction(() => {
      if (options.baseline !== false) fillBaseline(db);
      change?.(db);
    })(),
  );
}

/** Opens `file`, runs `use`, closes the store. */
export function withStore<T>(file: string, use: (store: Store) => T): T {
  const store = openStore(file);
  try {
    return use(store);
  } finally {
    store.close();
  }
}

/** The formatted problems loadTournament reports for `rowId` after `change`. */
export function tournamentProblems(
  change: (db: Database.Database) => void,
  rowId: number = IDS.published,
): string[] {
  return withStore(makeStore(change), (store) => store.loadTournament(rowId).problems.map(formatProblem));
}

/** The formatted problems checkStore reports after `change`. */
export function storeProblems(change: (db: Database.Database) => void): string[] {
  return withStore(makeStore(change), (store) => store.checkStore().map(formatProblem));
}

/**
 * Rebuilds `table` without its keys, UNIQUE and CHECK constraints and with loose column types, as a
 * store written by another tool might be. The rows and column names stay.
 */
export function stripConstraints(db: Database.Database, table: string): void {
  db.exec(
    `CREATE TABLE loose AS SELECT * FROM ${table}; DROP TABLE ${table}; ALTER TABLE loose RENAME TO ${table};`,
  );
}

/** Rows deep enough to copy and edit one cell without touching the original. */
export function cloneRows(rows: StoreRows): StoreRows {
  return Object.fromEntries(
    Object.entries(rows).map(([t, list]) => [t, list.map((r) => ({ ...r }))]),
  ) as StoreRows;
}

export const BASE_NOW = Date.parse("2026-11-22T12:00:00Z");

/** External ids of baseRows. */
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
