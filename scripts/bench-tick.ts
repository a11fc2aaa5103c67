// `node scripts/bench-tick.ts [--tournaments 2000] [--seed 7] [--ticks 3] [--jobs N] [--db file] [--keep]`
//
// The regeneration an operator runs every minute: a full build, then `--ticks` builds each after
// one player of one tournament was renamed through another connection (the first makes the
// second snapshot version; the others are the steady state), then a no-change rebuild. For each:
// wall time of the child (node start-up included; the CLI runs with the Node flags of its shebang
// line, as the installed command does), files written, tournaments rendered, warning lines printed, peak RSS of the whole process (GNU time %M: every thread). Prints one line per
// build and the steady tick's ratio to the full build. Ratios within one run only: the machine's
// load moves the times (its load average is printed before and after).
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import Database from "better-sqlite3";
import { generateStore, REFERENCE_NOW } from "./gen-store.ts";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const DEFAULT_CLI = path.join(ROOT, "bin/build-api.js");
const TIME = "/usr/bin/time";

const { values } = parseArgs({
  options: {
    tournaments: { type: "string", default: "2000" },
    seed: { type: "string", default: "7" },
    ticks: { type: "string", default: "3" },
    jobs: { type: "string" },
    db: { type: "string" },
    keep: { type: "boolean", default: false },
    /** Another build of build-api to measure (its bin/build-api.js), e.g. main's, for a comparison. */
    cli: { type: "string" },
  },
});

const dir = mkdtempSync(path.join(os.tmpdir(), "bench-tick-"));
const db = values.db ?? path.join(dir, "store.sqlite");
if (!values.db) generateStore({ tournaments: Number(values.tournaments), seed: values.seed, out: db });
const out = path.join(dir, "dist");
const CLI = values.cli ? path.resolve(values.cli) : DEFAULT_CLI;
// The Node flags of the CLI's `#!/usr/bin/env -S node <flags>` line: a build runs as the installed
// command runs it (bin/build-api.js sets the main thread's semi-space there).
const NODE_FLAGS = (/^#!.*\bnode\b(.*)$/m.exec(readFileSync(CLI, "utf8").split("\n", 1)[0]!)?.[1] ?? "")
  .trim()
  .split(/\s+/)
  .filter((f) => f.startsWith("--"));
const load = (): string =>
  os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(" ");

interface Run {
  seconds: number;
  rssMb: number;
  written: number;
  files: number;
  rendered: number;
  warningLines: number;
}

function build(now: string): Run {
  const rss = path.join(dir, "rss.txt");
  const args = [...NODE_FLAGS, CLI, "build", "--db", db, "--out", out, "--now", now];
  if (values.jobs) args.push("--jobs", values.jobs);
  const useTime = existsSync(TIME);
  const [cmd, argv] = useTime
    ? [TIME, ["-f", "%M", "-o", rss, process.execPath, ...args]]
    : [process.execPath, args];
  const start = performance.now();
  const child = spawnSync(cmd, argv, { cwd: ROOT, encoding: "utf8", maxBuffer: 1 << 28 });
  const seconds = (performance.now() - start) / 1000;
  if (child.status !== 0) throw new Error(`build failed (${child.status}):\n${child.stderr}`);
  const m = /(\d+) files? \((\d+) written/.exec(child.stderr);
  const rendered = /(\d+) tournaments? rendered/.exec(child.stderr);
  const upToDate = child.stderr.includes("is up to date");
  return {
    seconds,
    rssMb: useTime ? Number(readFileSync(rss, "utf8").trim().split("\n").at(-1)) / 1024 : NaN,
    written: upToDate ? 0 : Number(m?.[2]),
    files: upToDate ? NaN : Number(m?.[1]),
    rendered: upToDate ? 0 : Number(rendered?.[1]),
    warningLines: child.stderr.split("\n").filter((l) => l.startsWith("warning:")).length,
  };
}

const line = (name: string, r: Run): string =>
  `${name.padEnd(18)} ${r.seconds.toFixed(2).padStart(7)} s  ${String(r.written).padStart(6)} written  ` +
  `${String(r.rendered).padStart(5)} rendered  ${String(r.warningLines).padStart(4)} warning lines  ` +
  `${r.rssMb.toFixed(0).padStart(4)} MiB`;

console.log(
  `cli ${CLI} ${NODE_FLAGS.join(" ")}; store ${db}, ${values.tournaments} tournaments (seed ${values.seed}); load average ${load()}`,
);
const full = build(REFERENCE_NOW);
console.log(line("full build", full));
const w = new Database(db);
const ids = w
  .prepare<[], { tournament_id: number }>(
    "SELECT tournament_id FROM publications WHERE tournament_id IN (SELECT tournament_id FROM players) ORDER BY tournament_id",
  )
  .all();
const ticks: Run[] = [];
for (let i = 0; i < Number(values.ticks); i++) {
  const t = ids[(i * 7919) % ids.length]!.tournament_id;
  w.prepare(
    "UPDATE players SET name = name || ' x' WHERE tournament_id = ? AND source_player_number = (SELECT min(source_player_number) FROM players WHERE tournament_id = ?)",
  ).run(t, t);
  const r = build(REFERENCE_NOW);
  ticks.push(r);
  console.log(line(`tick ${i + 1}`, r));
}
w.close();
const same = build(REFERENCE_NOW);
console.log(line("no-change rebuild", same));
const steady = ticks.slice(1);
if (steady.length > 0) {
  const mean = steady.reduce((n, r) => n + r.seconds, 0) / steady.length;
  console.log(
    `steady tick ${mean.toFixed(2)} s = ${(mean / full.seconds).toFixed(3)} of the full build; ` +
      `peak RSS max ${Math.max(full.rssMb, ...ticks.map((r) => r.rssMb)).toFixed(0)} MiB; load average ${load()}`,
  );
}
if (!values.keep) rmSync(dir, { recursive: true, force: true });
else console.log(`kept ${dir}`);
