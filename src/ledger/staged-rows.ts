// One build's per-file rows, kept in the bookkeeping connection's TEMP tables rather than in the
// main thread's heap, so that a build's memory does not grow with its file count (issue 19.5,
// docs/design/memory.md). TEMP tables live in a private file of this connection (better-sqlite3
// builds SQLite with TEMP_STORE=1) behind a small page cache, and vanish with the connection: a
// kill at any moment leaves nothing of them, so the crash protocol of bookkeeping.ts is unchanged
// (the rows reach `pending_files` only in its `stage` transaction).
//
//   staged   path -> kind (0 a directory, 1 written with the live bytes, 2 written with new bytes,
//            3 kept by name), and for written files the owner, sha256, size and, for new bytes,
//            `seq`: the file's number in incoming/
//   removed  live paths this build neither wrote nor kept
//   gone     files found by walking a live version the bookkeeping does not describe, that the
//            new snapshot lacks (listed as changed; not tombstones: those rows were never known)
//   kept_owners  owners kept whole (keepOwned)
//   dropped_owners  with keepUnder(prefix): the owners under the prefix whose live files are not
//            all kept (written now, or dropped): every other live owner under it is kept whole
import type Database from "better-sqlite3";

export const KIND = { dir: 0, same: 1, fresh: 2, kept: 3 } as const;
export type Kind = (typeof KIND)[keyof typeof KIND];

/** Rows written between commits: a transaction per row would cost a journal write per file. */
const BATCH = 4096;
/** The TEMP tables' page cache, in KiB. */
const TEMP_CACHE_KIB = 2048;

const SCHEMA = `
DROP TABLE IF EXISTS temp.staged;
DROP TABLE IF EXISTS temp.removed;
DROP TABLE IF EXISTS temp.kept_owners;
DROP TABLE IF EXISTS temp.gone;
DROP TABLE IF EXISTS temp.dropped_owners;
CREATE TEMP TABLE staged (
  path TEXT PRIMARY KEY, kind INTEGER NOT NULL, owner TEXT, sha256 BLOB, bytes INTEGER, seq INTEGER
) WITHOUT ROWID;
CREATE TEMP TABLE removed (path TEXT PRIMARY KEY) WITHOUT ROWID;
CREATE TEMP TABLE kept_owners (owner TEXT PRIMARY KEY) WITHOUT ROWID;
CREATE TEMP TABLE gone (path TEXT PRIMARY KEY) WITHOUT ROWID;
CREATE TEMP TABLE dropped_owners (owner TEXT PRIMARY KEY) WITHOUT ROWID;
`;

/** The owners `o` with prefix <= o < end: every name that starts with `prefix`. */
function rangeOf(prefix: string): { prefix: string; end: string } {
  return { prefix, end: prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1) };
}

export class StagedRows {
  private readonly db: Database.Database;
  private readonly getKind: Database.Statement<[string], { kind: number; seq: number | null }>;
  private readonly put: Database.Statement<
    [string, number, string | null, Buffer | null, number | null, number | null]
  >;
  private readonly putOwner: Database.Statement<[string]>;
  private readonly getOwnedKept: Database.Statement<[string], number>;
  private putGone: Database.Statement<[string]> | undefined;
  private pendingRows = 0;
  /** keepUnder's owners: live owners in it are kept unless written or dropped. */
  private under: { prefix: string; end: string } | null = null;

  constructor(db: Database.Database) {
    this.db = db;
    db.pragma(`temp.cache_size = -${TEMP_CACHE_KIB}`);
    db.exec(SCHEMA);
    this.getKind = db.prepare("SELECT kind, seq FROM temp.staged WHERE path = ?");
    this.put = db.prepare(
      "INSERT INTO temp.staged (path, kind, owner, sha256, bytes, seq) VALUES (?, ?, ?, ?, ?, ?)",
    );
    this.putOwner = db.prepare("INSERT OR IGNORE INTO temp.kept_owners (owner) VALUES (?)");
    this.getOwnedKept = db
      .prepare<[string], number>(
        `SELECT 1 FROM main.files f JOIN temp.kept_owners k ON k.owner = f.owner
         WHERE f.path = ? AND f.sha256 IS NOT NULL`,
      )
      .pluck();
  }

  /** The kind of `p` (undefined: not seen) and, for a file with new bytes, its incoming number. */
  kind(p: string): { kind: number; seq: number | null } | undefined {
    return this.getKind.get(p);
  }

  add(
    p: string,
    kind: Kind,
    owner: string | null,
    sha: Buffer | null,
    bytes: number | null,
    seq: number | null,
  ): void {
    if (!this.db.inTransaction) this.db.exec("BEGIN");
    this.put.run(p, kind, owner, sha, bytes, seq);
    if (++this.pendingRows >= BATCH) this.flush();
  }

