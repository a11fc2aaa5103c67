// The store's DDL lives in schema/store.sql (documented there); this module reads it once.
import { readFileSync } from "node:fs";
import Database from "better-sqlite3";

/** The version init-store writes. Versions 1 (no revision triggers), 2 (no tie-break practice,
 * no round schedule) and 3 (revisions without stamps, blind to REPLACE across tournaments) are
 * still read; their revisions are not trusted (store/read/revisions.ts revisionTrouble). Version 4
 * (no team tables) is read as a store without team events. */
export const STORE_SCHEMA_VERSION = 5;

/** Every version this build-api reads. */
export const READABLE_SCHEMA_VERSIONS: readonly number[] = [1, 2, 3, 4, 5];

/** The versions `upgrade-store` brings to STORE_SCHEMA_VERSION in place. */
export const UPGRADABLE_VERSIONS: readonly number[] = [1, 2, 3, 4];

/** The first version whose revisions a build trusts: stamps that another file's history cannot
 * share, and triggers that see rows replaced across tournaments. */
export const TRUSTED_REVISIONS_VERSION = 4;

/**
 * Columns that version 3 added to existing tables, with the DDL `upgrade-store` adds each with.
 * A store of an older version lacks them: the reader reads NULL in their place.
 */
export const VERSION_3_COLUMNS: readonly { table: string; column: string; ddl: string }[] = [
  {
    table: "tournaments",
    column: "tiebreak_practice",
    ddl: "tiebreak_practice TEXT CHECK (tiebreak_practice IN ('swiss-manager', 'vega', 'vega-de-score', 'vega-sb-bye-zero', 'chessmanager'))",
  },
];

/**
 * Columns that version 4 added: the random stamp of each revision (schema/store.sql, "Revisions").
 * `upgrade-store` adds them and gives every existing revision a fresh stamp.
 */
export const VERSION_4_COLUMNS: readonly { table: string; column: string; ddl: string }[] = [
  { table: "tournament_revisions", column: "stamp", ddl: "stamp BLOB" },
  { table: "store_revisions", column: "stamp", ddl: "stamp BLOB" },
];

/** Tables that version 3 added: a store of an earlier version is read as if they were empty. */
export const VERSION_3_TABLES: readonly string[] = ["round_schedule"];

/** Tables that version 5 added (team events): a store of an earlier version has no team event. */
export const VERSION_5_TABLES: readonly string[] = [
  "team_events",
  "teams",
  "team_members",
  "team_byes",
  "team_forfeited_matches",
];

export const STORE_SQL_PATH = new URL("../../schema/store.sql", import.meta.url);

export function storeSql(): string {
  return readFileSync(STORE_SQL_PATH, "utf8");
}

/** Reads a fact (tables, triggers...) off a fresh in-memory database built from store.sql. */
export function fromReferenceSchema<T>(read: (db: Database.Database) => T): T {
  const db = new Database(":memory:");
  try {
    db.exec(storeSql());
    return read(db);
  } finally {
    db.close();
  }
}
