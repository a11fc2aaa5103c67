// Every statement the reader runs, prepared once per open store. Per-tournament queries look rows
// up by the leading column of a primary key or index, so loading a tournament costs a handful of
// index seeks whatever the size of the store. safeIntegers(true): int64 values arrive as bigint.
// The statements that return many rows per tournament are raw: each row is an array of cells in
// the order of its selectAll() list, which is cheaper to build than an object.
import type Database from "better-sqlite3";
import type { SqlCells, SqlRow } from "./cells.ts";
import { selectAll, selectColumn } from "../columns.ts";
import { VERSION_3_COLUMNS } from "../schema.ts";
import {
  MAX_GAMES,
  MAX_PLAYERS,
  MAX_RECAPS,
  MAX_ROUND,
  MAX_ROUNDS,
  MAX_STANDING_ROWS,
  MAX_TAGS_PER_TOURNAMENT,
} from "../limits.ts";

/**
 * The most rows each per-tournament query returns: one past its limit (limits.ts), so a tournament
 * over a limit is never read whole, and a query that returns fewer rows than its cap read them all.
 * The tag queries join tables and take their cap as a parameter (-1: none); each of the
 * tournament's tags is in at least one of their rows, so fewer rows than the cap are fewer tags.
 */
export const ROW_CAPS = {
  players: MAX_PLAYERS + 1,
  rounds: MAX_ROUNDS + 1,
  games: MAX_GAMES + 1,
  standings: MAX_ROUNDS + 1,
  standingRows: MAX_STANDING_ROWS + 1,
  recaps: MAX_RECAPS + 1,
  publication: MAX_TAGS_PER_TOURNAMENT + 1,
  clubEntries: MAX_TAGS_PER_TOURNAMENT + 1,
} as const;

/** Row ids of non-draft tournaments on the global surface or in an enabled club's catalog. */
export const PUBLISHED_IDS = `
  SELECT tournament_id FROM publications
  UNION
  SELECT ct.tournament_id FROM club_tournaments ct JOIN clubs c ON c.club_id = ct.club_id WHERE c.enabled = 1`;

/**
 * The same rule as PUBLISHED_IDS for the row `alias`, by index seeks: for queries driven by a few
 * row ids (a tick's), where PUBLISHED_IDS would first be built whole.
 */
export function publishedRow(alias: string): string {
  return `(EXISTS (SELECT 1 FROM publications p WHERE p.tournament_id = ${alias}.tournament_id)
    OR EXISTS (SELECT 1 FROM club_tournaments ct JOIN clubs c ON c.club_id = ct.club_id
               WHERE ct.tournament_id = ${alias}.tournament_id AND c.enabled = 1))`;
}

/**
 * publishedTournaments a chunk at a time (reader.ts publishedAfter): the rows after the key
 * (@e, @r) unless `first`, at most @limit, each with the revision token `token` (an SQL expression
 * over the row `t`, or NULL). Keyset order over the unique external id: each chunk is one index
 * range, whatever the store's size; the rule is tested by seeks from each row.
 */
export function publishedChunkSql(first: boolean, token: string): string {
  return `SELECT t.tournament_id, t.external_id, ${token} AS token
    FROM tournaments t
    WHERE t.is_draft = 0 AND typeof(t.external_id) = 'integer'
      ${first ? "" : "AND (t.external_id, t.tournament_id) > (@e, @r)"} AND ${publishedRow("t")}
    ORDER BY t.external_id, t.tournament_id LIMIT @limit`;
}

