// The publication's bookkeeping, kept in O(change): one SQLite database beside the versions
// (`<store>/bookkeeping.sqlite`, never inside a served version) that describes the live version.
//
// Tables:
//   meta     generation, the live version it describes, the change log's id and start, and the
//            live files and bytes in all (kept by apply from the touched owners' change)
//   files    path -> owner, sha256, size, and the generation it last changed in; a row whose
//            sha256 is NULL is a tombstone: the path was removed in that generation
//   owners   owner -> how many files and bytes it has: a tick keeps a whole owner (a tournament,
//            the lists) without reading its paths
//   records  key -> fingerprint, status window, the store row, the report's columns and detail
//            (the per-tournament state, opaque here)
//   members  (list, rank) -> record key: each tournament's places in the lists, in page order
//            (tournament-index.ts)
//   recent   the store's tournaments changed last (row, revision token) as the build read them:
//            the next build finds them again to know it reads the same history (render/snapshot.ts)
// Store rows and revision tokens are kept keyed (keyed-ids.ts): the ledger holds public facts only.
//   pending_* the delta of the next generation, written before the switch
//
// Crash protocol, around the atomic symlink switch (publish/publish.ts):
//   1. stage: one transaction writes the next generation's delta as "pending, targets version X";
//   2. the switch (rename of the link);
//   3. apply: one transaction merges the pending delta, sets the generation and the live version.
// Whoever opens the database next (a build under the lock, or a reader that can write in place)
// applies a pending delta whose target is the live version (the switch happened; the kill came
// before step 3); only a
// build discards one whose target is not (the kill came before the switch). Every version's
// marker holds the generation it was staged as, so a database that does not describe the live
// version (deleted, restored from another run, a snapshot of the previous format) is recognised:
// the build then compares every file, as a first build does, and the change log starts again.
//
// A tick reads the rows of what it writes (point lookups by path), the owners it keeps (one row
// each), and the compact records (fingerprint and window); it writes the changed rows only.
import { randomBytes } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { BuildError, EXIT } from "../shared/errors.ts";
import type { FileEntry } from "./file-entry.ts";
import {
  countRecordSums,
  liveRecordSums,
  recordColumnsDdl,
  RECORD_COLUMNS,
  RECORD_SUMS_KEY,
  sumsOf,
  type RecordSums,
} from "./records.ts";
import type { LedgerNeeds } from "./needs.ts";
import type { Delta, FileRow, Ledger } from "./port.ts";
import { StagedRows } from "./staged-rows.ts";
import { TournamentIndex } from "./tournament-index.ts";

