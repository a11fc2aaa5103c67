// Shared test helpers: temp dirs, whole-tree hashes read through the target path, and checks that
// a published snapshot is complete and that no build leftovers remain.
import { createHash } from "node:crypto";
import { lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect } from "vitest";
import { MANIFEST_NAME, MARKER_NAME, readManifest } from "../../src/publish/manifest.ts";
import type { SnapshotWriter } from "../../src/publish/publish.ts";
import { parseEntryValue } from "../../src/publish/manifest.ts";

const made: string[] = [];

export function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "build-api-publish-"));
  made.push(dir);
  return dir;
}

/** For afterAll: deletes every directory tempDir made in this test file. */
export function removeTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

export function writeAll(files: Record<string, string>): (w: SnapshotWriter) => void {
  return (w) => {
    for (const [p, data] of Object.entries(files)) w.write(p, data);
  };
}

/** Every file under `dir` (following a symlink at `dir` itself) -> sha256 of its bytes. */
export function hashTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (abs: string, rel: string): void => {
    for (const entry of readdirSync(abs, { withFileTypes: true })) {
      const childAbs = path.join(abs, entry.name);
      const childRel = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(childAbs, childRel);
      else out[childRel] = createHash("sha256").update(readFileSync(childAbs)).digest("hex");
    }
  };
  walk(dir, "");
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** path -> "inode mtime" for every file under `dir`. */
export function fileIdentities(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const rel of Object.keys(hashTree(dir))) {
    const st = statSync(path.join(dir, rel), { bigint: true });
    out[rel] = `${st.ino} ${st.mtimeNs}`;
  }
  return out;
}

/** Asserts the snapshot at `dir` holds exactly `files` plus a marker and a manifest that matches. */
export function expectSnapshot(dir: string, files: Record<string, string>): void {
  const tree = hashTree(dir);
  const manifest = readManifest(path.join(dir, MANIFEST_NAME));
  expect(manifest).toBeDefined();
  const listed = Object.fromEntries(
    [...(manifest ?? new Map<string, string>())].map(([p, v]) => [p, parseEntryValue(v).sha256]),
  );
  const expected = Object.fromEntries(
    Object.entries(files).map(([p, d]) => [p, createHash("sha256").update(d).digest("hex")]),
  );
  expect(listed).toEqual(expected);
  expect(tree[MARKER_NAME]).toBeDefined();
  expect(tree[MANIFEST_NAME]).toBeDefined();
  const rest = Object.fromEntries(
    Object.entries(tree).filter(([p]) => p !== MARKER_NAME && p !== MANIFEST_NAME),
  );
  expect(rest).toEqual(expected);
}

/** Asserts `parent` holds only the target link, the store with one version, and nothing else. */
export function expectNoLeftovers(parent: string, name = "dist"): void {
  expect(readdirSync(parent).sort()).toEqual([`.${name}.snapshots`, name]);
  expect(lstatSync(path.join(parent, name)).isSymbolicLink()).toBe(true);
  const store = readdirSync(path.join(parent, `.${name}.snapshots`)).sort();
  expect(store).toHaveLength(2);
  expect(store[0]).toBe(".build-api-snapshots");
  expect(store[1]).toMatch(/^[0-9]+$/);
}
