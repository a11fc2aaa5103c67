// The store's DDL lives in schema/store.sql (documented there); this module reads it once.
import { readFileSync } from "node:fs";
import Database from "better-sqlite3";

/** The version init-store writes. Version 1 (no revision triggers) is still read. */
export const STORE_SCHEMA_VERSION = 2;

/** Every version this build-api reads. */
export const READABLE_SCHEMA_VERSIONS: readonly number[] = [1, 2];

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
