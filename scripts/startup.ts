// `node scripts/startup.ts [--runs 21] [--max-ratio 2]` (after `npm run build`)
//
// Start-up of the compiled CLI against a bare Node: `build-api --help` and a no-change rebuild of
// the sample store, each timed as a whole child process (wall clock, start to exit), interleaved
// run by run with `node -e 0` so that a noisy machine hits all three alike. Prints the median and
// the minimum of each, and the ratios to `node -e 0` (median/median, min/min); on Linux also the
// mean CPU time (user + system) of each, read from /proc/self/stat's waited-for-children times,
// which a loaded machine disturbs far less than wall time. With --max-ratio, exits 1 when a
// min/min wall ratio is above it (the minimum is the least noisy wall figure of a start-up).
// Last, the cost of the stale-lib/ check that bin/build-api.js runs first in a checkout
// (bin/lib-stamp.js), timed in this process: its first call and the median of the next ones.
import { readFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { exitWithUsage, scriptArgs } from "./lib/args.ts";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const CLI = path.join(ROOT, "bin", "build-api.js");
const NOW = "2026-11-22T12:00:00Z";

const values = scriptArgs(import.meta.url, {
  runs: { type: "string", default: "21" },
  "max-ratio": { type: "string" },
});
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1) exitWithUsage(import.meta.url, "--runs expects a positive integer");

/** CPU seconds of this process's waited-for children so far, or NaN off Linux. */
function childrenCpu(): number {
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // cutime and cstime (fields 16 and 17), in USER_HZ ticks, which Linux fixes at 100 a second.
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return Number.NaN;
  }
}

const cpu = new Map<string, number>();

function run(argv: string[], expect?: RegExp): number {
  const start = performance.now();
  const r = spawnSync(process.execPath, argv, {
    cwd: ROOT,
    stdio: ["ignore", "ignore", "pipe"],
    encoding: "utf8",
  });
  const ms = performance.now() - start;
  if (r.status !== 0) throw new Error(`node ${argv.join(" ")} exited ${r.status}: ${r.stderr}`);
  if (expect && !expect.test(r.stderr))
    throw new Error(`node ${argv.join(" ")} did not say ${expect}: ${r.stderr}`);
  return ms;
}

const dir = mkdtempSync(path.join(tmpdir(), "build-api-startup-"));
try {
  const db = path.join(dir, "sample.sqlite");
  const out = path.join(dir, "dist");
  run([CLI, "init-store", "--sample", db]);
  run([CLI, "build", "--db", db, "--out", out, "--now", NOW]);
  const commands: [string, string[], RegExp?][] = [
    ["node -e 0", ["-e", "0"]],
    ["build-api --help", [CLI, "--help"]],
    // Checked to be the no-change path: a rebuild that renders would be timed otherwise.
    ["no-change rebuild", [CLI, "build", "--db", db, "--out", out, "--now", NOW], /is up to date/],
  ];
  // Two warm-ups each: the first runs fill the compile cache and the page cache.
  for (let i = 0; i < 2; i++) for (const [, argv, expect] of commands) run(argv, expect);
  const times = new Map<string, number[]>(commands.map(([name]) => [name, []]));
  for (let i = 0; i < runs; i++) {
    for (const [name, argv, expect] of commands) {
      const before = childrenCpu();
      times.get(name)!.push(run(argv, expect));
      cpu.set(name, (cpu.get(name) ?? 0) + childrenCpu() - before);
    }
  }
  const median = (xs: number[]): number => {
    const s = [...xs].sort((a, b) => a - b);
    const m = s.length >> 1;
    return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
  };
  const base = times.get("node -e 0")!;
  const baseMedian = median(base);
  const baseMin = Math.min(...base);
  console.log(`node ${process.version}, ${runs} interleaved runs each, wall time of the whole process`);
  console.log("command               median     min    median ratio  min ratio   cpu mean  cpu ratio");
  const baseCpu = cpu.get("node -e 0")! / runs;
  let worst = 0;
  for (const [name, xs] of times) {
    const rMedian = median(xs) / baseMedian;
    const rMin = Math.min(...xs) / baseMin;
    if (name !== "node -e 0") worst = Math.max(worst, rMin);
    const meanCpu = cpu.get(name)! / runs;
    console.log(
      `${name.padEnd(20)} ${median(xs).toFixed(1).padStart(7)} ms ${Math.min(...xs)
        .toFixed(1)
        .padStart(6)} ms ${rMedian.toFixed(2).padStart(9)}x ${rMin.toFixed(2).padStart(9)}x` +
        ` ${(meanCpu * 1000).toFixed(1).padStart(7)} ms ${(meanCpu / baseCpu).toFixed(2).padStart(8)}x`,
    );
  }
  const { staleness } = (await import(path.join(ROOT, "bin", "lib-stamp.js"))) as {
    staleness: (root: string) => string | null;
  };
  const checks: number[] = [];
  for (let i = 0; i <= runs; i++) {
    const t = performance.now();
    const stale = staleness(ROOT);
    checks.push(performance.now() - t);
    if (stale !== null) throw new Error(`lib/ is stale (${stale}): run npm run build first`);
  }
  console.log(
    `stale lib/ check (bin/lib-stamp.js, in process): first ${checks[0]!.toFixed(1)} ms, ` +
      `median of ${runs} more ${median(checks.slice(1)).toFixed(1)} ms`,
  );
  if (values["max-ratio"] !== undefined && worst > Number(values["max-ratio"])) {
    console.error(`start-up ratio ${worst.toFixed(2)} is above ${values["max-ratio"]}`);
    process.exitCode = 1;
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
