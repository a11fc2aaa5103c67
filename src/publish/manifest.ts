// The snapshot's own bookkeeping files, both at its root and outside `api/`:
// - the marker says "this directory is a build-api snapshot, a build may replace it";
// - the manifest lists every other file with its sha256 and size, sorted by path, one file per
//   line. It holds no timestamps, so the same files always give the same manifest bytes. The next
//   build reads it to find the files whose bytes did not change.
import { closeSync, openSync, readFileSync, writeSync } from "node:fs";

export const MARKER_NAME = ".build-api-snapshot";
export const MARKER_CONTENT =
  "build-api snapshot\nThis directory was written by build-api; the next build may replace it.\n";
export const MANIFEST_NAME = ".build-api-manifest.json";

const HEADER = '{"format":"build-api-manifest","version":1,"files":[';
const FOOTER = "]}";
const SHA256_HEX = /^[0-9a-f]{64}$/;

/**
 * path -> "<sha256 hex> <bytes>". A flat string per entry (rather than an object) keeps memory
 * small for hundreds of thousands of files, and an unchanged file can reuse the previous string.
 */
export type ManifestEntries = Map<string, string>;

export function entryValue(sha256: string, bytes: number): string {
  return `${sha256} ${bytes}`;
}

export function parseEntryValue(value: string): { sha256: string; bytes: number } {
  const space = value.indexOf(" ");
  return { sha256: value.slice(0, space), bytes: Number(value.slice(space + 1)) };
}

/** Writes the manifest for `entries` to `file` (which must not exist) and returns its size in bytes. */
export function writeManifest(file: string, entries: ManifestEntries): number {
  // Plain code-unit order: paths are ASCII (safeRelativePath), so this is byte order on every platform.
  const paths = [...entries.keys()].sort();
  const fd = openSync(file, "wx");
  let total = 0;
  let chunk = HEADER;
  const flush = (): void => {
    const buf = Buffer.from(chunk, "utf8");
    writeSync(fd, buf);
    total += buf.length;
    chunk = "";
  };
  try {
    paths.forEach((p, i) => {
      const { sha256, bytes } = parseEntryValue(entries.get(p) as string);
      chunk += `\n${JSON.stringify({ path: p, sha256, bytes })}${i < paths.length - 1 ? "," : ""}`;
      if (chunk.length > 1 << 20) flush();
    });
    chunk += `\n${FOOTER}\n`;
    flush();
  } finally {
    closeSync(fd);
  }
  return total;
}

/**
 * Reads a manifest written by writeManifest. Returns undefined when the file is missing or not
 * in exactly that format: the caller then treats every file as changed, which is always safe.
 */
export function readManifest(file: string): ManifestEntries | undefined {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
  const lines = text.split("\n");
  if (lines[0] !== HEADER || lines.at(-1) !== "" || lines.at(-2) !== FOOTER) return undefined;
  const entries: ManifestEntries = new Map();
  for (let i = 1; i < lines.length - 2; i++) {
    const last = i === lines.length - 3;
    let line = lines[i];
    if (!last) {
      if (!line.endsWith(",")) return undefined;
      line = line.slice(0, -1);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      return undefined;
    }
    const e = parsed as { path?: unknown; sha256?: unknown; bytes?: unknown };
    if (
      typeof e.path !== "string" ||
      typeof e.sha256 !== "string" ||
      !SHA256_HEX.test(e.sha256) ||
      typeof e.bytes !== "number" ||
      !Number.isSafeInteger(e.bytes) ||
      e.bytes < 0 ||
      entries.has(e.path) ||
      // Only the canonical form: then equal entries mean equal manifest bytes.
      JSON.stringify({ path: e.path, sha256: e.sha256, bytes: e.bytes }) !== line
    ) {
      return undefined;
    }
    entries.set(e.path, entryValue(e.sha256, e.bytes));
  }
  return entries;
}
