// Atomic publication of a snapshot, at a cost that follows what changed.
//
// On-disk layout, for `--out <parent>/dist`:
//   <parent>/dist                      symlink -> ".dist.snapshots/<n>" (relative): the live version
//   <parent>/.dist.snapshots/<n>/      the live version: a complete snapshot
//   <parent>/.dist.snapshots/<m>/      the stale version: the previous snapshot, kept to be reused
//   <parent>/.dist.snapshots/pair.json the two versions and the paths where they may differ
//   <parent>/.dist.snapshots/bookkeeping.sqlite  the live version's files, state, change log
//   <parent>/.dist.snapshots/.build-api-snapshots   says this folder is ours
//   <parent>/.dist.lock                "<pid> <host>" while a build runs (O_EXCL)
// and, only while a build runs or after one was killed:
//   .dist.snapshots/incoming-<pid>/    the files with new bytes, as they are produced (flat: 0, 1...)
//   .dist.snapshots/tmp-<pid>          a hard link or manifest on its way into the stale version
//   .dist.snapshots/link-<m>           the new link, made before it replaces `dist`
//   .dist.snapshots/migrating          journal of a move of an old real `dist` directory
//
// Double buffering. The two versions share every file whose bytes are equal in both: the same
// inode, hard-linked. pair.json names the paths where they may not (the previous build's changes).
// A build never writes into the live version. It
//   1. takes the lock, finishes an interrupted migration, checks the target, picks the stale
//      version (the live one's partner in pair.json), removes leftovers (failures: warnings);
//   2. runs the producer: a file whose bytes equal the live bookkeeping's row (and whose live copy
//      is intact: size, and mtime before the live marker's, or else its sha256) is only recorded;
//      any other file goes to incoming/ (StagingWriter). Nothing else is touched. (A stale version
//      that does not exist yet is made now, and new files are written straight into it: it is
//      shared with nothing, and a build killed before it got its marker leaves only a leftover;
//      a first build also links each of them into the other version, sealed after the switch);
//   3. widens pair.json to D = the paths where the versions may differ, the new files and the
//      removed ones: from here until step 5 the stale version is in flux, and D covers it;
//   4. brings the stale version to the new snapshot, path by path in D only: a removed file is
//      unlinked; a new file is renamed in from incoming/; a file equal to the live one is
//      hard-linked from it (to tmp, then renamed over). Every replacement is a rename, so a file
//      shared with the live version is never written to. Then the marker, naming generation G+1,
//      and the bookkeeping's delta staged: "pending, targets this version" (bookkeeping.ts);
//   5. narrows pair.json to the new files and the removed ones: the paths where the two versions
//      now differ, which the next build catches up on;
//   6. makes link-<m> and rename(2)s it over `dist`: the switch; applies the bookkeeping's delta
//      (a kill before that is finished by the next open); then removes the files this build
//      removed from the standby version too (a tournament taken down keeps no file on disk; a
//      reader of the old version loses those), and drops incoming/ and tmp.
// The work is O(changed files + the previous build's changed files), the bookkeeping's rows
// included. When pair.json is missing or says "all" (the second build ever, a migration, after
// rewriteAll: "all" is recorded when most files differ), with rewriteAll, or when the bookkeeping
// does not describe the live version, step 4 compares every file instead: it
// walks the stale version (dropping files that are not in the snapshot) and the live one (to list
// files that are not in its manifest), and links each file that is not yet shared. The report's
// `changed` list is the narrowed pair.json: the files a CDN must forget.
//
// Why it is atomic: rename(2) of a symlink over an existing symlink replaces it in one step, so
// at every instant `dist` resolves either to the old complete version or to the new complete
// one. Nothing inside the live version is written, so if the build throws or is killed (SIGKILL
// included) before that rename, the old snapshot stays byte-identical and servable; the stale
// version is then partly updated, but pair.json (written before it was touched) names every path
// that may be wrong, and the next build repairs exactly those. After the switch nothing can fail
// the build: cleanup trouble is a warning in the report.
//
// Readers: the stale version is the snapshot that was live until the previous build. A reader
// that resolved `dist` before that switch (an rsync, an nginx worker) has until the next build
// to finish, but for the files the switch removed (they leave both versions); files it holds
// open keep their bytes (replacement is by rename).
//
// Migration: a real directory at `dist` (from an older build, an empty one, or any with force)
// cannot be swapped for a link in one step. The build writes the journal, renames the directory
// into the store (where it becomes the stale version; one without the snapshot marker, replaced
// with force, is removed by the next build instead), then renames the new link into place: two
// consecutive renames, and only the first build that migrates has them. If it dies between the
// two, `dist` is missing until the next build, which reads the journal and puts a link to the old
// snapshot back before anything else. A store of the older single-version layout
// (`.dist.snapshots/<n>`) is used as it is: the next build adds the second version.
import path from "node:path";
import { BuildError, EXIT } from "../shared/errors.ts";
import { performance } from "node:perf_hooks";
import {
  chooseStale,
  ensureStore,
  Guard,
  inspectTarget,
  nextVersion,
  recoverMigration,
  removeLeftovers,
  resolveLayout,
  unsafe,
  writePair,
  type Current,
  type Layout,
} from "./layout.ts";
import { discardStaging, isStop } from "./discard.ts";
import { acquireLock } from "./lock.ts";
import { environmentError, errnoCode, io } from "./io.ts";
import type { Ledger } from "../ledger/port.ts";
import { besideSnapshot } from "../ledger/site.ts";
import { markerGeneration, markerText, MARKER_NAME } from "./manifest.ts";
import {
  CHANGED_PATHS_CAP,
  StagingWriter,
  type Collected,
  type SecondVersion,
  type SnapshotWriter,
  type WriteCounts,
} from "./staging-writer.ts";

