// What the store says about its own changes (schema version 2): a revision per tournament and one
// for the clubs table, counted by the triggers of schema/store.sql. A store that lacks the tables
// or any of the triggers (version 1, or a trigger dropped or altered) maintains nothing, and the
// build hashes the rows it reads instead (see src/incremental/state.ts).
import { createHash } from "node:crypto";
import { closeSync, openSync, readSync, statSync } from "node:fs";
import Database from "better-sqlite3";
import { fromReferenceSchema } from "../schema.ts";

/** Tables that only version 2 has: their absence is not a schema problem. */
export const REVISION_TABLES: readonly string[] = ["store_revisions", "tournament_revisions"];

/** Trigger name → its SQL text, as schema/store.sql creates it. */
let expectedTriggers: Map<string, string> | null = null;

function triggersOf(db: Database.Database): Map<string, string> {
  const rows = db
    .prepare<[], { name: string; sql: string | null }>(
      "SELECT name, sql FROM sqlite_schema WHERE type = 'trigger'",
    )
    .all();
  return new Map(rows.map((r) => [r.name, r.sql ?? ""]));
}

export function schemaTriggers(): Map<string, string> {
  expectedTriggers ??= fromReferenceSchema(triggersOf);
  return expectedTriggers;
}

/** True when the store has the revision tables and every trigger of schema/store.sql, unchanged. */
export function maintainsRevisions(db: Database.Database): boolean {
  const tables = new Set(
    db
      .prepare<[], { name: string }>("SELECT name FROM sqlite_schema WHERE type = 'table'")
      .all()
      .map((r) => r.name),
  );
  if (!REVISION_TABLES.every((t) => tables.has(t))) return false;
  const have = triggersOf(db);
  for (const [name, sql] of schemaTriggers()) if (have.get(name) !== sql) return false;
  return true;
}

export interface Revisions {
  /** tournament row id → its revision. */
  tournaments: Map<number, string>;
  /** The revision of the clubs table. */
  clubs: string;
  /** One hash of every revision: names the state of the whole store. */
  store: string;
}

/** The revisions, or null when the store does not maintain them. Call inside the read transaction. */
export function readRevisions(db: Database.Database): Revisions | null {
  if (!maintainsRevisions(db)) return null;
  const hash = createHash("sha256");
  const tournaments = new Map<number, string>();
  const rows = db
    .prepare<[], [number | bigint, number | bigint]>(
      "SELECT tournament_id, revision FROM tournament_revisions ORDER BY tournament_id",
    )
    .raw(true)
    .all();
  for (const [id, token] of rows) {
    tournaments.set(Number(id), String(token));
    hash.update(`${id}:${token}\n`);
  }
  const scopes = db
    .prepare<[], [string, number | bigint]>("SELECT scope, revision FROM store_revisions ORDER BY scope")
    .raw(true)
    .all();
  let clubs = "";
  for (const [scope, token] of scopes) {
    if (scope === "clubs") clubs = String(token);
    hash.update(`${scope}=${token}\n`);
  }
  return { tournaments, clubs, store: hash.digest("hex") };
}

/**
 * A key that names the store's state, for the whole-snapshot up-to-date check: the hash of every
 * revision and of the file's identity and times when the store keeps revisions (cheap at any
 * size; a commit or a checkpoint that changed nothing only costs the per-tournament check), else
 * the sha256 of the file,
 * else null (a WAL-mode store without revisions: its file alone does not name its state).
 */
export function storeKeyOf(db: Database.Database, file: string): string | null {
  const revisions = readRevisions(db);
  // The file's identity and times too: a change that no trigger sees (a page overwritten, the
  // schema or user_version altered, the file replaced) still makes the store differ.
  if (revisions)
    return `revisions:${createHash("sha256").update(revisions.store).update(fileStamp(file)).digest("hex")}`;
  if (String(db.pragma("journal_mode", { simple: true })).toLowerCase() === "wal") return null;
  return `sha256:${sha256File(file)}`;
}

/**
 * Which file the store is: device, inode and birth time. Revisions are counts along one file's
 * history; another file (a store rebuilt from scratch, another store at the same path) may repeat
 * them, so a tournament's fingerprint includes this too and every tournament of another file is
 * rendered again. ("-" when the file cannot be examined.)
 */
export function fileIdentity(file: string): string {
  try {
    const st = statSync(file, { bigint: true });
    return `${st.dev}:${st.ino}:${st.birthtimeNs}`;
  } catch {
    return "-";
  }
}

/** Device, inode, size and change times of the store and of its WAL, if any. */
function fileStamp(file: string): string {
  const stamp = (f: string): string => {
    try {
      const st = statSync(f, { bigint: true });
      return `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
    } catch {
      return "-";
    }
  };
  return `${stamp(file)}|${stamp(`${file}-wal`)}`;
}

export function sha256File(file: string): string {
  const hash = createHash("sha256");
  const buf = Buffer.allocUnsafe(1 << 20);
  const fd = openSync(file, "r");
  try {
    for (let n; (n = readSync(fd, buf, 0, buf.length, null)) > 0;) hash.update(buf.subarray(0, n));
  } finally {
    closeSync(fd);
  }
  return hash.digest("hex");
}

/** The key of the store `file` as it is now, read in a transaction of its own; null if unreadable. */
export function currentStoreKey(file: string): string | null {
  let db: Database.Database | undefined;
  try {
    // Before anything reads it: /dev/zero would be hashed forever and a FIFO would block. The
    // build's openStore() then says what the path is.
    if (!statSync(file).isFile()) return null;
    db = new Database(file, { readonly: true, fileMustExist: true });
    db.pragma("trusted_schema = OFF");
    db.exec("BEGIN");
    return storeKeyOf(db, file);
  } catch {
    return null;
  } finally {
    db?.close();
  }
}
