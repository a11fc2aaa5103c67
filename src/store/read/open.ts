// Opening a store: read-only, after proving it is an intact SQLite file with the schema this
// build-api knows. Failures throw a BuildError with the exit code of their class.
import { existsSync, statSync } from "node:fs";
import { basename } from "node:path";
import Database from "better-sqlite3";
import { BuildError, EXIT, type Problem } from "../../shared/errors.ts";
import { StoreReader, type Store } from "./reader.ts";
import { fileIdentity, REVISION_TABLES } from "./revisions.ts";
import { contentStamp, storeReadError } from "./read-failure.ts";
import { replacedError } from "./replaced.ts";
import {
  fromReferenceSchema,
  READABLE_SCHEMA_VERSIONS,
  STORE_SCHEMA_VERSION,
  VERSION_3_COLUMNS,
  VERSION_3_TABLES,
  VERSION_5_TABLES,
  VERSION_4_COLUMNS,
} from "../schema.ts";
import { storeSizeProblems } from "./sizes.ts";

export type { Store } from "./reader.ts";

/**
 * The page cache of a store connection, in KiB (`PRAGMA cache_size = -N`). better-sqlite3 builds
 * SQLite with a 16 MiB default, and a build holds up to three connections at once (the store here,
 * each render worker's, the bookkeeping's): 16 MiB each, filled by quick_check and by the render,
 * is resident memory the build never reads again. Rows are read once per tournament through
 * indexes; a page missed here comes from the OS file cache. 2 MiB took 14 MiB off each connection's
 * RSS at M with no slower quick_check or render (docs/design/memory.md).
 */
export const STORE_CACHE_KIB = 2048;

/** The connection settings every store read uses, before its first read. */
export function readPragmas(db: Database.Database): void {
  // A hostile store's schema must not run functions or virtual tables with side effects.
  db.pragma("trusted_schema = OFF");
  db.pragma(`cache_size = -${STORE_CACHE_KIB}`);
  // Memory-mapped reads would put the store's pages in this process's RSS: read() them instead.
  db.pragma("mmap_size = 0");
}

const CREATE_HINT = "pass a store created with `build-api init-store` and filled by the importer";

function unreadable(file: string, what: string, fix = CREATE_HINT): BuildError {
  return new BuildError(`Cannot read the store ${file}.`, [{ where: file, what, fix }], EXIT.storeUnreadable);
}

/** Table name → column names, from an in-memory database built with schema/store.sql. */
let expected: Map<string, string[]> | null = null;

function expectedSchema(): Map<string, string[]> {
  expected ??= fromReferenceSchema(tableColumns);
  return expected;
}

function tableColumns(db: Database.Database): Map<string, string[]> {
  const tables = db
    .prepare<[], { name: string }>(
      "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name",
    )
    .all();
  const columns = db.prepare<[string], { name: string }>("SELECT name FROM pragma_table_info(?)");
  return new Map(tables.map((t) => [t.name, columns.all(t.name).map((c) => c.name)]));
}

/** The version problem, or null when the version is the one this build-api reads. */
function versionProblem(file: string, version: number): Problem | null {
  if (READABLE_SCHEMA_VERSIONS.includes(version)) return null;
  const where = `${file}: PRAGMA user_version`;
  if (version === 0) {
    return {
      where,
      what: `the store has no schema version (0); build-api reads version ${STORE_SCHEMA_VERSION}`,
      fix: CREATE_HINT,
    };
  }
  if (version > STORE_SCHEMA_VERSION) {
    return {
      where,
      what: `the store has schema version ${version}, newer than version ${STORE_SCHEMA_VERSION} that this build-api reads`,
      fix: "upgrade build-api to a release that reads this version",
    };
  }
  return {
    where,
    what: `the store has schema version ${version}, different from version ${STORE_SCHEMA_VERSION} that this build-api reads`,
    fix: `migrate the store to version ${STORE_SCHEMA_VERSION}`,
  };
}

