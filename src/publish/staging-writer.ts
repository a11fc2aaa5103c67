// Collects one build's files. A file whose bytes equal the live snapshot's (same path, same sha256
// and size in the live manifest, and the live copy still what the manifest says) is only recorded:
// it will be shared with the live version. Every other file is written, with new bytes, into the
// flat `incoming` directory (incoming/<n>), from which publish.ts renames it into place. Nothing
// of either snapshot version is touched while the producer runs.
import { createHash } from "node:crypto";
import path from "node:path";
import { BuildError, EXIT } from "../shared/errors.ts";
import { io } from "./io.ts";
import { entryBytes, entryValue, type ManifestEntries } from "./manifest.ts";
import { safeRelativePath } from "./safe-path.ts";

export interface SnapshotWriter {
  /** relPath uses "/" separators, e.g. "api/public/v1/tournaments/42/index.json" or "_headers". */
  write(relPath: string, data: string | Uint8Array): void;
  /**
   * Keeps these files of the live snapshot as they are, without their bytes: the producer knows
   * they did not change (an unchanged tournament). All or nothing: false, and nothing is kept,
   * when any of them is not in the live manifest (or the build rewrites every file); the producer
   * then renders them. The live copies are not examined (that would be O(files) per tick).
   */
  keepAll(relPaths: readonly string[]): boolean;
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

/** What the writer hands to publish.ts once the producer is done. */
export interface Collected {
  counts: WriteCounts;
  /** Every file of the new snapshot -> entry value. */
  entries: ManifestEntries;
  /** Files written with new bytes: fresh[i] is at incoming/<i> (or in place, when direct). */
  fresh: string[];
  /** Files whose bytes equal the live ones: shared with the live version. */
  kept: string[];
  /** Files of the live manifest that this build neither wrote nor kept. */
  removed: string[];
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
  /** Its manifest. The writer takes it over: it deletes each path the build writes or keeps. */
  live?: ManifestEntries;
  /**
   * The live manifest's mtime (ms). Every file of a version was put in place before its manifest
   * was written, so a live file modified since was edited in place: it is not reused unless its
   * bytes still hash to the manifest's value.
   */
  liveManifestMtimeMs?: number;
  /** Write every file anew (--rebuild): nothing is shared with the live version. */
  rewriteAll?: boolean;
  /**
   * A version directory made for this build (empty, shared with nothing): files with new bytes are
   * written straight to their place in it instead of to `incoming`.
   */
  direct?: string;
  step: (step: string) => void;
}

export class StagingWriter implements SnapshotWriter {
  private readonly entries: ManifestEntries = new Map();
  /**
   * Two paths differing only in case would clash on macOS, Windows and many hosts. Almost every
   * path is lower-case already, so only the lower-cased forms of the paths that are not are kept;
   * a lower-case path's own form is `entries` itself.
   */
  private readonly folded = new Set<string>();
  /** Every directory of the snapshot, to refuse a path that is both a file and a directory. */
  private readonly dirs = new Set<string>();
  private readonly fresh: string[] = [];
  private readonly kept: string[] = [];
  /** Directories made recently in `direct` (files arrive grouped by directory). */
  private readonly madeDirs = new Set<string>();
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
  private readonly live: ManifestEntries | undefined;

  constructor(opts: WriterOptions) {
    this.opts = opts;
    this.live = opts.liveDir !== undefined && !opts.rewriteAll ? opts.live : undefined;
  }

  write(relPath: string, data: string | Uint8Array): void {
    if (this.sealed) throw new Error(`write(${JSON.stringify(relPath)}) after the snapshot was finished`);
    safeRelativePath(relPath);
    const key = this.register(relPath);
    const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : data;
    const value = entryValue(createHash("sha256").update(bytes).digest(), bytes.length);
    const before = this.live?.get(relPath);
    // Consumed, so that the live manifest's copy of the path is freed as this build goes.
    if (before !== undefined) this.live?.delete(relPath);
    if (before === value && this.liveCopyIntact(relPath, bytes.length, before)) {
      this.kept.push(key);
      this.counts.filesUnchanged++;
    } else {
      this.writeFresh(relPath, bytes);
      this.fresh.push(key);
      this.counts.filesWritten++;
      this.counts.bytesWritten += bytes.length;
    }
    this.entries.set(key, value);
    this.counts.bytesTotal += bytes.length;
    this.counts.files++;
    this.opts.step(`file ${relPath}`);
  }

