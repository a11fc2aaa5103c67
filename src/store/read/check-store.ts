// Store-wide checks, the ones that do not belong to a single published tournament: club rows,
// broken draft/enabled flags, identifiers shared by two published tournaments, and rows that point
// at something that does not exist. Problems inside a published tournament's own rows (including
// its tags and recap languages) come from loadTournament(), so a build can skip that tournament.
import type Database from "better-sqlite3";
import type { Problem } from "../../shared/errors.ts";
import { RowCheck, rowRef, rowWhere, showValue, type SqlRow } from "./cells.ts";
import { selectAll } from "../columns.ts";
import { readClub } from "./clubs.ts";
import { PUBLISHED_IDS, publishedRow } from "./queries.ts";
import { bytesLookup, markInvalidUtf8 } from "./utf8.ts";

/** A column that must name an existing row of another table. */
interface Reference {
  table: string;
  column: string;
  target: string;
  targetColumn: string;
  /** The column leads an index of `table`: distinct values are found by index seeks. */
  leading: boolean;
  noun: string;
}

const REFERENCES: Reference[] = [
  {
    table: "players",
    column: "tournament_id",
    target: "tournaments",
    targetColumn: "tournament_id",
    leading: true,
    noun: "tournament",
  },
  {
    table: "rounds",
    column: "tournament_id",
    target: "tournaments",
    targetColumn: "tournament_id",
    leading: true,
    noun: "tournament",
  },
  {
    table: "games",
    column: "tournament_id",
    target: "tournaments",
    targetColumn: "tournament_id",
    leading: true,
    noun: "tournament",
  },
  {
    table: "source_standings",
    column: "tournament_id",
    target: "tournaments",
    targetColumn: "tournament_id",
    leading: true,
    noun: "tournament",
  },
  {
    table: "source_standing_rows",
    column: "tournament_id",
    target: "tournaments",
    targetColumn: "tournament_id",
    leading: true,
    noun: "tournament",
  },
  {
    table: "recaps",
    column: "tournament_id",
    target: "tournaments",
    targetColumn: "tournament_id",
    leading: true,
    noun: "tournament",
  },
  {
    table: "publications",
    column: "tournament_id",
    target: "tournaments",
    targetColumn: "tournament_id",
    leading: true,
    noun: "tournament",
  },
  {
    table: "publication_tags",
    column: "tournament_id",
    target: "publications",
    targetColumn: "tournament_id",
    leading: true,
    noun: "publication of tournament",
  },
  {
    table: "club_tournaments",
    column: "club_id",
    target: "clubs",
    targetColumn: "club_id",
    leading: true,
    noun: "club",
  },
  {
    table: "club_tournaments",
    column: "tournament_id",
    target: "tournaments",
    targetColumn: "tournament_id",
    leading: false,
    noun: "tournament",
  },
];

/**
 * The tournaments (row ids, existing or not) whose rows changed after a count of the store's
 * changes: every trigger of schema/store.sql stamps the tournament_id it touched with the count of
 * that change. Read once as a JSON array (exact 64-bit integers), the one parameter of CHANGED_IDS.
 */
const CHANGED_SINCE = "SELECT json_group_array(tournament_id) FROM tournament_revisions WHERE revision > ?";
const CHANGED_IDS = "SELECT value FROM json_each(?)";

/**
 * Dangling values of one reference among the rows of the changed tournaments (`since`), each with
 * the count of all its rows, as the whole-store query gives it. Rows without a value are counted
 * by the index, whatever changed.
 */
function changedDanglingSql(r: Reference): string {
  const missing = (v: string) => `NOT EXISTS (SELECT 1 FROM ${r.target} WHERE ${r.targetColumn} = ${v})`;
  const refs =
    r.column === "tournament_id"
      ? CHANGED_IDS
      : `SELECT DISTINCT ${r.column} FROM ${r.table} WHERE tournament_id IN (${CHANGED_IDS})`;
  return `SELECT v.ref AS ref, (SELECT count(*) FROM ${r.table} WHERE ${r.column} = v.ref) AS n
    FROM (${refs.replace(/^SELECT (DISTINCT )?(\w+)/, "SELECT $1$2 AS ref")}) v
    WHERE v.ref IS NOT NULL AND ${missing("v.ref")} AND n > 0
    UNION ALL
    SELECT NULL AS ref, count(*) AS n FROM ${r.table} WHERE ${r.column} IS NULL HAVING count(*) > 0
    ORDER BY ref`;
}