export type { SnapshotWriter } from "./staging-writer.ts";

export interface PublishOptions {
  outDir: string;
  /** Allow replacing a non-empty directory (or a symlink) that has no snapshot marker. */
  force?: boolean;
  /** Wait this long for another build's lock before failing with EXIT.locked (default 0). */
  lockWaitMs?: number;
  /** Write every file anew (--rebuild): no file is shared with the previous snapshot. */
  rewriteAll?: boolean;
  /** Paths that must never be deleted, even with force (the input store): refused inside the output. */
  protectedPaths?: readonly string[];
  /**
   * A first build (no snapshot before it) also makes the second version, hard links of every file
   * made as they are written (default true; false leaves that to the next build, as older builds did).
   */
  pairFirstBuild?: boolean;
  /** Test hook: called at every step (each file written, each file put in place, each rename...). */
  onStep?: (step: string) => void;
  /** Called as each phase starts (lock, prepare, produce, finish, switch, cleanup): progress output. */
  onPhase?: (name: string) => void;
}

export interface PublishReport extends WriteCounts {
  /** Milliseconds per phase: lock, prepare, produce, finish, switch, cleanup, pair. */
  phases: Record<string, number>;
  /** The version directory the target now points to. */
  snapshotDir: string;
  /** Trouble that did not stop the build (a leftover that could not be removed...). */
  warnings: string[];
}

/**
 * A publication in progress, begun under the lock with the staging version chosen: the caller
 * renders into `writer`, then commits (the switch) or aborts (the live snapshot untouched).
 */
export interface Publication {
  readonly writer: SnapshotWriter;
  /** Brings the staging version up to date, switches to it and settles the ledger. */
  commit(): PublishReport;
  /**
   * Drops what this build staged and releases the lock; the live snapshot is as it was. Returns
   * the error to throw: `cause` itself, or the BuildError it means (a full disk...).
   */
  abort(cause: unknown): unknown;
}

/**
 * Begins a publication: takes the lock, settles the ledger, chooses the staging version (steps 1
 * and 2 of the design above). Errors of the environment (a full disk...) become BuildErrors.
 */
export async function beginPublication(opts: PublishOptions): Promise<Publication> {
  const target = path.resolve(opts.outDir);
  let tx: Transaction | undefined;
  try {
    tx = await Transaction.begin(opts);
    tx.prepare();
  } catch (e) {
    tx?.release();
    throw environmentError(e, target);
  }
  const begun = tx;
  return {
    writer: begun.writer,
    commit: () => {
      try {
        return begun.commit();
      } catch (e) {
        throw environmentError(e, target);
      } finally {
        begun.release();
      }
    },
    abort: (cause) => {
      begun.dropStaged(cause);
      begun.release();
      return environmentError(cause, target);
    },
  };
}

/** begin → produce → commit, or abort when the producer throws. */
export async function publishSnapshot(
  opts: PublishOptions,
  produce: (w: SnapshotWriter) => void | Promise<void>,
): Promise<PublishReport> {
  const publication = await beginPublication(opts);
  try {
    await produce(publication.writer);
  } catch (e) {
    throw publication.abort(e);
  }
  return publication.commit();
}

const PHASES = ["lock", "prepare", "produce", "finish", "switch", "cleanup", "pair"];