export const BOOKKEEPING_NAME = "bookkeeping.sqlite";
/** The bookkeeping connection's page cache, in KiB (`PRAGMA cache_size = -N`). */
export const BOOKKEEPING_CACHE_KIB = 2048;
// 2: the records' report columns and the list members (tournament-index.ts); 3: each record's
// store row, and its window indexed, so a tick finds what changed without reading every record;
// 4: each record's warnings and standings stop counted, so the report counts them without details.
const FORMAT = "5";

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (k TEXT PRIMARY KEY, v TEXT NOT NULL) STRICT;
CREATE TABLE IF NOT EXISTS files (
  path TEXT PRIMARY KEY, owner TEXT NOT NULL, sha256 BLOB, bytes INTEGER, gen INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS files_owner ON files (owner) WHERE sha256 IS NOT NULL;
CREATE INDEX IF NOT EXISTS files_gen ON files (gen);
CREATE TABLE IF NOT EXISTS owners (owner TEXT PRIMARY KEY, files INTEGER NOT NULL, bytes INTEGER NOT NULL) STRICT;
CREATE TABLE IF NOT EXISTS records (${recordColumnsDdl()}) STRICT;
CREATE INDEX IF NOT EXISTS records_row ON records (row) WHERE row IS NOT NULL;
CREATE INDEX IF NOT EXISTS records_until ON records (vuntil) WHERE vuntil IS NOT NULL;
CREATE INDEX IF NOT EXISTS records_from ON records (vfrom) WHERE vfrom IS NOT NULL;
CREATE INDEX IF NOT EXISTS records_issues ON records (ord) WHERE issues = 1;
CREATE INDEX IF NOT EXISTS records_archive ON records (archive, key) WHERE archive IS NOT NULL;
CREATE INDEX IF NOT EXISTS records_sums ON records (key, nfiles, unknown, vfrom, vuntil, nwarn, stops);
CREATE TABLE IF NOT EXISTS members (
  list TEXT NOT NULL, rank TEXT NOT NULL, key TEXT NOT NULL, PRIMARY KEY (list, rank)
) STRICT, WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS members_key ON members (key);
CREATE TABLE IF NOT EXISTS recent (row TEXT PRIMARY KEY, token TEXT NOT NULL) STRICT;
CREATE TABLE IF NOT EXISTS pending_recent (row TEXT PRIMARY KEY, token TEXT NOT NULL) STRICT;
CREATE TABLE IF NOT EXISTS pending_meta (k TEXT PRIMARY KEY, v TEXT NOT NULL) STRICT;
CREATE TABLE IF NOT EXISTS pending_files (
  path TEXT PRIMARY KEY, owner TEXT, sha256 BLOB, bytes INTEGER
) STRICT, WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS pending_records (${recordColumnsDdl(true)}) STRICT;
CREATE TABLE IF NOT EXISTS pending_members (list TEXT NOT NULL, rank TEXT NOT NULL, key TEXT NOT NULL) STRICT;
`;

export class Bookkeeping implements Ledger {
  readonly file: string;
  needs?: LedgerNeeds;
  private readonly db: Database.Database;
  /** False for a reader of another format: its rows describe nothing (openReader). */
  private current = true;
  /** How a reader reads (openReader): in place with writes refused, or a copy in memory. */
  private reader: "in-place" | "copy" | undefined;
  private readonly getFile: Database.Statement<[string], { owner: string; sha256: Buffer; bytes: number }>;
  private readonly getOwner: Database.Statement<[string], { files: number; bytes: number }>;

  private constructor(file: string, db: Database.Database) {
    this.file = file;
    this.db = db;
    this.getFile = db.prepare("SELECT owner, sha256, bytes FROM files WHERE path = ? AND sha256 IS NOT NULL");
    this.getOwner = db.prepare("SELECT files, bytes FROM owners WHERE owner = ?");
  }

  /** Opens (creating when missing) the bookkeeping of the versions directory `storeDir`. */
  static open(storeDir: string): Bookkeeping {
    const file = path.join(storeDir, BOOKKEEPING_NAME);
    const db = new Database(file);
    // A small page cache (better-sqlite3's default is 16 MiB, all resident after a full build's
    // 80,000-row delta): pages missed come from the OS file cache (docs/design/memory.md).
    db.pragma(`cache_size = -${BOOKKEEPING_CACHE_KIB}`);
    {
      // WAL: a commit is one append and fsync; a reader (verify, deploy) never blocks a build.
      db.pragma("journal_mode = WAL");
      db.pragma("synchronous = FULL");
      const hasMeta = db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'meta'").get();
      const format = hasMeta
        ? db.prepare<[], { v: string }>("SELECT v FROM meta WHERE k = 'format'").get()
        : undefined;
      if (format && format.v !== FORMAT) {
        // Another format: its tables go; the build then compares every file, as a first build does.
        const tables = db
          .prepare<[], string>(
            "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
          )
          .pluck()
          .all();
        for (const t of tables) db.exec(`DROP TABLE "${t.replace(/"/g, '""')}"`);
      }
      db.exec(SCHEMA);
      if (!format || format.v !== FORMAT) {
        const put = db.prepare("INSERT OR REPLACE INTO meta (k, v) VALUES (?, ?)");
        put.run("format", FORMAT);
        put.run("generation", "0");
        put.run("log", randomBytes(8).toString("hex"));
        put.run("logFrom", "1");
      }
    }
    return new Bookkeeping(file, db);
  }

  /**
   * Opens the bookkeeping of `storeDir` to read only, changing nothing (verify, deploy). In place
   * where SQLite may: `query_only` refuses every write, and the connection, not opened read-only,
   * removes the WAL's -shm and -wal files on close as a build does (a read-only connection leaves
   * them behind); it reads one committed state while a build writes. Where it may not make the
   * -shm file (a read-only mount, a user who may only read), it reads a copy of the file in
   * memory, which needs no lock and no file beside it (readOnlyCopy).
   */
  static openReader(storeDir: string): Bookkeeping {
    const file = path.join(storeDir, BOOKKEEPING_NAME);
    let db: Database.Database | undefined;
    let how: "in-place" | "copy" = "in-place";
    try {
      db = new Database(file, { fileMustExist: true });
      db.pragma("query_only = ON");
      db.prepare("SELECT count(*) FROM sqlite_schema").get();
    } catch (e) {
      db?.close();
      if (!cannotOpenHere(e)) throw e;
      db = readOnlyCopy(file);
      how = "copy";
    }
    db.pragma(`cache_size = -${BOOKKEEPING_CACHE_KIB}`);
    const reader = new Bookkeeping(file, db);
    reader.reader = how;
    // Another format (a build of another release wrote it) describes no live version here: only a
    // build may drop its tables, and a reader's queries would not fit them.
    reader.current = reader.format() === FORMAT;
    return reader;
  }

  /** The format the database was written in (undefined: no `meta` table). */
  private format(): string | undefined {
    const hasMeta = this.db
      .prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'meta'")
      .get();
    return hasMeta ? this.meta("format") : undefined;
  }

  /** Runs `read` in one read transaction (deferred: it takes no write lock). */
  consistently<T>(read: () => T): T {
    return this.db.transaction(read).deferred();
  }

  /** The database file, for messages. */
  get name(): string {
    return this.file;
  }

  close(): void {
    this.db.close();
  }

  /** This connection, for the TEMP tables of one build (staged-rows.ts, tournament-index.ts). */
  get connection(): Database.Database {
    return this.db;
  }

  /** The tournament index of one build on this connection: over the live records when `live`. */
  index(live: boolean): TournamentIndex {
    return new TournamentIndex(this.db, live, this.needs);
  }

  /** Fresh TEMP tables for one build's per-file rows (staged-rows.ts), on this connection. */
  staging(): StagedRows {
    return new StagedRows(this.db);
  }

  private meta(k: string, table = "meta"): string | undefined {
    return this.db.prepare<[string], { v: string }>(`SELECT v FROM ${table} WHERE k = ?`).get(k)?.v;
  }

  /** The generation the rows describe (0: none yet). */
  get generation(): number {
    return Number(this.meta("generation") ?? 0);
  }

  /** The version directory the rows describe, if any. */
  get version(): string | undefined {
    return this.meta("version");
  }

  /** The change log's identity: a new one whenever the database is made anew. */
  get log(): string {
    return this.meta("log") ?? "";
  }

  /** The first generation whose changes the log holds: "since G" is known for G >= logFrom - 1. */
  get logFrom(): number {
    return Number(this.meta("logFrom") ?? 1);
  }

  /** The pending delta's target version, if one is staged. */
  pendingTarget(): { version: string; generation: number } | undefined {
    const version = this.meta("version", "pending_meta");
    const generation = this.meta("generation", "pending_meta");
    return version === undefined || generation === undefined
      ? undefined
      : { version, generation: Number(generation) };
  }

  /**
   * Settles a pending delta against the live version: applied when it targets it, discarded when
   * not and `discard` (only a build under the lock may: a build in progress stages before it switches).
   */
  recover(liveVersion: string | undefined, discard: boolean): void {
    const pending = this.pendingTarget();
    if (!pending) return;
    if (pending.version === liveVersion) this.applyOwed();
    else if (discard) this.discard();
  }

  /**
   * Applies a delta whose switch happened (the step a killed build owed). A reader does so only
   * where it can write (its one write: any opener may finish a switched generation); a reader of
   * a copy leaves it, and its rows, not describing the live version, go unused (describes).
   */
  private applyOwed(): void {
    if (this.reader === "copy") return;
    if (this.reader === "in-place") this.db.pragma("query_only = OFF");
    try {
      this.apply();
    } catch (e) {
      // A file only this reader may not write (opened in place, read-only): leave it, as a copy does.
      if (!cannotOpenHere(e)) throw e;
    } finally {
      if (this.reader === "in-place") this.db.pragma("query_only = ON");
    }
  }

  /** True when the rows describe `version`, whose marker says it is generation `markerGeneration`. */
  describes(version: string | undefined, markerGeneration: number | undefined): boolean {
    if (!this.current) return false;
    const g = this.generation;
    return version !== undefined && g > 0 && this.version === version && markerGeneration === g;
  }

  /** The live entry of `p`, if the live version holds it. */
  get(p: string): FileRow | undefined {
    const r = this.getFile.get(p);
    return r && { owner: r.owner, sha256: r.sha256, bytes: r.bytes };
  }

  /** How many files and bytes `owner` has in the live version, if any. */
  owned(owner: string): { files: number; bytes: number } | undefined {
    return this.getOwner.get(owner);
  }

  /** Every owner with files in the live version. O(owners). */
  owners(): string[] {
    return this.db
      .prepare<[], { owner: string }>("SELECT owner FROM owners")
      .all()
      .map((r) => r.owner);
  }

  /** The live files of `owner`. */
  filesOf(owner: string): Array<[string, FileEntry]> {
    return this.db
      .prepare<[string], { path: string; sha256: Buffer; bytes: number }>(
        "SELECT path, sha256, bytes FROM files WHERE owner = ? AND sha256 IS NOT NULL",
      )
      .all(owner)
      .map((r) => [r.path, { sha256: r.sha256, bytes: r.bytes }]);
  }

  /**
   * Appends to `out` the live paths of the given owners: one scan of the rows (paths and owners
   * only), for when most owners are wanted (making a version from scratch). O(files).
   */
  pathsOwnedBy(owners: ReadonlySet<string>, out: string[]): void {
    const it = this.db
      .prepare<[], [string, string]>("SELECT path, owner FROM files WHERE sha256 IS NOT NULL")
      .raw()
      .iterate();
    for (const [p, owner] of it) if (owners.has(owner)) out.push(p);
  }

  /** Every tournament record (`t:<id>`): its fingerprint and store row (keyed). O(tournaments). */
  *tournamentRecords(): Generator<{ key: string; fp: string; row: string | null }> {
    if (!this.current) return; // another format's records may lack these columns
    yield* this.db
      .prepare<[], { key: string; fp: string; row: string | null }>(
        "SELECT key, fp, row FROM records WHERE key >= 't:' AND key < 't;'",
      )
      .iterate();
  }

  /** Every live file, in path order: for the full comparisons (verify, a walk). O(files). */
  *allFiles(): Generator<[string, FileRow]> {
    const it = this.db
      .prepare<[], { path: string; owner: string; sha256: Buffer; bytes: number }>(
        "SELECT path, owner, sha256, bytes FROM files WHERE sha256 IS NOT NULL ORDER BY path",
      )
      .iterate();
    for (const r of it) yield [r.path, { owner: r.owner, sha256: r.sha256, bytes: r.bytes }];
  }

  /**
   * Files and bytes of the live version: O(1), from `meta` (kept by apply); a database written
   * before those rows existed sums the owners instead (O(owners)).
   */
  totals(): { files: number; bytes: number } {
    const files = this.meta("files");
    const bytes = this.meta("bytes");
    if (files !== undefined && bytes !== undefined) return { files: Number(files), bytes: Number(bytes) };
    return this.ownerSums();
  }

  /**
   * The tournament records' sums as kept in `meta` for the report (null: none kept yet) and as
   * counted from the records now (O(records)): verify compares them.
   */
  recordSums(): { kept: RecordSums | null; counted: RecordSums } {
    return { kept: liveRecordSums(this.db), counted: countRecordSums(this.db) };
  }

  /** Sums the owners' totals, of the owners in temp.touched only when `touched`. */
  private ownerSums(touched = false): { files: number; bytes: number } {
    const r = this.db
      .prepare<[], { files: number | null; bytes: number | null }>(
        `SELECT sum(files) AS files, sum(bytes) AS bytes FROM owners${
          touched ? " WHERE owner IN (SELECT owner FROM temp.touched)" : ""
        }`,
      )
      .get();
    return { files: r?.files ?? 0, bytes: r?.bytes ?? 0 };
  }

  /**
   * Paths changed after generation `since`, up to the live one: written (with their entry) or
   * removed (tombstones). Undefined when the log does not reach back that far.
   */
  changesSince(since: number): { written: Map<string, FileEntry>; removed: string[] } | undefined {
    if (since < this.logFrom - 1 || since > this.generation) return undefined;
    const written = new Map<string, FileEntry>();
    const removed: string[] = [];
    const it = this.db
      .prepare<[number], { path: string; sha256: Buffer | null; bytes: number | null }>(
        // INDEXED BY: ordered by path alone, SQLite scans the whole table in key order (every
        // row read, seconds at millions of files); by the generation index it reads the changed
        // rows and sorts those.
        "SELECT path, sha256, bytes FROM files INDEXED BY files_gen WHERE gen > ? ORDER BY path",
      )
      .iterate(since);
    for (const r of it) {
      if (r.sha256 === null) removed.push(r.path);
      else written.set(r.path, { sha256: r.sha256, bytes: r.bytes! });
    }
    return { written, removed };
  }

  /** Step 1: the next generation's delta, pending, targeting `version`. One transaction. */
  stage(delta: Delta, version: string, generation: number): void {
    const run = this.db.transaction(() => {
      this.clearPending();
      const putFile = this.db.prepare(
        "INSERT INTO pending_files (path, owner, sha256, bytes) VALUES (?, ?, ?, ?)",
      );
      for (const [p, row] of delta.files) {
        putFile.run(p, row.owner, row.sha256, row.bytes);
      }
      for (const p of delta.removed) if (!delta.files.has(p)) putFile.run(p, null, null, null);
      delta.staged?.copyToPending(delta.completeFiles);
      const putRecord = this.db.prepare(
        "INSERT INTO pending_records (key, fp, vfrom, vuntil, detail) VALUES (?, ?, ?, ?, ?)",
      );
      for (const [k, r] of delta.records) putRecord.run(k, r.fp, r.from, r.until, r.detail);
      for (const k of delta.removedRecords)
        if (!delta.records.has(k)) putRecord.run(k, null, null, null, null);
      delta.index?.copyToPending();
      const put = this.db.prepare("INSERT INTO pending_meta (k, v) VALUES (?, ?)");
      put.run("version", version);
      put.run("generation", String(generation));
      put.run("completeFiles", delta.completeFiles ? "1" : "0");
      put.run("completeRecords", delta.completeRecords ? "1" : "0");
      put.run("restartLog", delta.restartLog ? "1" : "0");
    });
    run.immediate();
  }

  /** Step 3: merges the pending delta. One transaction; a no-op when nothing is pending. */
  apply(): void {
    const run = this.db.transaction(() => {
      const pending = this.pendingTarget();
      if (!pending) return;
      const g = pending.generation;
      const flag = (k: string): boolean => this.meta(k, "pending_meta") === "1";
      const db = this.db;
      // Owners whose totals change: those of the rows about to change, before and after.
      db.exec("CREATE TEMP TABLE IF NOT EXISTS touched (owner TEXT PRIMARY KEY) WITHOUT ROWID");
      db.exec("DELETE FROM temp.touched");
      if (flag("completeFiles")) {
        db.exec("INSERT OR IGNORE INTO temp.touched SELECT owner FROM owners");
        db.prepare(
          `UPDATE files SET sha256 = NULL, bytes = NULL, gen = ?
           WHERE sha256 IS NOT NULL AND path NOT IN (SELECT path FROM pending_files)`,
        ).run(g);
      }
      // CROSS JOIN: the pending rows drive the lookups. Left to choose, SQLite scanned every file
      // row and probed the pending ones: 374 ms at 825,670 files for a tick's 30 rows.
      db.exec(
        `INSERT OR IGNORE INTO temp.touched
           SELECT f.owner FROM pending_files p CROSS JOIN files f ON f.path = p.path WHERE f.sha256 IS NOT NULL`,
      );
      db.exec("INSERT OR IGNORE INTO temp.touched SELECT owner FROM pending_files WHERE owner IS NOT NULL");
      // A row keeps its generation when its bytes did not change (a complete delta lists every file).
      db.prepare(
        `INSERT INTO files (path, owner, sha256, bytes, gen)
           SELECT path, coalesce(owner, ''), sha256, bytes, ? FROM pending_files WHERE true
         ON CONFLICT (path) DO UPDATE SET
           owner = coalesce(excluded.owner, files.owner),
           gen = CASE WHEN files.sha256 IS excluded.sha256 AND files.bytes IS excluded.bytes
                      THEN files.gen ELSE excluded.gen END,
           sha256 = excluded.sha256, bytes = excluded.bytes`,
      ).run(g);
      // The live totals follow the touched owners' change, so reading them is O(1) (a no-change
      // rebuild reports them) and keeping them O(change).
      const total = this.totals();
      const before = this.ownerSums(true);
      db.exec("DELETE FROM owners WHERE owner IN (SELECT owner FROM temp.touched)");
      db.exec(
        `INSERT INTO owners (owner, files, bytes)
           SELECT owner, count(*), sum(bytes) FROM files
           WHERE sha256 IS NOT NULL AND owner IN (SELECT owner FROM temp.touched) GROUP BY owner`,
      );
      const after = this.ownerSums(true);
      // The tournament records' sums follow the same way (the report reads them: a tick then
      // sums only what it changed); counted whole when every record is replaced or none are kept.
      const complete = flag("completeRecords");
      const sums = complete ? null : liveRecordSums(db);
      const changedSums = (): RecordSums =>
        sumsOf(
          db,
          "pending_records p CROSS JOIN records r ON r.key = p.key WHERE p.key >= 't:' AND p.key < 't;'",
          ["r.nfiles", "r.unknown", "r.nwarn", "r.stops"],
        );
      const sumsBefore = sums && changedSums();
      if (complete) db.exec("DELETE FROM records; DELETE FROM members;");
      db.exec("DELETE FROM records WHERE key IN (SELECT key FROM pending_records WHERE fp IS NULL)");
      // A pending record replaces its tournament's places in every list (none when it is removed).
      db.exec("DELETE FROM members WHERE key IN (SELECT key FROM pending_records)");
      db.exec(
        `INSERT OR REPLACE INTO records (${RECORD_COLUMNS})
           SELECT ${RECORD_COLUMNS}
           FROM pending_records WHERE fp IS NOT NULL`,
      );
      db.exec("INSERT INTO members (list, rank, key) SELECT list, rank, key FROM pending_members");
      // The store's tournaments changed last, as this generation's build read them (a few rows).
      db.exec("DELETE FROM recent; INSERT INTO recent (row, token) SELECT row, token FROM pending_recent");
      const put = db.prepare("INSERT OR REPLACE INTO meta (k, v) VALUES (?, ?)");
      put.run("generation", String(g));
      put.run("version", pending.version);
      put.run("files", String(total.files - before.files + after.files));
      put.run("bytes", String(total.bytes - before.bytes + after.bytes));
      let next: RecordSums;
      if (sums && sumsBefore) {
        const sumsAfter = changedSums();
        const keys = Object.keys(sums) as (keyof RecordSums)[];
        next = Object.fromEntries(
          keys.map((k) => [k, sums[k] - sumsBefore[k] + sumsAfter[k]]),
        ) as unknown as RecordSums;
      } else next = countRecordSums(db);
      put.run(RECORD_SUMS_KEY, JSON.stringify(next));
      if (flag("restartLog")) put.run("logFrom", String(g + 1));
      this.clearPending();
    });
    run.immediate();
  }

  /** Drops a pending delta whose switch never happened. */
  discard(): void {
    this.db.transaction(() => this.clearPending()).immediate();
  }

  private clearPending(): void {
    this.db.exec(
      "DELETE FROM pending_meta; DELETE FROM pending_files; DELETE FROM pending_records; DELETE FROM pending_members; DELETE FROM pending_recent;",
    );
  }
}

