// Whole output trees read back: the bytes of every file, or their sha256, by relative path. Tests
// compare snapshots with these (byte-identical builds, untouched snapshots after a failure).
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/** A snapshot version's marker (src/publish/manifest.ts), which every build writes anew. */
const MARKER = ".build-api-snapshot";

/**
 * The marker without its last line, the bookkeeping generation the version was sealed as: two
 * builds of the same files are different generations, and the marker is never served.
 */
function withoutGeneration(bytes: Buffer): Buffer {
  return Buffer.from(bytes.toString("utf8").replace(/generation [0-9]+\n$/, ""));
}

/**
 * Every regular file under `dir`, dotfiles included (the marker without its generation), as relative path -> bytes, sorted by path.
 * A symlink at `dir` itself is followed (a snapshot target is one); symlinks inside are listed
 * by their own path with the bytes of what they point to.
 */
export function readTree(dir: string): Map<string, Buffer> {
  const files: [string, Buffer][] = [];
  const walk = (abs: string, rel: string): void => {
    for (const entry of readdirSync(abs, { withFileTypes: true })) {
      const childAbs = path.join(abs, entry.name);
      const childRel = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(childAbs, childRel);
      else if (childRel === MARKER) files.push([childRel, withoutGeneration(readFileSync(childAbs))]);
      else files.push([childRel, readFileSync(childAbs)]);
    }
  };
  walk(dir, "");
  files.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return new Map(files);
}

/** relative path -> sha256 (hex) of every file read through `dir`, sorted by path. */
export function hashTree(dir: string): Record<string, string> {
  return Object.fromEntries(
    [...readTree(dir)].map(([p, bytes]) => [p, createHash("sha256").update(bytes).digest("hex")]),
  );
}