/** One build's publication: its phases in order, each a method. */
class Transaction {
  private readonly step: (step: string) => void;
  private readonly phases: Record<string, number> = {};
  private mark = performance.now();
  private readonly warnings: string[] = [];
  private readonly guard: Guard;
  private ledger: Ledger | undefined;
  // Known after prepare().
  private current!: Current;
  private liveVersion: string | undefined;
  private liveDir: string | undefined;
  private stale!: ReturnType<typeof chooseStale>;
  private describes = false;
  private generation = 0;
  private incoming!: string;
  private staleDir!: string;
  private direct = false;
  private pairs = false;
  private second: string | undefined;
  writer!: StagingWriter;

  private readonly opts: PublishOptions;
  private readonly layout: Layout;
  private readonly lock: Awaited<ReturnType<typeof acquireLock>>;

  private constructor(opts: PublishOptions, layout: Layout, lock: Awaited<ReturnType<typeof acquireLock>>) {
    this.opts = opts;
    this.layout = layout;
    this.lock = lock;
    this.step = opts.onStep ?? (() => {});
    this.guard = new Guard(opts.protectedPaths ?? []);
  }

  /** Ends phase `name` (its time recorded) and announces `next` (by default the one after it). */
  private phase(name: string, next: string | null = PHASES[PHASES.indexOf(name) + 1] ?? null): void {
    const now = performance.now();
    this.phases[name] = now - this.mark;
    this.mark = now;
    if (next) this.opts.onPhase?.(next);
  }

  /** The lock phase. */
  static async begin(opts: PublishOptions): Promise<Transaction> {
    opts.onPhase?.("lock");
    const layout = resolveLayout(opts.outDir);
    new Guard(opts.protectedPaths ?? []).checkOutside([layout.target, layout.store]);
    const lock = await acquireLock(layout.lockPath, layout.target, opts.lockWaitMs ?? 0);
    const tx = new Transaction(opts, layout, lock);
    tx.step("locked");
    tx.phase("lock");
    return tx;
  }

  /** The prepare phase: the target checked, the staging version chosen, the ledger settled. */
  prepare(): void {
    const { layout, opts, step } = this;
    const force = opts.force ?? false;
    recoverMigration(layout, force);
    step("recovered");
    this.current = this.checkTarget(force);
    const current = this.current;
    if (current.kind === "link" && current.dir) this.guard.checkOutside([current.dir]);
    ensureStore(layout, force);
    this.liveVersion = current.kind === "link" && current.dir ? current.version : undefined;
    this.liveDir = current.kind === "link" || current.kind === "dir" ? current.dir : undefined;
    this.stale = chooseStale(layout, this.liveVersion);
    this.warnings.push(...removeLeftovers(layout, [this.liveVersion, this.stale.version], this.guard));
    step("cleaned");

    const ledger = besideSnapshot(layout.store, io.existsSync).open();
    this.ledger = ledger;
    // A delta staged by a build killed after its switch is applied; one killed before, dropped.
    ledger.recover(this.liveVersion, true);
    step("bookkeeping-recovered");
    // The rows are trusted only for the version they were sealed with (its marker says which).
    const liveDir = this.liveDir;
    this.describes = liveDir !== undefined && ledger.describes(this.liveVersion, markerGeneration(liveDir));
    const live = this.describes ? ledger : undefined;
    const liveSealedMs = live ? io.lstatSync(path.join(liveDir!, MARKER_NAME)).mtimeMs : undefined;
    this.generation = ledger.generation + 1;
    // A fresh name: an incoming directory left by an earlier build may not have been removable.
    this.incoming = freshName(layout.store, `incoming-${process.pid}`);
    io.mkdirSync(this.incoming);
    // A stale version made now is shared with nothing: new files go straight to their place.
    this.staleDir = path.join(layout.store, this.stale.version);
    this.direct = !isDirectory(this.staleDir);
    if (this.direct) io.mkdirSync(this.staleDir);
    // A first build also makes the other version, so that the next build (the first tick) costs
    // what it changed instead of a link per file and a mkdir per directory (more directories than
    // files in an API snapshot). It is linked as the files are written, while the renderers work
    // (in a pass after the switch when the files do not go straight to their place).
    this.pairs = this.liveVersion === undefined && current.kind !== "dir" && opts.pairFirstBuild !== false;
    if (this.pairs && this.direct) {
      try {
        this.second = makeSecondDir(layout);
        step("second-version-made");
      } catch {
        // The pass after the switch tries again, and its warning says why it could not.
      }
    }
    this.writer = new StagingWriter({
      incoming: this.incoming,
      liveDir,
      live,
      liveSealedMs,
      rewriteAll: opts.rewriteAll,
      direct: this.direct ? this.staleDir : undefined,
      second: this.second,
      staged: ledger.staging(),
      index: (live) => ledger.index(live),
      step,
    });
    step("prepared");
    this.phase("prepare");
  }