/** SQLite could not open the file read-only in place: no -shm can be made, or none may be read. */
function cannotOpenHere(e: unknown): boolean {
  const code = (e as { code?: unknown }).code;
  return (
    typeof code === "string" && (code.startsWith("SQLITE_CANTOPEN") || code.startsWith("SQLITE_READONLY"))
  );
}

/**
 * The bookkeeping read into memory, for a reader that cannot use its WAL in place. Safe only when
 * the file alone holds the whole state: a non-empty -wal holds commits the file lacks (a build
 * writing now, or one killed before its last checkpoint), and a file that changed while it was
 * read may be torn; both are refused, naming the fix. The header's WAL mark (bytes 18 and 19) is
 * set to the rollback journal's: an in-memory database has no WAL to open.
 */
function readOnlyCopy(file: string): Database.Database {
  const wal = walSize(file);
  const before = statSync(file, { bigint: true });
  const bytes = readFileSync(file);
  const after = statSync(file, { bigint: true });
  const changed = before.mtimeNs !== after.mtimeNs || before.size !== after.size || walSize(file) !== wal;
  if (wal > 0 || changed) {
    throw new BuildError(
      `The bookkeeping ${file} cannot be read read-only now.`,
      [
        {
          what: changed
            ? "it changed while it was read (a build is writing it)"
            : "its write-ahead log holds changes not yet in the file, and this reader may not fold them in",
          where: `${file}-wal`,
          fix: changed
            ? "run the command again once the build has finished"
            : "run the command again once the build has finished; after a killed build, run `build-api build` once with write access to the snapshot's folder",
        },
      ],
      EXIT.locked,
    );
  }
  if (bytes.length >= 20) bytes[18] = bytes[19] = 1;
  return new Database(bytes, { readonly: true });
}

/** The size of `file`'s write-ahead log (0: none). */
function walSize(file: string): number {
  try {
    return statSync(`${file}-wal`).size;
  } catch {
    return 0;
  }
}

/** A tournament index in memory, for a render that publishes nothing (tests render into a Map). */
export function memoryIndex(): TournamentIndex {
  const db = new Database(":memory:");
  db.exec(SCHEMA);
  return new TournamentIndex(db, false);
}