const SQL = {
  publishedTournaments: `
    SELECT tournament_id, external_id FROM tournaments
    WHERE is_draft = 0 AND typeof(external_id) = 'integer' AND tournament_id IN (${PUBLISHED_IDS})
    ORDER BY external_id, tournament_id`,
  // How many tournaments publishedTournaments lists.
  publishedCount: `
    SELECT count(*) FROM tournaments
    WHERE is_draft = 0 AND typeof(external_id) = 'integer' AND tournament_id IN (${PUBLISHED_IDS})`,
  // The same rule for one row, by index seeks (a tick asks it of the tournaments that changed).
  publishedTournament: `
    SELECT t.tournament_id, t.external_id FROM tournaments t
    WHERE t.tournament_id = ? AND t.is_draft = 0 AND typeof(t.external_id) = 'integer'
      AND ${publishedRow("t")}`,

  // `+?` is `?` (the same value, rows and index seeks), but SQLite's planner does not look through
  // the plus at the bound value. A parameter it looks at (a plain `tournament_id = ?` here, a
  // `LIMIT ?`) makes SQLite prepare the statement anew each time a value is bound, as
  // better-sqlite3 does at every run: 2 to 40 µs a query, most of a small query's time.
  tournament: `SELECT ${selectAll("tournaments")} FROM tournaments WHERE tournament_id = +?`,
  players: `SELECT ${selectAll("players")} FROM players WHERE tournament_id = +?
    ORDER BY source_player_number LIMIT ${ROW_CAPS.players}`,
  rounds: `SELECT ${selectAll("rounds")} FROM rounds WHERE tournament_id = +?
    ORDER BY round_number LIMIT ${ROW_CAPS.rounds}`,
  games: `SELECT ${selectAll("games")} FROM games WHERE tournament_id = +?
    ORDER BY round_number, board_number LIMIT ${ROW_CAPS.games}`,
  // At most one row per round: one row past the limit is enough to report it, and bounds memory.
  schedule: `SELECT ${selectAll("round_schedule")} FROM round_schedule WHERE tournament_id = +?
    ORDER BY round_number LIMIT ${MAX_ROUND + 1}`,
  // Team events (version 5): at most one row per team, member, bye and forfeited match.
  teamEvent: `SELECT ${selectAll("team_events")} FROM team_events WHERE tournament_id = +?`,
  teams: `SELECT ${selectAll("teams")} FROM teams WHERE tournament_id = +?
    ORDER BY team_number LIMIT ${MAX_PLAYERS + 1}`,
  teamMembers: `SELECT ${selectAll("team_members")} FROM team_members WHERE tournament_id = +?
    ORDER BY team_number, board_order LIMIT ${MAX_PLAYERS + 1}`,
  teamByes: `SELECT ${selectAll("team_byes")} FROM team_byes WHERE tournament_id = +?
    ORDER BY round_number, team_number LIMIT ${MAX_PLAYERS + 1}`,
  teamForfeits: `SELECT ${selectAll("team_forfeited_matches")} FROM team_forfeited_matches
    WHERE tournament_id = +? ORDER BY round_number, white_team LIMIT ${MAX_PLAYERS + 1}`,
  // The primary key forbids duplicates, but a foreign store may lack it.
  duplicateBoards: `
    SELECT tournament_id, round_number, board_number, count(*) AS n FROM games WHERE tournament_id = +?
    GROUP BY round_number, board_number HAVING count(*) > 1 ORDER BY round_number, board_number`,
  standings: `
    SELECT ${selectAll("source_standings")} FROM source_standings WHERE tournament_id = +?
    ORDER BY after_round LIMIT ${ROW_CAPS.standings}`,
  standingRows: `
    SELECT ${selectAll("source_standing_rows")} FROM source_standing_rows WHERE tournament_id = +?
    ORDER BY after_round, rank, source_player_number LIMIT ${ROW_CAPS.standingRows}`,
  // Drafts (is_draft = 1) are never read; a broken flag comes through and is reported.
  recaps: `SELECT ${selectAll("recaps")} FROM recaps WHERE tournament_id = +? AND is_draft IS NOT 1
    ORDER BY recap_id LIMIT ${ROW_CAPS.recaps}`,
  publication: `
    SELECT p.tournament_id AS tournament_id, ${selectColumn("publication_tags", "tag", "pt")}
    FROM publications p LEFT JOIN publication_tags pt ON pt.tournament_id = p.tournament_id
    WHERE p.tournament_id = +? ORDER BY pt.tag LIMIT +?`,
  // Driven by clubs (few rows): each enabled club costs one primary-key seek in club_tournaments.
  clubEntries: `
    SELECT c.club_id AS club_id, ct.tournament_id AS tournament_id, ${selectColumn("clubs", "slug", "c")},
      ${selectColumn("club_tournaments", "display_order", "ct")}, ${selectColumn("club_tournament_tags", "tag", "ctt")}
    FROM clubs c
    JOIN club_tournaments ct ON ct.club_id = c.club_id AND ct.tournament_id = +?
    LEFT JOIN club_tournament_tags ctt ON ctt.club_id = ct.club_id AND ctt.tournament_id = ct.tournament_id
    WHERE c.enabled = 1 ORDER BY c.slug, c.club_id, ctt.tag LIMIT +?`,

  enabledClubs: `SELECT ${selectAll("clubs")} FROM clubs WHERE enabled = 1 ORDER BY slug, club_id`,

  globalTags: `
    SELECT DISTINCT ${selectColumn("publication_tags", "tag", "pt")} FROM publication_tags pt
    JOIN publications p ON p.tournament_id = pt.tournament_id
    JOIN tournaments t ON t.tournament_id = p.tournament_id AND t.is_draft = 0`,
  clubTags: `
    SELECT DISTINCT ${selectColumn("club_tournament_tags", "tag", "ctt")} FROM club_tournament_tags ctt
    JOIN club_tournaments ct ON ct.club_id = ctt.club_id AND ct.tournament_id = ctt.tournament_id
    JOIN clubs c ON c.club_id = ct.club_id AND c.enabled = 1
    JOIN tournaments t ON t.tournament_id = ct.tournament_id AND t.is_draft = 0`,
  languages: `
    SELECT DISTINCT ${selectColumn("recaps", "language", "r")} FROM recaps r
    JOIN tournaments t ON t.tournament_id = r.tournament_id AND t.is_draft = 0
    WHERE r.is_draft = 0 AND r.tournament_id IN (${PUBLISHED_IDS})`,
} as const;

