// The deploy record: what the bucket holds under a prefix, kept in the bucket itself so any machine
// can deploy next (a CI runner keeps no state). Two objects beside the snapshot's keys, which no
// edge rule serves:
// - RECORD_KEY: the change log's id and the generation of the publication the bucket holds
//   (version 3: a few hundred bytes whatever the file count; the next deploy asks the log what
//   changed since), the digest of the metadata rules the objects were sent with, and the edge
//   facts. Versions 1 and 2 listed every key with its sha256 and size instead (O(files) read and
//   written on every deploy); they are still read, for one full comparison that writes version 3.
//   Written once, after a deploy has finished.
// - PENDING_KEY: the keys a deploy in progress may have written or removed. Written before the
//   first upload, removed after the record; when a deploy dies, the next one finds it and treats
//   those keys as unknown (sent again if wanted, removed if not), so nothing is left behind.
// The record also keeps the snapshot's edge facts it was written with (archived tournaments, Link
// headers): what decides the headers of an object beyond its rule. A deploy compares them with the
// snapshot's to find objects whose bytes are the same but whose Cache-Control or Link is not.
// Both are gzipped; a normal deploy reads the two and writes the two, never lists the bucket.
// Anyone who may write the bucket may put a gzip bomb there: what is read and what it expands to
// are bounded (MAX_READ_BYTES), and one over the bound is an unreadable record or mark (which the
// deploy answers with a full comparison), not a process out of memory.
import { gunzipSync, gzipSync } from "node:zlib";
import type { Generation } from "../publish/changes.ts";
import type { EdgeFacts } from "../routes/pagination.ts";
import type { SnapshotFile } from "./snapshot-files.ts";

export const RECORD_KEY = "_build-api-deploy.json.gz";
export const PENDING_KEY = "_build-api-deploy.pending.json.gz";
/**
 * A publication that streams as it renders (stream-upload.ts) cannot name its keys before the
 * first upload: its pending mark names its run (`<PENDING_PARTS><run>`, not a key), and before each
 * batch a part `pendingPartKey(run, n)` (n from 1) lists that batch's keys. A reader takes the
 * parts up to the first missing one.
 */
export const PENDING_PARTS = "_build-api-deploy.pending-parts/";
export const pendingPartKey = (run: string, n: number): string =>
  `_build-api-deploy.pending.${run}.${n}.json.gz`;
const FORMAT = "build-api-deploy";
/**
 * The most a record or pending mark may be, gzipped or expanded: a version-2 record of about a
 * million files (one line of about 110 bytes each), far beyond any snapshot built so far.
 */
export const MAX_READ_BYTES = 128 * 1024 * 1024;

/** The text of gzipped bytes, or undefined when they are not gzip or expand past the bound. */
function gunzipBounded(bytes: Uint8Array): string | undefined {
  if (bytes.length > MAX_READ_BYTES) return undefined;
  try {
    // Stops inflating at the bound (RangeError) instead of allocating what a bomb asks for.
    return gunzipSync(bytes, { maxOutputLength: MAX_READ_BYTES }).toString("utf8");
  } catch {
    return undefined;
  }
}

export interface DeployRecord {
  /** metadataDigest() of the deploy that wrote the objects. */
  metadata: string;
  /** Every key and its bytes (versions 1 and 2); absent in version 3, which keeps `at` instead. */
  files?: Map<string, SnapshotFile>;
  /** The change log and generation the bucket's objects are (version 3). */
  at?: Generation;
  /** The edge facts the objects' headers were sent with; undefined in a version-1 record (unknown). */
  facts?: EdgeFacts;
}

/**
 * Text, one file a line: a header line, the edge facts as one line of JSON (version 2), then
 * `<sha256> <bytes> <path>` (paths hold no newline:
 * safe-path.ts). Cheaper to write and read than JSON at hundreds of thousands of lines; gzip level 1
 * because the record is written on every deploy and its hashes do not compress anyway.
 */
export function encodeRecord(r: DeployRecord): Buffer {
  if (r.at) {
    // Version 3: no file list. Log ids are hex and generations integers (no spaces).
    const text = `${FORMAT} 3 ${r.metadata} ${r.at.log} ${r.at.generation}\n${JSON.stringify(r.facts ?? null)}\n`;
    return gzipSync(text, { level: 1 });
  }
  const files = r.files ?? new Map<string, SnapshotFile>();
  const lines = [`${FORMAT} 2 ${r.metadata}`, JSON.stringify(r.facts ?? null)];
  for (const [p, f] of files) lines.push(`${f.sha256} ${f.bytes} ${p}`);
  return gzipSync(lines.join("\n") + "\n", { level: 1 });
}

/** Undefined when the bytes are not a record of this format: the caller then sends everything. */
export function decodeRecord(bytes: Uint8Array): DeployRecord | undefined {
  const text = gunzipBounded(bytes);
  if (text === undefined) return undefined;
  const lines = text.split("\n");
  const header = new RegExp(`^${FORMAT} ([123]) (\\S+)(?: (\\S+) ([0-9]+))?$`).exec(lines[0] ?? "");
  if (!header || lines.at(-1) !== "" || (header[1] === "3") !== (header[3] !== undefined)) return undefined;
  let facts: EdgeFacts | undefined;
  let first = 1;
  if (header[1] !== "1") {
    first = 2;
    try {
      const f = JSON.parse(lines[1] ?? "") as EdgeFacts | null;
      if (f !== null && (!Array.isArray(f.archived) || typeof f.links !== "object" || f.links === null))
        return undefined;
      facts = f ?? undefined;
    } catch {
      return undefined;
    }
  }
  if (header[1] === "3") {
    if (lines.length !== 3) return undefined;
    const at = { log: header[3]!, generation: Number(header[4]) };
    if (!Number.isSafeInteger(at.generation)) return undefined;
    return { metadata: header[2]!, at, ...(facts && { facts }) };
  }
  const files = new Map<string, SnapshotFile>();
  for (let i = first; i < lines.length - 1; i++) {
    const line = lines[i]!;
    const space = line.indexOf(" ", 65);
    const bytes = Number(line.slice(65, space));
    if (line[64] !== " " || space === -1 || !Number.isSafeInteger(bytes) || bytes < 0) return undefined;
    files.set(line.slice(space + 1), { sha256: line.slice(0, 64), bytes });
  }
  return { metadata: header[2]!, files, ...(facts && { facts }) };
}

export function encodePending(keys: Iterable<string>): Buffer {
  return gzipSync(JSON.stringify({ format: `${FORMAT}-pending`, version: 1, keys: [...keys].sort() }));
}

/** The keys of a pending marker; undefined when unreadable (the caller then distrusts the record). */
export function decodePending(bytes: Uint8Array): string[] | undefined {
  const text = gunzipBounded(bytes);
  if (text === undefined) return undefined;
  try {
    const o = JSON.parse(text) as { format?: unknown; keys?: unknown };
    if (o.format !== `${FORMAT}-pending` || !Array.isArray(o.keys)) return undefined;
    return o.keys.every((k) => typeof k === "string") ? (o.keys as string[]) : undefined;
  } catch {
    return undefined;
  }
}
