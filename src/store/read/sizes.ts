// Row-count limits (limits.ts). A tournament's queries read at most one row past each limit
// (queries.ts ROW_CAPS), and withinLimits() proves from those rows that it is within every limit;
// only when it cannot do SQL counts name what is over. Each count stops one row past its limit
// (LIMIT n + 1), so a store with a million players in one tournament fails in milliseconds, with
// no more than a cap of rows in memory, instead of loading them all and failing later.
import type Database from "better-sqlite3";
import { groupDigits, type Problem } from "../../shared/errors.ts";
import { showValue, type SqlRow, type SqlValue } from "./cells.ts";
import { columnPositions } from "../columns.ts";
import { longestRun } from "./groups.ts";
import type { TournamentRows } from "./tournament.ts";
import {
  MAX_BOARDS_PER_ROUND,
  MAX_CLUBS,
  MAX_DISTINCT_TAGS,
  MAX_GAMES,
  MAX_LANGUAGES,
  MAX_PLAYERS,
  MAX_RECAPS,
  MAX_ROUNDS,
  MAX_STANDING_ROWS,
  MAX_STANDING_ROWS_PER_ROUND,
  MAX_TAGS_PER_TOURNAMENT,
} from "../limits.ts";
import { ROW_CAPS, vocabularySql } from "./queries.ts";

const count = groupDigits;

/** `SELECT count(*)` of at most limit + 1 rows of `sql`. Parameters are written `+?`: see queries.ts. */
function capped(sql: string): string {
  return `SELECT count(*) AS n FROM (${sql} LIMIT +?)`;
}

const TOURNAMENT_COUNTS = [
  { table: "players", noun: "players", limit: MAX_PLAYERS, name: "MAX_PLAYERS" },
  { table: "rounds", noun: "rounds", limit: MAX_ROUNDS, name: "MAX_ROUNDS" },
  { table: "games", noun: "games (boards and byes)", limit: MAX_GAMES, name: "MAX_GAMES" },
  { table: "source_standings", noun: "source standings", limit: MAX_ROUNDS, name: "MAX_ROUNDS" },
  {
    table: "source_standing_rows",
    noun: "source standing rows",
    limit: MAX_STANDING_ROWS,
    name: "MAX_STANDING_ROWS",
  },
] as const;

/** Per-round counts: run only once the tournament's total is within its limit, so bounded. */
const PER_ROUND = [
  {
    table: "games",
    round: "round_number",
    noun: "boards",
    limit: MAX_BOARDS_PER_ROUND,
    name: "MAX_BOARDS_PER_ROUND",
  },
  {
    table: "source_standing_rows",
    round: "after_round",
    noun: "standing rows",
    limit: MAX_STANDING_ROWS_PER_ROUND,
    name: "MAX_STANDING_ROWS_PER_ROUND",
  },
] as const;

export interface SizeQueries {
  /** Every limit the tournament is over, counted. */
  tournament(rowId: number): Problem[];
  /**
   * True when the tournament's rows, read with the caps of ROW_CAPS, prove it within every limit
   * that tournament() counts (then no cap cut them); false when it may be over one.
   */
  withinLimits(rowId: number, rows: TournamentRows): boolean;
}

/** The rows of each capped query, and the cell of each per-round count. */
const CAPPED = Object.keys(ROW_CAPS) as (keyof typeof ROW_CAPS)[];
const GAME_ROUND = columnPositions("games")["round_number"]!;
const STANDING_ROUND = columnPositions("source_standing_rows")["after_round"]!;

function fix(name: string): string {
  return `remove the extra rows: the limits, far above any real event, are documented in schema/store.sql (${name})`;
}