  /**
   * The target as it is; with force, a directory that is not a snapshot is moved aside beside
   * it, never deleted: --force on the wrong folder must not cost its contents.
   */
  private checkTarget(force: boolean): Current {
    const { layout } = this;
    const current = inspectTarget(layout, force);
    if (current.kind !== "dir" || current.marked) return current;
    const found = this.guard.find(current.dir);
    if (found) throw unsafeReplace(layout, found);
    if (io.readdirSync(current.dir).length === 0) return current;
    const aside = freshName(path.dirname(layout.target), `${path.basename(layout.target)}.replaced`);
    io.renameSync(layout.target, aside);
    this.warnings.push(
      `--force: ${layout.target} was a directory that is not a snapshot; it was moved aside to ` +
        `${aside} (nothing was deleted; remove it when you no longer need it)`,
    );
    return { kind: "none" };
  }

  /** After the producer: finish, switch, cleanup and pair. */
  commit(): PublishReport {
    this.step("produced");
    this.phase("produce");
    let collected: Collected;
    try {
      collected = this.writer.finish();
    } catch (e) {
      this.dropStaged(e);
      throw e;
    }
    const { differ, partner } = this.finish(collected);
    switchTo(this.layout, this.stale.version, partner, this.current, this.step);
    // Step 3: the pending rows become the live ones. A kill before this is repaired by the next
    // open (the pending delta targets the live version then).
    this.ledger!.apply();
    this.step("bookkeeping-applied");
    this.phase("switch");
    this.cleanup(collected);
    this.pair(collected);
    const counts = collected.counts;
    counts.changed = { count: differ.count, paths: differ.first(CHANGED_PATHS_CAP) };
    return { ...counts, phases: this.phases, snapshotDir: this.staleDir, warnings: this.warnings };
  }

  /** The finish phase: the staging version brought to the new snapshot, the ledger's delta staged. */
  private finish(collected: Collected): { differ: Differ; partner: string | undefined } {
    const { layout, opts, stale, liveVersion, liveDir, current, step } = this;
    // Compare every file when the pair record cannot say where the versions differ, when every
    // file is rewritten, and when the ledger does not describe the live version (so its files
    // are known only by walking it).
    const walk =
      stale.differ === "all" || (opts.rewriteAll ?? false) || (liveDir !== undefined && !this.describes);
    // The live directory even without a readable manifest: its files not in this snapshot are
    // differences too.
    const updater = new Updater({
      layout,
      staleDir: this.staleDir,
      liveDir,
      incoming: this.incoming,
      direct: this.direct,
      collected,
      step,
    });
    this.tmp = updater.tmp;
    // Widen: until the stale version is complete, it may differ from the live one anywhere in D.
    const widened = walk ? "all" : updater.dirtyPaths(stale.differ as string[]);
    writePair(layout, liveVersion ? { buffers: [liveVersion, stale.version], differ: widened } : undefined);
    step("pair-widened");
    const differ = walk ? updater.updateAll() : updater.updateOnly(widened as string[]);
    updater.finishMarker(this.generation);
    // Step 1 of the ledger: the new generation's rows, pending until the switch. The log restarts
    // when earlier rows existed but described something else; from an empty database (the first
    // build) it starts at generation 0, so "since 0" is every file.
    this.ledger!.stage(
      collected.delta(!this.describes && this.generation > 1),
      stale.version,
      this.generation,
    );
    step("bookkeeping-staged");
    // Narrow: the versions now differ exactly where this build changed a file. A real directory
    // being migrated gets the number it will have in the store; one without the marker (replaced
    // with force) is no snapshot to pair with: the next build removes it.
    const partner = liveVersion ?? (current.kind === "dir" ? String(nextVersion(layout)) : undefined);
    const paired = partner !== undefined && (current.kind !== "dir" || current.marked);
    // When most files differ (after rewriteAll), "all" says as much in a few bytes: the next
    // build compares every file, which is what it would have to do anyway.
    const recorded = differ.count > collected.counts.files / 2 ? "all" : differ.list();
    writePair(layout, paired ? { buffers: [stale.version, partner], differ: recorded } : undefined);
    step("staged");
    this.phase("finish");
    return { differ, partner };
  }

