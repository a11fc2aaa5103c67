// Collects one build's files. A file whose bytes equal the live snapshot's (same path, same sha256
// and size in the live bookkeeping, and the live copy still what it says) is only recorded:
// it will be shared with the live version. Every other file is written, with new bytes, into the
// flat `incoming` directory (incoming/<n>), from which publish.ts renames it into place. Nothing
// of either snapshot version is touched while the producer runs.
//
// Every per-file row (path, hash, owner, which files have new bytes, the directories seen) goes to
// the bookkeeping connection's TEMP tables as it is produced (staged-rows.ts), not into the heap:
// the main thread's memory does not grow with the file count (docs/design/memory.md).
import { createHash } from "node:crypto";
import path from "node:path";
import { BuildError, EXIT } from "../shared/errors.ts";
import { io } from "./io.ts";
import type { Delta, FileRow, Ledger, RecordRow } from "../ledger/port.ts";
import { entryIs } from "../ledger/file-entry.ts";
import { safeRelativePath } from "./safe-path.ts";
import { KIND, type StagedRows } from "../ledger/staged-rows.ts";
import type { TournamentIndex } from "../ledger/tournament-index.ts";

export interface SnapshotWriter {
  /**
   * relPath uses "/" separators, e.g. "api/public/v1/tournaments/42/index.json" or "_headers".
   * `owner` names what the file belongs to (a tournament, the lists; "" by default): a later
   * build can keep all of an owner's files at once (keepOwned) without naming them.
   */
  write(relPath: string, data: string | Uint8Array, owner?: string): void;
  /** How many files were written so far (kept ones are not): the progress line counts them. */
  readonly written: number;
  /**
   * Keeps these files of the live snapshot as they are, without their bytes: the producer knows
   * they did not change (an unchanged tournament). All or nothing: false, and nothing is kept,
   * when any of them is not in the live bookkeeping (or the build rewrites every file); the
   * producer then renders them. The live copies are not examined (that would be O(files) per tick).
   */
  keepAll(relPaths: readonly string[]): boolean;
  /**
   * Keeps every live file that `owner` wrote, without listing them: one row is read. Returns how
   * many files that is, or false when the live bookkeeping has none (the producer then renders).
   */
  keepOwned(owner: string): number | false;
  /**
   * Keeps every live owner whose name starts with `prefix` (the tournaments) without naming them,
   * except those this build writes or drops (dropOwner): a tick names only what changed. False,
   * and nothing changes, when there is no live bookkeeping to keep them by (the producer then
   * keeps or renders each one).
   */
  keepOwnersUnder(prefix: string): boolean;
  /** An owner under keepOwnersUnder's prefix that is gone: its live files are removed. */
  dropOwner(owner: string): void;
  /**
   * The tournaments' states and list places, the live build's ones included when the live
   * ledger has them (ledger/tournament-index.ts); the render writes its own there.
   */
  readonly index: TournamentIndex;
  /**
   * The records of this build besides the tournaments': `records` are written, `removed` dropped.
   * Without a call, the next build finds none.
   */
  setRecords(records: Map<string, RecordRow>, removed: readonly string[]): void;
}

/** At most this many changed paths are listed in a report; `count` has them all. */
export const CHANGED_PATHS_CAP = 1000;

export interface ChangedFiles {
  /** How many files were written with new bytes or removed. */
  count: number;
  /** Their relative paths ("/" separators), sorted, the first CHANGED_PATHS_CAP of them. */
  paths: string[];
}

export interface WriteCounts {
  filesWritten: number;
  filesUnchanged: number;
  filesRemoved: number;
  bytesWritten: number;
  bytesTotal: number;
  files: number;
  /** Files of the snapshot that differ from the previous one: to purge from a CDN. */
  changed: ChangedFiles;
}

/**
 * What the writer hands to publish.ts once the producer is done. The lists are read from the
 * staged rows as they are consumed (cursors), never held whole.
 */
