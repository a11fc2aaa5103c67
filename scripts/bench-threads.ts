// `node scripts/bench-threads.ts --db <store> [--out dir] [--jobs N] [--now ISO] [--interval ms]
//   [--cli bin/build-api.js]`
//
// Which thread bounds a build: runs one `build-api build` as a child process, as the installed
// command runs (the Node flags of the CLI's shebang line), and reads the CPU time of each of its
// threads from Linux's /proc/<pid>/task/*/stat every --interval ms (default 250; a thread that
// ends keeps its last reading, so its last moments may be missed). Prints the wall time, the CPU of
// the process and, by thread name, the user and system seconds and the share of the wall each name
// kept a core busy: the main thread (hashes, writes, bookkeeping), the render workers
// ("WorkerThread") and V8's helper threads ("V8Worker": garbage collection and the optimizing
// compiler, for every isolate); with each name's time waiting for a core (schedstat) and the share
// of its readings in each state (R running or waiting for a core, S asleep, D waiting for the
// disk): CPU-bound threads wait in R, disk-bound ones in D. Linux only. --out defaults to a
// scratch directory, removed after.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { exitWithUsage, scriptArgs } from "./lib/args.ts";
import { groupByName, readThreads, type ThreadTimes } from "./lib/thread-cpu.ts";
import { load, removeOut, shebangFlags } from "./bench.ts";

const values = scriptArgs(import.meta.url, {
  db: { type: "string" },
  out: { type: "string" },
  jobs: { type: "string" },
  now: { type: "string", default: "2026-11-22T12:00:00Z" },
  interval: { type: "string", default: "250" },
  cli: { type: "string", default: fileURLToPath(new URL("../bin/build-api.js", import.meta.url)) },
});
if (values.db === undefined) exitWithUsage(import.meta.url, "--db <store> is required");
if (!existsSync("/proc/self/task")) exitWithUsage(import.meta.url, "needs Linux's /proc/<pid>/task");
const interval = Number(values.interval);
if (!(interval > 0)) exitWithUsage(import.meta.url, `--interval ${values.interval}: a number of ms above 0`);

const scratch = values.out === undefined ? mkdtempSync(path.join(os.tmpdir(), "bench-threads-")) : undefined;
const out = values.out ?? path.join(scratch!, "dist");
const args = [
  ...shebangFlags(values.cli),
  values.cli,
  "build",
  "--db",
  values.db,
  "--out",
  out,
  "--now",
  values.now,
];
if (values.jobs !== undefined) args.push("--jobs", values.jobs);

const loadBefore = load();
const start = performance.now();
const child = spawn(process.execPath, args, { stdio: ["ignore", "ignore", "pipe"] });
let stderr = "";
child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
const readings: ThreadTimes[] = [];
let peakKb = 0;
const read = (): void => {
  try {
    readings.push(...readThreads(child.pid!));
    const hwm = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"))?.[1];
    peakKb = Math.max(peakKb, Number(hwm ?? 0));
  } catch {
    // The process ended between two readings.
  }
};
const timer = setInterval(read, interval);
const code = await new Promise<number | null>((resolve) => child.on("exit", (c) => resolve(c)));
clearInterval(timer);
const wall = (performance.now() - start) / 1000;
if (scratch) removeOut(out);
if (code !== 0) {
  console.error(stderr);
  console.error(`build failed (exit ${code}): no figures`);
  process.exit(1);
}

const groups = groupByName(readings);
const cpu = groups.reduce((s, g) => s + g.user + g.system, 0);
console.log(`build ${path.basename(values.db)}: wall ${wall.toFixed(2)} s; load ${loadBefore} -> ${load()}`);
console.log(
  `CPU read ${cpu.toFixed(2)} s (${(cpu / wall).toFixed(2)} cores of ${os.availableParallelism()}); ` +
    `peak RSS ${(peakKb / 1024).toFixed(1)} MiB (VmHWM, sampled)`,
);
for (const g of groups) {
  const busy = (g.user + g.system) / wall;
  const states = Object.entries(g.states)
    .map(([state, share]) => `${state} ${(100 * share).toFixed(0)}%`)
    .join(" ");
  console.log(
    `  ${g.name.padEnd(16)} ${String(g.threads).padStart(2)} thread${g.threads === 1 ? " " : "s"}  ` +
      `user ${g.user.toFixed(2).padStart(7)} s  system ${g.system.toFixed(2).padStart(7)} s  ` +
      `${(100 * busy).toFixed(0).padStart(3)}% of the wall  ` +
      `waited for a core ${g.wait === null ? "(no schedstat)" : `${g.wait.toFixed(2)} s`}  states ${states}`,
  );
}
