// Issue 19's JSON floor: what serializing and writing a snapshot's files costs on one thread with
// nothing else done. Two parts, each timed on its own so that neither distorts the other:
//   writing     - every file of the snapshot at its own path and size (a mkdir per directory, once,
//                 and writeFileSync), nothing read while it is timed: the bytes are cut from a
//                 filler made of the snapshot's own files, so a compressing file system sees the
//                 same kind of bytes. Always every file: the cost of a directory and of a file
//                 depends on what is already on the disk, so no sample of them scales.
//   serializing - JSON.stringify of each JSON body, read and parsed untimed; with a sample k, one
//                 body in k, × k (CPU work per body, which a systematic sample does scale).
// Until the fourteenth round the floor read each file between its timed writes and, sampled, wrote
// one file in k with the directories it needed: at L on ext4 that said 244–281 s where writing every
// file took 127–184 s (docs/benchmarks.md, "Fourteenth round").
import { mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import fg from "fast-glob";

/** One file of the snapshot: its path under the root and its size. */
export interface FloorFile {
  rel: string;
  size: number;
}

export interface JsonFloor {
  /** writeSeconds + serializeSeconds. */
  seconds: number;
  writeSeconds: number;
  /** JSON.stringify of the sampled bodies, × sample. */
  serializeSeconds: number;
  files: number;
  bytes: number;
  /** JSON bodies serialized (timed). */
  serialized: number;
  /** How many chunks the files were written in (1: whole). */
  chunks: number;
}

/** Every regular file under `root` (a symbolic link followed at the root only), sorted by path. */
export function snapshotFiles(root: string): FloorFile[] {
  return fg
    .sync("**", { cwd: realpathSync(root), dot: true, stats: true, followSymbolicLinks: false })
    .filter((e) => e.stats!.isFile())
    .map((e) => ({ rel: e.path, size: e.stats!.size }))
    .sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
}

/**
 * Bytes to cut every file from: the snapshot's own files from the start of the walk, concatenated
 * until the filler is as long as the largest file (and at least 1 MiB, when the snapshot has that).
 */
export function fillerOf(root: string, files: readonly FloorFile[]): Buffer {
  const total = files.reduce((s, f) => s + f.size, 0);
  const want = Math.max(
    files.reduce((m, f) => Math.max(m, f.size), 0),
    Math.min(2 ** 20, total),
  );
  const base = realpathSync(root);
  const parts: Buffer[] = [];
  let have = 0;
  for (const f of files) {
    if (have >= want) break;
    const b = readFileSync(path.join(base, f.rel));
    parts.push(b);
    have += b.length;
  }
  return Buffer.concat(parts);
}

/** Seconds to JSON.stringify one body in `sample` (× sample), each read and parsed untimed. */
export function serializeTime(root: string, files: readonly FloorFile[], sample: number): { seconds: number; serialized: number } {
  const base = realpathSync(root);
  let ms = 0;
  let serialized = 0;
  let json = 0;
  for (const f of files) {
    if (!f.rel.endsWith(".json")) continue;
    if (json++ % sample !== 0) continue;
    const body = JSON.parse(readFileSync(path.join(base, f.rel), "utf8")) as unknown;
    const start = performance.now();
    JSON.stringify(body);
    ms += performance.now() - start;
    serialized++;
  }
  return { seconds: (ms / 1000) * sample, serialized };
}

/**
 * Seconds to write every file into `floorDir` at its path and size, cut from `filler`. When the
 * bytes written reach `chunkBytes` the directory is deleted (untimed) and writing goes on: for a
 * disk that cannot hold a second snapshot (a chunked floor is inflated: creating files just after
 * a large deletion is slow). `floorDir` is deleted at the end, unless `keep` (for a test to read).
 */
export function writeTime(
  files: readonly FloorFile[],
  floorDir: string,
  filler: Buffer,
  chunkBytes = Infinity,
  keep = false,
): { seconds: number; chunks: number } {
  let ms = 0;
  let chunk = 0;
  let chunks = 1;
  let made = new Set<string>();
  for (const f of files) {
    const start = performance.now();
    const abs = path.join(floorDir, f.rel);
    const parent = path.dirname(abs);
    if (!made.has(parent)) {
      mkdirSync(parent, { recursive: true });
      made.add(parent);
    }
    writeFileSync(abs, filler.subarray(0, f.size));
    ms += performance.now() - start;
    chunk += f.size;
    if (chunk >= chunkBytes) {
      rmSync(floorDir, { recursive: true, force: true });
      made = new Set();
      chunk = 0;
      chunks++;
    }
  }
  if (!keep) rmSync(floorDir, { recursive: true, force: true });
  return { seconds: ms / 1000, chunks };
}

/**
 * The JSON floor of the snapshot at `root`, written into `floorDir` (deleted after), in chunks of
 * `chunkFor(bytes of the snapshot)` bytes.
 */
export function jsonFloor(
  root: string,
  floorDir: string,
  sample: number,
  chunkFor: (bytes: number) => number = () => Infinity,
): JsonFloor {
  const files = snapshotFiles(root);
  const bytes = files.reduce((s, f) => s + f.size, 0);
  const filler = fillerOf(root, files);
  const ser = serializeTime(root, files, sample);
  const w = writeTime(files, floorDir, filler, chunkFor(bytes));
  return {
    seconds: w.seconds + ser.seconds,
    writeSeconds: w.seconds,
    serializeSeconds: ser.seconds,
    files: files.length,
    bytes,
    serialized: ser.serialized,
    chunks: w.chunks,
  };
}