export type QueryName = keyof typeof SQL;

/** The vocabulary's queries (the distinct tags of each surface and the recap languages). */
export type VocabularyName = "globalTags" | "clubTags" | "languages";

/**
 * Indexes of schema/store.sql by which the vocabulary is read one seek per distinct value instead
 * of one pass over every tag and recap row; a store without them (made before they were added)
 * is read by the scans above, and `build-api upgrade-store` adds them.
 */
export const VOCABULARY_INDEXES: Readonly<Record<VocabularyName, string>> = {
  globalTags: "publication_tags_by_tag",
  clubTags: "club_tournament_tags_by_tag",
  languages: "recaps_by_language",
};

/**
 * `SELECT DISTINCT expr FROM table WHERE qualifies(row)` by a loose index scan: the distinct
 * values of `column` are walked through its index (one seek each), and each is kept when one
 * qualifying row has it (EXISTS stops at the first). NULL, which the walk skips, is looked up too.
 */
function distinctBySeeks(
  table: string,
  column: string,
  expr: string,
  qualifies: (v: string) => string,
): string {
  return `WITH RECURSIVE v(x) AS (
      SELECT (SELECT min(${column}) FROM ${table})
      UNION ALL SELECT (SELECT min(${column}) FROM ${table} WHERE ${column} > v.x) FROM v WHERE v.x IS NOT NULL
    ), vals(x) AS (
      SELECT x FROM v WHERE x IS NOT NULL UNION ALL SELECT NULL WHERE EXISTS (SELECT 1 FROM ${table} WHERE ${column} IS NULL)
    )
    SELECT DISTINCT ${expr} FROM vals v WHERE EXISTS (${qualifies("v.x")})`;
}

const VOCABULARY_BY_SEEKS: Readonly<Record<VocabularyName, string>> = {
  globalTags: distinctBySeeks(
    "publication_tags",
    "tag",
    selectColumn("publication_tags", "tag", "v").replace(/v\.tag/g, "v.x"),
    (v) => `SELECT 1 FROM publication_tags pt JOIN publications p ON p.tournament_id = pt.tournament_id
      JOIN tournaments t ON t.tournament_id = p.tournament_id AND t.is_draft = 0 WHERE pt.tag IS ${v}`,
  ),
  clubTags: distinctBySeeks(
    "club_tournament_tags",
    "tag",
    selectColumn("club_tournament_tags", "tag", "v").replace(/v\.tag/g, "v.x"),
    (v) => `SELECT 1 FROM club_tournament_tags ctt
      JOIN club_tournaments ct ON ct.club_id = ctt.club_id AND ct.tournament_id = ctt.tournament_id
      JOIN clubs c ON c.club_id = ct.club_id AND c.enabled = 1
      JOIN tournaments t ON t.tournament_id = ct.tournament_id AND t.is_draft = 0 WHERE ctt.tag IS ${v}`,
  ),
  languages: distinctBySeeks(
    "recaps",
    "language",
    selectColumn("recaps", "language", "v").replace(/v\.language/g, "v.x"),
    (v) => `SELECT 1 FROM recaps r JOIN tournaments t ON t.tournament_id = r.tournament_id AND t.is_draft = 0
      WHERE r.language IS ${v} AND r.is_draft = 0 AND ${publishedRow("t")}`,
  ),
};

