// The one place deploy reads "which files does the snapshot hold, with which bytes": today the
// publication's manifest (publish/manifest.ts: path → sha256 and size). If the bookkeeping moves
// (a database beside the snapshot), only this function changes; the plan, the upload and the edge
// code see a plain map.
import { realpathSync } from "node:fs";
import path from "node:path";
import { MANIFEST_NAME, parseEntryValue, readManifest } from "../publish/manifest.ts";
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
}

export function readSnapshotFiles(dir: string): SnapshotFiles {
  let root: string;
  try {
    root = realpathSync(path.resolve(dir));
  } catch {
    throw new BuildError(
      `No snapshot at ${dir}.`,
      [{ what: "the directory does not exist", where: dir, fix: `run build-api build --out ${dir} first` }],
      EXIT.usage,
    );
  }
  const entries = readManifest(path.join(root, MANIFEST_NAME));
  if (!entries) {
    throw new BuildError(
      `No snapshot manifest in ${dir}.`,
      [
        {
          what: `${MANIFEST_NAME} is missing or unreadable, so the files to upload are unknown`,
          where: path.join(root, MANIFEST_NAME),
          fix: `run build-api build --out ${dir} (deploy uploads only what a build published)`,
        },
      ],
      EXIT.usage,
    );
  }
  const files = new Map<string, SnapshotFile>();
  for (const [p, value] of entries) files.set(p, parseEntryValue(value));
  return { root, files };
}
