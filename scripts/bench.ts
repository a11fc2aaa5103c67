// `npm run bench [-- --sizes S,M[,L|XL|<n>]] [--seed 7] [--ticks 3] [--jobs N] [--work DIR] [--keep]
//   [--db FILE] [--cli bin/build-api.js] [--floor-sample k] [--settle 60] [--with log] [--floor-of dist]
//   [--team-events k]`
//
// Measures what issue 19's targets name, per size (S 50, M 2,000, L 20,000, XL 100,000 tournaments
// of `npm run gen-store -- --seed 7`), one step after the other on one snapshot:
//   full build  - into a fresh --out: wall time of the child, peak RSS of the process (GNU time %M:
//                 the largest resident set of the one process, which holds every thread);
//   first tick  - one player of one tournament renamed through another connection, then a build:
//                 the first tick after the full build (reported, not the steady state: until
//                 the fourth round it also made the second version, which the full build makes now);
//   steady ticks - --ticks more such ticks, each on another tournament: median wall time, ÷ full;
//   live ticks  - --ticks ticks while rounds are played: a tournament set up Live scraped again
//                 (its summaries change, so its lists' heads are rendered) and a player renamed;
//                 reported beside the steady ticks (issue 19's targets name the rename);
//   team ticks  - with --team-events k (k of the tournaments generated as team events), --ticks
//                 ticks after one team event's newest round changed (one board's result turned, as
//                 a re-imported round brings it): reported beside the steady ticks of the same run;
//   no-change   - a build with nothing changed; start-up is `build-api --version` (median of 3);
//   JSON floor  - what one thread with nothing else to do spends on the live snapshot's files
//                 (scripts/lib/json-floor.ts): every file written with writeFileSync at its path
//                 and size (nothing read while timed), plus JSON.stringify of every JSON body
//                 (read and parsed untimed; with --floor-sample k one body in k, × k). Written
//                 whole when the disk holds it with 2 GB to spare, else in chunks of 0.5 GB, each
//                 deleted (untimed) before the next, so the bench never needs two snapshots of disk
//                 (a deletion slows the creations after it: a chunked floor gets no verdict).
//                 `--floor-of DIR/<n>/dist` measures only the floor of a kept snapshot.
// After deleting a tree (an earlier snapshot or floor) the bench syncs and waits until the disk
// has written and discarded nothing for --settle seconds (scripts/lib/settle.ts; 0: never): on a
// disk mounted with `discard` the deletion goes on for a minute or two after rm returns, and files
// created meanwhile took 2–5 times as long.
// Builds run as the installed command runs them (the Node flags of bin/build-api.js's shebang
// line) with the default --jobs unless --jobs is given. Then every target of issue 19 is printed
// with met / missed / not measured (scripts/lib/bench-targets.ts judges). Before each size the
// free disk is checked against the size's estimate and a size that does not fit is refused with
// the figure needed (XL, about 151 GB, is refused on a small disk: docs/benchmarks.md, "XL on a
// small disk", runs it on a file system that compresses).
//
// --work DIR keeps each size's store in DIR/<tournaments>/store.sqlite and reuses it (an L store
// takes minutes to generate); with --keep the last snapshot stays in DIR/<tournaments>/dist too,
// the layout `node scripts/bench-deploy.ts --keep DIR` reuses. --db measures one given store
// (one size). --cli measures another build of build-api (e.g. main's) for a comparison.
// `node scripts/bench-tick.ts` is this harness for one size.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statfsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { generateStore, REFERENCE_NOW, statusSetUp } from "./gen-store.ts";
import { exitWithUsage, scriptArgs, UsageError } from "./lib/args.ts";
import { jsonFloor, type JsonFloor } from "./lib/json-floor.ts";
import { settleDisk } from "./lib/settle.ts";
import {
  diskNeeded,
  wholeFloorNeeded,
  diskRefusal,
  floorChunk,
  judge,
  median,
  peakRss,
  SIZES,
  steadyTick,
  type SizeFigures,
} from "./lib/bench-targets.ts";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const TIME = "/usr/bin/time";
const useGnuTime = existsSync(TIME);
/** Without GNU time the child reports its own peak at exit (one process: every thread). */
const RSS_HOOK =
  "data:text/javascript,import{writeSync}from'node:fs';" +
  "process.on('exit',()=>{const u=process.resourceUsage();" +
  "writeSync(2,'\\nbench-maxrss-kb '+u.maxRSS+' cpu-us '+(u.userCPUTime+u.systemCPUTime)+'\\n')})";

