// The snapshot's own bookkeeping files, both at its root and outside `api/`:
// - the marker says "this directory is a build-api snapshot, a build may replace it";
// - the manifest lists every other file with its sha256 and size, sorted by path, one file per
//   line. It holds no timestamps, so the same files always give the same manifest bytes. The next
//   build reads it to find the files whose bytes did not change.
import path from "node:path";
import { io } from "./io.ts";

export const MARKER_NAME = ".build-api-snapshot";
export const MARKER_CONTENT =
  "build-api snapshot\nThis directory was written by build-api; the next build may replace it.\n";
export const MANIFEST_NAME = ".build-api-manifest.json";

const HEADER = '{"format":"build-api-manifest","version":1,"files":[';
const FOOTER = "]}";
const SHA256_HEX = /^[0-9a-f]{64}$/;
const SHA256_BYTES = 32;
const CANONICAL_ENTRY =
  /^\{"path":"([A-Za-z0-9._/-]+)","sha256":"([0-9a-f]{64})","bytes":(0|[1-9][0-9]{0,15})\}$/;

/**
 * path -> entry value (see entryValue). A flat string per entry (rather than an object) keeps
 * memory small for hundreds of thousands of files, and an unchanged file can reuse the previous
 * string. Read a value with parseEntryValue.
 */
export type ManifestEntries = Map<string, string>;

/** Scratch space for building entry values: a digest and up to 16 digits of a byte count. */
const scratch = Buffer.alloc(SHA256_BYTES + 16);

/**
 * The entry value for a file: its 32 digest bytes as latin1 characters followed by its byte count
 * in decimal. Built through a buffer so it is one flat string of about 40 bytes (a hex digest
 * joined with `${}` would be a tree of three strings of about 170 bytes); equal files give equal
 * values.
 */
export function entryValue(sha256: Uint8Array, bytes: number): string {
  scratch.set(sha256, 0);
  const digits = scratch.write(String(bytes), SHA256_BYTES, "latin1");
  return scratch.toString("latin1", 0, SHA256_BYTES + digits);
}

/** The byte count of an entry value, without decoding its digest. */
export function entryBytes(value: string): number {
  return Number(value.slice(SHA256_BYTES));
}

export function parseEntryValue(value: string): { sha256: string; bytes: number } {
  return {
    sha256: Buffer.from(value.slice(0, SHA256_BYTES), "latin1").toString("hex"),
    bytes: Number(value.slice(SHA256_BYTES)),
  };
}

/** Writes the manifest for `entries` to `file` (which must not exist) and returns its size in bytes. */
export function writeManifest(file: string, entries: ManifestEntries): number {
  // Plain code-unit order: paths are ASCII (safeRelativePath), so this is byte order on every platform.
  const paths = [...entries.keys()].sort();
  const fd = io.openSync(file, "wx");
  let total = 0;
  let chunk = HEADER;
  const flush = (): void => {
    const buf = Buffer.from(chunk, "utf8");
    // write(2) may write less than asked (a file size limit, a signal): go on until all is written,
    // so the error, if any, comes from the next call instead of a silently truncated manifest.
    for (let done = 0; done < buf.length;) done += io.writeSync(fd, buf, done);
    total += buf.length;
    chunk = "";
  };
  try {
    paths.forEach((p, i) => {
      const { sha256, bytes } = parseEntryValue(entries.get(p) as string);
      // The same text as JSON.stringify({ path, sha256, bytes }), without making the object.
      const line = `{"path":${JSON.stringify(p)},"sha256":"${sha256}","bytes":${bytes}}`;
      chunk += `\n${line}${i < paths.length - 1 ? "," : ""}`;
      if (chunk.length > 1 << 20) flush();
    });
    chunk += `\n${FOOTER}\n`;
    flush();
  } finally {
    io.closeSync(fd);
  }
  return total;
}

/**
 * Calls `line` with each "\n"-terminated line of `file`, decoded as UTF-8, reading it a chunk at a
 * time so a large manifest is never held whole. Returns false when `line` does (it stops early) and
 * the text after the last "\n" (empty when the file ends with one); undefined when `file` cannot
 * be read.
 */
