// `build-api upgrade-store`: brings an older store to the current schema version in place, in one
// transaction, from the version sections of schema/store.sql.
import { existsSync } from "node:fs";
import Database from "better-sqlite3";
import { BuildError, EXIT } from "../../shared/errors.ts";
import { storeSql } from "../schema.ts";

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