/** Prepares the per-tournament count statements once per open store. */
export function prepareSizeQueries(db: Database.Database, file: string): SizeQueries {
  const prep = (sql: string) => db.prepare<unknown[], SqlRow>(sql).safeIntegers(true);
  const counter = (sql: string) => db.prepare<unknown[], bigint>(capped(sql)).safeIntegers(true).pluck();
  const totals = TOURNAMENT_COUNTS.map((c) => ({
    ...c,
    stmt: counter(`SELECT 1 FROM ${c.table} WHERE tournament_id = +?`),
  }));
  const perRound = PER_ROUND.map((c) => ({
    ...c,
    stmt: prep(`SELECT ${c.round} AS r, count(*) AS n FROM ${c.table} WHERE tournament_id = +?
      GROUP BY ${c.round} HAVING count(*) > +? ORDER BY ${c.round} LIMIT 10`),
  }));
  const recaps = counter("SELECT 1 FROM recaps WHERE tournament_id = +? AND is_draft IS NOT 1");
  const globalTags = counter("SELECT 1 FROM publication_tags WHERE tournament_id = +?");
  // Driven by the enabled clubs (few), one primary-key seek each, like the catalog query.
  const clubTags = prep(`
    SELECT c.club_id AS club_id, (SELECT count(*) FROM (SELECT 1 FROM club_tournament_tags ctt
        WHERE ctt.club_id = c.club_id AND ctt.tournament_id = ct.tournament_id LIMIT +?)) AS n
    FROM clubs c JOIN club_tournaments ct ON ct.club_id = c.club_id AND ct.tournament_id = +?
    WHERE c.enabled = 1 ORDER BY c.club_id`);

  return {
    tournament(rowId: number): Problem[] {
      const id = BigInt(rowId);
      const problems: Problem[] = [];
      const over = (table: string, key: [string, SqlValue][], what: string, name: string) =>
        problems.push({
          where: `${file}: table ${table}, rows (${key.map(([k, v]) => `${k}=${showValue(v)}`).join(", ")})`,
          what,
          fix: fix(name),
        });
      const tooBig = new Set<string>();
      for (const c of totals) {
        const n = c.stmt.get(rowId, c.limit + 1);
        if (n! > c.limit) {
          tooBig.add(c.table);
          over(
            c.table,
            [["tournament_id", id]],
            `the tournament has more than the limit of ${count(c.limit)} ${c.noun}`,
            c.name,
          );
        }
      }
      for (const c of perRound) {
        if (tooBig.has(c.table)) continue;
        for (const row of c.stmt.all(rowId, c.limit)) {
          over(
            c.table,
            [
              ["tournament_id", id],
              [c.round, row["r"] ?? null],
            ],
            `round ${showValue(row["r"] ?? null)} has ${count(row["n"] as bigint)} ${c.noun}, more than the limit of ${count(c.limit)}`,
            c.name,
          );
        }
      }
      if (recaps.get(rowId, MAX_RECAPS + 1)! > MAX_RECAPS) {
        over(
          "recaps",
          [["tournament_id", id]],
          `the tournament has more than the limit of ${count(MAX_RECAPS)} recaps (drafts not counted)`,
          "MAX_RECAPS",
        );
      }
      if (globalTags.get(rowId, MAX_TAGS_PER_TOURNAMENT + 1)! > MAX_TAGS_PER_TOURNAMENT) {
        over(
          "publication_tags",
          [["tournament_id", id]],
          `the tournament has more than the limit of ${MAX_TAGS_PER_TOURNAMENT} global tags`,
          "MAX_TAGS_PER_TOURNAMENT",
        );
      }
      for (const row of clubTags.all(MAX_TAGS_PER_TOURNAMENT + 1, rowId)) {
        if ((row["n"] as bigint) <= MAX_TAGS_PER_TOURNAMENT) continue;
        over(
          "club_tournament_tags",
          [
            ["club_id", row["club_id"] ?? null],
            ["tournament_id", id],
          ],
          `the tournament has more than the limit of ${MAX_TAGS_PER_TOURNAMENT} tags in this catalog`,
          "MAX_TAGS_PER_TOURNAMENT",
        );
      }
      return problems;
    },

    withinLimits(rowId: number, rows: TournamentRows): boolean {
      for (const name of CAPPED) if (rows[name].length >= ROW_CAPS[name]) return false;
      // The rows are ordered by round, so a round's rows are neighbours.
      const overPerRound = (list: TournamentRows["games"], at: number, limit: number) =>
        list.length > limit && longestRun(list, at) > limit;
      if (overPerRound(rows.games, GAME_ROUND, MAX_BOARDS_PER_ROUND)) return false;
      if (overPerRound(rows.standingRows, STANDING_ROUND, MAX_STANDING_ROWS_PER_ROUND)) return false;
      // Without a publications row the publication rows show none of its global tags: count them.
      return (
        rows.publication.length > 0 ||
        globalTags.get(rowId, MAX_TAGS_PER_TOURNAMENT + 1)! <= MAX_TAGS_PER_TOURNAMENT
      );
    },
  };
}

const STORE_COUNTS = [
  {
    sql: "SELECT 1 FROM clubs WHERE enabled = 1",
    where: "table clubs",
    what: "enabled clubs",
    limit: MAX_CLUBS,
    name: "MAX_CLUBS",
  },
  {
    vocabulary: "globalTags",
    where: "table publication_tags",
    what: "distinct tags on the global surface",
    limit: MAX_DISTINCT_TAGS,
    name: "MAX_DISTINCT_TAGS",
  },
  {
    vocabulary: "clubTags",
    where: "table club_tournament_tags",
    what: "distinct tags in the catalogs of enabled clubs",
    limit: MAX_DISTINCT_TAGS,
    name: "MAX_DISTINCT_TAGS",
  },
  {
    vocabulary: "languages",
    where: "table recaps, column language",
    what: "distinct languages of published recaps",
    limit: MAX_LANGUAGES,
    name: "MAX_LANGUAGES",
  },
] as const;

/** The rows of the vocabulary queries (queries.ts), read while they are counted. */
export type VocabularyRows = Record<"globalTags" | "clubTags" | "languages", SqlRow[]>;

/**
 * Store-wide counts that multiply the number of files (a catalog file per club and tag, a recaps
 * file per tournament and language). The distinct tags and languages are read, not only counted
 * (at most the limit and one), so the reader's vocabulary needs no second pass over the store.
 */
export function storeSizeProblems(
  db: Database.Database,
  file: string,
): { problems: Problem[]; vocabulary: VocabularyRows } {
  const problems: Problem[] = [];
  const vocabulary: VocabularyRows = { globalTags: [], clubTags: [], languages: [] };
  const bySeeks = vocabularySql(db);
  for (const c of STORE_COUNTS) {
    let n: number;
    if ("vocabulary" in c) {
      const rows = db
        .prepare<unknown[], SqlRow>(`${bySeeks[c.vocabulary]} LIMIT ?`)
        .safeIntegers(true)
        .all(c.limit + 1);
      vocabulary[c.vocabulary] = rows;
      n = rows.length;
    } else {
      n = Number(
        db
          .prepare<unknown[], bigint>(capped(c.sql))
          .safeIntegers(true)
          .pluck()
          .get(c.limit + 1),
      );
    }
    if (n > c.limit) {
      problems.push({
        where: `${file}: ${c.where}`,
        what: `the store has more than the limit of ${count(c.limit)} ${c.what}`,
        fix: fix(c.name),
      });
    }
  }
  return { problems, vocabulary };
}
