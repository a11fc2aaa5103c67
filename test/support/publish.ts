// Publication checks: a published snapshot is complete (its files, marker and bookkeeping agree)
// and no build leftovers remain; the file identities that show a file was kept, not rewritten.
import { createHash } from "node:crypto";
import { lstatSync, readdirSync, readFileSync, readlinkSync, statSync } from "node:fs";
import path from "node:path";
import { expect } from "vitest";
import { MARKER_NAME } from "../../src/publish/manifest.ts";
import type { SnapshotWriter } from "../../src/publish/publish.ts";
import { liveFiles } from "../../src/publish/changes.ts";
import { BOOKKEEPING_NAME } from "../../src/ledger/bookkeeping.ts";
import { hashTree } from "./tree.ts";

export function writeAll(files: Record<string, string>): (w: SnapshotWriter) => void {
  return (w) => {
    for (const [p, data] of Object.entries(files)) w.write(p, data);
  };
}

/** path -> "inode mtime" for every file under `dir` but the marker (every build writes it anew). */
export function fileIdentities(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const rel of Object.keys(hashTree(dir))) {
    if (rel === MARKER_NAME) continue;
    const st = statSync(path.join(dir, rel), { bigint: true });
    out[rel] = `${st.ino} ${st.mtimeNs}`;
  }
  return out;
}

/** Asserts the snapshot at `dir` holds exactly `files` plus a marker, and bookkeeping that matches. */
export function expectSnapshot(dir: string, files: Record<string, string>): void {
  const tree = hashTree(dir);
  const live = liveFiles(dir);
  expect(live, "the bookkeeping describes the live version").toBeDefined();
  const listed = Object.fromEntries([...(live?.files ?? new Map())].map(([p, v]) => [p, v.sha256]));
  const expected = Object.fromEntries(
    Object.entries(files).map(([p, d]) => [p, createHash("sha256").update(d).digest("hex")]),
  );
  expect(listed).toEqual(expected);
  expect(tree[MARKER_NAME]).toBeDefined();
  const rest = Object.fromEntries(Object.entries(tree).filter(([p]) => p !== MARKER_NAME));
  expect(rest).toEqual(expected);
}

/**
 * Asserts `parent` holds only the target link and the store, and the store only its marker, the
 * bookkeeping, the live version, at most one stale version and the pair record; and that the two
 * versions are in step: every live file that the pair record does not list is the very same inode
 * in the stale version.
 */
export function expectNoLeftovers(parent: string, name = "dist"): void {
  expect(readdirSync(parent).sort()).toEqual([`.${name}.snapshots`, name]);
  expect(lstatSync(path.join(parent, name)).isSymbolicLink()).toBe(true);
  const storeDir = path.join(parent, `.${name}.snapshots`);
  const store = readdirSync(storeDir).sort();
  const versions = store.filter((e) => /^[0-9]+$/.test(e));
  // The database's -wal and -shm files stay while it is in WAL mode.
  const bookkeeping = new RegExp(`^${BOOKKEEPING_NAME.replace(".", "\\.")}(-wal|-shm)?$`);
  expect(store.filter((e) => !versions.includes(e) && e !== "pair.json" && !bookkeeping.test(e))).toEqual([
    ".build-api-snapshots",
  ]);
  expect(versions.length).toBeGreaterThanOrEqual(1);
  expect(versions.length).toBeLessThanOrEqual(2);
  const live = path.basename(readlinkSync(path.join(parent, name)));
  expect(versions).toContain(live);
  const stale = versions.find((v) => v !== live);
  if (stale === undefined || !store.includes("pair.json")) return;
  const pair = JSON.parse(readFileSync(path.join(storeDir, "pair.json"), "utf8"));
  expect([...pair.buffers].sort()).toEqual([live, stale].sort());
  if (pair.differ === "all") return;
  const differ = new Set<string>(pair.differ);
  const manifest = liveFiles(path.join(parent, name))?.files ?? new Map();
  for (const rel of manifest.keys()) {
    if (differ.has(rel)) continue;
    const a = statSync(path.join(storeDir, live, rel));
    const b = statSync(path.join(storeDir, stale, rel));
    expect(b.ino, `${rel} is shared by both versions`).toBe(a.ino);
  }
  // And the stale version holds no other file that the record does not name.
  for (const rel of Object.keys(hashTree(path.join(storeDir, stale)))) {
    if (rel === MARKER_NAME) continue;
    expect(manifest.has(rel) || differ.has(rel), `${rel} of the stale version is accounted for`).toBe(true);
  }
}
