// `build-api upgrade-store`: brings an older store (version 1 or 2) to the current schema version
// in place, in one transaction: the version 2 section of schema/store.sql, the version 3 columns
// and the version 3 section (the round schedule).
import Database from "better-sqlite3";
import { BuildError, EXIT } from "../../shared/errors.ts";
import { regularFile } from "../../shared/files.ts";
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
 * left as it is. A corrupt store, or a foreign database that names a version, is refused.
 */
export function upgradeStore(file: string): number {
  regularFile(file, "the store", EXIT.storeUnreadable);
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
    // Damage first: a corrupt store is never "already at version 2" nor upgraded.
    const check = db.pragma("quick_check(20)") as { quick_check: string }[];
    if (check.length !== 1 || check[0]!.quick_check !== "ok") {
      throw new BuildError(
        `Cannot upgrade ${file}: it is corrupt.`,
        check.map((row) => ({
          where: file,
          what: `integrity check: ${row.quick_check}`,
          fix: "restore the store from a good copy",
        })),
        EXIT.storeUnreadable,
      );
    }
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
    const at = sql.indexOf(VERSION_2_MARKER);
    if (at < 0) throw new Error(`schema/store.sql has no "${VERSION_2_MARKER}" section`);
    // A version 1 or 2 store has every table of the version 1 part of the schema; anything else
    // (a foreign database that happens to say user_version 1) is not upgraded.
    const have = new Set(
      (db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").all() as { name: string }[]).map(
        (t) => t.name,
      ),
    );
    const missing = [...sql.slice(0, at).matchAll(/^CREATE TABLE (\w+)/gm)]
      .map((m) => m[1]!)
      .filter((t) => !have.has(t));
    if (missing.length > 0) {
      throw new BuildError(
        `Cannot upgrade ${file}: it says schema version ${version} but is not a version ${version} store.`,
        missing.map((t) => ({
          where: `${file}: table ${t}`,
          what: "the table is missing",
          fix: "upgrade only a store created by build-api (schema/store.sql)",
        })),
        EXIT.storeSchema,
      );
    }
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
