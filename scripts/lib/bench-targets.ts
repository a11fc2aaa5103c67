// The figures `npm run bench` measures per size, issue 19's targets judged on them (met, missed
// or not measured), and the disk a size needs. Pure: scripts/bench.ts measures, this judges, so a
// unit test can check every verdict (test/unit/scripts/bench-targets.test.ts).

/** The named sizes, in tournaments (issue 19: S, M, L; XL by hand). */
export const SIZES: Readonly<Record<string, number>> = { S: 50, M: 2_000, L: 20_000, XL: 100_000 };

/** One size's measurements. Seconds are wall times of the child process; RSS in MiB. */
export interface SizeFigures {
  label: string;
  tournaments: number;
  files: number;
  bytes: number;
  full: { seconds: number; rssMb: number };
  /**
   * Writing every file of the snapshot and serializing every JSON body, on one thread (issue 19's
   * floor: scripts/lib/json-floor.ts).
   */
  jsonFloor: number;
  /** JSON.stringify was timed on one body in floorSample, × floorSample (the writing never is). */
  floorSample?: number;
  /**
   * How many chunks the floor was written in (absent: 1, whole). Each chunk was deleted before the
   * next, and ext4 creates files slowly just after a large deletion, so a chunked floor is inflated
   * (docs/benchmarks.md) and no verdict rests on it.
   */
  floorChunks?: number;
  /** The first tick after the full build (not the steady state). */
  firstTick: { seconds: number; rssMb: number; written: number };
  /** Steady-state one-tournament ticks (after the first). */
  ticks: { seconds: number; rssMb: number; written: number }[];
  /** Ticks after one team event's newest round changed (bench --team-events); no target of its own. */
  teamTicks?: { seconds: number; rssMb: number; written: number }[];
  /**
   * Ticks while rounds are played: a live tournament scraped again (its summaries change, so the
   * heads of its lists are rendered too). Reported beside the ticks; no target of its own.
   */
  liveTicks?: { seconds: number; rssMb: number; written: number }[];
  noChange: { seconds: number; rssMb: number };
  /** `build-api --version`: what a no-change rebuild cannot go below. */
  startup: number;
}

export type Verdict = "met" | "missed" | "not measured";

export interface TargetResult {
  target: string;
  verdict: Verdict;
  /** The figure the verdict rests on, or why there is none. */
  detail: string;
}

export const median = (xs: readonly number[]): number => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

export const steadyTick = (f: SizeFigures): number => median(f.ticks.map((t) => t.seconds));
export const peakRss = (f: SizeFigures): number =>
  Math.max(
    f.full.rssMb,
    f.firstTick.rssMb,
    f.noChange.rssMb,
    ...[...f.ticks, ...(f.liveTicks ?? []), ...(f.teamTicks ?? [])].map((t) => t.rssMb),
  );

/** Steady tick ÷ full build, at most this at each size (issue 19). */
export const TICK_SHARE: Readonly<Record<string, number>> = { M: 0.02, L: 0.01, XL: 0.005 };
export const TICK_XL_OVER_M = 1.5;
export const FULL_OVER_JSON_FLOOR_AT_L = 1.5;
export const RSS_LIMIT_MB = 256;
export const NO_CHANGE_OVER_STARTUP = 0.1;
/**
 * "Linear in the store from M to XL": the full build's seconds per tournament at the larger size
 * at most this many times M's. The issue gives no tolerance; 1.25 leaves room for the noise of a
 * shared machine while still catching a superlinear step (n log n over ×50 is already ×1.5).
 */
export const LINEAR_TOLERANCE = 1.25;

const f2 = (x: number): string => x.toFixed(2);
const f4 = (x: number): string => x.toFixed(4);