/** Every missing table and every missing column, not only the first. A store older than version 3
 * may lack the columns version 3 added (the reader reads NULL for them), one older than version 4
 * the revision stamps (its revisions are not trusted: revisions.ts revisionTrouble). */
function schemaProblems(file: string, db: Database.Database, version: number): Problem[] {
  const optional = new Set(
    [...(version < 3 ? VERSION_3_COLUMNS : []), ...(version < 4 ? VERSION_4_COLUMNS : [])].map(
      (c) => `${c.table}.${c.column}`,
    ),
  );
  const actual = tableColumns(db);
  const views = new Set(
    db
      .prepare<[], { name: string }>("SELECT name FROM sqlite_schema WHERE type = 'view'")
      .all()
      .map((v) => v.name),
  );
  const problems: Problem[] = [];
  for (const [table, columns] of expectedSchema()) {
    // Version 1 stores have no revision tables; readRevisions() tells whether they are kept.
    if (REVISION_TABLES.includes(table) && !actual.has(table)) continue;
    // A store before version 3 has no round schedule: read as if it were empty.
    if (version < 3 && VERSION_3_TABLES.includes(table) && !actual.has(table)) continue;
    // A store before version 5 has no team tables: read as holding no team event.
    if (version < 5 && VERSION_5_TABLES.includes(table) && !actual.has(table)) continue;
    const have = actual.get(table);
    if (!have) {
      problems.push({
        where: `${file}: table ${table}`,
        what: views.has(table) ? "is a view, not a table" : "the table is missing",
        fix: "create it as schema/store.sql defines it",
      });
      continue;
    }
    for (const column of columns) {
      if (!have.includes(column) && !optional.has(`${table}.${column}`)) {
        problems.push({
          where: `${file}: table ${table}, column ${column}`,
          what: "the column is missing",
          fix: "add it as schema/store.sql defines it",
        });
      }
    }
  }
  return problems;
}

export interface OpenOptions {
  /**
   * Run `PRAGMA quick_check` (reads every page: O(store)). Full builds, --rebuild and `verify` do;
   * a tick does not (it reads only what changed), and a damaged page it does read still fails
   * with EXIT.storeUnreadable (reader.ts guard). Default true.
   */
  quickCheck?: boolean;
}

/** The problems of `PRAGMA quick_check(limit)`: none when the store is intact. */
export function integrityProblems(db: Database.Database, file: string, limit = 20): Problem[] {
  const check = db.pragma(`quick_check(${limit})`) as { quick_check: string }[];
  if (check.length === 1 && check[0]!.quick_check === "ok") return [];
  return check.map((row) => ({
    where: file,
    what: `integrity check: ${row.quick_check}`,
    fix: "restore the store from a good copy",
  }));
}

/** Opens a store read-only; throws BuildError (storeUnreadable or storeSchema) when it cannot be
 * read or does not have the expected schema. The file is never written. */
