// The one place deploy reads "which files does the snapshot hold, with which bytes": the
// publication's bookkeeping (publish/bookkeeping.ts, a database beside the versions: path →
// sha256 and size), read through publish/changes.ts. The plan, the upload and the edge code see a
// plain map. `changesSince` gives only what changed after a generation the deploy reached.
import { realpathSync } from "node:fs";
import path from "node:path";
import { liveFiles, type Generation } from "../publish/changes.ts";
import { BOOKKEEPING_NAME } from "../publish/bookkeeping.ts";
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

export function readSnapshotFiles(dir: string): SnapshotFiles {
  try {
    realpathSync(path.resolve(dir));
  } catch {
    throw new BuildError(
      `No snapshot at ${dir}.`,
      [{ what: "the directory does not exist", where: dir, fix: `run build-api build --out ${dir} first` }],
      EXIT.usage,
    );
  }
  const live = liveFiles(dir);
  if (!live) {
    throw new BuildError(
      `No snapshot bookkeeping for ${dir}.`,
      [
        {
          what: `the bookkeeping (${BOOKKEEPING_NAME} beside the versions) is missing or does not describe the live version, so the files to upload are unknown`,
          where: dir,
          fix: `run build-api build --out ${dir} (deploy uploads only what a build published)`,
        },
      ],
      EXIT.usage,
    );
  }
  return { root: live.snapshotDir, files: live.files, generation: live.to };
}
