// Store-wide checks, the ones that do not belong to a single published tournament: club rows,
// broken draft/enabled flags, identifiers shared by two published tournaments, and rows that point
// at something that does not exist. Problems inside a published tournament's own rows (including
// its tags and recap languages) come from loadTournament(), so a build can skip that tournament.
import type Database from "better-sqlite3";
import type { Problem } from "../../shared/errors.ts";
import { RowCheck, rowWhere, showValue, type SqlRow } from "./cells.ts";
import { selectAll } from "../columns.ts";
import { readClub } from "./clubs.ts";
import { PUBLISHED_IDS } from "./queries.ts";
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

export function checkStore(db: Database.Database, file: string): Problem[] {
  const problems: Problem[] = [];
  const all = (sql: string): SqlRow[] => db.prepare<unknown[], SqlRow>(sql).safeIntegers(true).all();

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
  for (const row of all(`SELECT tournament_id, is_draft FROM tournaments
      WHERE typeof(is_draft) != 'integer' OR is_draft NOT IN (0, 1) ORDER BY tournament_id`)) {
    new RowCheck(file, "tournaments", row, ["tournament_id"], problems).flag("is_draft");
  }
  // Published tournaments need an integer external_id (their path) and a usable row id.
  const published = `is_draft = 0 AND tournament_id IN (${PUBLISHED_IDS})`;
  for (const row of all(`SELECT tournament_id, external_id FROM tournaments
      WHERE ${published} AND typeof(external_id) != 'integer' ORDER BY tournament_id`)) {
    new RowCheck(file, "tournaments", row, ["tournament_id"], problems).int64("external_id");
  }
  for (const row of all(`SELECT tournament_id FROM tournaments
      WHERE ${published} AND abs(tournament_id) > 9007199254740991 ORDER BY tournament_id`)) {
    problems.push({
      where:
        rowWhere(file, "tournaments", [["tournament_id", row["tournament_id"]!]]) + ", column tournament_id",
      what: "the row id is beyond 2^53",
      fix: "renumber the tournament with a smaller tournament_id",
    });
  }
  for (const row of all(`SELECT external_id, count(*) AS n FROM tournaments WHERE ${published}
      GROUP BY external_id HAVING count(*) > 1 ORDER BY external_id`)) {
    problems.push({
      where: `${file}: table tournaments, rows (external_id=${showValue(row["external_id"]!)}), column external_id`,
      what: `${showValue(row["n"]!)} published tournaments share the external_id ${showValue(row["external_id"]!)}`,
      fix: "give every tournament its own external_id",
    });
  }

  // Dangling references.
  for (const r of REFERENCES) {
    for (const row of all(danglingSql(r))) {
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
  for (const row of all(`SELECT club_id, tournament_id, count(*) AS n FROM club_tournament_tags x
      WHERE NOT EXISTS (SELECT 1 FROM club_tournaments ct WHERE ct.club_id = x.club_id AND ct.tournament_id = x.tournament_id)
      GROUP BY club_id, tournament_id ORDER BY club_id, tournament_id`)) {
    problems.push({
      where: `${file}: table club_tournament_tags, rows (club_id=${showValue(row["club_id"] ?? null)}, tournament_id=${showValue(row["tournament_id"] ?? null)})`,
      what: `${rows(showValue(row["n"]!), "(a tag) belongs", "(tags) belong")} to a catalog entry that does not exist in table club_tournaments`,
      fix: "add the catalog entry, or delete these tags",
    });
  }
  return problems;
}