/** Dangling values of one reference with their row counts. */
function danglingSql(r: Reference): string {
  const missing = (v: string) => `NOT EXISTS (SELECT 1 FROM ${r.target} WHERE ${r.targetColumn} = ${v})`;
  if (!r.leading) {
    return `SELECT ${r.column} AS ref, count(*) AS n FROM ${r.table} x
      WHERE ${missing(`x.${r.column}`)} GROUP BY ${r.column} ORDER BY ${r.column}`;
  }
  // Walks the distinct values through the index (one seek each) instead of reading every row:
  // the games table of a large store has millions of rows but only thousands of tournaments.
  return `WITH RECURSIVE v(x) AS (
      SELECT (SELECT min(${r.column}) FROM ${r.table})
      UNION ALL
      SELECT (SELECT min(${r.column}) FROM ${r.table} WHERE ${r.column} > v.x) FROM v WHERE v.x IS NOT NULL
    )
    SELECT x AS ref, (SELECT count(*) FROM ${r.table} WHERE ${r.column} = v.x) AS n FROM v
    WHERE x IS NOT NULL AND ${missing("v.x")}
    UNION ALL
    SELECT NULL AS ref, count(*) AS n FROM ${r.table} WHERE ${r.column} IS NULL HAVING count(*) > 0
    ORDER BY ref`;
}

/** "1 row references" / "3 rows reference" */
function rows(n: string, singular: string, plural: string): string {
  return n === "1" ? `1 row ${singular}` : `${n} rows ${plural}`;
}

/**
 * The store-wide problems. `since` (a count of the store's `all` revision, when its triggers are
 * trusted and an earlier build of this same file passed these checks at that count) scopes the
 * checks of tournament rows to the tournaments changed after it: what did not change passed then.
 * The club checks read every club row either way (clubs are few).
 */
