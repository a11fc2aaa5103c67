// What the store says about its own changes (schema version 2, stamped since version 4): a revision
// per tournament and one for the clubs table, counted by the triggers of schema/store.sql, each with
// the random stamp of the change that set it. A store that lacks the tables or any of the triggers
// (version 1, or a trigger dropped or altered), or whose version is before 4 (no stamps, blind to
// REPLACE across tournaments), is not trusted, and the build hashes the rows it reads instead (see
// src/ledger/state.ts).
import { createHash } from "node:crypto";
import { closeSync, openSync, readSync, statSync, type BigIntStats } from "node:fs";
import Database from "better-sqlite3";
import { fromReferenceSchema, TRUSTED_REVISIONS_VERSION, VERSION_5_TABLES } from "../schema.ts";

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

/**
 * Why the store's revisions cannot be trusted, or null when they can: the revision tables exist
 * and the store's triggers are exactly those of schema/store.sql, with the same SQL. Any other
 * trigger could undo a revision update (or write rows no trigger counts), so it makes every
 * tournament be fingerprinted by its rows instead: correct, at the cost of reading them. Cheap:
 * the schema rows only. What no check of the schema can see (a writer that turns triggers off for
 * its connection, or drops and recreates them in one transaction) is for `verify`/--rebuild.
 */
export function revisionTrouble(db: Database.Database): string | null {
  const tables = new Set(
    db
      .prepare<[], { name: string }>("SELECT name FROM sqlite_schema WHERE type = 'table'")
      .all()
      .map((r) => r.name),
  );
  const missingTables = REVISION_TABLES.filter((t) => !tables.has(t));
  if (missingTables.length > 0) return `the store has no revision tables (${missingTables.join(", ")})`;
  // Version 2 and 3 revisions are counts without stamps, kept by triggers blind to rows that
  // REPLACE takes from another tournament: a store copied over the file, or such a REPLACE, would
  // go unseen (issue 23). Version 4 is the first whose revisions see both.
  const version = Number(db.pragma("user_version", { simple: true }));
  if (version < TRUSTED_REVISIONS_VERSION)
    return (
      `the store is at schema version ${version}, whose revisions miss rows that REPLACE takes from ` +
      `another tournament and a store copied over the file`
    );
  const have = triggersOf(db);
  const want = schemaTriggers();
  for (const [name, sql] of want) {
    // A version 4 store has no team tables, so none of their triggers: nothing to count there.
    if (!have.has(name) && version < 5 && isTeamTableTrigger(name, tables)) continue;
    if (!have.has(name)) return `the trigger ${name} of schema/store.sql is missing`;
    if (have.get(name) !== sql) return `the trigger ${name} differs from schema/store.sql`;
  }
  for (const name of have.keys())
    if (!want.has(name)) return `the trigger ${name} is not one of schema/store.sql`;
  return null;
}

/** A trigger of a version 5 team table the store does not have. */
function isTeamTableTrigger(name: string, tables: ReadonlySet<string>): boolean {
  return VERSION_5_TABLES.some((t) => name.startsWith(`${t}_revision_`) && !tables.has(t));
}

/** True when the store's revisions can be trusted (revisionTrouble). */
export function maintainsRevisions(db: Database.Database): boolean {
  return revisionTrouble(db) === null;
}

export interface Revisions {
  /** tournament row id → its revision token: the count and the change's random stamp ("17.9f3c…"). */
  tournaments: Map<number, string>;
  /** The revision token of the clubs table. */
  clubs: string;
}

/**
 * A revision's token: its count and its stamp, as SQL text. The count is unique along one file's
 * history; the stamp (64 random bits drawn by the change) is what another history cannot share, so
 * a store copied over the file in place (same inode, equal counts) still shows other tokens.
 */
const TOKEN = "revision || '.' || ifnull(hex(stamp), '')";

/** The revision token of the tournament row `alias`, as an SQL expression (NULL without a row). */
export function tokenOf(alias: string): string {
  return `(SELECT ${TOKEN} FROM tournament_revisions r WHERE r.tournament_id = ${alias}.tournament_id)`;
}

/** The revisions, or null when the store does not maintain them. Call inside the read transaction. */
export function readRevisions(db: Database.Database): Revisions | null {
  if (!maintainsRevisions(db)) return null;
  const tournaments = new Map<number, string>();
  const rows = db
    .prepare<[], [number | bigint, string]>(`SELECT tournament_id, ${TOKEN} FROM tournament_revisions`)
    .raw(true)
    .all();
  for (const [id, token] of rows) tournaments.set(Number(id), String(token));
  const clubs = db
    .prepare<[], string>(`SELECT ${TOKEN} FROM store_revisions WHERE scope = 'clubs'`)
    .pluck()
    .get();
  return { tournaments, clubs: clubs ?? "" };
}

/**
 * The tournaments (row ids, existing or not) whose revision count passed `since`, with their
 * tokens: what changed after a build that read the store at that count. One scan of the small
 * revision table in SQLite, whatever the size of the rest; call inside the read transaction.
 */
export function changedSince(db: Database.Database, since: bigint): Map<number, string> {
  const rows = db
    .prepare<[bigint], [number | bigint, string]>(
      `SELECT tournament_id, ${TOKEN} FROM tournament_revisions WHERE revision > ?`,
    )
    .raw(true)
    .all(since);
  return new Map(rows.map(([id, token]) => [Number(id), String(token)]));
}