function readLines(file: string, line: (text: string) => boolean): string | false | undefined {
  let fd: number;
  try {
    fd = io.openSync(file, "r");
  } catch {
    return undefined;
  }
  try {
    const chunk = Buffer.allocUnsafe(1 << 20);
    let rest: Buffer = Buffer.alloc(0);
    for (;;) {
      const n = io.readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) return rest.toString("utf8");
      // A "\n" byte is never part of a multi-byte UTF-8 sequence: splitting the bytes at it and
      // decoding each line gives the same text as decoding the whole file, then splitting it.
      const data = rest.length > 0 ? Buffer.concat([rest, chunk.subarray(0, n)]) : chunk.subarray(0, n);
      let start = 0;
      for (let end = data.indexOf(10); end !== -1; end = data.indexOf(10, start)) {
        if (!line(data.toString("utf8", start, end))) return false;
        start = end + 1;
      }
      rest = Buffer.from(data.subarray(start));
    }
  } catch {
    return undefined;
  } finally {
    io.closeSync(fd);
  }
}

/**
 * Reads a manifest written by writeManifest. Returns undefined when the file is missing or not
 * in exactly that format: the caller then treats every file as changed, which is always safe.
 */
export function readManifest(file: string): ManifestEntries | undefined {
  const entries: ManifestEntries = new Map();
  // Lines: HEADER, the entries (each but the last ending in ","), FOOTER, then the end of the file.
  let state = "header" as "header" | "entries" | "footer";
  let pending: string | undefined; // the entry line before the current one: its comma is checked later
  const entry = (line: string): boolean => {
    // The common case, without JSON.parse: a path of safe characters only (as every output path
    // is), which JSON.stringify writes as it is, so a match is the canonical form.
    const m = CANONICAL_ENTRY.exec(line);
    if (m) {
      const [, p, sha256, bytes] = m as unknown as [string, string, string, string];
      const n = Number(bytes);
      if (entries.has(p) || !Number.isSafeInteger(n)) return false;
      entries.set(p, entryValue(Buffer.from(sha256, "hex"), n));
      return true;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      return false;
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
      return false;
    }
    entries.set(e.path, entryValue(Buffer.from(e.sha256, "hex"), e.bytes));
    return true;
  };
  const tail = readLines(file, (line) => {
    if (state === "header") {
      state = "entries";
      return line === HEADER;
    }
    if (state === "footer") return false; // a line after FOOTER
    if (line === FOOTER) {
      state = "footer";
      return pending === undefined || entry(pending);
    }
    if (pending !== undefined) {
      if (!pending.endsWith(",")) return false;
      if (!entry(pending.slice(0, -1))) return false;
    }
    pending = line;
    return true;
  });
  return tail === "" && state === "footer" ? entries : undefined;
}

/**
 * The number of files and bytes the manifest of the snapshot at `outDir` lists: what the report of an up-to-date
 * snapshot needs. One pass of a regular expression over the file's text (its lines are the
 * writer's canonical JSON); readManifest, which parses every line, only when the text is not in
 * that form. Undefined when there is no manifest.
 */
export function manifestTotals(outDir: string): { size: number; bytes: number } | undefined {
  const file = path.join(outDir, MANIFEST_NAME);
  let buf: Buffer;
  try {
    buf = io.readFileSync(file);
  } catch {
    return undefined;
  }
  const header = Buffer.from(`${HEADER}\n`);
  if (buf.subarray(0, header.length).equals(header)) {
    // Each entry line ends with `"bytes":<digits>}` and a comma but the last: found with native
    // searches over the bytes, never decoded into one large string.
    const key = Buffer.from('"bytes":');
    let size = 0;
    let bytes = 0;
    let lines = 0;
    for (let at = buf.indexOf(10); at !== -1; at = buf.indexOf(10, at + 1)) lines++;
    for (let at = buf.indexOf(key); at !== -1; at = buf.indexOf(key, at + key.length)) {
      let n = 0;
      let i = at + key.length;
      for (; i < buf.length && buf[i]! >= 48 && buf[i]! <= 57; i++) n = n * 10 + (buf[i]! - 48);
      if (buf[i] !== 125) break; // "}": anything else is not the writer's form
      size++;
      bytes += n;
    }
    if (size === lines - 2) return { size, bytes };
  }
  const entries = readManifest(file);
  if (!entries) return undefined;
  let bytes = 0;
  for (const value of entries.values()) bytes += parseEntryValue(value).bytes;
  return { size: entries.size, bytes };
}