export function checkStore(db: Database.Database, file: string, since?: bigint): Problem[] {
  const problems: Problem[] = [];
  const all = (sql: string, ...params: unknown[]): SqlRow[] =>
    db
      .prepare<unknown[], SqlRow>(sql)
      .safeIntegers(true)
      .all(...params);
  // The changed tournaments, as a condition on a tournament_id column, and its parameters.
  const changed =
    since === undefined ? null : db.prepare<[bigint], string>(CHANGED_SINCE).pluck().get(since)!;
  const scoped = (column: string): [string, unknown[]] =>
    changed === null ? ["", []] : [` AND ${column} IN (${CHANGED_IDS})`, [changed]];

  // Clubs: every row's enabled flag; every enabled club in full. A disabled club publishes nothing.
  const bytes = bytesLookup(db);
  for (const row of db
    .prepare<unknown[], SqlRow>(`SELECT ${selectAll("clubs")} FROM clubs ORDER BY club_id`)
    .safeIntegers(true)
    .iterate()) {
    markInvalidUtf8(bytes, "clubs", ["club_id"], [row]);
    const c = new RowCheck(file, "clubs", row, ["club_id"], problems);
    if (c.flag("enabled")) readClub(c);
  }
  for (const row of all(
    `SELECT slug, count(*) AS n FROM clubs WHERE enabled = 1 GROUP BY slug HAVING count(*) > 1 ORDER BY slug`,
  )) {
    problems.push({
      where: `${file}: table clubs, rows (slug=${showValue(row["slug"]!)}), column slug`,
      what: `${showValue(row["n"]!)} enabled clubs share the slug ${showValue(row["slug"]!)}`,
      fix: "give every enabled club its own slug",
    });
  }
  for (const row of all(`SELECT lower(uuid) AS uuid, count(*) AS n FROM clubs WHERE enabled = 1 AND typeof(uuid) = 'text'
      GROUP BY lower(uuid) HAVING count(*) > 1 ORDER BY 1`)) {
    problems.push({
      where: `${file}: table clubs, rows (uuid=${showValue(row["uuid"]!)}), column uuid`,
      what: `${showValue(row["n"]!)} enabled clubs share the uuid ${showValue(row["uuid"]!)}`,
      fix: "give every club its own UUID",
    });
  }

  // Tournaments: a broken draft flag is never published, but must be seen and fixed.
  const [inChanged, changedParams] = scoped("tournament_id");
  for (const row of all(
    `SELECT tournament_id, is_draft FROM tournaments
      WHERE (typeof(is_draft) != 'integer' OR is_draft NOT IN (0, 1))${inChanged} ORDER BY tournament_id`,
    ...changedParams,
  )) {
    new RowCheck(file, "tournaments", row, ["tournament_id"], problems).flag("is_draft");
  }
  // Published tournaments need an integer external_id (their path) and a usable row id.
  // Scoped, by seeks from each changed row: PUBLISHED_IDS would be built whole first (O(store)).
  const published =
    since === undefined
      ? `is_draft = 0 AND tournament_id IN (${PUBLISHED_IDS})`
      : `is_draft = 0 AND ${publishedRow("tournaments")}`;
  for (const row of all(
    `SELECT tournament_id, external_id FROM tournaments
      WHERE ${published} AND typeof(external_id) != 'integer'${inChanged} ORDER BY tournament_id`,
    ...changedParams,
  )) {
    new RowCheck(file, "tournaments", row, ["tournament_id"], problems).int64("external_id");
  }
  for (const row of all(
    `SELECT tournament_id FROM tournaments
      WHERE ${published} AND abs(tournament_id) > 9007199254740991${inChanged} ORDER BY tournament_id`,
    ...changedParams,
  )) {
    const ref = rowRef("tournaments", [["tournament_id", row["tournament_id"]!]]);
    problems.push({
      where: rowWhere(file, ref) + ", column tournament_id",
      row: ref,
      what: "the row id is beyond 2^53",
      fix: "renumber the tournament with a smaller tournament_id",
    });
  }
  // Scoped: the external ids of the changed tournaments, each counted over the whole table.
  const sharedScope =
    since === undefined
      ? ""
      : ` AND external_id IN (SELECT external_id FROM tournaments WHERE tournament_id IN (${CHANGED_IDS}))`;
  for (const row of all(
    `SELECT external_id, count(*) AS n FROM tournaments WHERE ${published}${sharedScope}
      GROUP BY external_id HAVING count(*) > 1 ORDER BY external_id`,
    ...changedParams,
  )) {
    problems.push({
      where: `${file}: table tournaments, rows (external_id=${showValue(row["external_id"]!)}), column external_id`,
      what: `${showValue(row["n"]!)} published tournaments share the external_id ${showValue(row["external_id"]!)}`,
      fix: "give every tournament its own external_id",
    });
  }

  // Dangling references.
  for (const r of REFERENCES) {
    const dangling = changed === null ? all(danglingSql(r)) : all(changedDanglingSql(r), changed);
    for (const row of dangling) {
      const ref = row["ref"] ?? null;
      const n = showValue(row["n"]!);
      problems.push({
        where: `${file}: table ${r.table}, rows (${r.column}=${showValue(ref)}), column ${r.column}`,
        what:
          ref === null
            ? `${rows(n, "has", "have")} no ${r.column}`
            : `${rows(n, "references", "reference")} ${r.noun} ${showValue(ref)}, which does not exist in table ${r.target}`,
        fix: `add the missing ${r.target} row, or correct or delete these rows`,
      });
    }
  }
  const [tagsInChanged] = scoped("x.tournament_id");
  for (const row of all(
    `SELECT club_id, tournament_id, count(*) AS n FROM club_tournament_tags x
      WHERE NOT EXISTS (SELECT 1 FROM club_tournaments ct WHERE ct.club_id = x.club_id AND ct.tournament_id = x.tournament_id)${tagsInChanged}
      GROUP BY club_id, tournament_id ORDER BY club_id, tournament_id`,
    ...changedParams,
  )) {
    problems.push({
      where: `${file}: table club_tournament_tags, rows (club_id=${showValue(row["club_id"] ?? null)}, tournament_id=${showValue(row["tournament_id"] ?? null)})`,
      what: `${rows(showValue(row["n"]!), "(a tag) belongs", "(tags) belong")} to a catalog entry that does not exist in table club_tournaments`,
      fix: "add the catalog entry, or delete these tags",
    });
  }
  return problems;
}