  private tmp: string | undefined;

  /** The cleanup phase: the new snapshot is live, so trouble is a warning and leftovers wait. */
  private cleanup(collected: Collected): void {
    this.dropFromStandby(collected);
    for (const leftover of [this.incoming, this.tmp]) {
      if (leftover === undefined) continue;
      try {
        io.rmSync(leftover, { recursive: true, force: true });
      } catch (e) {
        this.warnings.push(`could not remove ${leftover} (the next build retries): ${(e as Error).message}`);
      }
    }
    this.step("cleaned-up");
    // The other version of a first build is sealed and paired after the switch: the snapshot is
    // live already, so trouble with it is a warning. Only then is the phase announced.
    this.phase("cleanup", this.pairs ? "pair" : null);
  }

  /**
   * The files this build removed leave the standby version too (the one live until the switch):
   * a tournament taken down keeps no file on disk. pair.json already names these paths, so a kill
   * midway leaves nothing the next build does not look at.
   */
  private dropFromStandby(collected: Collected): void {
    const standby = this.current.kind === "link" ? this.liveDir : undefined;
    if (standby === undefined || !collected.liveKnown || collected.removedCount === 0) return;
    try {
      new Updater({ layout: this.layout, staleDir: standby, direct: true, step: this.step }).drop(
        collected.removed(),
      );
      this.step("standby-dropped");
    } catch (e) {
      this.warnings.push(
        `could not remove the files this build dropped from ${standby} (the next build does): ${(e as Error).message}`,
      );
    }
  }

  /** The pair phase: a first build's second version sealed. */
  private pair(collected: Collected): void {
    if (this.pairs) {
      const { layout, stale, generation, step } = this;
      this.warnings.push(
        ...(collected.second !== undefined
          ? sealSecondVersion(layout, collected.second, stale.version, generation, step)
          : makeSecondVersion(layout, this.staleDir, stale.version, generation, collected.fresh(), step)),
      );
    }
    this.phase("pair");
  }

  /** Removes what this build staged (the producer or the writer failed): the live version is untouched. */
  /** Removes what the build staged; a stop (Ctrl-C, SIGTERM) sets it aside so it returns at once. */
  dropStaged(cause: unknown): void {
    const dirs = [this.incoming, this.direct ? this.staleDir : undefined, this.second];
    discardStaging(this.layout.store, dirs, isStop(cause));
  }

  /** Closes the ledger and releases the lock: after a commit, an abort or a failure. */
  release(): void {
    this.ledger?.close();
    this.ledger = undefined;
    try {
      this.lock.release();
    } catch (e) {
      // Never a reason to fail a build whose snapshot is live: a lock of a dead process is stale.
      this.warnings.push(`could not remove the lock ${this.layout.lockPath}: ${(e as Error).message}`);
    }
    this.step("unlocked");
  }
}

function unsafeReplace(layout: Layout, why: string): Error {
  return unsafe(
    layout.target,
    `it is a directory without the snapshot marker and ${why}; --force never deletes that`,
    "choose another --out",
  );
}

/**
 * Where the two versions differ after an update: a count, the first paths, and the whole list only
 * when it is small enough to be recorded in pair.json (at most half the files: otherwise "all").
 */
interface Differ {
  count: number;
  /** The first `n`, sorted. */
  first(n: number): string[];
  /** All of them, sorted. */
  list(): string[];
}

function differOf(paths: string[]): Differ {
  return { count: paths.length, first: (n) => paths.slice(0, n), list: () => paths };
}

/** Brings the stale version to the new snapshot. Every change is a rename or an unlink. */
interface UpdaterOptions {
  layout: Layout;
  /** The version brought up to date. */
  staleDir: string;
  liveDir?: string;
  /** Where the files with new bytes wait ("" when none do). */
  incoming?: string;
  /** The version was made by this build: it holds nothing else. */
  direct: boolean;
  /** This build's files; only linkTree and finishMarker run without them (makeSecondVersion). */
  collected?: Collected;
  step: (s: string) => void;
}

class Updater {
  readonly tmp: string;
  private readonly made = new Set<string>();

  private readonly dir: string;
  private readonly liveDir: string | undefined;
  private readonly incoming: string;
  private readonly direct: boolean;
  private readonly collected: Collected | undefined;
  private readonly step: (s: string) => void;

  constructor(o: UpdaterOptions) {
    this.dir = o.staleDir;
    this.liveDir = o.liveDir;
    this.incoming = o.incoming ?? "";
    this.direct = o.direct;
    this.collected = o.collected;
    this.step = o.step;
    this.tmp = freshName(o.layout.store, `tmp-${process.pid}`);
  }

