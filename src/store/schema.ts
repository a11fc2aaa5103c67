// The store's DDL lives in schema/store.sql (documented there); this module reads it once.
import { readFileSync } from "node:fs";
import Database from "better-sqlite3";

/** The version init-store writes. Versions 1 (no revision triggers) and 2 (no tie-break practice,
 * no round schedule) are still read. */
export const STORE_SCHEMA_VERSION = 3;

/** Every version this build-api reads. */
export const READABLE_SCHEMA_VERSIONS: readonly number[] = [1, 2, 3];

/**
 * Columns that version 3 added to existing tables, with the DDL `upgrade-store` adds each with.
 * A store of an older version lacks them: the reader reads NULL in their place.
 */
export const VERSION_3_COLUMNS: readonly { table: string; column: string; ddl: string }[] = [
  {
    table: "tournaments",
    column: "tiebreak_practice",
    ddl: "tiebreak_practice TEXT CHECK (tiebreak_practice IN ('swiss-manager', 'vega'))",
  },
];

/** Tables that version 3 added: a store of an earlier version is read as if they were empty. */
export const VERSION_3_TABLES: readonly string[] = ["round_schedule"];

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