  /** A live file that the new snapshot lacks, found by a walk (see `gone` above). */
  addGone(p: string): void {
    if (!this.db.inTransaction) this.db.exec("BEGIN");
    this.putGone ??= this.db.prepare("INSERT OR IGNORE INTO temp.gone (path) VALUES (?)");
    this.putGone.run(p);
    if (++this.pendingRows >= BATCH) this.flush();
  }

  /** How many files `addGone` recorded. */
  goneCount(): number {
    this.flush();
    return this.count("SELECT count(*) FROM temp.gone");
  }

  /**
   * Keeps every live owner whose name starts with `prefix`, without naming them, except those
   * written now or dropped (dropOwner): a tick that knows what changed names only that.
   */
  keepUnder(prefix: string): void {
    if (prefix === "") throw new Error("keepUnder: an empty prefix");
    this.under = rangeOf(prefix);
  }

  /** Whether `owner` is one that keepUnder keeps unless written or dropped. */
  isUnder(owner: string): boolean {
    return this.under !== null && owner >= this.under.prefix && owner < this.under.end;
  }

  /** An owner under keepUnder's prefix whose live files this build does not keep. */
  dropOwner(owner: string): void {
    if (!this.db.inTransaction) this.db.exec("BEGIN");
    this.db.prepare("INSERT OR IGNORE INTO temp.dropped_owners (owner) VALUES (?)").run(owner);
  }

  /**
   * With keepUnder: the owners under the prefix written now join the dropped ones, and the files
   * and bytes of the live owners kept implicitly are returned (from the live totals, less the
   * owners outside the prefix and the dropped ones: O(change + owners outside)). Else zeros.
   */
  keptUnder(live: { files: number; bytes: number }): { files: number; bytes: number } {
    this.flush();
    const u = this.under;
    if (u === null) return { files: 0, bytes: 0 };
    this.db
      .prepare(
        `INSERT OR IGNORE INTO temp.dropped_owners
           SELECT DISTINCT owner FROM temp.staged WHERE kind IN (1, 2) AND owner >= @prefix AND owner < @end`,
      )
      .run(u);
    const sum = (sql: string, params: object = {}): { files: number; bytes: number } => {
      const r = this.db.prepare(sql).get(params) as { files: number | null; bytes: number | null };
      return { files: r.files ?? 0, bytes: r.bytes ?? 0 };
    };
    const outside = sum(
      `SELECT sum(files) AS files, sum(bytes) AS bytes FROM (
         SELECT files, bytes FROM main.owners WHERE owner < @prefix
         UNION ALL SELECT files, bytes FROM main.owners WHERE owner >= @end)`,
      u,
    );
    const dropped = sum(
      `SELECT sum(o.files) AS files, sum(o.bytes) AS bytes
       FROM temp.dropped_owners d CROSS JOIN main.owners o ON o.owner = d.owner`,
    );
    return {
      files: live.files - outside.files - dropped.files,
      bytes: live.bytes - outside.bytes - dropped.bytes,
    };
  }

  keepOwner(owner: string): void {
    if (!this.db.inTransaction) this.db.exec("BEGIN");
    this.putOwner.run(owner);
  }

  /** Commits the rows written so far (the TEMP tables only: nothing durable changes). */
  flush(): void {
    if (this.db.inTransaction) this.db.exec("COMMIT");
    this.pendingRows = 0;
  }

  /**
   * Records the live files of owners neither kept whole nor rewritten path by path as removed:
   * the owners scanned (O(owners)), the files of the others read by the owner index (O(change)).
   * Returns how many.
   */
  collectRemoved(): number {
    this.flush();
    // CROSS JOIN keeps the owners as the outer loop, so only the files of owners not kept are
    // read. Left to choose, SQLite scanned every file row through the owner index instead: 829 ms
    // against 5 ms at 20,000 tournaments (825,670 files), on every tick.
    // With keepUnder, the owners under the prefix are kept unless dropped (or written: keptUnder
    // added those): only the owners outside it and the dropped ones are scanned.
    const u = this.under;
    const owners =
      u === null
        ? "SELECT owner FROM main.owners WHERE owner NOT IN (SELECT owner FROM temp.kept_owners)"
        : `SELECT owner FROM main.owners WHERE owner < @prefix AND owner NOT IN (SELECT owner FROM temp.kept_owners)
           UNION ALL SELECT owner FROM main.owners WHERE owner >= @end AND owner NOT IN (SELECT owner FROM temp.kept_owners)
           UNION ALL SELECT owner FROM temp.dropped_owners`;
    this.db
      .prepare(
        `INSERT OR IGNORE INTO temp.removed
           SELECT f.path FROM (${owners}) o CROSS JOIN main.files f INDEXED BY files_owner ON f.owner = o.owner
           WHERE f.sha256 IS NOT NULL
             AND NOT EXISTS (SELECT 1 FROM temp.staged s WHERE s.path = f.path AND s.kind > 0)`,
      )
      .run(u ?? {});
    return this.count("SELECT count(*) FROM temp.removed");
  }