export const load = (): string =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(" ");
const fmt = (x: number, digits = 2): string => x.toFixed(digits);
const log = (s: string): void => console.error(`[${new Date().toISOString().slice(11, 19)}] ${s}`);

export interface Run {
  seconds: number;
  /** CPU seconds of the build (user + system, every thread): what the machine's load moves least. */
  cpuSeconds: number;
  rssMb: number;
  written: number;
  files: number;
  rendered: number;
  upToDate: boolean;
}

/** The Node flags of the CLI's `#!/usr/bin/env -S node <flags>` line: builds run as the installed command runs. */
export function shebangFlags(cli: string): string[] {
  const first = readFileSync(cli, "utf8").split("\n", 1)[0]!;
  return (/^#!.*\bnode\b(.*)$/.exec(first)?.[1] ?? "")
    .trim()
    .split(/\s+/)
    .filter((f) => f.startsWith("--"));
}

function syncDisk(): void {
  try {
    execFileSync("sync");
  } catch {
    // No sync(1): a step may then pay for the previous one's writeback.
  }
}

/** Whether the bench deleted a tree since it last waited for the disk (settleAfterDeletion). */
let deleted = false;

/**
 * When the bench has deleted a tree since it last waited (`deleted`): sync, then wait until the
 * disk of `dir` has been quiet for `seconds` (scripts/lib/settle.ts), logged, so that the next
 * timed step does not pay for the deletion. Otherwise only sync.
 */
function settleAfterDeletion(dir: string, seconds: number, label: string): void {
  syncDisk();
  if (!deleted || seconds <= 0) return;
  deleted = false;
  const s = settleDisk(dir, seconds * 1000);
  if (s.settled === undefined) log(`${label}: no block device to watch for ${dir}: not waited`);
  else
    log(
      `${label}: waited ${fmt(s.seconds)} s after a deletion, ` +
        (s.settled
          ? `until the disk was quiet for ${seconds} s`
          : `and the disk was still busy: timings may be inflated`),
    );
}

export class Harness {
  readonly flags: string[];
  readonly cli: string;
  readonly jobs: string | undefined;
  private renames = 0;
  constructor(cli: string, jobs: string | undefined) {
    this.cli = cli;
    this.jobs = jobs;
    this.flags = shebangFlags(cli);
  }

  build(db: string, out: string, scratch: string): Run {
    const args = [...this.flags, this.cli, "build", "--db", db, "--out", out, "--now", REFERENCE_NOW];
    if (this.jobs !== undefined) args.push("--jobs", this.jobs);
    const rssFile = path.join(scratch, "rss.txt");
    const [cmd, argv] = useGnuTime
      ? [TIME, ["-f", "%M %U %S", "-o", rssFile, process.execPath, ...args]]
      : [process.execPath, ["--import", RSS_HOOK, ...args]];
    const start = performance.now();
    const child = spawnSync(cmd, argv, { cwd: ROOT, encoding: "utf8", maxBuffer: 1 << 28 });
    const seconds = (performance.now() - start) / 1000;
    if (child.status !== 0) throw new Error(`build failed (exit ${child.status}):\n${child.stderr}`);
    const [rssKb, cpuSeconds] = useGnuTime
      ? ((l) => [Number(l[0]), Number(l[1]) + Number(l[2])])(
          readFileSync(rssFile, "utf8").trim().split("\n").at(-1)!.split(" "),
        )
      : ((m) => [Number(m?.[1]), Number(m?.[2]) / 1e6])(
          /bench-maxrss-kb (\d+) cpu-us (\d+)/.exec(child.stderr),
        );
    const upToDate = child.stderr.includes("is up to date");
    const m = /(\d+) files? \((\d+) written/.exec(child.stderr);
    const rendered = /(\d+) tournaments? rendered/.exec(child.stderr);
    return {
      seconds,
      cpuSeconds,
      rssMb: rssKb / 1024,
      upToDate,
      written: upToDate ? 0 : Number(m?.[2]),
      files: upToDate ? NaN : Number(m?.[1]),
      rendered: upToDate ? 0 : Number(rendered?.[1]),
    };
  }

  /** Node's start-up and the CLI's module graph (`--version`), median of three. Seconds. */
  startup(): number {
    const times = [0, 1, 2].map(() => {
      const start = performance.now();
      execFileSync(process.execPath, [...this.flags, this.cli, "--version"], { cwd: ROOT, stdio: "pipe" });
      return (performance.now() - start) / 1000;
    });
    return median(times);
  }

  /** Renames the first player of the i-th published tournament (spread over the store): one tournament changed. */
  changeOneTournament(db: string, i: number): void {
    this.change(
      db,
      i,
      () => true,
      () => {},
    );
  }

  /**
   * A tick while rounds are played: the i-th tournament set up Live (gen-store's statusSetUp) is
   * scraped again (last_scraped_at moves, still before REFERENCE_NOW, so its summaries change
   * and it stays at the head of its lists) and one of its players renamed.
   */
  changeOneLiveTournament(db: string, i: number): void {
    this.change(
      db,
      i,
      (id) => statusSetUp(id) === "Live",
      (w, t, n) => {
        const scraped = new Date(Date.parse(REFERENCE_NOW) - 60_000 + (n % 60) * 1000);
        w.prepare("UPDATE tournaments SET last_scraped_at = ? WHERE tournament_id = ?").run(
          scraped.toISOString().replace(".000Z", "Z"),
          t,
        );
      },
    );
  }

  /**
   * A team event's round re-imported with a changed result: on the i-th published team event
   * with a finished game in its newest round (one with a forfeited match or a requested bye when
   * the store has such), that round's first finished board turns (a win for
   * the other side; a draw becomes a white win), so its match, team standings and pages change.
   */
  changeOneTeamEvent(db: string, i: number): void {
    const w = new Database(db);
    try {
      const boards = w
        .prepare<[], { t: number; r: number; b: number; result: string }>(
          `SELECT g.tournament_id AS t, g.round_number AS r, min(g.board_number) AS b, g.result
           FROM games g JOIN team_events USING (tournament_id) JOIN tournaments USING (tournament_id)
           WHERE is_draft = 0 AND tournament_id IN (SELECT tournament_id FROM publications)
             AND g.result IN ('WhiteWin', 'BlackWin', 'Draw')
             AND g.round_number = (SELECT max(round_number) FROM games x WHERE x.tournament_id = g.tournament_id)
           GROUP BY g.tournament_id ORDER BY g.tournament_id`,
        )
        .all();
      if (boards.length === 0) throw new Error(`${db}: no published team event with a finished game`);
      // Events with a forfeited match or a requested bye first: their ticks score those too.
      const unplayed = new Set(
        w
          .prepare<[], number>(
            "SELECT tournament_id FROM team_forfeited_matches UNION SELECT tournament_id FROM team_byes WHERE kind <> 'pab'",
          )
          .pluck()
          .all(),
      );
      const covered = boards.filter((x) => unplayed.has(x.t));
      const pool = covered.length > 0 ? covered : boards;
      const g = pool[(i * 7919) % pool.length]!;
      const [raw, result] = g.result === "WhiteWin" ? ["0 - 1", "BlackWin"] : ["1 - 0", "WhiteWin"];
      w.prepare(
        "UPDATE games SET raw_result = ?, result = ? WHERE tournament_id = ? AND round_number = ? AND board_number = ?",
      ).run(raw, result, g.t, g.r, g.b);
    } finally {
      w.close();
    }
  }

  /**
   * Through another connection: the i-th published tournament (with players, spread over the
   * store) that `pick` accepts gets `also`, and its first player a new name.
   */
  private change(
    db: string,
    i: number,
    pick: (id: number) => boolean,
    also: (w: Database.Database, t: number, n: number) => void,
  ): void {
    const w = new Database(db);
    try {
      const ids = w
        .prepare<[], number>(
          // Published and not a draft (src/store/read/queries.ts), with players: a rename renders it.
          "SELECT tournament_id FROM tournaments WHERE is_draft = 0 AND typeof(external_id) = 'integer' " +
            "AND tournament_id IN (SELECT tournament_id FROM publications) " +
            "AND tournament_id IN (SELECT tournament_id FROM players) ORDER BY tournament_id",
        )
        .pluck()
        .all()
        .filter(pick);
      if (ids.length === 0) throw new Error(`${db}: no published tournament to change`);
      const t = ids[(i * 7919) % ids.length]!;
      const n = ++this.renames;
      also(w, t, n);
      w.prepare(
        "UPDATE players SET name = ? WHERE tournament_id = ? AND source_player_number = (SELECT min(source_player_number) FROM players WHERE tournament_id = ?)",
      ).run(`Bench Renamed ${process.pid}-${n}`, t, t);
    } finally {
      w.close();
    }
  }
}

/** Deletes a build output: the link, the versions and the lock (see src/publish/layout.ts). */
export function removeOut(out: string): void {
  const parent = path.dirname(out);
  const name = path.basename(out);
  for (const p of [out, path.join(parent, `.${name}.snapshots`), path.join(parent, `.${name}.lock`)]) {
    rmSync(p, { recursive: true, force: true });
  }
}

/**
 * The JSON floor of `out` into `floorDir` (scripts/lib/json-floor.ts), logged; written in chunks
 * only when the disk is short (scripts/lib/bench-targets.ts floorChunk).
 */
function measureFloor(
  out: string,
  floorDir: string,
  sample: number,
  label: string,
  settle: number,
): JsonFloor {
  if (existsSync(floorDir)) {
    rmSync(floorDir, { recursive: true, force: true });
    deleted = true;
  }
  settleAfterDeletion(path.dirname(floorDir), settle, label);
  const free = freeBytes(path.dirname(floorDir));
  const floor = jsonFloor(out, floorDir, sample, (bytes) => floorChunk(free, bytes));
  deleted = true; // the floor deletes what it wrote
  log(
    `${label}: JSON floor ${fmt(floor.seconds)} s = writing all ${floor.files} files ${fmt(floor.writeSeconds)} s` +
      `${floor.chunks === 1 ? "" : ` (in ${floor.chunks} chunks)`} + JSON.stringify ${fmt(floor.serializeSeconds)} s ` +
      `(${floor.serialized} bodies${sample > 1 ? `, one in ${sample}, × ${sample}` : ""}), ` +
      `${floor.bytes} bytes (load ${load()})`,
  );
  return floor;
}

function machine(dir: string): string {
  const cpus = os.cpus();
  let fs = "";
  try {
    const df = execFileSync("df", ["-PT", dir], { encoding: "utf8" }).trim().split("\n").at(-1)!.split(/\s+/);
    fs = `, ${dir} on ${df[1]} (${df[0]})`;
  } catch {
    // df is informative only.
  }
  return (
    `${cpus[0]?.model ?? "unknown CPU"}, ${cpus.length} cores, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB RAM, ` +
    `${os.type()} ${os.release()} ${os.arch()}, node ${process.version}${fs}`
  );
}

const freeBytes = (dir: string): number => {
  const s = statfsSync(dir);
  return s.bavail * s.bsize;
};

interface SizeOptions {
  label: string;
  tournaments: number;
  seed: string;
  ticks: number;
  dir: string;
  db: string;
  keep: boolean;
  floorSample: number;
  settle: number;
  teamEvents: number;
}

function benchSize(h: Harness, o: SizeOptions): SizeFigures {
  const { label, dir, db } = o;
  if (!existsSync(db)) {
    const gen = generateStore({
      tournaments: o.tournaments,
      seed: o.seed,
      out: db,
      teamEvents: o.teamEvents,
    });
    log(
      `${label}: store generated, ${gen.tournaments} tournaments, ${gen.players} players, ${fmt(gen.milliseconds / 1000)} s`,
    );
  } else log(`${label}: store ${db} reused`);
  const out = path.join(dir, "dist");
  const floorDir = path.join(dir, "floor-json");
  if (existsSync(out) || existsSync(floorDir)) deleted = true;
  removeOut(out);
  rmSync(floorDir, { recursive: true, force: true });
  // This size's leftovers, or the previous size's snapshot and floor, deleted just before.
  settleAfterDeletion(dir, o.settle, label);

  log(`${label}: full build (load ${load()})`);
  const full = h.build(db, out, dir);
  log(
    `${label}: full build ${fmt(full.seconds)} s, ${full.files} files, ${fmt(full.rssMb, 0)} MiB (load ${load()})`,
  );

  const ticks: Run[] = [];
  for (let i = 0; i <= o.ticks; i++) {
    h.changeOneTournament(db, i);
    syncDisk();
    const t = h.build(db, out, dir);
    if (t.rendered !== 1) log(`${label}: WARNING tick ${i + 1} rendered ${t.rendered} tournaments, not 1`);
    ticks.push(t);
    log(
      `${label}: tick ${i + 1}${i === 0 ? " (the first after the full build)" : ""} ${fmt(t.seconds)} s ` +
        `(CPU ${fmt(t.cpuSeconds)} s), ` +
        `${t.written} written, ${t.rendered} rendered, ${fmt(t.rssMb, 0)} MiB (load ${load()})`,
    );
  }
  const liveTicks: Run[] = [];
  for (let i = 0; i < o.ticks; i++) {
    h.changeOneLiveTournament(db, i);
    syncDisk();
    const t = h.build(db, out, dir);
    if (t.rendered !== 1)
      log(`${label}: WARNING live tick ${i + 1} rendered ${t.rendered} tournaments, not 1`);
    liveTicks.push(t);
    log(
      `${label}: live tick ${i + 1} ${fmt(t.seconds)} s, ${t.written} written, ${t.rendered} rendered, ` +
        `${fmt(t.rssMb, 0)} MiB (load ${load()})`,
    );
  }
  const teamTicks: Run[] = [];
  for (let i = 0; i < (o.teamEvents > 0 ? o.ticks : 0); i++) {
    h.changeOneTeamEvent(db, i);
    syncDisk();
    const t = h.build(db, out, dir);
    if (t.rendered !== 1)
      log(`${label}: WARNING team tick ${i + 1} rendered ${t.rendered} tournaments, not 1`);
    teamTicks.push(t);
    log(
      `${label}: team tick ${i + 1} ${fmt(t.seconds)} s (CPU ${fmt(t.cpuSeconds)} s), ${t.written} written, ` +
        `${t.rendered} rendered, ` +
        `${fmt(t.rssMb, 0)} MiB (load ${load()})`,
    );
  }
  if (teamTicks.length > 0) {
    // On a loaded machine the wall times mostly measure the wait for a core; CPU time does not.
    const cpu = (runs: Run[]) => median(runs.map((t) => t.cpuSeconds));
    const steadyCpu = cpu(ticks.slice(1));
    log(
      `${label}: CPU medians: steady tick ${fmt(steadyCpu)} s, team tick ${fmt(cpu(teamTicks))} s, ` +
        `team/steady ${(cpu(teamTicks) / steadyCpu).toFixed(2)}`,
    );
  }
  syncDisk();
  const noChange = h.build(db, out, dir);
  if (!noChange.upToDate && noChange.written > 0)
    log(`${label}: WARNING the no-change rebuild wrote ${noChange.written} files`);
  const startup = h.startup();
  log(
    `${label}: no-change ${fmt(noChange.seconds)} s (${fmt(noChange.rssMb, 0)} MiB), start-up ${fmt(startup)} s`,
  );

  log(`${label}: JSON floor (load ${load()})`);
  const floor = measureFloor(out, floorDir, o.floorSample, label, o.settle);
  if (!o.keep) {
    removeOut(out);
    deleted = true;
  }

  const [first, ...steady] = ticks;
  return {
    label,
    tournaments: o.tournaments,
    files: floor.files,
    bytes: floor.bytes,
    full: { seconds: full.seconds, rssMb: full.rssMb },
    jsonFloor: floor.seconds,
    ...(o.floorSample > 1 ? { floorSample: o.floorSample } : {}),
    ...(floor.chunks > 1 ? { floorChunks: floor.chunks } : {}),
    firstTick: { seconds: first!.seconds, rssMb: first!.rssMb, written: first!.written },
    ticks: steady.map((t) => ({ seconds: t.seconds, rssMb: t.rssMb, written: t.written })),
    liveTicks: liveTicks.map((t) => ({ seconds: t.seconds, rssMb: t.rssMb, written: t.written })),
    ...(teamTicks.length > 0
      ? { teamTicks: teamTicks.map((t) => ({ seconds: t.seconds, rssMb: t.rssMb, written: t.written })) }
      : {}),
    noChange: { seconds: noChange.seconds, rssMb: noChange.rssMb },
    startup,
  };
}

export function summary(f: SizeFigures): string {
  const tick = steadyTick(f);
  return (
    `${f.label} (${f.tournaments} tournaments): ${f.files} files, ${(f.bytes / 1e9).toFixed(2)} GB; ` +
    `full ${fmt(f.full.seconds)} s (${fmt(f.full.rssMb, 0)} MiB), JSON floor ${fmt(f.jsonFloor)} s` +
    `${f.floorSample ? ` (JSON.stringify on 1 body in ${f.floorSample}, × ${f.floorSample})` : ""}` +
    `${f.floorChunks ? ` (written in ${f.floorChunks} chunks: inflated)` : ""}, ` +
    `full/JSON floor ${fmt(f.full.seconds / f.jsonFloor)}; first tick ${fmt(f.firstTick.seconds)} s ` +
    `(${f.firstTick.written} written, ${fmt(f.firstTick.rssMb, 0)} MiB); steady tick median ${fmt(tick)} s of ` +
    `${f.ticks.map((t) => fmt(t.seconds)).join("/")} (written ${f.ticks.map((t) => t.written).join("/")}, ` +
    `${f.ticks.map((t) => fmt(t.rssMb, 0)).join("/")} MiB), tick/full ${(tick / f.full.seconds).toFixed(4)}; ` +
    (f.liveTicks && f.liveTicks.length > 0
      ? `live tick median ${fmt(median(f.liveTicks.map((t) => t.seconds)))} s of ` +
        `${f.liveTicks.map((t) => fmt(t.seconds)).join("/")} (written ${f.liveTicks.map((t) => t.written).join("/")}); `
      : "") +
    (f.teamTicks && f.teamTicks.length > 0
      ? `team tick median ${fmt(median(f.teamTicks.map((t) => t.seconds)))} s of ` +
        `${f.teamTicks.map((t) => fmt(t.seconds)).join("/")} (written ${f.teamTicks.map((t) => t.written).join("/")}), ` +
        `team/steady tick ${(median(f.teamTicks.map((t) => t.seconds)) / tick).toFixed(2)}; `
      : "") +
    `no-change ${fmt(f.noChange.seconds)} s (${fmt(f.noChange.rssMb, 0)} MiB), start-up ${fmt(f.startup)} s, ` +
    `no-change − start-up ${fmt(f.noChange.seconds - f.startup)} s; peak RSS ${fmt(peakRss(f), 0)} MiB`
  );
}

export interface BenchArgs {
  sizes: string;
  seed: string;
  ticks: string;
  jobs?: string;
  work?: string;
  keep: boolean;
  db?: string;
  cli?: string;
  "floor-sample": string;
  settle: string;
  with?: string;
  "floor-of"?: string;
  "team-events"?: string;
}

export const BENCH_OPTIONS = {
  sizes: { type: "string", default: "S,M" },
  seed: { type: "string", default: "7" },
  ticks: { type: "string", default: "3" },
  jobs: { type: "string" },
  work: { type: "string" },
  keep: { type: "boolean", default: false },
  db: { type: "string" },
  cli: { type: "string" },
  /** Time the JSON floor's JSON.stringify on one body in k (k = 1: every body); every file is written. */
  "floor-sample": { type: "string", default: "1" },
  /** After a deletion, wait until the disk has been quiet this many seconds (0: never wait). */
  settle: { type: "string", default: "60" },
  /** How many of each generated store's tournaments are team events (gen-store --team-events). */
  "team-events": { type: "string", default: "0" },
  /** A file of `figures: {...}` lines of an earlier run (its output), judged with this run's sizes. */
  with: { type: "string" },
  /** Only the JSON floor of this snapshot (a kept `--work` size's dist): no store, no build. */
  "floor-of": { type: "string" },
} as const;

/** runBench for a script's command line: a wrong value is one line and exit code 2. */
export function runBenchCli(scriptUrl: string, a: BenchArgs): void {
  try {
    process.exitCode = runBench(a);
  } catch (e) {
    if (e instanceof UsageError) exitWithUsage(scriptUrl, e.message);
    throw e;
  }
}

/** A size's folder under --work; a store with team events is another store, in a folder of its own. */
const sizeDir = (work: string, tournaments: number, teamEvents: number): string =>
  path.join(work, teamEvents > 0 ? `${tournaments}-teams${teamEvents}` : String(tournaments));

export function runBench(a: BenchArgs): number {
  const ticks = Number(a.ticks);
  const floorSample = Number(a["floor-sample"]);
  if (!Number.isInteger(floorSample) || floorSample < 1)
    throw new UsageError("--floor-sample must be a positive integer");
  if (!Number.isInteger(ticks) || ticks < 1) throw new UsageError("--ticks must be a positive integer");
  const teamEvents = Number(a["team-events"] ?? 0);
  if (!Number.isInteger(teamEvents) || teamEvents < 0)
    throw new UsageError("--team-events must be a count (0: none)");
  const settle = Number(a.settle);
  if (!Number.isInteger(settle) || settle < 0)
    throw new UsageError("--settle must be a whole number of seconds");
  const sizes = a.sizes.split(",").map((s) => {
    const label = s.trim().toUpperCase();
    const n = SIZES[label] ?? Number(label);
    if (!Number.isInteger(n) || n < 1)
      throw new UsageError(`unknown size ${JSON.stringify(s)}: use S, M, L, XL or a count`);
    // A count that is a named size takes its name, so that its targets apply.
    return { label: Object.entries(SIZES).find(([, v]) => v === n)?.[0] ?? label, tournaments: n };
  });
  if (a["floor-of"] !== undefined) {
    const out = path.resolve(a["floor-of"]);
    console.log(`machine: ${machine(out)}; load ${load()}`);
    measureFloor(
      out,
      path.join(path.dirname(out), "floor-json"),
      floorSample,
      path.basename(path.dirname(out)),
      settle,
    );
    return 0;
  }
  if (a.db !== undefined && sizes.length !== 1)
    throw new UsageError("--db measures one store: give one size");
  const h = new Harness(a.cli ? path.resolve(a.cli) : path.join(ROOT, "bin/build-api.js"), a.jobs);
  const work = a.work ? path.resolve(a.work) : mkdtempSync(path.join(os.tmpdir(), "build-api-bench-"));
  mkdirSync(work, { recursive: true });

  console.log(`machine: ${machine(work)}`);
  console.log(
    `method: per size one full build, 1 + ${ticks} one-tournament ticks (the first is the first after the full build; ` +
      `the median of the other ${ticks} is the steady tick), ${ticks} live ticks (a Live tournament scraped again), ` +
      `a no-change rebuild, start-up, the JSON floor; ` +
      `cli ${path.relative(ROOT, h.cli) || h.cli} ${h.flags.join(" ")}, --jobs ${a.jobs ?? "default"}, seed ${a.seed}, ` +
      `peak RSS ${useGnuTime ? "by GNU time %M" : "by process.resourceUsage().maxRSS"}; load ${load()}`,
  );
  const xl = SIZES.XL!;
  console.log(
    `disk: ${(freeBytes(work) / 1e9).toFixed(1)} GB free in ${work}; XL (${xl} tournaments) needs about ` +
      `${(diskNeeded(xl, false) / 1e9).toFixed(0)} GB, L about ${(diskNeeded(SIZES.L!, false) / 1e9).toFixed(0)} GB ` +
      `(${(wholeFloorNeeded(SIZES.L!, false) / 1e9).toFixed(0)} GB for a whole JSON floor)`,
  );
  const measured: SizeFigures[] = [];
  let refused = 0;
  try {
    for (const { label, tournaments } of sizes) {
      const dir = sizeDir(work, tournaments, teamEvents);
      mkdirSync(dir, { recursive: true });
      const db = a.db ? path.resolve(a.db) : path.join(dir, "store.sqlite");
      const why = diskRefusal(label, tournaments, freeBytes(dir), existsSync(db));
      if (why) {
        console.log(`REFUSED ${why}`);
        refused++;
        continue;
      }
      const whole = wholeFloorNeeded(tournaments, existsSync(db));
      const free = freeBytes(dir);
      if (free < whole)
        log(
          `${label}: about ${(whole / 1e9).toFixed(0)} GB free would let the JSON floor be written whole; ` +
            `with ${(free / 1e9).toFixed(1)} GB it may be written in chunks, and the full ÷ floor ` +
            `target is then not judged`,
        );
      const f = benchSize(h, {
        label,
        tournaments,
        seed: a.seed,
        ticks,
        dir,
        db,
        keep: a.keep,
        floorSample,
        settle,
        teamEvents,
      });
      measured.push(f);
      console.log(`${summary(f)}; load ${load()}`);
      console.log(`figures: ${JSON.stringify(f)}`);
    }
  } finally {
    if (!a.work && !a.keep) rmSync(work, { recursive: true, force: true });
    else if (!a.keep)
      for (const { tournaments } of sizes)
        removeOut(path.join(sizeDir(work, tournaments, teamEvents), "dist"));
    if (a.keep) console.error(`kept ${work}`);
  }
  const earlier = a.with
    ? readFileSync(a.with, "utf8")
        .split("\n")
        .filter((l) => l.startsWith("figures: "))
        .map((l) => JSON.parse(l.slice("figures: ".length)) as SizeFigures)
        .filter((e) => !measured.some((m) => m.label === e.label))
    : [];
  if (earlier.length > 0)
    console.log(`with earlier figures of ${earlier.map((e) => e.label).join(", ")} from ${a.with}`);
  console.log("targets (issue 19):");
  for (const t of judge([...earlier, ...measured].sort((x, y) => x.tournaments - y.tournaments)))
    console.log(`  ${t.verdict.toUpperCase().padEnd(12)} ${t.target}: ${t.detail}`);
  return refused > 0 ? 1 : 0;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  runBenchCli(import.meta.url, scriptArgs(import.meta.url, BENCH_OPTIONS));
}
