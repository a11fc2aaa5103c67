// A store file from nothing and in place: `build-api init-store <file> [--sample]` creates an
// empty store with the current schema (or the embedded sample), and `build-api upgrade-store`
// brings an older store to the current schema version. (`add-club` is in add-club.ts.)
import { existsSync, readFileSync } from "node:fs";
import Database from "better-sqlite3";
import { BuildError, EXIT } from "../../shared/errors.ts";
import { storeSql } from "../schema.ts";

/** The embedded sample's SQL (data/sample.sql, shipped in the npm package beside lib/). */
export const SAMPLE_SQL_URL = new URL("../../../data/sample.sql", import.meta.url);

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

/** Where schema/store.sql starts the part that version 2 added to version 1. */
const VERSION_2_MARKER = "-- Revisions (schema version 2)";

/**
 * Upgrades a version 1 store in place to the current version: adds the revision tables and their
 * triggers (the version 2 part of schema/store.sql) and gives every existing tournament revision 0,
 * in one transaction. Returns the version the store had; a current store is left as it is.
 */
export function upgradeStore(file: string): number {
  if (!existsSync(file)) {
    throw new BuildError(`Cannot upgrade ${file}: it does not exist.`, [], EXIT.storeUnreadable);
  }
  let db: Database.Database;
  try {
    db = new Database(file, { fileMustExist: true });
    db.pragma("user_version", { simple: true });
  } catch (e) {
    throw new BuildError(
      `Cannot upgrade ${file}: not a SQLite store (${(e as Error).message}).`,
      [],
      EXIT.storeUnreadable,
    );
  }
  try {
    const version = db.pragma("user_version", { simple: true }) as number;
    if (version === 2) return version;
    if (version !== 1) {
      throw new BuildError(
        `Cannot upgrade ${file}: store schema version ${version}; build-api upgrades version 1 only.`,
        [],
        EXIT.storeSchema,
      );
    }
    const sql = storeSql();
    const at = sql.indexOf(VERSION_2_MARKER);
    if (at < 0) throw new Error(`schema/store.sql has no "${VERSION_2_MARKER}" section`);
    db.transaction(() => {
      db.exec(sql.slice(at));
      db.exec(
        "INSERT INTO tournament_revisions (tournament_id, revision) SELECT tournament_id, 0 FROM tournaments",
      );
      db.pragma("user_version = 2");
    })();
    return version;
  } finally {
    db.close();
  }
}

/**
 * Creates a store at `file` (which must not exist) holding the rows of `sqlPath`, by default the
 * embedded sample. The same SQL always gives the same bytes (the file is vacuumed).
 */
export function createSampleStore(file: string, sqlPath: string | URL = SAMPLE_SQL_URL): void {
  const sql = readFileSync(sqlPath, "utf8");
  createStore(file);
  const db = new Database(file);
  try {
    db.pragma("foreign_keys = ON");
    db.exec("BEGIN");
    try {
      db.exec(sql);
      db.exec("COMMIT");
    } catch (error) {
      db.exec("ROLLBACK");
      throw error;
    }
    const violations = db.pragma("foreign_key_check") as unknown[];
    if (violations.length > 0) {
      throw new Error(
        `${String(sqlPath)} breaks ${violations.length} foreign key(s): ${JSON.stringify(violations[0])}`,
      );
    }
    // Rewrites the file compactly so that its bytes depend only on its contents.
    db.exec("VACUUM");
  } finally {
    db.close();
  }
}