/**
 * The `limit` tournaments changed last (row id and token, newest first): a build records them,
 * and the next one finds them unchanged or changed since, never with another token. A store
 * restored from an older copy of itself shows older tokens there; another store, other stamps.
 * `upTo`: those changed last at or before that count (what a build that read the store at that
 * count recorded, less what changed since). By the revision index: O(limit).
 */
export function recentRevisions(db: Database.Database, limit: number, upTo?: bigint): [number, string][] {
  return db
    .prepare<[bigint, number], [number | bigint, string]>(
      `SELECT tournament_id, ${TOKEN} FROM tournament_revisions WHERE revision <= ?
       ORDER BY revision DESC, tournament_id DESC LIMIT ?`,
    )
    .raw(true)
    .all(upTo ?? MAX_COUNT, limit)
    .map(([id, token]) => [Number(id), String(token)]);
}

/** SQLite's largest integer: no count passes it. */
const MAX_COUNT = 2n ** 63n - 1n;

/** The tokens of these tournaments now (null: no revision row). */
export function revisionTokens(db: Database.Database, ids: readonly number[]): (string | null)[] {
  const stmt = db
    .prepare<[number], string>(`SELECT ${TOKEN} FROM tournament_revisions WHERE tournament_id = ?`)
    .pluck();
  return ids.map((id) => stmt.get(id) ?? null);
}

/**
 * The state of the store as its revisions name it, O(1): the store-wide rows, which every change
 * the triggers see moves to a new count and a fresh stamp. Null when revisions are not kept.
 */
export function revisionState(db: Database.Database): string | null {
  if (!maintainsRevisions(db)) return null;
  const hash = createHash("sha256");
  const scopes = db
    .prepare<[], [string, string]>(`SELECT scope, ${TOKEN} FROM store_revisions ORDER BY scope`)
    .raw(true)
    .all();
  for (const [scope, token] of scopes) hash.update(`${scope}=${token}\n`);
  return hash.digest("hex");
}

/**
 * The store-wide counts of changes now: `all` (every change) and the clubs' token; null when the
 * store does not maintain revisions. O(1): two rows.
 */
export function revisionCounts(db: Database.Database): { all: bigint; clubs: string } | null {
  if (!maintainsRevisions(db)) return null;
  let all = 0n;
  let clubs = "";
  const rows = db
    .prepare<[], [string, bigint, string]>(`SELECT scope, revision, ${TOKEN} FROM store_revisions`)
    .safeIntegers(true)
    .raw(true)
    .all();
  for (const [scope, revision, token] of rows) {
    if (scope === "all") all = revision;
    if (scope === "clubs") clubs = String(token);
  }
  return { all, clubs };
}

/**
 * A key that names the store's state, for the whole-snapshot up-to-date check: the hash of the
 * store-wide revisions and of the file's identity and times when the store keeps revisions (O(1)
 * at any size; a commit or a checkpoint that changed nothing only costs the per-tournament check), else
 * the sha256 of the file,
 * else null (a WAL-mode store without revisions: its file alone does not name its state).
 */
export function storeKeyOf(db: Database.Database, file: string): string | null {
  // The store-wide revisions only ('all', which every trigger counts with a fresh random stamp,
  // and 'clubs'): every change a trigger sees changes 'all', so the tournaments' own tokens
  // (derived from it) add nothing here, and reading them would make a no-change rebuild cost
  // O(tournaments). The file's identity and times too: a change that no trigger sees (a page
  // overwritten, the schema or user_version altered, the revision tables written by hand, the
  // file replaced) still makes the store differ.
  const state = revisionState(db);
  if (state !== null)
    return `revisions:${createHash("sha256").update(state).update(fileStamp(file)).digest("hex")}`;
  if (String(db.pragma("journal_mode", { simple: true })).toLowerCase() === "wal") return null;
  return `sha256:${sha256File(file)}`;
}

/**
 * Which history a ledger's records of this store belong to. With stamped revisions (version 4)
 * every token carries its change's random stamp, which another history cannot share: a copy of the
 * file anywhere (a CI runner that downloads the store) continues the same history, and another
 * store shows other stamps (the tick's check of the last changed tournaments, the clubs' token in
 * every fingerprint). Without trusted revisions the file's identity names it, as before.
 */
export function storeHistory(db: Database.Database, identity: string): string {
  return maintainsRevisions(db) ? "stamped" : identity;
}

/**
 * Which file the store is: device, inode and birth time. Revisions are counts along one file's
 * history; another file (a store rebuilt from scratch, another store at the same path) may repeat
 * them, so a tournament's fingerprint includes this too and every tournament of another file is
 * rendered again. (Another store copied over this file in place keeps its identity: the stamps of
 * its revisions, version 4, tell it apart.) ("-" when the file cannot be examined.)
 */
export function fileIdentity(file: string, stat?: BigIntStats): string {
  try {
    const st = stat ?? statSync(file, { bigint: true });
    return `${st.dev}:${st.ino}:${st.birthtimeNs}`;
  } catch {
    return "-";
  }
}

/**
 * Device, inode, size and change times of the store and of its WAL, if any. The WAL's ctime is
 * left out: SQLite running as root fchown()s the -wal file to the database's owner each time it
 * opens it, so every read (this build's own) would change it; a write changes its mtime.
 */
function fileStamp(file: string): string {
  const stamp = (f: string, ctime: boolean): string => {
    try {
      const st = statSync(f, { bigint: true });
      return `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}${ctime ? `:${st.ctimeNs}` : ""}`;
    } catch {
      return "-";
    }
  };
  return `${stamp(file, true)}|${stamp(`${file}-wal`, false)}`;
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
