// Waiting for the disk to settle after a deletion, before a timed step. On ext4 mounted with
// `discard` (the machine of the fourteenth round) a deletion goes on after `rm` returns: the freed
// blocks are discarded over the next one to two minutes, and files created meanwhile took 2–5
// times as long (docs/benchmarks.md, "Fourteenth round"). So after deleting a tree the bench waits
// until the block device that holds its directory has neither written nor discarded anything for
// a quiet interval (Linux's /sys/dev/block/<major>:<minor>/stat; elsewhere it cannot tell, and
// says so).
import { existsSync, readFileSync, statSync } from "node:fs";

/** Writes plus discards (fields 5 and 12) of a block device's `stat` line; undefined if not one. */
export function diskActivity(statLine: string): number | undefined {
  const f = statLine.trim().split(/\s+/).map(Number);
  if (f.length < 11 || f.some((n) => !Number.isInteger(n))) return undefined;
  return f[4]! + (f[11] ?? 0);
}

/** Linux's major and minor numbers of a `st_dev` (glibc's encoding). */
export function majorMinor(dev: number): [number, number] {
  const d = BigInt(dev);
  const major = ((d >> 8n) & 0xfffn) | ((d >> 32n) & ~0xfffn);
  const minor = (d & 0xffn) | ((d >> 12n) & ~0xffn);
  return [Number(major), Number(minor)];
}

/** The `stat` file of the block device holding `dir`, or undefined (not Linux, or no such device). */
export function deviceStatFile(dir: string): string | undefined {
  const [major, minor] = majorMinor(statSync(dir).dev);
  const file = `/sys/dev/block/${major}:${minor}/stat`;
  return major > 0 && existsSync(file) ? file : undefined;
}

/** Whether the last `polls` + 1 readings are all equal: quiet for `polls` intervals. */
export function quietFor(readings: readonly number[], polls: number): boolean {
  if (readings.length < polls + 1) return false;
  const last = readings.at(-1);
  return readings.slice(-(polls + 1)).every((r) => r === last);
}

const sleep = (ms: number): void => {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
};

export interface Settled {
  seconds: number;
  /** true: quiet for quietMs; false: still busy after maxMs; undefined: no device to watch. */
  settled: boolean | undefined;
}

/** Blocks until the disk holding `dir` has been quiet for `quietMs` (at most `maxMs`). */
export function settleDisk(dir: string, quietMs = 60_000, pollMs = 5_000, maxMs = 600_000): Settled {
  const file = deviceStatFile(dir);
  if (file === undefined || quietMs <= 0) return { seconds: 0, settled: undefined };
  const start = performance.now();
  const polls = Math.max(1, Math.ceil(quietMs / pollMs));
  const readings: number[] = [];
  for (;;) {
    const a = diskActivity(readFileSync(file, "utf8"));
    if (a === undefined) return { seconds: (performance.now() - start) / 1000, settled: undefined };
    readings.push(a);
    if (quietFor(readings, polls)) return { seconds: (performance.now() - start) / 1000, settled: true };
    if (performance.now() - start >= maxMs) return { seconds: (performance.now() - start) / 1000, settled: false };
    sleep(pollMs);
  }
}