  keepAll(relPaths: readonly string[]): boolean {
    if (this.sealed) throw new Error("keepAll() after the snapshot was finished");
    const live = this.live;
    if (live === undefined) return false;
    // The live manifest alone decides: no file is examined, so keeping costs O(kept paths) in
    // memory and nothing on disk. Nothing but a build writes a version; a hand edit inside the
    // live snapshot is found by `build-api verify` and repaired by --rebuild (a file deleted by
    // hand fails the build that must link it: see publish.ts Updater.place).
    const seen = new Set<string>();
    for (const p of relPaths) {
      if (!live.has(p) || seen.has(p)) return false;
      seen.add(p);
    }
    for (const relPath of relPaths) {
      const key = this.register(relPath);
      const value = live.get(relPath)!;
      live.delete(relPath);
      this.entries.set(key, value);
      this.kept.push(key);
      const bytes = entryBytes(value);
      this.counts.filesUnchanged++;
      this.counts.bytesTotal += bytes;
      this.counts.files++;
    }
    this.opts.step(`kept ${relPaths.length}`);
    return true;
  }

  /** Seals the writer. What is left of the live manifest are the files this build dropped. */
  finish(): Collected {
    this.sealed = true;
    const removed = this.live ? [...this.live.keys()] : [];
    this.counts.filesRemoved = removed.length;
    return { counts: { ...this.counts }, entries: this.entries, fresh: this.fresh, kept: this.kept, removed };
  }

  private writeFresh(relPath: string, bytes: Uint8Array): void {
    const direct = this.opts.direct;
    if (direct === undefined) {
      io.writeFileSync(path.join(this.opts.incoming, String(this.fresh.length)), bytes, { flag: "wx" });
      return;
    }
    const abs = path.join(direct, relPath);
    const dir = path.dirname(abs);
    if (!this.madeDirs.has(dir)) {
      if (this.madeDirs.size >= 64) this.madeDirs.clear();
      io.mkdirSync(dir, { recursive: true });
      this.madeDirs.add(dir);
    }
    io.writeFileSync(abs, bytes, { flag: "wx" });
  }

  /** Checks relPath against the paths so far; returns the key to keep it under. */
  private register(relPath: string): string {
    if (this.entries.has(relPath)) throw pathError(relPath, "it was written twice in one build");
    const folded = relPath.toLowerCase();
    if (this.folded.has(folded) || (folded !== relPath && this.entries.has(folded))) {
      throw pathError(relPath, "another path differs from it only in letter case");
    }
    const clash = (): BuildError =>
      pathError(
        relPath,
        "it clashes with another output path (a file where a directory is needed, or the reverse)",
      );
    if (this.dirs.has(relPath)) throw clash();
    for (let i = relPath.lastIndexOf("/"); i > 0; i = relPath.lastIndexOf("/", i - 1)) {
      const dir = relPath.slice(0, i);
      if (this.entries.has(dir)) throw clash();
      if (this.dirs.has(dir)) break;
      this.dirs.add(dir);
    }
    if (folded !== relPath) this.folded.add(folded);
    // A lower-case path is kept as `folded`, an equal but flat copy: a path built with `+` or `${}`
    // is a tree of strings that costs about 30 more bytes a file.
    return folded === relPath ? folded : relPath;
  }

  /**
   * Whether the live copy of relPath is still the file its manifest entry describes: a regular
   * file of that size, not modified since the manifest was written, or else with the same sha256.
   */
  private liveCopyIntact(relPath: string, size: number, value: string): boolean {
    const file = path.join(this.opts.liveDir!, relPath);
    try {
      // Plain (not bigint) stats are cheaper; a float of milliseconds resolves about 0.2 µs.
      const st = io.lstatSync(file);
      if (!st.isFile() || st.size !== size) return false;
      const limit = this.opts.liveManifestMtimeMs;
      // Strictly before: a file stamped in the manifest's own clock tick may have been edited after it.
      if (limit !== undefined && st.mtimeMs < limit) return true;
      const bytes = io.readFileSync(file);
      return entryValue(createHash("sha256").update(bytes).digest(), bytes.length) === value;
    } catch {
      return false;
    }
  }
}
