// `build-api upgrade-store`: brings an older store (version 1 or 2) to the current schema version
// in place, in one transaction: the version 2 section of schema/store.sql, the version 3 columns
// and the version 3 section (the round schedule).
import { existsSync } from "node:fs";
import Database from "better-sqlite3";
import { BuildError, EXIT } from "../../shared/errors.ts";
import { STORE_SCHEMA_VERSION, storeSql, VERSION_3_COLUMNS } from "../schema.ts";

/** Where schema/store.sql starts the part that version 2 added to version 1. */
const VERSION_2_MARKER = "-- Revisions (schema version 2)";
/** Where it starts the part that version 3 added to version 2. */
const VERSION_3_MARKER = "-- Round schedule (schema version 3)";

/** The text of schema/store.sql from the `from` marker to the `to` marker (or the end). */
function section(sql: string, from: string, to: string | null): string {
  const at = sql.indexOf(from);
  const end = to === null ? sql.length : sql.indexOf(to);
  if (at < 0 || end < at) throw new Error(`schema/store.sql has no "${from}" section before "${to}"`);
  return sql.slice(at, end);
}

/**
 * Upgrades a version 1 or 2 store in place to the current version, in one transaction. From 1 to
 * 2: adds the revision tables and their triggers (the version 2 part of schema/store.sql) and
 * gives every existing tournament revision 0. From 2 to 3: adds the columns of VERSION_3_COLUMNS
 * (NULL in every existing row) and the round schedule table, empty, with its triggers (the
 * version 3 part of schema/store.sql). Returns the version the store had; a current store is
 * left as it is.
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
    const sql = storeSql();
    db.transaction(() => {
      if (version === 1) {
        db.exec(section(sql, VERSION_2_MARKER, VERSION_3_MARKER));
        db.exec(
          "INSERT INTO tournament_revisions (tournament_id, revision) SELECT tournament_id, 0 FROM tournaments",
        );
      }
      for (const c of VERSION_3_COLUMNS) db.exec(`ALTER TABLE ${c.table} ADD COLUMN ${c.ddl}`);
      db.exec(section(sql, VERSION_3_MARKER, null));
      db.pragma(`user_version = ${STORE_SCHEMA_VERSION}`);
    })();
    return version;
  } finally {
    db.close();
  }
}