export interface Collected {
  counts: WriteCounts;
  /** How many files were written with new bytes. */
  freshCount: number;
  /** Files written with new bytes, in path order. */
  fresh(): Iterable<string>;
  /** Where a file with new bytes waits: incoming/<n> (undefined: not one of them). */
  freshIndex(p: string): number | undefined;
  /** How many files of the live bookkeeping this build neither wrote nor kept. */
  removedCount: number;
  /** Those files, in path order. */
  removed(): Iterable<string>;
  /** The first `limit` (-1: all) of the fresh, removed and gone paths together, sorted. */
  changed(limit: number): string[];
  /**
   * Records a file of the live version, found by walking it, that the new snapshot lacks (when the
   * bookkeeping does not describe the live version): listed by `changed`, not a tombstone.
   */
  addGone(p: string): void;
  /** How many files `addGone` recorded. */
  goneCount(): number;
  /** Whether `p` is a file of the new snapshot. */
  has(p: string): boolean;
  /** Every file of the new snapshot (O(files): only for the full comparison). */
  paths(): Iterable<string>;
  /**
   * The files of the new snapshot whose bytes equal the live ones, sorted (so every directory's
   * files are contiguous): for making a version from scratch (O(files), once).
   */
  keptSorted(): Iterable<string>;
  /**
   * True when the live bookkeeping describes the live version: `removed` is then exactly the live
   * files this snapshot lacks, and the live version need not be walked to find them (files added
   * to it by hand are `verify`'s to find).
   */
  liveKnown: boolean;
  /** The second version linked while writing, when one was asked for (WriterOptions.second). */
  second: SecondVersion | undefined;
  /** The bookkeeping delta of this build (complete: the whole snapshot, when nothing was known). */
  delta(restartLog: boolean): Delta;
}

/**
 * The one buffer every comparison with a live copy reads into: comparing a whole snapshot (a
 * bookkeeping of another format, or none) then allocates nothing per file. With a buffer per file
 * (readFileSync) such a build peaked 8-12 MiB higher at M (docs/benchmarks.md, fourth round).
 */
const READ_BUFFER = Buffer.allocUnsafe(1 << 20);

/** Whether `file` holds `size` bytes whose sha256 is `sha`. */
function fileMatches(file: string, size: number, sha: Uint8Array): boolean {
  const fd = io.openSync(file, "r");
  try {
    const hash = createHash("sha256");
    let read = 0;
    for (;;) {
      const n = io.readSync(fd, READ_BUFFER, 0, READ_BUFFER.length, read);
      if (n === 0) break;
      hash.update(READ_BUFFER.subarray(0, n));
      read += n;
      // Grown since the lstat: not the file described.
      if (read > size) return false;
    }
    return read === size && hash.digest().equals(sha);
  } finally {
    io.closeSync(fd);
  }
}

function pathError(relPath: string, what: string): BuildError {
  return new BuildError(
    `Cannot write output path ${JSON.stringify(relPath)}.`,
    [{ what, where: JSON.stringify(relPath) }],
    EXIT.unsafeOutput,
  );
}

export interface WriterOptions {
  /** An empty directory for the files with new bytes. */
  incoming: string;
  /** The live snapshot version's directory, if there is one. */
  liveDir?: string;
  /** The bookkeeping of the live version, when it describes it. */
  live?: Ledger;
  /**
   * The live copies are not on this disk (a bucket publication: publish/bucket-publication.ts):
   * the live bookkeeping alone says which files are unchanged.
   */
  liveElsewhere?: boolean;
  /**
   * The live marker's mtime (ms): every file of a version was put in place before its marker was
   * written, so a live file modified since was edited in place: it is not reused unless its bytes
   * still hash to the recorded value.
   */
  liveSealedMs?: number;
  /** Write every file anew (--rebuild): nothing is shared with the live version. */
  rewriteAll?: boolean;
  /** Where the per-file rows go (the bookkeeping connection's TEMP tables). */
  staged: StagedRows;
  /**
   * The tournament index on the same connection: over the live records when `live` is given (and
   * not rewriteAll), else starting empty (bookkeeping.ts Bookkeeping.index).
   */
  index: (live: boolean) => TournamentIndex;
  /**
   * A version directory made for this build (empty, shared with nothing): files with new bytes are
   * written straight to their place in it instead of to `incoming`.
   */
  direct?: string;
  /**
   * The second version of a first build (an empty directory beside `direct`): each file written
   * into `direct` is also hard-linked here at once, while the renderers work on the next
   * tournaments, instead of in one pass after the switch. Trouble abandons it (`Collected.second`).
   */
  second?: string;
  /**
   * Takes a file with new bytes instead of the disk (a bucket publication streams some to the
   * bucket as it renders: deploy/stream-upload.ts); false: written as usual.
   */
  takeFresh?: (relPath: string, bytes: Uint8Array, sha: Buffer, owner: string) => boolean;
  step: (step: string) => void;
}

