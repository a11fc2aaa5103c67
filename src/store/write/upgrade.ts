// `build-api upgrade-store`: brings an older store (version 1, 2, 3 or 4) to the current schema
// version in place, in one transaction, from the reference schema (schema/store.sql): the tables
// and columns each later version added, and the current revision triggers.
import Database from "better-sqlite3";
import { BuildError, EXIT } from "../../shared/errors.ts";
import { regularFile } from "../../shared/files.ts";
import {
  fromReferenceSchema,
  STORE_SCHEMA_VERSION,
  UPGRADABLE_VERSIONS,
  VERSION_3_COLUMNS,
  VERSION_4_COLUMNS,
  VERSION_5_TABLES,
} from "../schema.ts";
import { REVISION_TABLES } from "../read/revisions.ts";

interface SchemaObject {
  type: "table" | "index" | "trigger";
  name: string;
  /** The table an index or trigger belongs to (a table's own name). */
  owner: string;
  sql: string;
}

/** The tables, indexes and triggers of schema/store.sql, in creation order, with their SQL text. */
function referenceObjects(): SchemaObject[] {
  return fromReferenceSchema((db) =>
    db
      .prepare<[], SchemaObject>(
        "SELECT type, name, tbl_name AS owner, sql FROM sqlite_schema WHERE type IN ('table', 'index', 'trigger') AND sql IS NOT NULL ORDER BY rowid",
      )
      .all(),
  );
}

/**
 * Upgrades a version 1, 2, 3 or 4 store in place to the current version, in one transaction.
 * - From 1: adds the revision tables, every existing tournament at revision 0.
 * - From 1 or 2: adds the columns of VERSION_3_COLUMNS (NULL in every existing row) and the round
 *   schedule table, empty.
 * - From 1 to 4: adds the team event tables (VERSION_5_TABLES), empty.
 * - From 1, 2 or 3: adds the stamp columns (VERSION_4_COLUMNS) and gives every existing revision a
 *   fresh random stamp: the upgraded file starts a history of its own, which no copy shares.
 * - Always: drops every trigger named in schema/store.sql and creates each again with its current
 *   text, so the store's trigger set is exactly the reference one (revisions.ts revisionTrouble).
 * - Always: creates the indexes of schema/store.sql that the store lacks (a current store gets
 *   only these: indexes added since it was made, by which builds read less).
 * Returns the version the store had. A corrupt store, or a foreign database that names a
 * version, is refused.
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
    // Damage first: a corrupt store is never "already at version 4" nor upgraded.
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
    const reference = referenceObjects();
    const indexes = new Set(
      db.prepare<[], string>("SELECT name FROM sqlite_schema WHERE type = 'index'").pluck().all(),
    );
    /** The reference indexes on tables the store has, that it lacks (added after its version). */
    const addIndexes = (skip: ReadonlySet<string>): void => {
      for (const o of reference)
        if (o.type === "index" && !skip.has(o.owner) && !indexes.has(o.name)) db.exec(o.sql);
    };
    if (version === STORE_SCHEMA_VERSION) {
      db.transaction(() => addIndexes(new Set()))();
      return version;
    }
    if (!UPGRADABLE_VERSIONS.includes(version)) {
      throw new BuildError(
        `Cannot upgrade ${file}: store schema version ${version}; build-api upgrades versions ${UPGRADABLE_VERSIONS.join(", ")} only.`,
        [],
        EXIT.storeSchema,
      );
    }
    // The tables a store of this version must already have: those of version 1, plus the revision
    // tables from version 2 and the round schedule from version 3. Anything less (a foreign
    // database that happens to name a version) is not upgraded.
    const added = new Set<string>([
      ...(version < 2 ? REVISION_TABLES : []),
      ...(version < 3 ? ["round_schedule"] : []),
      ...(version < 5 ? VERSION_5_TABLES : []),
    ]);
    const have = new Set(
      (db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").all() as { name: string }[]).map(
        (t) => t.name,
      ),
    );
    const missing = reference
      .filter((o) => o.type === "table" && !added.has(o.name) && !have.has(o.name))
      .map((o) => o.name);
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
      // Triggers first: they are created again below, after the tables they write exist.
      for (const o of reference) if (o.type === "trigger") db.exec(`DROP TRIGGER IF EXISTS "${o.name}"`);
      for (const o of reference) if (o.type !== "trigger" && added.has(o.owner)) db.exec(o.sql);
      addIndexes(added);
      if (version < 2) {
        db.exec("INSERT INTO store_revisions (scope, revision) VALUES ('all', 0), ('clubs', 0)");
        db.exec(
          "INSERT INTO tournament_revisions (tournament_id, revision) SELECT tournament_id, 0 FROM tournaments",
        );
      }
      const columns = [...(version < 3 ? VERSION_3_COLUMNS : []), ...(version < 4 ? VERSION_4_COLUMNS : [])];
      for (const c of columns) {
        // A version 1 store got the revision tables with their current columns just above.
        const present = db
          .prepare<[string, string], { n: number }>(
            "SELECT count(*) AS n FROM pragma_table_info(?) WHERE name = ?",
          )
          .get(c.table, c.column)!.n;
        if (present === 0) db.exec(`ALTER TABLE ${c.table} ADD COLUMN ${c.ddl}`);
      }
      db.exec("UPDATE tournament_revisions SET stamp = randomblob(8) WHERE stamp IS NULL");
      db.exec("UPDATE store_revisions SET stamp = randomblob(8) WHERE stamp IS NULL");
      for (const o of reference) if (o.type === "trigger") db.exec(o.sql);
      db.pragma(`user_version = ${STORE_SCHEMA_VERSION}`);
    })();
    return version;
  } finally {
    db.close();
  }
}
