// `npm run bench [-- --sizes S,M[,L]] [--seed 1] [--rounds 3] [--jobs N] [--keep]`
//
// For each size: generate a synthetic store once (scripts/gen-store.ts), then measure, interleaved
// in the same run so that a noisy machine hits every measure alike:
//   floor   - the raw write floor: the files of the built snapshot (read into memory first),
//             written with plain mkdirSync(recursive) + writeFileSync into a fresh directory;
//   JSON floor - the same, but every JSON body (parsed beforehand) serialized with JSON.stringify
//             and written with writeFileSync, on one thread: the issue's reference for a full build;
//   full    - a full build into a fresh --out, in a child process (`node bin/build-api.js build`),
//             wall time and peak RSS (the whole process: every thread);
//   rebuild - a no-change rebuild into the same --out, wall time and files written (must be 0);
//   one changed - one player renamed in one tournament (another connection), then a build into
//             the same --out: wall time, files written, peak RSS;
//   start-up - `node bin/build-api.js --version`: what a no-change rebuild cannot go below;
//   link floor - right after the floor: the same tree again, every file hard-linked from the floor
//             (mkdirSync + linkSync): what any complete new tree of hard links costs, the bound of
//             a no-change rebuild that publishes a whole new version directory.
// Each round runs floor/full/rebuild (every other round: full/rebuild/floor), after a `sync` so
// that no step pays for the previous one's writeback. Times are medians over the rounds, ratios
// medians of the per-round ratios; peak RSS is the largest over the rounds. Build times are wall
// times of the child (node start-up included); "in-process" is the sum of the build report's
// phases. One line per size on stdout; every round on stderr.
import { execFileSync, spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  linkSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import Database from "better-sqlite3";
import { publicationChanges } from "../src/publish/changes.ts";
import { generateStore, REFERENCE_NOW } from "./gen-store.ts";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const CLI = path.join(ROOT, "bin/build-api.js");
const SIZES: Record<string, number> = { S: 50, M: 2_000, L: 20_000 };
const TIME = "/usr/bin/time";

interface Snapshot {
  files: { rel: string; bytes: Buffer }[];
  bytes: number;
}

interface ChildRun {
  seconds: number;
  /** Peak resident set size of the child, in MiB. */
  rssMb: number;
  report: {
    render: { tournaments: number; files: number };
    publish: {
      files: number;
      filesWritten: number;
      filesUnchanged: number;
      bytesTotal: number;
      phases: Record<string, number>;
    };
  };
}

interface Round {
  floor: number;
  jsonFloor: number;
  linkFloor: number;
  full: ChildRun;
  rebuild: ChildRun;
  oneChanged: ChildRun;
  startup: number;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

const syncDisk = (): void => {
  try {
    execFileSync("sync");
  } catch {
    // No sync(1): the steps then share writeback, which the interleaving evens out.
  }
};

/** Peak RSS of a child: GNU time when installed, else the child reports its own at exit. */
const useGnuTime = existsSync(TIME);
const RSS_HOOK =
  "data:text/javascript,import{writeSync}from'node:fs';" +
  "process.on('exit',()=>writeSync(2,'\\nbench-maxrss-kb '+process.resourceUsage().maxRSS+'\\n'))";

function runBuild(db: string, out: string, scratch: string, jobs?: string): ChildRun {
  const args = [CLI, "build", "--db", db, "--out", out, "--now", REFERENCE_NOW, "--json"];
  if (jobs !== undefined) args.push("--jobs", jobs);
  const rssFile = path.join(scratch, "rss.txt");
  const [cmd, argv] = useGnuTime
    ? [TIME, ["-f", "%M", "-o", rssFile, process.execPath, ...args]]
    : [process.execPath, ["--import", RSS_HOOK, ...args]];
  const start = performance.now();
  const child = spawnSync(cmd, argv, { cwd: ROOT, encoding: "utf8", maxBuffer: 1 << 30 });
  const seconds = (performance.now() - start) / 1000;
  if (child.status !== 0) {
    throw new Error(`build failed (exit ${child.status}):\n${child.stderr}`);
  }
  const rssKb = useGnuTime
    ? Number(readFileSync(rssFile, "utf8").trim().split("\n").at(-1))
    : Number(/bench-maxrss-kb (\d+)/.exec(child.stderr)?.[1]);
  return { seconds, rssMb: rssKb / 1024, report: JSON.parse(child.stdout) as ChildRun["report"] };
}

/** Every regular file under the snapshot `out` points to, read into memory. */
function readSnapshot(out: string): Snapshot {
  const files: Snapshot["files"] = [];
  let bytes = 0;
  const walk = (dir: string, rel: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(path.join(dir, e.name), r);
      else if (e.isFile()) {
        const data = readFileSync(path.join(dir, e.name));
        files.push({ rel: r, bytes: data });
        bytes += data.length;
      }
    }
  };
  walk(realpathSync(out), "");
  files.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
  return { files, bytes };
}

/** Recreates the snapshot's tree in `dir`, one `place(file, abs)` per file. Seconds. */
function timeTree(
  snapshot: Snapshot,
  dir: string,
  place: (f: Snapshot["files"][number], abs: string) => void,
): number {
  const start = performance.now();
  const made = new Set<string>();
  for (const f of snapshot.files) {
    const abs = path.join(dir, f.rel);
    const parent = path.dirname(abs);
    if (!made.has(parent)) {
      mkdirSync(parent, { recursive: true });
      made.add(parent);
    }
    place(f, abs);
  }
  return (performance.now() - start) / 1000;
}

/** The raw floor: the same files and bytes, plain fs calls, into a fresh directory. Seconds. */
function writeFloor(snapshot: Snapshot, dir: string): number {
  return timeTree(snapshot, dir, (f, abs) => writeFileSync(abs, f.bytes));
}

/**
 * The JSON floor: every JSON body serialized with JSON.stringify and written, other files written
 * as they are, on one thread. Each body is parsed just before, outside the timed part (parsing
 * them all beforehand would not fit in memory at L). Seconds.
 */
function jsonFloor(snapshot: Snapshot, dir: string): number {
  let timed = 0;
  const made = new Set<string>();
  for (const f of snapshot.files) {
    const body = f.rel.endsWith(".json") ? (JSON.parse(f.bytes.toString("utf8")) as unknown) : undefined;
    const start = performance.now();
    const abs = path.join(dir, f.rel);
    const parent = path.dirname(abs);
    if (!made.has(parent)) {
      mkdirSync(parent, { recursive: true });
      made.add(parent);
    }
    writeFileSync(abs, body === undefined ? f.bytes : JSON.stringify(body));
    timed += performance.now() - start;
  }
  return timed / 1000;
}

/** Node's start-up and build-api's CLI module graph: `--version`. Seconds. */
function startup(): number {
  const start = performance.now();
  execFileSync(process.execPath, [CLI, "--version"], { cwd: ROOT, stdio: "pipe" });
  return (performance.now() - start) / 1000;
}

/** Renames one player of one tournament (a different name each time): one tournament changed. */
let renames = 0;
function changeOneTournament(db: string): void {
  const w = new Database(db);
  try {
    w.prepare(
      `UPDATE players SET name = ? WHERE (tournament_id, source_player_number) =
         (SELECT tournament_id, source_player_number FROM players ORDER BY tournament_id, source_player_number LIMIT 1)`,
    ).run(`Bench Renamed ${++renames}`);
  } finally {
    w.close();
  }
}

/** The link floor: the tree of `from` again in `dir`, every file hard-linked. Seconds. */
function linkFloor(snapshot: Snapshot, from: string, dir: string): number {
  return timeTree(snapshot, dir, (f, abs) => linkSync(path.join(from, f.rel), abs));
}

/** Deletes a build output: the link, the versions and the lock (see src/publish/publish.ts). */
function removeOut(out: string): void {
  const parent = path.dirname(out);
  const name = path.basename(out);
  for (const p of [out, path.join(parent, `.${name}.snapshots`), path.join(parent, `.${name}.lock`)]) {
    rmSync(p, { recursive: true, force: true });
  }
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

const fmt = (x: number, digits = 2): string => x.toFixed(digits);

function benchSize(
  label: string,
  tournaments: number,
  seed: string,
  rounds: number,
  base: string,
  jobs: string | undefined,
): string {
  const dir = path.join(base, label);
  mkdirSync(dir, { recursive: true });
  const db = path.join(dir, "store.sqlite");
  const gen = generateStore({ tournaments, seed, out: db });
  console.error(
    `[${label}] store: ${tournaments} tournaments, ${gen.players} players, ${gen.games} games (${fmt(gen.milliseconds / 1000)} s)`,
  );

  // A warm-up build (not counted): warms the page cache and gives the files for the floor.
  const out = path.join(dir, "out");
  const warm = runBuild(db, out, dir, jobs);
  const snapshot = readSnapshot(out);
  removeOut(out);
  console.error(
    `[${label}] snapshot: ${snapshot.files.length} files, ${snapshot.bytes} bytes ` +
      `(${warm.report.render.tournaments} tournaments built; warm-up ${fmt(warm.seconds)} s)`,
  );

  const results: Round[] = [];
  const floorDir = path.join(dir, "floor");
  const linkDir = path.join(dir, "floor-links");
  const jsonDir = path.join(dir, "floor-json");
  for (let r = 0; r < rounds; r++) {
    let floor = 0;
    let json = 0;
    let links = 0;
    const measureFloor = (): void => {
      for (const d of [floorDir, linkDir, jsonDir]) rmSync(d, { recursive: true, force: true });
      syncDisk();
      json = jsonFloor(snapshot, jsonDir);
      syncDisk();
      floor = writeFloor(snapshot, floorDir);
      syncDisk();
      links = linkFloor(snapshot, floorDir, linkDir);
    };
    const measureBuilds = (): { full: ChildRun; rebuild: ChildRun; oneChanged: ChildRun } => {
      removeOut(out);
      syncDisk();
      const full = runBuild(db, out, dir, jobs);
      syncDisk();
      const rebuild = runBuild(db, out, dir, jobs);
      if (rebuild.report.publish.filesWritten > 0) {
        // Name the files that changed, to tell nondeterminism from a bug in the incremental write.
        const { written, removed } = publicationChanges(out);
        console.error(
          `[${label}] the no-change rebuild wrote files:\n${[...written, ...removed.map((p) => `removed ${p}`)].join("\n")}`,
        );
      }
      changeOneTournament(db);
      syncDisk();
      const oneChanged = runBuild(db, out, dir, jobs);
      return { full, rebuild, oneChanged };
    };
    let runs: { full: ChildRun; rebuild: ChildRun; oneChanged: ChildRun };
    if (r % 2 === 0) {
      measureFloor();
      runs = measureBuilds();
    } else {
      runs = measureBuilds();
      measureFloor();
    }
    const { full, rebuild, oneChanged } = runs;
    const start = startup();
    results.push({ floor, jsonFloor: json, linkFloor: links, full, rebuild, oneChanged, startup: start });
    const inProcess = Object.values(full.report.publish.phases).reduce((a, b) => a + b, 0) / 1000;
    console.error(
      `[${label}] round ${r + 1}: floor ${fmt(floor)} s, JSON floor ${fmt(json)} s, link floor ${fmt(links)} s, ` +
        `full ${fmt(full.seconds)} s (in-process ${fmt(inProcess)} s, ${fmt(full.rssMb, 0)} MiB), ` +
        `no-change rebuild ${fmt(rebuild.seconds)} s (${rebuild.report.publish.filesWritten} written), ` +
        `one changed ${fmt(oneChanged.seconds)} s (${oneChanged.report.publish.filesWritten} written, ` +
        `${fmt(oneChanged.rssMb, 0)} MiB), start-up ${fmt(start)} s`,
    );
    for (const d of [floorDir, linkDir, jsonDir]) rmSync(d, { recursive: true, force: true });
    removeOut(out);
  }

  // Times: medians over the rounds. Ratios: medians of the per-round ratios, whose two terms ran
  // back to back, so a slow spell of the machine weighs on both.
  const inProcessOf = (x: Round): number =>
    Object.values(x.full.report.publish.phases).reduce((a, b) => a + b, 0) / 1000;
  const full = median(results.map((x) => x.full.seconds));
  const floor = median(results.map((x) => x.floor));
  const rebuild = median(results.map((x) => x.rebuild.seconds));
  const links = median(results.map((x) => x.linkFloor));
  const inProcess = median(results.map(inProcessOf));
  const fullToFloor = median(results.map((x) => x.full.seconds / x.floor));
  const inProcessToFloor = median(results.map((x) => inProcessOf(x) / x.floor));
  const rebuildToFull = median(results.map((x) => x.rebuild.seconds / x.full.seconds));
  const linksToFull = median(results.map((x) => x.linkFloor / x.full.seconds));
  const rss = Math.max(...results.map((x) => x.full.rssMb));
  const rebuildRss = Math.max(...results.map((x) => x.rebuild.rssMb));
  const oneRss = Math.max(...results.map((x) => x.oneChanged.rssMb));
  const written = Math.max(...results.map((x) => x.rebuild.report.publish.filesWritten));
  const json = median(results.map((x) => x.jsonFloor));
  const fullToJson = median(results.map((x) => x.full.seconds / x.jsonFloor));
  const one = median(results.map((x) => x.oneChanged.seconds));
  const oneToFull = median(results.map((x) => x.oneChanged.seconds / x.full.seconds));
  const oneWritten = Math.max(...results.map((x) => x.oneChanged.report.publish.filesWritten));
  const start = median(results.map((x) => x.startup));
  const overStartup = median(results.map((x) => x.rebuild.seconds - x.startup));
  const files = snapshot.files.length;
  return (
    `${label} (${tournaments} tournaments): ${files} files, ${(snapshot.bytes / 1e6).toFixed(1)} MB, ` +
    `${Math.round(files / full)} files/s, peak RSS ${fmt(rss, 0)} MiB (no-change ${fmt(rebuildRss, 0)} MiB, ` +
    `one changed ${fmt(oneRss, 0)} MiB), full ${fmt(full)} s (in-process ${fmt(inProcess)} s), ` +
    `JSON floor ${fmt(json)} s, full/JSON floor ${fmt(fullToJson)}, raw floor ${fmt(floor)} s, ` +
    `full/raw floor ${fmt(fullToFloor)} (in-process ${fmt(inProcessToFloor)}), ` +
    `one changed ${fmt(one)} s, one changed/full ${fmt(oneToFull, 4)}, files written ${oneWritten}, ` +
    `no-change rebuild ${fmt(rebuild)} s, start-up ${fmt(start)} s, no-change - start-up ${fmt(overStartup)} s, ` +
    `no-change/full ${fmt(rebuildToFull)}, files written on no-change ${written}, ` +
    `link floor ${fmt(links)} s (link floor/full ${fmt(linksToFull)})`
  );
}

function main(): void {
  const { values } = parseArgs({
    options: {
      sizes: { type: "string", default: "S,M" },
      seed: { type: "string", default: "1" },
      rounds: { type: "string", default: "3" },
      keep: { type: "boolean", default: false },
      jobs: { type: "string" },
    },
    strict: true,
  });
  const rounds = Number(values.rounds);
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`--rounds must be a positive integer`);
  // A size is S, M or L, or a number of tournaments.
  const sizes = values.sizes.split(",").map((s) => {
    const label = s.trim();
    const n = SIZES[label.toUpperCase()] ?? Number(label);
    if (!Number.isInteger(n) || n < 1)
      throw new Error(`unknown size ${JSON.stringify(label)}: use S, M, L or a count`);
    return { label: label.toUpperCase(), tournaments: n };
  });

  const base = mkdtempSync(path.join(os.tmpdir(), "build-api-bench-"));
  console.log(`machine: ${machine(base)}`);
  console.log(
    `method: ${rounds} interleaved rounds per size (JSON floor + raw floor + link floor, full build, no-change rebuild, ` +
      `one tournament changed, start-up; medians of times and of per-round ratios), --jobs ${values.jobs ?? "default"}, ` +
      `seed ${values.seed}, peak RSS ${useGnuTime ? "by GNU time %M" : "by process.resourceUsage().maxRSS"}`,
  );
  try {
    for (const { label, tournaments } of sizes) {
      console.log(benchSize(label, tournaments, values.seed, rounds, base, values.jobs));
    }
  } finally {
    if (values.keep) console.error(`kept ${base}`);
    else rmSync(base, { recursive: true, force: true });
  }
}

main();