/** The second version a first build linked as it wrote (WriterOptions.second). */
export interface SecondVersion {
  dir: string;
  /** Why linking stopped; the version is then incomplete and must not be sealed. */
  error?: string;
}

export class StagingWriter implements SnapshotWriter {
  /** Owners kept whole (keepOwned): one per tournament, not per file. */
  private readonly keptOwners = new Set<string>();
  /**
   * Two paths differing only in case would clash on macOS, Windows and many hosts. Almost every
   * path is lower-case already, so only the lower-cased forms of the paths that are not are kept.
   */
  private readonly folded = new Set<string>();
  /**
   * Directories known to be in the staged rows, the recent ones only (files arrive grouped by
   * directory): the rows hold them all, to refuse a path that is both a file and a directory.
   */
  private readonly knownDirs = new Set<string>();
  private readonly staged: StagedRows;
  /** Directories made recently in `direct` (files arrive grouped by directory), relative. */
  private readonly madeDirs = new Set<string>();
  private readonly second: SecondVersion | undefined;
  private records: { rows: Map<string, RecordRow>; removed: readonly string[]; complete: boolean } = {
    rows: new Map(),
    removed: [],
    complete: true,
  };
  private sealed = false;
  private readonly counts: WriteCounts = {
    filesWritten: 0,
    filesUnchanged: 0,
    filesRemoved: 0,
    bytesWritten: 0,
    bytesTotal: 0,
    files: 0,
    changed: { count: 0, paths: [] },
  };
  private readonly opts: WriterOptions;
  private readonly live: Ledger | undefined;
  /**
   * No bookkeeping describes the live version (a snapshot of the previous format, a database
   * removed): each written file is compared with the live copy's bytes instead, once, so the
   * versions still share what is equal.
   */
  private readonly compareFiles: boolean;
  readonly index: TournamentIndex;

  constructor(opts: WriterOptions) {
    this.opts = opts;
    this.staged = opts.staged;
    const hasLive = opts.liveDir !== undefined || opts.liveElsewhere === true;
    this.live = hasLive && !opts.rewriteAll ? opts.live : undefined;
    this.compareFiles = opts.liveDir !== undefined && !opts.rewriteAll && opts.live === undefined;
    this.index = opts.index(this.live !== undefined);
    this.second = opts.second !== undefined ? { dir: opts.second } : undefined;
  }

  written = 0;

  write(relPath: string, data: string | Uint8Array, owner = ""): void {
    if (this.sealed) throw new Error(`write(${JSON.stringify(relPath)}) after the snapshot was finished`);
    this.written++;
    safeRelativePath(relPath);
    const key = this.register(relPath);
    const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : data;
    const sha = createHash("sha256").update(bytes).digest();
    this.live?.needs?.owner(owner);
    const before = this.live?.get(relPath);
    const same = this.compareFiles
      ? this.liveCopyEqual(relPath, bytes.length, sha)
      : before !== undefined &&
        entryIs(before, sha, bytes.length) &&
        this.liveCopyIntact(relPath, bytes.length, sha);
    if (same) {
      this.staged.add(key, KIND.same, owner, sha, bytes.length, null);
      this.counts.filesUnchanged++;
    } else {
      const seq = this.counts.filesWritten;
      if (!this.opts.takeFresh?.(relPath, bytes, sha, owner)) this.writeFresh(seq, relPath, bytes);
      this.staged.add(key, KIND.fresh, owner, sha, bytes.length, seq);
      this.counts.filesWritten++;
      this.counts.bytesWritten += bytes.length;
    }
    this.counts.bytesTotal += bytes.length;
    this.counts.files++;
    this.opts.step(`file ${relPath}`);
  }

