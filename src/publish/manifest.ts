// The one bookkeeping file inside a version, at its root: the marker. It says "this directory is a
// build-api snapshot, a build may replace it" and names the generation of the bookkeeping
// (bookkeeping.ts, beside the versions) the version was sealed as. Also: the entry value, the
// compact form of a file's sha256 and size that the bookkeeping's rows are read into.
//
// The previous format kept a manifest of every file (MANIFEST_NAME) and the per-tournament state
// in each version: a build finds no generation in such a version's marker, compares every file as
// a first build does, and drops both files.
import path from "node:path";
import { io } from "./io.ts";

export const MARKER_NAME = ".build-api-snapshot";
export const MARKER_CONTENT =
  "build-api snapshot\nThis directory was written by build-api; the next build may replace it.\n";
/** The previous format's manifest: no build writes it any more; hosts still refuse it. */
export const MANIFEST_NAME = ".build-api-manifest.json";

const SHA256_BYTES = 32;

/** path -> entry value (see entryValue). Read a value with parseEntryValue. */
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

/** The marker of a version sealed as `generation` of the bookkeeping (bookkeeping.ts). */
export function markerText(generation: number): string {
  return `${MARKER_CONTENT}generation ${generation}\n`;
}

/** The generation a version's marker names; undefined when it names none (the previous format). */
export function markerGeneration(dir: string): number | undefined {
  try {
    const text = io.readFileSync(path.join(dir, MARKER_NAME), "utf8") as string;
    const m = /\ngeneration ([1-9][0-9]*)\n$/.exec(text);
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}
