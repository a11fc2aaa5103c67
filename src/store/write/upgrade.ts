// `build-api upgrade-store`: brings an older store (version 1 or 2) to the current schema version
// in place, in one transaction: the version 2 section of schema/store.sql, the version 3 columns.
import { existsSync } from "node:fs";
import Database from "better-sqlite3";
import { BuildError, EXIT } from "../../shared/errors.ts";
import { STORE_SCHEMA_VERSION, storeSql, VERSION_3_COLUMNS } from "../schema.ts";

/** Where schema/store.sql starts the part that version 2 added to version 1. */
const VERSION_2_MARKER = "-- Revisions (schema version 2)";

/**
 * Upgrades a version 1 or 2 store in place to the current version, in one transaction. From 1 to
 * 2: adds the revision tables and their triggers (the version 2 part of schema/store.sql) and
 * gives every existing tournament revision 0. From 2 to 3: adds the columns of VERSION_3_COLUMNS
 * (NULL in every existing row). Returns the version the store had; a current store is left as it is.
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
    if (version === STORE_SCHEMA_VERSION) return version;
    if (version !== 1 && version !== 2) {
      throw new BuildError(
        `Cannot upgrade ${file}: store schema version ${version}; build-api upgrades versions 1 and 2 only.`,
        [],
        EXIT.storeSchema,
      );
    }
    db.transaction(() => {
      if (version === 1) {
        const sql = storeSql();
        const at = sql.indexOf(VERSION_2_MARKER);
        if (at < 0) throw new Error(`schema/store.sql has no "${VERSION_2_MARKER}" section`);
        db.exec(sql.slice(at));
        db.exec(
          "INSERT INTO tournament_revisions (tournament_id, revision) SELECT tournament_id, 0 FROM tournaments",
        );
      }
      for (const c of VERSION_3_COLUMNS) db.exec(`ALTER TABLE ${c.table} ADD COLUMN ${c.ddl}`);
      db.pragma(`user_version = ${STORE_SCHEMA_VERSION}`);
    })();
    return version;
  } finally {
    db.close();
  }
}