  private count(sql: string): number {
    return this.db.prepare<[], number>(sql).pluck().get() ?? 0;
  }

  /** Whether `p` is a live file of an owner kept whole (by keepOwner, or by keepUnder). */
  ownedKept(p: string): boolean {
    if (this.getOwnedKept.get(p) !== undefined) return true;
    if (this.under === null) return false;
    const owner = this.db
      .prepare<[string], string>(
        `SELECT f.owner FROM main.files f WHERE f.path = ? AND f.sha256 IS NOT NULL
           AND f.owner NOT IN (SELECT owner FROM temp.dropped_owners)`,
      )
      .pluck()
      .get(p);
    return owner !== undefined && this.isUnder(owner);
  }

  /** The live files of the owners kept by keepUnder (after keptUnder): rows to UNION ALL. */
  private keptUnderSql(): string {
    return this.under === null
      ? ""
      : ` UNION ALL SELECT f.path FROM main.files f INDEXED BY files_owner
       WHERE f.sha256 IS NOT NULL AND f.owner >= @prefix AND f.owner < @end
         AND f.owner NOT IN (SELECT owner FROM temp.dropped_owners)`;
  }

  /** Streams the paths of a query's first column (a cursor: O(1) memory, rows read as consumed). */
  private *paths(sql: string, params?: object): Generator<string> {
    const stmt = this.db.prepare<unknown[], string>(sql).pluck();
    yield* params === undefined ? stmt.iterate() : stmt.iterate(params);
  }

  /** Files written with new bytes, in path order. */
  fresh(): Iterable<string> {
    return this.paths("SELECT path FROM temp.staged WHERE kind = 2 ORDER BY path");
  }

  /** The removed paths, in path order. */
  removed(): Iterable<string> {
    return this.paths("SELECT path FROM temp.removed ORDER BY path");
  }

  /**
   * Written with new bytes, removed or gone, in path order (disjoint sets): what a CDN must forget.
   */
  changed(limit = -1): string[] {
    this.flush();
    return this.db
      .prepare<[number], string>(
        `SELECT path FROM temp.staged WHERE kind = 2 UNION ALL SELECT path FROM temp.removed
         UNION ALL SELECT path FROM temp.gone ORDER BY path LIMIT ?`,
      )
      .pluck()
      .all(limit);
  }

  /** Every file of the new snapshot: written, kept by name, and the kept owners' live files. */
  all(): Iterable<string> {
    return this.paths(
      `SELECT path FROM temp.staged WHERE kind > 0 UNION ALL
       SELECT f.path FROM temp.kept_owners k JOIN main.files f INDEXED BY files_owner ON f.owner = k.owner
       WHERE f.sha256 IS NOT NULL${this.keptUnderSql()}`,
      this.under ?? undefined,
    );
  }

  /** The files whose bytes equal the live ones, in path order (sorted by SQLite, on disk). */
  keptSorted(): Iterable<string> {
    return this.paths(
      `SELECT path FROM temp.staged WHERE kind IN (1, 3) UNION ALL
       SELECT f.path FROM temp.kept_owners k JOIN main.files f INDEXED BY files_owner ON f.owner = k.owner
       WHERE f.sha256 IS NOT NULL${this.keptUnderSql()} ORDER BY 1`,
      this.under ?? undefined,
    );
  }

  /**
   * Inside bookkeeping.ts's `stage` transaction: the written rows into `pending_files` (all of
   * them when `complete`, else those that differ from the live row) and the removed paths as
   * tombstones. O(written).
   */
  copyToPending(complete: boolean): void {
    this.db.exec(
      complete
        ? `INSERT INTO main.pending_files (path, owner, sha256, bytes)
             SELECT path, owner, sha256, bytes FROM temp.staged WHERE kind IN (1, 2)`
        : `INSERT INTO main.pending_files (path, owner, sha256, bytes)
             SELECT s.path, s.owner, s.sha256, s.bytes FROM temp.staged s
             LEFT JOIN main.files f ON f.path = s.path AND f.sha256 IS NOT NULL
             WHERE s.kind IN (1, 2) AND (f.path IS NULL OR f.sha256 IS NOT s.sha256
               OR f.bytes IS NOT s.bytes OR f.owner IS NOT s.owner)`,
    );
    this.db.exec(
      `INSERT OR IGNORE INTO main.pending_files (path, owner, sha256, bytes)
         SELECT path, NULL, NULL, NULL FROM temp.removed`,
    );
  }
}