export function openStore(file: string, opts: OpenOptions = {}): Store {
  let size: number;
  let identity: string;
  let opened: string;
  try {
    const stat = statSync(file, { bigint: true });
    if (!stat.isFile()) throw unreadable(file, "is not a file");
    size = Number(stat.size);
    identity = fileIdentity(file, stat);
    opened = `${stat.size}:${stat.mtimeNs}`;
  } catch (error) {
    if (error instanceof BuildError) throw error;
    throw unreadable(
      file,
      `the store file cannot be found or read (${(error as NodeJS.ErrnoException).code})`,
    );
  }
  // SQLite treats an empty file as an empty database; for a store it means truncated.
  if (size === 0) throw unreadable(file, "the file is empty (0 bytes)", "restore the store from a good copy");

  let db: Database.Database;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw unreadable(file, `cannot open the file: ${(error as Error).message}`);
  }
  try {
    readPragmas(db);
    // One read transaction for the whole build: every read sees one state of the store. In
    // rollback-journal mode the SHARED lock it takes keeps writers from committing until the
    // build closes the store; in WAL mode writers go on but this connection keeps its snapshot.
    db.exec("BEGIN");
    const corrupt = opts.quickCheck === false ? [] : integrityProblems(db, file);
    if (corrupt.length > 0) {
      throw new BuildError(`Cannot read the store ${file}: it is corrupt.`, corrupt, EXIT.storeUnreadable);
    }
    const userVersion = db.pragma("user_version", { simple: true }) as number;
    const version = versionProblem(file, userVersion);
    if (version)
      throw new BuildError(`The store ${file} has the wrong schema version.`, [version], EXIT.storeSchema);
    const missing = schemaProblems(file, db, userVersion);
    if (missing.length > 0) {
      throw new BuildError(
        `The store ${file} lacks tables or columns of the schema.`,
        missing,
        EXIT.storeSchema,
      );
    }
    // Before anything is read: a store far beyond the limits fails here, fast and small.
    const sizes = storeSizeProblems(db, basename(file));
    if (sizes.problems.length > 0) {
      throw new BuildError(
        `The store ${file} is beyond the size limits; nothing was published.`,
        sizes.problems,
        EXIT.storeData,
      );
    }
    // The checks above read the store: its transaction holds a state of the file opened now. The
    // path must still name the file stat()ed before: else that state may be another file's.
    if (fileIdentity(file) !== identity) throw replacedError(file, "while the build opened it");
    return new StoreReader(db, file, identity, sizes.vocabulary);
  } catch (error) {
    db.close();
    if (error instanceof BuildError) throw error;
    const code = (error as { code?: unknown }).code;
    if (code === "SQLITE_CANTOPEN" && existsSync(`${file}-wal`) && !existsSync(`${file}-shm`)) {
      // Not damage: a WAL store's readers need its -shm file, which SQLite cannot create here.
      throw unreadable(
        file,
        `the store is in WAL mode (${basename(file)}-wal is beside it) and SQLite must create its ` +
          `-shm file, but this user cannot write the store's directory`,
        "run the build as a user who can write that directory, or take the store out of WAL mode " +
          `once where it can be written: sqlite3 ${file} 'PRAGMA journal_mode=DELETE'`,
      );
    }
    const what =
      code === "SQLITE_NOTADB"
        ? "is not a SQLite database"
        : code === "SQLITE_CORRUPT"
          ? "is corrupt or truncated (database disk image is malformed)"
          : `cannot be read: ${(error as Error).message}`;
    // A writer's lock or a write in place is named as such (read-failure.ts), not as damage.
    if (code === "SQLITE_NOTADB" && contentStamp(file) === opened)
      throw unreadable(file, `the file ${what}`, CREATE_HINT);
    throw storeReadError(file, error, `the file ${what}`, opened);
  }
}

/**
 * Opens a store that openStore() already checked in this build, for a worker thread: read-only,
 * inside one read transaction, without the checks (their cost is paid once, by the main thread).
 * `identity` is the file the main thread opened (fileIdentity): the path must name it before the
 * open and after the first read, so this connection reads that very file; else the build fails
 * (replacedError). The caller proves that it reads the main thread's state of that file (see
 * src/render/worker.ts).
 */
export function openCheckedStore(file: string, identity: string): Store {
  if (fileIdentity(file) !== identity) throw replacedError(file, "while the build ran");
  let db: Database.Database;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
  } catch {
    throw replacedError(file, "while the build ran");
  }
  try {
    readPragmas(db);
    db.exec("BEGIN");
    // The first read fixes the transaction's state: of the file opened above, checked below.
    db.pragma("user_version", { simple: true });
    db.prepare("SELECT count(*) FROM sqlite_schema").get();
    if (fileIdentity(file) !== identity) throw replacedError(file, "while the build ran");
    return new StoreReader(db, file, identity);
  } catch (error) {
    db.close();
    if (error instanceof BuildError) throw error;
    throw unreadable(file, `cannot open the file: ${(error as Error).message}`);
  }
}
