// `node scripts/bench-memory.ts --db <store> [--out dir] [--jobs N] [--now ISO] [--rebuild]
//   [--live] [--snapshot <phase>] [--interval ms] [--trace file]`
//
// Where a build's memory goes, phase by phase: runs one build in this process (src/pipeline/build.ts,
// the CLI's own entry) and, as each phase starts (check, open, lock, prepare, produce, finish,
// switch, cleanup) and at the end, prints process.memoryUsage() of this thread (RSS of the whole
// process, V8 heap used and reserved, external and array buffer memory) and the V8 heap reserved
// by each render worker (Worker.getHeapStatistics). A sampler every --interval ms (default 100)
// keeps the largest RSS seen and what made it up; `--trace file` writes every sample (JSON lines).
// `--live` collects garbage before each phase's line (a second figure, "live": what is still
// referenced; it changes the run's peak, so read the peak from a run without it); `--snapshot
// <phase>` writes a V8 heap snapshot of this thread when that phase starts (open it in Chrome's
// DevTools, Memory tab). The peak RSS of a build as an operator runs it is GNU time's %M on
// `node bin/build-api.js build` (scripts/bench.ts, scripts/bench-tick.ts); this script says what
// makes it up.
// As the CLI does first (bin/build-api.js): the main thread's young generation stays small.
import "../bin/young-generation.js";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire, syncBuiltinESMExports } from "node:module";
import os from "node:os";
import path from "node:path";
import { exitWithUsage, scriptArgs } from "./lib/args.ts";
import v8 from "node:v8";
import vm from "node:vm";

const values = scriptArgs(import.meta.url, {
  db: { type: "string" },
  out: { type: "string" },
  jobs: { type: "string" },
  now: { type: "string", default: "2026-11-22T12:00:00Z" },
  rebuild: { type: "boolean", default: false },
  live: { type: "boolean", default: false },
  snapshot: { type: "string" },
  interval: { type: "string", default: "100" },
  trace: { type: "string" },
});
if (values.db === undefined) exitWithUsage(import.meta.url, "--db <store> is required");

// Every Worker the build starts is remembered, to ask for its heap (the render pool imports
// Worker from node:worker_threads after this runs, so it gets this subclass).
const require = createRequire(import.meta.url);
const threads = require("node:worker_threads") as typeof import("node:worker_threads");
const workers = new Map<import("node:worker_threads").Worker, number>();
const Base = threads.Worker;
threads.Worker = class extends Base {
  constructor(...args: ConstructorParameters<typeof Base>) {
    super(...args);
    workers.set(this, 0);
    this.on("exit", () => workers.delete(this));
  }
};
syncBuiltinESMExports();

v8.setFlagsFromString("--expose-gc");
const gc = vm.runInNewContext("gc") as () => void;

const mib = (bytes: number): number => Math.round(bytes / 2 ** 20);
interface Sample {
  t: number;
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
  workers: number[];
}
const t0 = performance.now();
const sample = (): Sample => {
  const m = process.memoryUsage();
  for (const w of workers.keys())
    w.getHeapStatistics().then(
      (s) => workers.set(w, s.total_heap_size),
      () => {},
    );
  return {
    t: Math.round(performance.now() - t0),
    rss: mib(m.rss),
    heapUsed: mib(m.heapUsed),
    heapTotal: mib(m.heapTotal),
    external: mib(m.external),
    arrayBuffers: mib(m.arrayBuffers),
    workers: [...workers.values()].map(mib),
  };
};
const samples: Sample[] = [];
let peak = sample();
const timer = setInterval(() => {
  const s = sample();
  samples.push(s);
  if (s.rss > peak.rss) peak = s;
}, Number(values.interval));
timer.unref();

const describe = (s: Sample): string =>
  `rss ${s.rss} MiB, heap used ${s.heapUsed} of ${s.heapTotal} MiB, external ${s.external} MiB ` +
  `(array buffers ${s.arrayBuffers}), worker heaps [${s.workers.join(", ")}] MiB`;

const lines: string[] = [];
const mark = (name: string): void => {
  const s = sample();
  if (s.rss > peak.rss) peak = s;
  let line = `${String(s.t).padStart(7)} ms  ${name.padEnd(8)} ${describe(s)}`;
  if (values.live) {
    gc();
    line += `; live ${mib(process.memoryUsage().heapUsed)} MiB`;
  }
  if (values.snapshot === name) line += `; heap snapshot ${v8.writeHeapSnapshot()}`;
  lines.push(line);
  console.error(line);
};

const { build } = await import("../src/pipeline/build.ts");
const scratch = values.out === undefined ? mkdtempSync(path.join(os.tmpdir(), "bench-memory-")) : undefined;
const out = values.out ?? path.join(scratch!, "dist");
const load = os.loadavg().map((x) => x.toFixed(1));
try {
  const report = await build({
    db: values.db,
    out,
    now: Date.parse(values.now),
    rebuild: values.rebuild,
    jobs: values.jobs === undefined ? undefined : Number(values.jobs),
    onPhase: mark,
  });
  mark("end");
  const hwm = /VmHWM:\s+(\d+)/.exec(readFileSync("/proc/self/status", "utf8"))?.[1];
  console.log(
    `${report.upToDate ? "up to date" : `${report.publish.files} files, ${report.publish.filesWritten} written`}, ` +
      `threads ${report.jobs?.used ?? 1}; load average ${load.join(" ")} -> ` +
      os
        .loadavg()
        .map((x) => x.toFixed(1))
        .join(" "),
  );
  console.log(`peak RSS ${hwm === undefined ? "?" : mib(Number(hwm) * 1024)} MiB (VmHWM)`);
  console.log(`largest sampled: at ${peak.t} ms, ${describe(peak)}`);
  for (const l of lines) console.log(l);
  if (values.trace) writeFileSync(values.trace, samples.map((s) => JSON.stringify(s)).join("\n") + "\n");
} finally {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
}