  /** This build's files: every method but linkTree and finishMarker reads them. */
  private get c(): Collected {
    if (this.collected === undefined) throw new Error("Updater: this pass has no build's files");
    return this.collected;
  }

  /**
   * The paths the stale version must be checked at: where it may differ, plus this build's changes.
   * O(change): used when pair.json names the differing paths (a tick).
   */
  dirtyPaths(differ: readonly string[]): string[] {
    return [...new Set([...differ, ...this.c.fresh(), ...this.c.removed()])].sort();
  }

  /** Updates the paths in `dirty` only. Returns the paths where the versions now differ. */
  updateOnly(dirty: readonly string[]): Differ {
    io.mkdirSync(this.dir, { recursive: true });
    // Removals first, deepest first, so a file can replace a directory that went away.
    for (let i = dirty.length - 1; i >= 0; i--) if (!this.c.has(dirty[i]!)) this.remove(dirty[i]!);
    for (const p of dirty) if (this.c.has(p)) this.place(p);
    return differOf(this.c.changed(-1));
  }

  /** Compares every file: drops what is not in the snapshot, places the rest. */
  updateAll(): Differ {
    io.mkdirSync(this.dir, { recursive: true });
    // A version made by this build holds nothing else.
    if (!this.direct) {
      for (const rel of walkFiles(this.dir)) {
        if (!this.c.has(rel)) this.remove(rel);
      }
    }
    if (this.direct) {
      // The new files are in place already: only the shared ones are linked in.
      this.linkTree(this.c.keptSorted());
    } else {
      for (const p of this.c.paths()) this.place(p);
    }
    // Files of the live version that the new one lacks: the bookkeeping's removed rows when it
    // describes the live version (walking it would cost a directory read per directory, more
    // directories than files in an API snapshot); otherwise every file found in it.
    // The fresh, removed and gone paths are disjoint, and all are read from the staged rows as
    // needed (after a first build every file is new: no list of them is ever made).
    const c = this.c;
    if (this.liveDir && !c.liveKnown) {
      for (const p of walkFiles(this.liveDir)) if (!c.has(p)) c.addGone(p);
    }
    const count = c.freshCount + c.removedCount + c.goneCount();
    return { count, first: (n) => c.changed(n), list: () => c.changed(-1) };
  }

  /**
   * Links the live version's files at `sorted` (sorted paths, so each directory's files are
   * contiguous) into a version made by this build: the stale version of a build that compares
   * every file, or the second version of a first build that could not link it as it wrote. Per
   * file one link(2); per directory one mkdir(2), made while the walk enters it (the
   * chain of directories entered is kept, not a set of them all). No lstat: link(2) itself fails
   * when the live copy is gone or is a directory, which fails the build as `place` does.
   */
  linkTree(sorted: Iterable<string>): void {
    const live = this.liveDir;
    // chain[k]: the directory of k+1 components that the walk is in (relative, "/"-separated).
    const chain: string[] = [];
    let current: string | undefined;
    for (const p of sorted) {
      if (live === undefined) throw missingLive(p, "");
      const slash = p.lastIndexOf("/");
      const dir = slash < 0 ? "" : p.slice(0, slash);
      if (dir !== current) {
        this.enter(chain, dir);
        current = dir;
      }
      try {
        io.linkSync(path.join(live!, p), path.join(this.dir, p));
      } catch (e) {
        const code = errnoCode(e);
        // ENOENT/ENOTDIR: the live copy is gone; EPERM/EISDIR: a directory stands in its place.
        if (code === "ENOENT" || code === "ENOTDIR" || code === "EPERM" || code === "EISDIR") {
          throw missingLive(p, live!);
        }
        throw e;
      }
      this.step(`placed ${p}`);
    }
  }

  /** Makes the directories of `dir` below the chain's common part, one mkdir(2) each. */
  private enter(chain: string[], dir: string): void {
    let k = 0;
    while (k < chain.length && (dir === chain[k] || dir.startsWith(`${chain[k]}/`))) k++;
    chain.length = k;
    if (dir === "" || (k > 0 && chain[k - 1] === dir)) return;
    // The end of the first component not yet made (-1: the last one).
    const start = k === 0 ? 0 : chain[k - 1]!.length + 1;
    for (let i = dir.indexOf("/", start); ; i = dir.indexOf("/", i + 1)) {
      const sub = i < 0 ? dir : dir.slice(0, i);
      try {
        io.mkdirSync(path.join(this.dir, sub));
      } catch (e) {
        // The directories of this build's new files exist already (they were written in place).
        if (errnoCode(e) !== "EEXIST") throw e;
      }
      chain.push(sub);
      if (i < 0) return;
    }
  }

