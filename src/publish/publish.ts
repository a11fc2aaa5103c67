// Atomic publication of a snapshot.
//
// On-disk layout, for `--out <parent>/dist`:
//   <parent>/dist                      symlink -> ".dist.snapshots/<n>" (relative)
//   <parent>/.dist.snapshots/<n>/      the complete snapshot the link points to
//   <parent>/.dist.snapshots/.build-api-snapshots   says this folder is ours
//   <parent>/.dist.lock                "<pid> <host>" while a build runs (O_EXCL)
// and, only while a build runs or after one was killed:
//   .dist.snapshots/staging-<n>/  the snapshot being written
//   .dist.snapshots/link-<n>      the new link, made before it replaces `dist`
//   .dist.snapshots/migrating     journal of a move of an old real `dist` directory
//
// A build: take the lock; finish an interrupted migration; check the target; delete leftovers
// (everything in the store that is ours except the version `dist` points to); write every file
// into staging-<n> (unchanged files hard-linked from the current version); write the manifest,
// then the marker; rename staging-<n> to <n>; make link-<n>; rename(link-<n>, dist); remove the
// old version; release the lock.
//
// Why it is atomic: rename(2) of a symlink over an existing symlink replaces it in one step, so
// at every instant `dist` resolves either to the old complete version or to the new complete
// one. Nothing inside the version `dist` points to is ever written, so if the build throws or is
// killed (SIGKILL included) before that rename, the old snapshot stays byte-identical and
// servable; what the build left behind lies in the store under names the next build deletes.
//
// Migration: a real directory at `dist` (from an older build, an empty one, or any with force)
// cannot be swapped for a link in one step. The build writes the journal, renames the directory
// into the store, then renames the new link into place: two consecutive renames, and only the
// first build that migrates has them. If it dies between the two, `dist` is missing until the
// next build, which reads the journal and puts a link to the old snapshot back before anything else.
import { renameSync, rmSync, symlinkSync, writeFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import {
  ensureStore,
  inspectTarget,
  nextVersion,
  recoverMigration,
  removeLeftovers,
  resolveLayout,
  type Current,
  type Layout,
} from "./layout.ts";
import { acquireLock } from "./lock.ts";
import { MANIFEST_NAME, readManifest } from "./manifest.ts";
import { StagingWriter, type SnapshotWriter, type WriteCounts } from "./staging-writer.ts";

export type { SnapshotWriter } from "./staging-writer.ts";

export interface PublishOptions {
  outDir: string;
  /** Allow replacing a non-empty directory (or a symlink) that has no snapshot marker. */
  force?: boolean;
  /** Wait this long for another build's lock before failing with EXIT.locked (default 0). */
  lockWaitMs?: number;
  /** Test hook: called at every step (each file written, manifest, marker, each rename...). */
  onStep?: (step: string) => void;
  /** Called as each phase starts (lock, prepare, produce, finish, switch, cleanup): progress output. */
  onPhase?: (name: string) => void;
}

export interface PublishReport extends WriteCounts {
  /** Milliseconds per phase: lock, prepare, produce, finish, switch, cleanup. */
  phases: Record<string, number>;
  /** The version directory the target now points to. */
  snapshotDir: string;
}

export async function publishSnapshot(
  opts: PublishOptions,
  produce: (w: SnapshotWriter) => void | Promise<void>,
): Promise<PublishReport> {
  const step = opts.onStep ?? (() => {});
  const force = opts.force ?? false;
  const phases: Record<string, number> = {};
  let mark = performance.now();
  const order = ["lock", "prepare", "produce", "finish", "switch", "cleanup"];
  const phase = (name: string): void => {
    const now = performance.now();
    phases[name] = now - mark;
    mark = now;
    const next = order[order.indexOf(name) + 1];
    if (next) opts.onPhase?.(next);
  };
  opts.onPhase?.("lock");

  const layout = resolveLayout(opts.outDir);
  const lock = await acquireLock(layout.lockPath, layout.target, opts.lockWaitMs ?? 0);
  step("locked");
  phase("lock");
  try {
    recoverMigration(layout, force);
    step("recovered");
    const current = inspectTarget(layout, force);
    ensureStore(layout, force);
    removeLeftovers(layout, current.kind === "link" ? current.version : undefined);
    step("cleaned");
    const previousDir = current.kind === "link" || current.kind === "dir" ? current.dir : undefined;
    const previous = previousDir ? readManifest(path.join(previousDir, MANIFEST_NAME)) : undefined;
    const version = String(nextVersion(layout));
    const staging = path.join(layout.store, `staging-${version}`);
    mkdirSync(staging);
    step("staging-created");
    phase("prepare");

    let counts: WriteCounts;
    try {
      const writer = new StagingWriter(staging, previousDir, previous, step);
      await produce(writer);
      step("produced");
      phase("produce");
      counts = writer.finish();
    } catch (e) {
      rmSync(staging, { recursive: true, force: true });
      throw e;
    }
    const snapshotDir = path.join(layout.store, version);
    renameSync(staging, snapshotDir);
    step("staged");
    phase("finish");

    const old = switchTo(layout, version, current, step);
    phase("switch");
    // The new snapshot is live; a failure to delete the old one is retried by the next build.
    if (old) rmSync(old, { recursive: true, force: true, maxRetries: 2 });
    step("old-removed");
    phase("cleanup");
    return { ...counts, phases, snapshotDir };
  } finally {
    lock.release();
    step("unlocked");
  }
}

/** Points the target at `version`. Returns the old version directory to delete, if any. */
function switchTo(
  layout: Layout,
  version: string,
  current: Current,
  step: (s: string) => void,
): string | undefined {
  const link = path.join(layout.store, `link-${version}`);
  symlinkSync(layout.linkText(version), link);
  step("link-created");
  let old: string | undefined;
  if (current.kind === "dir") {
    const moved = String(Number(version) + 1);
    writeFileSync(layout.journal, `${moved}\n`);
    step("journal-written");
    old = path.join(layout.store, moved);
    renameSync(layout.target, old);
    step("target-moved");
  } else if (current.kind === "link") {
    old = path.join(layout.store, current.version);
  }
  renameSync(link, layout.target);
  step("switched");
  if (current.kind === "dir") {
    rmSync(layout.journal);
    step("journal-removed");
  }
  return old;
}
