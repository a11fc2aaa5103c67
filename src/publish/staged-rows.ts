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
CREATE TEMP TABLE staged (
  path TEXT PRIMARY KEY, kind INTEGER NOT NULL, owner TEXT, sha256 BLOB, bytes INTEGER, seq INTEGER
) WITHOUT ROWID;
CREATE TEMP TABLE removed (path TEXT PRIMARY KEY) WITHOUT ROWID;
CREATE TEMP TABLE kept_owners (owner TEXT PRIMARY KEY) WITHOUT ROWID;
CREATE TEMP TABLE gone (path TEXT PRIMARY KEY) WITHOUT ROWID;
`;

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
    this.db.exec(
      `INSERT OR IGNORE INTO temp.removed
         SELECT f.path FROM main.owners o CROSS JOIN main.files f INDEXED BY files_owner ON f.owner = o.owner
         WHERE o.owner NOT IN (SELECT owner FROM temp.kept_owners) AND f.sha256 IS NOT NULL
           AND NOT EXISTS (SELECT 1 FROM temp.staged s WHERE s.path = f.path AND s.kind > 0)`,
    );
    return this.count("SELECT count(*) FROM temp.removed");
  }

  private count(sql: string): number {
    return this.db.prepare<[], number>(sql).pluck().get() ?? 0;
  }

  /** Whether `p` is a live file of an owner kept whole. */
  ownedKept(p: string): boolean {
    return this.getOwnedKept.get(p) !== undefined;
  }

  /** Streams the paths of a query's first column (a cursor: O(1) memory, rows read as consumed). */
  private *paths(sql: string): Generator<string> {
    yield* this.db.prepare<[], string>(sql).pluck().iterate();
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
       WHERE f.sha256 IS NOT NULL`,
    );
  }

  /** The files whose bytes equal the live ones, in path order (sorted by SQLite, on disk). */
  keptSorted(): Iterable<string> {
    return this.paths(
      `SELECT path FROM temp.staged WHERE kind IN (1, 3) UNION ALL
       SELECT f.path FROM temp.kept_owners k JOIN main.files f INDEXED BY files_owner ON f.owner = k.owner
       WHERE f.sha256 IS NOT NULL ORDER BY 1`,
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