  keepAll(relPaths: readonly string[]): boolean {
    if (this.sealed) throw new Error("keepAll() after the snapshot was finished");
    const live = this.live;
    if (live === undefined) return false;
    // The live bookkeeping alone decides: no file is examined. Nothing but a build writes a
    // version; a hand edit inside the live snapshot is found by `build-api verify` and repaired by
    // --rebuild (a file deleted by hand fails the build that must link it: publish.ts Updater.place).
    const rows = new Map<string, FileRow>();
    for (const p of relPaths) {
      const row = live.get(p);
      if (!row || rows.has(p) || this.isFile(p)) return false;
      rows.set(p, row);
    }
    for (const [relPath, row] of rows) {
      this.staged.add(this.register(relPath), KIND.kept, null, null, null, null);
      this.counts.filesUnchanged++;
      this.counts.bytesTotal += row.bytes;
      this.counts.files++;
    }
    this.opts.step(`kept ${relPaths.length}`);
    return true;
  }

  keepOwned(owner: string): number | false {
    if (this.sealed) throw new Error("keepOwned() after the snapshot was finished");
    this.live?.needs?.owner(owner);
    const owned = this.live?.owned(owner);
    if (owned === undefined || this.keptOwners.has(owner)) return false;
    // Kept already by keepOwnersUnder (and counted when the writer finishes), unless dropped.
    if (this.staged.isUnder(owner)) return owned.files;
    // Its paths are not registered (that would read them): the producer never writes a path of
    // an owner it keeps, and the previous build checked them when it wrote them.
    this.keptOwners.add(owner);
    this.staged.keepOwner(owner);
    this.counts.filesUnchanged += owned.files;
    this.counts.bytesTotal += owned.bytes;
    this.counts.files += owned.files;
    this.opts.step(`kept ${owner}`);
    return owned.files;
  }

  keepOwnersUnder(prefix: string): boolean {
    if (this.sealed) throw new Error("keepOwnersUnder() after the snapshot was finished");
    if (this.live === undefined) return false;
    this.staged.keepUnder(prefix);
    return true;
  }

  dropOwner(owner: string): void {
    if (this.sealed) throw new Error("dropOwner() after the snapshot was finished");
    if (!this.staged.isUnder(owner)) throw new Error(`dropOwner(${JSON.stringify(owner)}): not a kept owner`);
    this.live?.needs?.owner(owner);
    this.staged.dropOwner(owner);
  }

  setRecords(records: Map<string, RecordRow>, removed: readonly string[]): void {
    // Without live records, this build's are all there are.
    this.records = { rows: records, removed, complete: this.live === undefined };
  }

  /** Seals the writer. Live files of owners neither kept nor rewritten are the removed ones. */
  finish(): Collected {
    this.sealed = true;
    const { live, staged, records, index } = this;
    staged.flush();
    if (live) {
      const kept = staged.keptUnder(live.totals());
      this.counts.filesUnchanged += kept.files;
      this.counts.bytesTotal += kept.bytes;
      this.counts.files += kept.files;
    }
    const removedCount = live ? staged.collectRemoved() : 0;
    this.counts.filesRemoved = removedCount;
    const isFile = (p: string): boolean => this.isFile(p);
    return {
      counts: { ...this.counts },
      freshCount: this.counts.filesWritten,
      fresh: () => staged.fresh(),
      freshIndex: (p) => {
        const row = staged.kind(p);
        return row?.kind === KIND.fresh ? row.seq! : undefined;
      },
      removedCount,
      removed: () => staged.removed(),
      changed: (limit) => staged.changed(limit),
      addGone: (p) => staged.addGone(p),
      goneCount: () => staged.goneCount(),
      has: (p) => isFile(p) || staged.ownedKept(p),
      paths: () => staged.all(),
      keptSorted: () => staged.keptSorted(),
      liveKnown: live !== undefined,
      second: this.second,
      delta(restartLog: boolean): Delta {
        return {
          files: new Map<string, FileRow>(),
          removed: [],
          completeFiles: live === undefined,
          records: records.rows,
          removedRecords: [...records.removed],
          completeRecords: records.complete,
          restartLog,
          staged,
          index,
        };
      },
    };
  }

