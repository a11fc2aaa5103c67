// The store's DDL lives in schema/store.sql (documented there); this module reads it once.
import { readFileSync } from "node:fs";

export const STORE_SCHEMA_VERSION = 1;

export const STORE_SQL_PATH = new URL("../../schema/store.sql", import.meta.url);

export function storeSql(): string {
  return readFileSync(STORE_SQL_PATH, "utf8");
}
