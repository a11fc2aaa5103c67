// `npm run bench [-- --sizes S,M[,L]] [--seed 1] [--rounds 3] [--keep]`
//
// For each size: generate a synthetic store once (scripts/gen-store.ts), then measure, interleaved
// in the same run so that a noisy machine hits every measure alike:
//   floor   - the raw write floor: the files of the built snapshot (read into memory first),
//             written with plain mkdirSync(recursive) + writeFileSync into a fresh directory;
//   full    - a full build into a fresh --out, in a child process (`node bin/build-api.js build`),
//             wall time and peak RSS;
//   rebuild - a no-change rebuild into the same --out, wall time and files written (must be 0);
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
import { MANIFEST_NAME } from "../src/publish/manifest.ts";
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
  linkFloor: number;
  full: ChildRun;
  rebuild: ChildRun;
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

function runBuild(db: string, out: string, scratch: string): ChildRun {
  const args = [CLI, "build", "--db", db, "--out", out, "--now", REFERENCE_NOW, "--json"];
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

function benchSize(label: string, tournaments: number, seed: string, rounds: number, base: string): string {
  const dir = path.join(base, label);
  mkdirSync(dir, { recursive: true });
  const db = path.join(dir, "store.sqlite");
  const gen = generateStore({ tournaments, seed, out: db });
  console.error(
    `[${label}] store: ${tournaments} tournaments, ${gen.players} players, ${gen.games} games (${fmt(gen.milliseconds / 1000)} s)`,
  );

  // A warm-up build (not counted): warms the page cache and gives the files for the floor.
  const out = path.join(dir, "out");
  const warm = runBuild(db, out, dir);
  const snapshot = readSnapshot(out);
  removeOut(out);
  console.error(
    `[${label}] snapshot: ${snapshot.files.length} files, ${snapshot.bytes} bytes ` +
      `(${warm.report.render.tournaments} tournaments built; warm-up ${fmt(warm.seconds)} s)`,
  );

  const results: Round[] = [];
  const floorDir = path.join(dir, "floor");
  const linkDir = path.join(dir, "floor-links");
  for (let r = 0; r < rounds; r++) {
    let floor = 0;
    let links = 0;
    const measureFloor = (): void => {
      rmSync(floorDir, { recursive: true, force: true });
      rmSync(linkDir, { recursive: true, force: true });
      syncDisk();
      floor = writeFloor(snapshot, floorDir);
      syncDisk();
      links = linkFloor(snapshot, floorDir, linkDir);
    };
    const measureBuilds = (): { full: ChildRun; rebuild: ChildRun } => {
      removeOut(out);
      syncDisk();
      const full = runBuild(db, out, dir);
      const before = readFileSync(path.join(out, MANIFEST_NAME), "utf8");
      syncDisk();
      const rebuild = runBuild(db, out, dir);
      if (rebuild.report.publish.filesWritten > 0) {
        // Name the files that changed, to tell nondeterminism from a bug in the incremental write.
        const after = new Set(readFileSync(path.join(out, MANIFEST_NAME), "utf8").split("\n"));
        const changed = before.split("\n").filter((line) => !after.has(line));
        console.error(
          `[${label}] the no-change rebuild wrote files; changed manifest lines:\n${changed.join("\n")}`,
        );
      }
      return { full, rebuild };
    };
    let runs: { full: ChildRun; rebuild: ChildRun };
    if (r % 2 === 0) {
      measureFloor();
      runs = measureBuilds();
    } else {
      runs = measureBuilds();
      measureFloor();
    }
    const { full, rebuild } = runs;
    results.push({ floor, linkFloor: links, full, rebuild });
    const inProcess = Object.values(full.report.publish.phases).reduce((a, b) => a + b, 0) / 1000;
    console.error(
      `[${label}] round ${r + 1}: floor ${fmt(floor)} s, link floor ${fmt(links)} s, full ${fmt(full.seconds)} s ` +
        `(in-process ${fmt(inProcess)} s, ${fmt(full.rssMb, 0)} MiB), rebuild ${fmt(rebuild.seconds)} s ` +
        `(${rebuild.report.publish.filesWritten} written, ${fmt(rebuild.rssMb, 0)} MiB)`,
    );
    rmSync(floorDir, { recursive: true, force: true });
    rmSync(linkDir, { recursive: true, force: true });
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
  const written = Math.max(...results.map((x) => x.rebuild.report.publish.filesWritten));
  const files = snapshot.files.length;
  return (
    `${label} (${tournaments} tournaments): ${files} files, ${(snapshot.bytes / 1e6).toFixed(1)} MB, ` +
    `${Math.round(files / full)} files/s, peak RSS ${fmt(rss, 0)} MiB (rebuild ${fmt(rebuildRss, 0)} MiB), ` +
    `full ${fmt(full)} s (in-process ${fmt(inProcess)} s), floor ${fmt(floor)} s, ` +
    `full/floor ${fmt(fullToFloor)} (in-process ${fmt(inProcessToFloor)}), ` +
    `no-change rebuild ${fmt(rebuild)} s, rebuild/full ${fmt(rebuildToFull)}, ` +
    `files written on rebuild ${written}, link floor ${fmt(links)} s (link floor/full ${fmt(linksToFull)})`
  );
}

function main(): void {
  const { values } = parseArgs({
    options: {
      sizes: { type: "string", default: "S,M" },
      seed: { type: "string", default: "1" },
      rounds: { type: "string", default: "3" },
      keep: { type: "boolean", default: false },
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
    `method: ${rounds} interleaved rounds per size (floor + link floor, full build, no-change rebuild; medians of times and of per-round ratios), ` +
      `seed ${values.seed}, peak RSS ${useGnuTime ? "by GNU time %M" : "by process.resourceUsage().maxRSS"}`,
  );
  try {
    for (const { label, tournaments } of sizes) {
      console.log(benchSize(label, tournaments, values.seed, rounds, base));
    }
  } finally {
    if (values.keep) console.error(`kept ${base}`);
    else rmSync(base, { recursive: true, force: true });
  }
}

main();
