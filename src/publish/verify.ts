// The scheduled full check of a published snapshot: every file of the live version against its
// bookkeeping (sha256 and size), and no file that the bookkeeping does not list. A tick never does
// this (it is O(files)); it trusts that nothing but builds writes the versions. See
// docs/design/incremental.md for what a tick checks and what verify checks.
import { createHash } from "node:crypto";
import path from "node:path";
import type { Problem } from "../shared/errors.ts";
import { io } from "./io.ts";
import { inspectTarget, resolveLayout } from "./layout.ts";
import { BOOKKEEPING_NAME } from "../ledger/bookkeeping.ts";
import { liveFiles } from "./changes.ts";
import { MARKER_NAME } from "./manifest.ts";

export interface SnapshotVerification {
  /** The live version directory that was checked. */
  snapshotDir: string;
  /** Files the bookkeeping lists, and their bytes. */
  files: number;
  bytes: number;
  /** Files that differ from the bookkeeping, are missing, or are not in it. */
  problems: Problem[];
  /** False when a build switched the snapshot while it was checked: check again. */
  stable: boolean;
  /** The bookkeeping describes the live version (its records can be read: pipeline/verify.ts). */
  described: boolean;
}

const FIX =
  "run `build-api build --rebuild` to write every file anew (nothing but a build may write the snapshot)";

/** Checks the live version of the snapshot at `outDir`. Never writes; takes no lock. */
export function verifySnapshot(outDir: string): SnapshotVerification {
  const layout = resolveLayout(outDir);
  const current = inspectTarget(layout, false);
  const dir = current.kind === "link" ? current.dir : current.kind === "dir" ? current.dir : undefined;
  if (dir === undefined) {
    return {
      snapshotDir: layout.target,
      files: 0,
      bytes: 0,
      problems: [{ where: layout.target, what: "there is no snapshot here", fix: "build one first" }],
      stable: true,
      described: false,
    };
  }
  const problems: Problem[] = [];
  const live = current.kind === "link" ? liveFiles(outDir) : undefined;
  if (!live || live.snapshotDir !== dir) {
    problems.push({
      where: path.join(layout.store, BOOKKEEPING_NAME),
      what:
        "the bookkeeping is missing or does not describe the live version " +
        "(a snapshot of an older build-api, the database was removed, or a build killed after " +
        "its switch left a change that a read-only check may not apply)",
      fix: "run `build-api build --out <dir>`: it compares every file once and records them",
    });
    return { snapshotDir: dir, files: 0, bytes: 0, problems, stable: true, described: false };
  }
  const { kept, counted } = live.sums;
  const keys = Object.keys(counted) as (keyof typeof counted)[];
  if (kept !== null && keys.some((k) => kept[k] !== counted[k])) {
    problems.push({
      where: path.join(layout.store, BOOKKEEPING_NAME),
      what: `the report's sums it keeps (${JSON.stringify(kept)}) differ from its records' (${JSON.stringify(counted)})`,
      fix: FIX,
    });
  }
  const manifest = live.files;
  let bytes = 0;
  for (const [rel, want] of manifest) {
    const file = path.join(dir, rel);
    bytes += want.bytes;
    let data: Buffer;
    try {
      if (!io.lstatSync(file).isFile()) {
        problems.push({ where: file, what: "is not a regular file", fix: FIX });
        continue;
      }
      data = io.readFileSync(file) as Buffer;
    } catch (e) {
      problems.push({
        where: file,
        what: `cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}): the bookkeeping lists it`,
        fix: FIX,
      });
      continue;
    }
    const got = createHash("sha256").update(data).digest("hex");
    if (data.length !== want.bytes || got !== want.sha256) {
      problems.push({
        where: file,
        what: `its bytes differ from the bookkeeping (${data.length} bytes, recorded: ${want.bytes} and sha256 ${want.sha256})`,
        fix: FIX,
      });
    }
  }
  for (const rel of listFiles(dir)) {
    if (!manifest.has(rel)) {
      problems.push({ where: path.join(dir, rel), what: "is not listed in the bookkeeping", fix: FIX });
    }
  }
  // A build that switched meanwhile may have started to update this version (now the stale one).
  const after = inspectTarget(layout, false);
  const stable = after.kind === current.kind && (after.kind !== "link" || after.dir === dir);
  return { snapshotDir: dir, files: manifest.size, bytes, problems, stable, described: true };
}

/** Every non-directory under `root`, "/"-separated, without the marker at the root. */
function listFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (abs: string, rel: string): void => {
    for (const e of io.readdirSync(abs, { withFileTypes: true })) {
      const childRel = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(path.join(abs, e.name), childRel);
      else if (rel || e.name !== MARKER_NAME) out.push(childRel);
    }
  };
  walk(root, "");
  return out;
}
