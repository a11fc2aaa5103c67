// The one place deploy reads "which files does the snapshot hold, with which bytes": today the
// publication's manifest (publish/manifest.ts: path → sha256 and size). If the bookkeeping moves
// (a database beside the snapshot), only this function changes; the plan, the upload and the edge
// code see a plain map.
import { readFileSync, realpathSync } from "node:fs";
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
  const manifest = path.join(root, MANIFEST_NAME);
  const fast = readCanonicalManifest(manifest);
  if (fast) return { root, files: fast };
  const entries = readManifest(manifest);
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

const LINE_START = '{"path":"';
const SHA_KEY = '","sha256":"';
const BYTES_KEY = '","bytes":';

/**
 * The manifest as the build writes it (one canonical entry a line, see publish/manifest.ts), read
 * with string searches only: a deploy after a one-tournament tick reads all of it, and this is
 * several times faster than the general reader at 50,000 lines. Undefined at the first line not
 * in exactly that form: the caller then uses readManifest, which checks everything.
 */
function readCanonicalManifest(file: string): Map<string, SnapshotFile> | undefined {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
  const lines = text.split("\n");
  if (!lines[0]!.startsWith('{"format":"build-api-manifest","version":1,"files":[')) return undefined;
  if (lines.at(-2) !== "]}" || lines.at(-1) !== "") return undefined;
  const files = new Map<string, SnapshotFile>();
  for (let i = 1; i < lines.length - 2; i++) {
    let line = lines[i]!;
    if (i < lines.length - 3) {
      if (!line.endsWith(",")) return undefined;
      line = line.slice(0, -1);
    }
    const sha = line.indexOf(SHA_KEY);
    if (
      !line.startsWith(LINE_START) ||
      sha === -1 ||
      line.slice(sha + 76, sha + 76 + BYTES_KEY.length) !== BYTES_KEY
    )
      return undefined;
    const p = line.slice(LINE_START.length, sha);
    const sha256 = line.slice(sha + SHA_KEY.length, sha + SHA_KEY.length + 64);
    const digits = line.slice(sha + 76 + BYTES_KEY.length, -1);
    if (!line.endsWith("}") || !/^(0|[1-9][0-9]{0,15})$/.test(digits) || !/^[0-9a-f]{64}$/.test(sha256))
      return undefined;
    if (!/^[A-Za-z0-9._/-]+$/.test(p) || files.has(p)) return undefined;
    files.set(p, { sha256, bytes: Number(digits) });
  }
  return files;
}