/** Every index of schema/store.sql that a build reads by (vocabulary, a tick's changed tournaments). */
export const READ_INDEXES: readonly string[] = [
  ...Object.values(VOCABULARY_INDEXES),
  "tournament_revisions_by_revision",
];

/** The READ_INDEXES the store lacks (a store made before they were added). */
export function missingReadIndexes(db: Database.Database): string[] {
  const have = new Set(
    db.prepare<[], string>("SELECT name FROM sqlite_schema WHERE type = 'index'").pluck().all(),
  );
  return READ_INDEXES.filter((name) => !have.has(name));
}

/** The vocabulary's queries for this store: by seeks where it has the index, else by scans. */
export function vocabularySql(db: Database.Database): Record<VocabularyName, string> {
  const missing = new Set(missingReadIndexes(db));
  const pick = (name: VocabularyName) =>
    (missing.has(VOCABULARY_INDEXES[name]) ? SQL : VOCABULARY_BY_SEEKS)[name];
  return { globalTags: pick("globalTags"), clubTags: pick("clubTags"), languages: pick("languages") };
}

/** Statements that select exactly selectAll(table) and return raw rows (SqlCells). */
const RAW_QUERIES = [
  "teams",
  "teamMembers",
  "teamByes",
  "teamForfeits",
  "players",
  "rounds",
  "schedule",
  "games",
  "standings",
  "standingRows",
  "recaps",
] as const;
type RawQueryName = (typeof RAW_QUERIES)[number];

export type Queries = {
  [N in QueryName]: Database.Statement<unknown[], N extends RawQueryName ? SqlCells : SqlRow>;
};

/** The text of every statement, e.g. to prove that no private column is ever selected. */
export const QUERY_SQL: Readonly<Record<QueryName, string>> = SQL;

/** The tournament columns that version 3 added and this (older) store lacks. */
function absentTournamentColumns(db: Database.Database): Set<string> {
  const have = new Set(
    db
      .prepare<[], { name: string }>("SELECT name FROM pragma_table_info('tournaments')")
      .all()
      .map((c) => c.name),
  );
  return new Set(
    VERSION_3_COLUMNS.filter((c) => c.table === "tournaments" && !have.has(c.column)).map((c) => c.column),
  );
}

/** A store before version 3 has no round_schedule, before version 5 no team tables: their queries
 * return no row. */
const NO_SCHEDULE = "SELECT NULL WHERE 0 AND ? IS NULL";
const TEAM_QUERIES = ["teamEvent", "teams", "teamMembers", "teamByes", "teamForfeits"] as const;

function hasTable(db: Database.Database, name: string): boolean {
  return db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?").get(name) !== undefined;
}

export function prepareQueries(db: Database.Database): Queries {
  const raw = new Set<QueryName>(RAW_QUERIES);
  const hasSchedule =
    db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'round_schedule'").get() !==
    undefined;
  const absent = absentTournamentColumns(db);
  const sql: Record<QueryName, string> = {
    ...SQL,
    ...(absent.size > 0 && {
      tournament: `SELECT ${selectAll("tournaments", undefined, absent)} FROM tournaments WHERE tournament_id = +?`,
    }),
    ...(!hasSchedule && { schedule: NO_SCHEDULE }),
    ...(!hasTable(db, "team_events") && Object.fromEntries(TEAM_QUERIES.map((q) => [q, NO_SCHEDULE]))),
  };
  const queries = {} as Record<QueryName, Database.Statement<unknown[], unknown>>;
  for (const name of Object.keys(sql) as QueryName[]) {
    queries[name] = db.prepare<unknown[], unknown>(sql[name]).safeIntegers(true).raw(raw.has(name));
  }
  return queries as Queries;
}