  /**
   * The marker, written anew after every file is in place: it names the generation the version is
   * sealed as, and its mtime tells the next build which live files were edited since.
   */
  finishMarker(generation: number, stepName = "marker-written"): void {
    io.writeFileSync(this.tmp, markerText(generation));
    io.renameSync(this.tmp, path.join(this.dir, MARKER_NAME));
    this.step(stepName);
  }

  private place(p: string): void {
    const dest = path.join(this.dir, p);
    const i = this.direct ? undefined : this.c.freshIndex(p);
    if (i !== undefined) {
      this.replace(path.join(this.incoming, String(i)), dest);
    } else if (!this.linkFromLive(p)) {
      throw missingLive(p, this.liveDir ?? "");
    }
    this.step(`placed ${p}`);
  }

  /** Shares the live version's file at `p`, unless it is shared already. False if there is none. */
  private linkFromLive(p: string): boolean {
    if (this.liveDir === undefined) return false;
    const source = path.join(this.liveDir, p);
    const dest = path.join(this.dir, p);
    const src = statOrUndefined(source);
    if (!src?.isFile()) return false;
    if (this.direct) {
      // A version made by this build: nothing is in the way, and nothing to replace.
      this.makeDir(path.dirname(dest));
      io.linkSync(source, dest);
      return true;
    }
    const now = statOrUndefined(dest);
    if (now && now.ino === src.ino && now.dev === src.dev) return true;
    // `tmp` is a fresh name, and each rename below takes it away again.
    io.linkSync(source, this.tmp);
    this.replace(this.tmp, dest);
    return true;
  }

  /** rename(from, dest), making room: missing directories, a directory or file in the way. */
  private replace(from: string, dest: string): void {
    this.makeDir(path.dirname(dest));
    try {
      io.renameSync(from, dest);
    } catch (e) {
      const code = errnoCode(e);
      if (code !== "EISDIR" && code !== "ENOTEMPTY" && code !== "EEXIST") throw e;
      // A directory where the file goes: what it held is not part of this snapshot.
      io.rmSync(dest, { recursive: true, force: true });
      io.renameSync(from, dest);
    }
  }

  private makeDir(dir: string): void {
    if (this.made.has(dir)) return;
    if (this.made.size > 256) this.made.clear();
    try {
      io.mkdirSync(dir, { recursive: true });
    } catch (e) {
      const code = errnoCode(e);
      if (code !== "ENOTDIR" && code !== "EEXIST") throw e;
      // A file where a directory goes (left by an interrupted build): remove it, then retry.
      for (let d = dir; d.startsWith(this.dir + path.sep); d = path.dirname(d)) {
        const st = statOrUndefined(d);
        if (st && !st.isDirectory()) {
          io.unlinkSync(d);
          break;
        }
      }
      io.mkdirSync(dir, { recursive: true });
    }
    this.made.add(dir);
  }

  /** Removes `paths` (and the directories they leave empty). */
  drop(paths: Iterable<string>): void {
    for (const p of paths) this.remove(p);
  }

  private remove(p: string): void {
    const abs = path.join(this.dir, p);
    try {
      io.unlinkSync(abs);
    } catch (e) {
      const code = errnoCode(e);
      if (code === "ENOENT" || code === "ENOTDIR") return;
      if (code !== "EISDIR" && code !== "EPERM") throw e;
      io.rmSync(abs, { recursive: true, force: true });
    }
    this.made.clear();
    // Directories left empty go too, so the version holds exactly the snapshot's tree.
    for (
      let d = path.dirname(abs);
      d !== this.dir && d.startsWith(this.dir + path.sep);
      d = path.dirname(d)
    ) {
      try {
        io.rmdirSync(d);
      } catch {
        break;
      }
    }
    this.step(`removed ${p}`);
  }
}

/**
 * A file the live bookkeeping lists is gone from the live version: removed by hand, since builds
 * never remove a file of the live version. Nothing is switched; the old snapshot keeps serving.
 */
function missingLive(p: string, liveDir: string): BuildError {
  return new BuildError(
    `The live snapshot lacks ${p}, which its bookkeeping lists; nothing was published.`,
    [
      {
        where: path.join(liveDir, p),
        what: "a file of the live snapshot was removed or replaced by something other than a build",
        fix: "run `build-api verify --out <dir>` to list every such file, then `build-api build --rebuild`",
      },
    ],
    EXIT.snapshotDamaged,
  );
}