export function judge(sizes: readonly SizeFigures[]): TargetResult[] {
  const at = (label: string): SizeFigures | undefined => sizes.find((s) => s.label === label);
  const out: TargetResult[] = [];
  for (const [label, share] of Object.entries(TICK_SHARE)) {
    const s = at(label);
    const target = `steady tick ≤ ${share * 100}% of the full build at ${label}`;
    if (!s) out.push({ target, verdict: "not measured", detail: `${label} not run` });
    else {
      const r = steadyTick(s) / s.full.seconds;
      out.push({
        target,
        verdict: r <= share ? "met" : "missed",
        detail: `${f2(steadyTick(s))} s / ${f2(s.full.seconds)} s = ${f4(r)}`,
      });
    }
  }
  {
    const m = at("M");
    const xl = at("XL");
    const target = `steady tick at XL ≤ ${TICK_XL_OVER_M} × tick at M`;
    if (!m || !xl) {
      const l = at("L");
      const hint =
        m && l ? `; L/M is ${f2(steadyTick(l) / steadyTick(m))} (${f2(steadyTick(l))} s / ${f2(steadyTick(m))} s)` : "";
      out.push({ target, verdict: "not measured", detail: `needs M and XL${hint}` });
    } else {
      const r = steadyTick(xl) / steadyTick(m);
      out.push({ target, verdict: r <= TICK_XL_OVER_M ? "met" : "missed", detail: `ratio ${f2(r)}` });
    }
  }
  {
    const l = at("L");
    const target = `full build ≤ ${FULL_OVER_JSON_FLOOR_AT_L} × JSON floor at L`;
    if (!l) out.push({ target, verdict: "not measured", detail: "L not run" });
    else {
      const r = l.full.seconds / l.jsonFloor;
      const figure = `${f2(l.full.seconds)} s / ${f2(l.jsonFloor)} s = ${f2(r)}`;
      if ((l.floorChunks ?? 1) > 1) {
        out.push({
          target,
          verdict: "not measured",
          detail:
            `the floor was written in ${l.floorChunks} chunks, each deleted before the next, which slows ` +
            `the creations after it (as written: ${figure}); free the disk for a whole floor, or measure ` +
            `it with --floor-of on a snapshot kept with --keep`,
        });
      } else out.push({ target, verdict: r <= FULL_OVER_JSON_FLOOR_AT_L ? "met" : "missed", detail: figure });
    }
  }
  {
    const m = at("M");
    const bigger = sizes.filter((s) => s.tournaments > (m?.tournaments ?? Infinity));
    const target = `full build linear from M to XL (s per tournament ≤ ${LINEAR_TOLERANCE} × M's)`;
    if (!m || bigger.length === 0) out.push({ target, verdict: "not measured", detail: "needs M and a larger size" });
    else {
      const perM = m.full.seconds / m.tournaments;
      const parts = bigger.map((b) => {
        const r = b.full.seconds / b.tournaments / perM;
        return { r, text: `${b.label} ${f2(r)} × M's ${(perM * 1000).toFixed(1)} ms per tournament` };
      });
      const missed = parts.some((p) => p.r > LINEAR_TOLERANCE);
      out.push({
        target,
        verdict: missed ? "missed" : at("XL") ? "met" : "not measured",
        detail: parts.map((p) => p.text).join("; ") + (at("XL") || missed ? "" : " (XL not run; so far within)"),
      });
    }
  }
  for (const s of sizes) {
    const peak = peakRss(s);
    out.push({
      target: `peak RSS < ${RSS_LIMIT_MB} MiB at ${s.label} (full, ticks, no-change)`,
      verdict: peak < RSS_LIMIT_MB ? "met" : "missed",
      detail:
        `full ${s.full.rssMb.toFixed(0)}, first tick ${s.firstTick.rssMb.toFixed(0)}, ` +
        `steady ticks ${s.ticks.map((t) => t.rssMb.toFixed(0)).join("/")}, ` +
        (s.liveTicks ? `live ticks ${s.liveTicks.map((t) => t.rssMb.toFixed(0)).join("/")}, ` : "") +
        `no-change ${s.noChange.rssMb.toFixed(0)} MiB`,
    });
  }
  for (const s of sizes) {
    const over = s.noChange.seconds - s.startup;
    out.push({
      target: `no-change rebuild ≤ start-up + ${NO_CHANGE_OVER_STARTUP} s at ${s.label}`,
      verdict: over <= NO_CHANGE_OVER_STARTUP ? "met" : "missed",
      detail: `${f2(s.noChange.seconds)} s − start-up ${f2(s.startup)} s = ${f2(over)} s`,
    });
  }
  return out;
}

