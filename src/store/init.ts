// `build-api init-store <file>`: create an empty store with the current schema.
import { existsSync } from "node:fs";
import Database from "better-sqlite3";
import { BuildError, EXIT } from "../errors.ts";
import { storeSql } from "./schema.ts";

export function createStore(file: string): void {
  if (existsSync(file)) {
    throw new BuildError(`Refusing to create a store: ${file} already exists.`, [], EXIT.usage);
  }
  const db = new Database(file);
  try {
    db.pragma("journal_mode = DELETE");
    db.exec(storeSql());
  } finally {
    db.close();
  }
}
