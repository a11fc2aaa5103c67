// The one place deploy reads "which files does the snapshot hold, with which bytes": the
// publication's bookkeeping (ledger/bookkeeping.ts, a database beside the versions: path →
// sha256 and size), read through publish/changes.ts. The plan, the upload and the edge code see a
// plain map. `changesSince` gives only what changed after a generation the deploy reached.
import { realpathSync } from "node:fs";
import path from "node:path";
import {
  changesSince,
  liveFiles,
  liveGeneration,
  type ChangesSince,
  type Generation,
} from "../publish/changes.ts";
import { BOOKKEEPING_NAME } from "../ledger/bookkeeping.ts";
import { BuildError, EXIT } from "../shared/errors.ts";

export interface SnapshotFile {
  sha256: string;
  bytes: number;
}

export interface SnapshotFiles {
  /** The snapshot's real directory, resolved once so every read sees one published version. */
  root: string;
  /** Relative path (no leading slash) → its hash and size. */
  files: Map<string, SnapshotFile>;
  /** The bookkeeping generation these files are (a deploy record may keep it). */
  generation: Generation;
}

function noSnapshot(dir: string): never {
  try {
    realpathSync(path.resolve(dir));
  } catch {
    throw new BuildError(
      `No snapshot at ${dir}.`,
      [{ what: "the directory does not exist", where: dir, fix: `run build-api build --out ${dir} first` }],
      EXIT.usage,
    );
  }
  throw new BuildError(
    `No snapshot bookkeeping for ${dir}.`,
    [
      {
        what: `the bookkeeping (${BOOKKEEPING_NAME} beside the versions) is missing or does not describe the live version (a build killed after its switch left a change that a read-only deploy may not apply), so the files to upload are unknown`,
        where: dir,
        fix: `run build-api build --out ${dir} (deploy uploads only what a build published)`,
      },
    ],
    EXIT.usage,
  );
}

/** The snapshot's live generation, or a usage error naming the fix. O(1): read before the bucket. */
export function snapshotGeneration(dir: string): { root: string; generation: Generation } {
  const live = liveGeneration(dir);
  if (!live) noSnapshot(dir);
  return { root: live.snapshotDir, generation: live.to };
}

/** Every file of the snapshot (the full comparison). O(files). */
export function readSnapshotFiles(dir: string): SnapshotFiles {
  const live = liveFiles(dir);
  if (!live) noSnapshot(dir);
  return { root: live.snapshotDir, files: live.files, generation: live.to };
}

/**
 * What changed in the snapshot since `since` (undefined `changes`: the log cannot say), with the
 * live rows of the paths in `also`. O(change): only those rows are read.
 */
export function readSnapshotChanges(
  dir: string,
  since: Generation | undefined,
  also: Iterable<string>,
): ChangesSince & { root: string } {
  const c = changesSince(dir, since, also);
  if (!c) noSnapshot(dir);
  return { ...c, root: c.snapshotDir };
}