/**
 * Disk a size needs, in bytes, from the M store of seed 7 (`du -sb` of its snapshot after the
 * ticks: 2.4 GB for the first version, 0.36 GB for the second, whose files are hard links but
 * whose directories are new, 34 MB of bookkeeping: see docs/benchmarks.md): the snapshot, the
 * store, and the JSON floor's chunk (the floor is written in chunks of at most FLOOR_CHUNK_BYTES,
 * each deleted before the next, so the bench never holds two snapshots), plus a 5% margin.
 */
export const SNAPSHOT_BYTES_PER_TOURNAMENT = 1.4e6;
export const STORE_BYTES_PER_TOURNAMENT = 33e3;
export const FLOOR_CHUNK_BYTES = 0.5e9;

/**
 * The floor's chunk for `free` bytes of disk: all the floor writes when it fits with 2 GB to
 * spare, else FLOOR_CHUNK_BYTES. Deleting a chunk costs the next one: ext4 avoids reusing the
 * inodes it freed in the last seconds and scans past them, so creating files and directories just
 * after deleting many was up to ten times slower (seen at L: 1.08 ms a file against 0.29 at M).
 */
export function floorChunk(free: number, floorBytes: number): number {
  return floorBytes + 2e9 <= free ? Infinity : FLOOR_CHUNK_BYTES;
}

/** The JSON floor's bytes a tournament adds (L: 18.3 GB of files for 20,000). */
export const FLOOR_BYTES_PER_TOURNAMENT = 0.92e6;

/**
 * Disk a size needs for its JSON floor to be written whole (floorChunk: every file of the
 * snapshot, with 2 GB to spare), with the same margin.
 */
export function wholeFloorNeeded(tournaments: number, storeExists: boolean): number {
  const whole = tournaments * FLOOR_BYTES_PER_TOURNAMENT + 2e9;
  return Math.ceil(diskNeeded(tournaments, storeExists) + (whole - FLOOR_CHUNK_BYTES) * 1.05);
}

export function diskNeeded(tournaments: number, storeExists: boolean): number {
  const snapshot = tournaments * SNAPSHOT_BYTES_PER_TOURNAMENT;
  const store = storeExists ? 0 : tournaments * STORE_BYTES_PER_TOURNAMENT;
  return Math.ceil((snapshot + store + Math.min(FLOOR_CHUNK_BYTES, snapshot)) * 1.05);
}

/** Why a size cannot run with `free` bytes, or undefined when it can. */
export function diskRefusal(label: string, tournaments: number, free: number, storeExists: boolean): string | undefined {
  const need = diskNeeded(tournaments, storeExists);
  if (free >= need) return undefined;
  const gb = (x: number): string => (x / 1e9).toFixed(1);
  return (
    `size ${label} (${tournaments} tournaments) needs about ${gb(need)} GB free (snapshot and its ` +
    `second version ${gb(tournaments * SNAPSHOT_BYTES_PER_TOURNAMENT)} GB, store, a ` +
    `${gb(FLOOR_CHUNK_BYTES)} GB floor chunk, 5% margin); ${gb(free)} GB are free: free ` +
    `${gb(need - free)} GB more, or pass --work on a bigger disk or on a file system that ` +
    "compresses (the snapshot's JSON takes about a quarter: docs/benchmarks.md, XL on a small disk)"
  );
}
