// Writes one snapshot into its staging directory. A file whose bytes equal the previous
// snapshot's (same path, same sha256 and size in the previous manifest) is hard-linked from the
// previous snapshot instead of written, so it keeps its inode and mtime and sync tools skip it.
import { createHash } from "node:crypto";
import { linkSync, lstatSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { BuildError, EXIT } from "../errors.ts";
import {
  entryValue,
  MANIFEST_NAME,
  MARKER_CONTENT,
  MARKER_NAME,
  parseEntryValue,
  writeManifest,
  type ManifestEntries,
} from "./manifest.ts";
import { safeRelativePath } from "./safe-path.ts";

export interface SnapshotWriter {
  /** relPath uses "/" separators, e.g. "api/public/v1/tournaments/42/index.json" or "_headers". */
  write(relPath: string, data: string | Uint8Array): void;
  /**
   * Keeps these files of the live snapshot as they are, without their bytes: the producer knows
   * they did not change (an unchanged tournament). All or nothing: false, and nothing is kept,
   * when any of them is not a file of the live snapshot; the producer then renders them.
   */
  keepAll(relPaths: readonly string[]): boolean;
}

export interface WriteCounts {
  filesWritten: number;
  filesUnchanged: number;
  filesRemoved: number;
  bytesWritten: number;
  bytesTotal: number;
  files: number;
}

function pathError(relPath: string, what: string): BuildError {
  return new BuildError(
    `Cannot write output path ${JSON.stringify(relPath)}.`,
    [{ what, where: JSON.stringify(relPath) }],
    EXIT.unsafeOutput,
  );
}

export class StagingWriter implements SnapshotWriter {
  private readonly entries: ManifestEntries = new Map();
  /**
   * Two paths differing only in case would clash on macOS, Windows and many hosts. Almost every
   * path is lower-case already, so only the lower-cased forms of the paths that are not are kept;
   * a lower-case path's own form is `entries` itself.
   */
  private readonly folded = new Set<string>();
  /**
   * Directories made recently. Files arrive grouped by directory, so a few suffice to skip most
   * mkdir calls; making a directory again is harmless (recursive mkdir accepts an existing one).
   */
  private readonly madeDirs = new Set<string>();
  /** The size of the previous manifest: `previous` loses each path as this build writes it. */
  private readonly previousSize: number;
  /** Files written whose value equals the previous manifest's. */
  private unchangedValues = 0;
  private sealed = false;
  private readonly counts: WriteCounts = {
    filesWritten: 0,
    filesUnchanged: 0,
    filesRemoved: 0,
    bytesWritten: 0,
    bytesTotal: 0,
    files: 0,
  };

  private readonly root: string;
  private readonly previousDir: string | undefined;
  /** The previous snapshot's manifest. The writer takes it over: it deletes each path it writes. */
  private readonly previous: ManifestEntries | undefined;
  private readonly step: (step: string) => void;

  constructor(
    root: string,
    previousDir: string | undefined,
    previous: ManifestEntries | undefined,
    step: (step: string) => void,
  ) {
    this.root = root;
    this.previousDir = previousDir;
    this.previous = previous;
    this.step = step;
    this.madeDirs.add(root);
    this.previousSize = previous?.size ?? 0;
  }

  write(relPath: string, data: string | Uint8Array): void {
    if (this.sealed) throw new Error(`write(${JSON.stringify(relPath)}) after the snapshot was finished`);
    safeRelativePath(relPath);
    const abs = path.resolve(this.root, relPath);
    if (!abs.startsWith(this.root + path.sep)) throw pathError(relPath, "it resolves outside the snapshot");
    if (this.entries.has(relPath)) throw pathError(relPath, "it was written twice in one build");
    const folded = relPath.toLowerCase();
    if (this.folded.has(folded) || (folded !== relPath && this.entries.has(folded))) {
      throw pathError(relPath, "another path differs from it only in letter case");
    }
    if (folded !== relPath) this.folded.add(folded);
    // The key kept for the path. A lower-case path is kept as `folded`, an equal but flat copy:
    // a path built with `+` or `${}` is a tree of strings that costs about 30 more bytes a file.
    const key = folded === relPath ? folded : relPath;

    const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : data;
    const value = entryValue(createHash("sha256").update(bytes).digest(), bytes.length);
    this.makeDir(relPath, path.dirname(abs));
    const before = this.previous?.get(relPath);
    // Consumed, so that the previous manifest's copy of the path is freed as this build goes.
    if (before !== undefined) this.previous?.delete(relPath);
    if (before === value) this.unchangedValues++;
    if (before === value && this.linkPrevious(relPath, abs, bytes.length)) {
      this.entries.set(key, before);
      this.counts.filesUnchanged++;
    } else {
      try {
        writeFileSync(abs, bytes, { flag: "wx" });
      } catch (e) {
        throw this.conflict(relPath, e);
      }
      this.entries.set(key, value);
      this.counts.filesWritten++;
      this.counts.bytesWritten += bytes.length;
    }
    this.counts.bytesTotal += bytes.length;
    this.counts.files++;
    this.step(`file ${relPath}`);
  }

  keepAll(relPaths: readonly string[]): boolean {
    if (this.sealed) throw new Error("keepAll() after the snapshot was finished");
    if (this.previous === undefined || this.previousDir === undefined) return false;
    for (const p of relPaths) if (!this.previous.has(p) || this.entries.has(p)) return false;
    for (const relPath of relPaths) {
      const value = this.previous.get(relPath)!;
      const abs = path.resolve(this.root, relPath);
      this.makeDir(relPath, path.dirname(abs));
      if (!this.linkPrevious(relPath, abs, parseEntryValue(value).bytes)) {
        throw new Error(
          `cannot keep ${JSON.stringify(relPath)}: the live snapshot's copy is missing or changed`,
        );
      }
      this.previous.delete(relPath);
      this.entries.set(relPath, value);
      this.unchangedValues++;
      this.counts.filesUnchanged++;
      this.counts.bytesTotal += parseEntryValue(value).bytes;
      this.counts.files++;
    }
    return true;
  }

  /** Seals the writer and writes the manifest, then the marker. Returns the counts. */
  finish(): WriteCounts {
    this.sealed = true;
    // The manifest and marker are kept too when unchanged, so a no-change rebuild touches nothing.
    const manifest = path.join(this.root, MANIFEST_NAME);
    if (!(this.sameAsPrevious() && this.linkPrevious(MANIFEST_NAME, manifest, undefined))) {
      writeManifest(manifest, this.entries);
    }
    this.step("manifest-written");
    const marker = path.join(this.root, MARKER_NAME);
    if (!this.linkPrevious(MARKER_NAME, marker, undefined, MARKER_CONTENT)) {
      writeFileSync(marker, MARKER_CONTENT, { flag: "wx" });
    }
    this.step("marker-written");
    // What is left of the previous manifest are the paths this build did not write.
    this.counts.filesRemoved = this.previous?.size ?? 0;
    return { ...this.counts };
  }

  private makeDir(relPath: string, dir: string): void {
    if (this.madeDirs.has(dir)) return;
    if (this.madeDirs.size >= 64) this.madeDirs.clear();
    try {
      mkdirSync(dir, { recursive: true });
    } catch (e) {
      throw this.conflict(relPath, e);
    }
    this.madeDirs.add(dir);
  }

  /** The previous manifest (canonical, see readManifest) lists exactly the files of this build. */
  private sameAsPrevious(): boolean {
    // Each write is of a new path (write refuses a repeat), so counting equal values suffices.
    return (
      this.previous !== undefined &&
      this.previousSize === this.entries.size &&
      this.unchangedValues === this.entries.size
    );
  }

  /**
   * Hard-links the previous snapshot's copy of relPath, if it is a regular file of `size` bytes
   * (or exactly `content`). False, and the caller writes the file, when that is not possible.
   */
  private linkPrevious(relPath: string, abs: string, size: number | undefined, content?: string): boolean {
    if (this.previousDir === undefined) return false;
    const source = path.join(this.previousDir, relPath);
    try {
      const st = lstatSync(source);
      if (!st.isFile() || (size !== undefined && st.size !== size)) return false;
      if (content !== undefined && readFileSync(source, "utf8") !== content) return false;
      linkSync(source, abs);
      return true;
    } catch {
      return false;
    }
  }

  private conflict(relPath: string, e: unknown): Error {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "EEXIST" || code === "ENOTDIR" || code === "EISDIR") {
      return pathError(
        relPath,
        "it clashes with another output path (a file where a directory is needed, or the reverse)",
      );
    }
    return e as Error;
  }
}