  private writeFresh(seq: number, relPath: string, bytes: Uint8Array): void {
    const direct = this.opts.direct;
    if (direct === undefined) {
      io.writeFileSync(path.join(this.opts.incoming, String(seq)), bytes, { flag: "wx" });
      return;
    }
    const abs = path.join(direct, relPath);
    const dir = path.dirname(relPath);
    const newDir = !this.madeDirs.has(dir);
    if (newDir) {
      if (this.madeDirs.size >= 64) this.madeDirs.clear();
      io.mkdirSync(path.dirname(abs), { recursive: true });
      this.madeDirs.add(dir);
    }
    io.writeFileSync(abs, bytes, { flag: "wx" });
    if (this.second !== undefined && this.second.error === undefined) this.linkSecond(abs, relPath, newDir);
  }

  /** Links a file just written into the second version; trouble abandons that version. */
  private linkSecond(abs: string, relPath: string, newDir: boolean): void {
    const second = this.second!;
    try {
      const to = path.join(second.dir, relPath);
      if (newDir) io.mkdirSync(path.dirname(to), { recursive: true });
      io.linkSync(abs, to);
      this.opts.step(`second-linked ${relPath}`);
    } catch (e) {
      second.error = (e as Error).message;
    }
  }

  private isFile(p: string): boolean {
    const row = this.staged.kind(p);
    return row !== undefined && row.kind !== KIND.dir;
  }

  /** Checks relPath against the paths so far; returns the key to keep it under. */
  private register(relPath: string): string {
    const clash = (): BuildError =>
      pathError(
        relPath,
        "it clashes with another output path (a file where a directory is needed, or the reverse)",
      );
    const seen = this.knownDirs.has(relPath) ? KIND.dir : this.staged.kind(relPath)?.kind;
    if (seen === KIND.dir) throw clash();
    if (seen !== undefined) throw pathError(relPath, "it was written twice in one build");
    const folded = relPath.toLowerCase();
    if (this.folded.has(folded) || (folded !== relPath && this.isFile(folded))) {
      throw pathError(relPath, "another path differs from it only in letter case");
    }
    // A lower-case path is kept as `folded`, an equal but flat copy: a path built with `+` or `${}`
    // is a tree of strings that costs about 30 more bytes a file.
    const key = folded === relPath ? folded : relPath;
    // Directory names are cut from `key`, which the maps keep anyway: a slice keeps the whole
    // string it was cut from alive, so cutting from relPath kept a second copy of every path.
    for (let i = key.lastIndexOf("/"); i > 0; i = key.lastIndexOf("/", i - 1)) {
      const dir = key.slice(0, i);
      if (this.knownDirs.has(dir)) break;
      const kind = this.staged.kind(dir)?.kind;
      if (kind !== undefined && kind !== KIND.dir) throw clash();
      if (this.knownDirs.size >= 256) this.knownDirs.clear();
      this.knownDirs.add(dir);
      // A directory already in the rows has its parents there too.
      if (kind === KIND.dir) break;
      this.staged.add(dir, KIND.dir, null, null, null, null);
    }
    if (folded !== relPath) this.folded.add(folded);
    return key;
  }

  /** Whether the live copy of relPath is a regular file with exactly these bytes. */
  private liveCopyEqual(relPath: string, size: number, sha: Uint8Array): boolean {
    const file = path.join(this.opts.liveDir!, relPath);
    try {
      const st = io.lstatSync(file);
      if (!st.isFile() || st.size !== size) return false;
      return fileMatches(file, size, sha);
    } catch {
      return false;
    }
  }

  /**
   * Whether the live copy of relPath is still the file its bookkeeping row describes: a regular
   * file of that size, not modified since the version was sealed, or else with the same sha256.
   */
  private liveCopyIntact(relPath: string, size: number, sha: Uint8Array): boolean {
    if (this.opts.liveElsewhere) return true;
    const file = path.join(this.opts.liveDir!, relPath);
    try {
      // Plain (not bigint) stats are cheaper; a float of milliseconds resolves about 0.2 µs.
      const st = io.lstatSync(file);
      if (!st.isFile() || st.size !== size) return false;
      const limit = this.opts.liveSealedMs;
      // Strictly before: a file stamped in the marker's own clock tick may have been edited after it.
      if (limit !== undefined && st.mtimeMs < limit) return true;
      return fileMatches(file, size, sha);
    } catch {
      return false;
    }
  }
}