/** Makes the second version's directory, empty, beside the others. */
function makeSecondDir(layout: Layout): string {
  const dir = path.join(layout.store, String(nextVersion(layout)));
  io.mkdirSync(dir);
  return dir;
}

/**
 * After a first build's switch: makes `<store>/<n>`, a copy of the live version `liveDir` made of
 * hard links (every file of a first build is in `files`, sorted), when the build could not link it
 * as it wrote (its files did not go straight to their place). Then seals it (sealSecondVersion).
 */
function makeSecondVersion(
  layout: Layout,
  liveDir: string,
  liveVersion: string,
  generation: number,
  files: Iterable<string>,
  step: (s: string) => void,
): string[] {
  let dir: string;
  try {
    dir = makeSecondDir(layout);
  } catch (e) {
    return [secondWarning((e as Error).message)];
  }
  step("second-version-made");
  let error: string | undefined;
  try {
    // Read from the staged rows in path order as they are linked: no list of every path.
    new Updater({ layout, staleDir: dir, liveDir, direct: true, step }).linkTree(files);
  } catch (e) {
    error = (e as Error).message;
  }
  return sealSecondVersion(layout, { dir, error }, liveVersion, generation, step);
}

/**
 * Seals a complete second version with the live marker's generation, then records the pair with no
 * path differing. An incomplete one is removed. A kill before the marker leaves an unmarked version
 * that the next build removes as a leftover (it then makes the second version itself); a kill
 * between the marker and pair.json leaves a complete version that the next build adopts and
 * compares file by file. Trouble is a warning: the snapshot is live already.
 */
function sealSecondVersion(
  layout: Layout,
  second: SecondVersion,
  liveVersion: string,
  generation: number,
  step: (s: string) => void,
): string[] {
  try {
    if (second.error !== undefined) throw new Error(second.error);
    new Updater({ layout, staleDir: second.dir, direct: true, step }).finishMarker(
      generation,
      "second-marker-written",
    );
    writePair(layout, { buffers: [liveVersion, path.basename(second.dir)], differ: [] });
    step("paired");
    return [];
  } catch (e) {
    try {
      io.rmSync(second.dir, { recursive: true, force: true });
    } catch {
      // A leftover without a marker: the next build removes it.
    }
    return [secondWarning((e as Error).message)];
  }
}

function secondWarning(why: string): string {
  return `the second snapshot version could not be made (${why}); the next build makes it`;
}

/** `<dir>/<base>`, or `<dir>/<base>-<n>` when that exists already. */
function freshName(dir: string, base: string): string {
  let name = path.join(dir, base);
  for (let n = 1; statOrUndefined(name); n++) name = path.join(dir, `${base}-${n}`);
  return name;
}

function statOrUndefined(p: string) {
  try {
    return io.lstatSync(p);
  } catch (e) {
    const code = errnoCode(e);
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    throw e;
  }
}

function isDirectory(p: string): boolean {
  return statOrUndefined(p)?.isDirectory() ?? false;
}

/**
 * Every non-directory under `root`, as "/"-separated relative paths, the marker excluded (the
 * previous format's manifest and state are not: a walk removes them). Yielded as found, one
 * directory's entries held at a time per level: never a list of every file. A caller may remove
 * files already yielded (and directories they left empty): each directory is read before its
 * files are yielded.
 */
function* walkFiles(root: string, abs = root, rel = ""): Generator<string> {
  for (const e of io.readdirSync(abs, { withFileTypes: true })) {
    const childRel = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) yield* walkFiles(root, path.join(abs, e.name), childRel);
    else if (rel || e.name !== MARKER_NAME) yield childRel;
  }
}

/** Points the target at `version`. */
function switchTo(
  layout: Layout,
  version: string,
  partner: string | undefined,
  current: Current,
  step: (s: string) => void,
): void {
  const link = path.join(layout.store, `link-${version}`);
  io.rmSync(link, { force: true });
  io.symlinkSync(layout.linkText(version), link);
  step("link-created");
  if (current.kind === "dir") {
    io.writeFileSync(layout.journal, `${partner}\n`);
    step("journal-written");
    io.renameSync(layout.target, path.join(layout.store, partner!));
    step("target-moved");
  }
  io.renameSync(link, layout.target);
  step("switched");
  if (current.kind === "dir") {
    try {
      io.unlinkSync(layout.journal);
    } catch {
      // Harmless: the next build finds the target in place and drops the journal.
    }
    step("journal-removed");
  }
}
