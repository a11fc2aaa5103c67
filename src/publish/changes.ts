// What the publication changed, for a step that runs after the build (a deploy, a CDN purge):
// read from the bookkeeping's change log (bookkeeping.ts) by an indexed query, in O(changed
// files): every path records the generation it last changed in, and a removed path stays as a
// tombstone. `publicationChanges` gives the last build's changes; `changesSince` those since any
// generation the log still reaches (a deploy keeps the generation it reached in its record).
import path from "node:path";
import { io } from "./io.ts";
import type { Generation, Ledger } from "../ledger/port.ts";
import { besideSnapshot } from "../ledger/site.ts";
import { entryHex } from "../ledger/file-entry.ts";
import { inspectTarget, resolveLayout, STORE_MARKER_NAME } from "./layout.ts";
import { markerGeneration } from "./manifest.ts";
import type { TournamentIndex } from "../ledger/tournament-index.ts";

export interface PublicationChanges {
  /** The live version directory these changes lead to. */
  snapshotDir: string;
  /** Paths ("/" separators, sorted) written with new bytes. */
  written: string[];
  /** Paths removed. */
  removed: string[];
  /**
   * False when the bookkeeping cannot say (no bookkeeping of the live version, or a log that does
   * not reach back that far): then treat every file of the live version as written and compare
   * with what the deploy target holds.
   */
  known: boolean;
}

export type { Generation };

export interface ChangesSince {
  snapshotDir: string;
  /** The live generation these changes lead to. */
  to: Generation;
  /** Undefined when the log cannot say (another log, or it does not reach back that far). */
  changes?: {
    /** path -> sha256 (hex) and size of each file written since. */
    written: Map<string, { sha256: string; bytes: number }>;
    removed: string[];
  };
  /** The live row of each path asked for in `also` (undefined: not live), read by point lookups. */
  rows: Map<string, { sha256: string; bytes: number } | undefined>;
  /** File rows read from the bookkeeping (changed rows and point lookups): O(change). */
  rowsRead: number;
}

/**
 * Opens the bookkeeping of the live version at `outDir` and calls `read` with it; undefined when
 * there is none that describes the live version. A delta staged by a build that was killed after
 * its switch is applied first (what that build's next step would have done). A reader (verify,
 * deploy) opens it to read only, so it runs on a read-only mount or as a user who may only read:
 * there it cannot apply such a delta, and the rows, not describing the live version, go unused
 * (the caller compares every file). A build (`settle`, under its lock) opens it for writing.
 */
function withLive<T>(
  outDir: string,
  read: (b: Ledger, dir: string) => T,
  settle = false,
): { dir: string; value?: T } {
  const live = liveVersion(outDir);
  if (!("version" in live)) return { dir: live.dir };
  const { store, version, dir } = live;
  const site = besideSnapshot(store, io.existsSync);
  if (!site.exists()) return { dir };
  const b = settle ? site.open() : site.openReadOnly();
  try {
    b.recover(version, false);
    const readLive = () =>
      b.describes(version, markerGeneration(dir)) ? { dir, value: read(b, dir) } : { dir };
    // A reader: one read transaction, so a build that applies meanwhile cannot show half of its
    // generation. A build's own read (settle) holds the lock, and its index commits TEMP rows.
    return settle ? readLive() : b.consistently(readLive);
  } finally {
    b.close();
  }
}

/**
 * The live version of the snapshot at `outDir`: the target link, or a version directory itself
 * (`.dist.snapshots/<n>`, which a build's report names), when it is still the live one.
 */
function liveVersion(outDir: string): { dir: string } | { dir: string; store: string; version: string } {
  let real: string | undefined;
  try {
    real = io.realpathSync(outDir);
  } catch {
    real = undefined;
  }
  const parent = real && path.dirname(real);
  if (
    real &&
    parent &&
    io.existsSync(path.join(parent, STORE_MARKER_NAME)) &&
    /^[0-9]+$/.test(path.basename(real))
  ) {
    return { dir: real, store: parent, version: path.basename(real) };
  }
  const layout = resolveLayout(outDir);
  const current = inspectTarget(layout, false);
  if (current.kind !== "link" || current.dir === undefined) return { dir: layout.target };
  return { dir: current.dir, store: layout.store, version: current.version };
}

/** The changes of the last publication now live at `outDir`. Call after the build. */
export function publicationChanges(outDir: string): PublicationChanges {
  const { dir, value } = withLive(outDir, (b) => b.changesSince(b.generation - 1));
  if (!value) return { snapshotDir: dir, written: [], removed: [], known: false };
  return { snapshotDir: dir, written: [...value.written.keys()], removed: value.removed, known: true };
}

/**
 * The changes of the publication at `outDir` since `since` (a generation of the same log), and the
 * live rows of the paths in `also` (a deploy's pending keys, keys whose headers may change), all
 * from one opening of the bookkeeping, so they describe one generation.
 */
export function changesSince(
  outDir: string,
  since: Generation | undefined,
  also: Iterable<string> = [],
): ChangesSince | undefined {
  const { dir, value } = withLive(outDir, (b) => {
    const to = { log: b.log, generation: b.generation };
    const rows = new Map<string, { sha256: string; bytes: number } | undefined>();
    for (const p of also) {
      const row = b.get(p);
      rows.set(p, row && entryHex(row));
    }
    const log = since && since.log === to.log ? b.changesSince(since.generation) : undefined;
    if (!log) return { to, rows, rowsRead: rows.size };
    const written = new Map<string, { sha256: string; bytes: number }>();
    for (const [p, v] of log.written) written.set(p, entryHex(v));
    const rowsRead = rows.size + written.size + log.removed.length;
    return { to, changes: { written, removed: log.removed }, rows, rowsRead };
  });
  return value && { snapshotDir: dir, ...value };
}

/** Every file of the live version at `outDir` with its sha256 and size; undefined without bookkeeping. */
export function liveFiles(outDir: string):
  | {
      snapshotDir: string;
      to: Generation;
      files: Map<string, { sha256: string; bytes: number }>;
      /** The report's sums as the bookkeeping keeps them and as its records count (verify). */
      sums: ReturnType<Ledger["recordSums"]>;
    }
  | undefined {
  const { dir, value } = withLive(outDir, (b) => {
    const files = new Map<string, { sha256: string; bytes: number }>();
    for (const [p, row] of b.allFiles()) files.set(p, entryHex(row));
    return { to: { log: b.log, generation: b.generation }, files, sums: b.recordSums() };
  });
  return value && { snapshotDir: dir, ...value };
}

/** The live generation at `outDir`; undefined without bookkeeping that describes it. O(1). */
export function liveGeneration(outDir: string): { snapshotDir: string; to: Generation } | undefined {
  const { dir, value } = withLive(outDir, (b) => ({ log: b.log, generation: b.generation }));
  return value && { snapshotDir: dir, to: value };
}

/**
 * Reads the live snapshot's tournament records (its bookkeeping) with `read`; undefined when no
 * bookkeeping describes the live version.
 */
export function withLiveIndex<T>(outDir: string, read: (index: TournamentIndex) => T): T | undefined {
  return withLive(outDir, (b) => read(b.index(true)), true).value;
}

/** Files and bytes of the live version at `outDir`, from the bookkeeping (O(owners)). */
export function liveTotals(outDir: string): { size: number; bytes: number } | undefined {
  const { value } = withLive(outDir, (b) => b.totals(), true);
  return value && { size: value.files, bytes: value.bytes };
}
