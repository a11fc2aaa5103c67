// `node scripts/bench-publish.ts [--files 28000] [--bytes 9000] [--changed 7] [--designs new,old]
//                                [--old-ref 4cfe694]`
//
// Times the publication layer alone (no store, no rendering) with synthetic files: `--files` files
// of about `--bytes` bytes, 14 per "tournament" directory. Each design runs in its own child
// process (so peak RSS is its own), into a fresh directory, and measures in order:
//   full          the first publication: every file written;
//   second        the same files again (write()): with double buffering, the build that makes the
//                 second version (every file hard-linked once), a one-time cost;
//   same/write    no change, every file passed to write() (hashed, nothing written);
//   7/write       `--changed` files changed, every file passed to write();
//   7/keepAll     `--changed` files changed in as many tournaments, the other tournaments kept with
//                 keepAll() (what an incremental renderer does), the changed ones written;
//   same/keepAll  no change, every tournament kept with keepAll().
// "old" is the design before double buffering (a full tree of hard links per version, the old one
// deleted), loaded from git (`--old-ref`, src/publish at that commit). A `sync` runs before each
// measure so none pays for the previous one's writeback. Prints one table; ratios are to `full`.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const { values: args } = parseArgs({
  options: {
    files: { type: "string", default: "28000" },
    bytes: { type: "string", default: "9000" },
    changed: { type: "string", default: "7" },
    designs: { type: "string", default: "new,old" },
    "old-ref": { type: "string", default: "4cfe694" },
    child: { type: "string" },
    module: { type: "string" },
  },
});
const FILES = Number(args.files);
const BYTES = Number(args.bytes);
const CHANGED = Number(args.changed);
const PER_TOURNAMENT = 14;

interface Writer {
  write(p: string, d: Uint8Array): void;
  keepAll(p: readonly string[]): boolean;
}
type Publish = (
  o: { outDir: string },
  produce: (w: Writer) => void,
) => Promise<{ filesWritten: number; filesUnchanged: number; phases: Record<string, number> }>;

function relPath(i: number): string {
  return `api/public/v1/tournaments/${Math.floor(i / PER_TOURNAMENT)}/f${i % PER_TOURNAMENT}/index.json`;
}

/** Deterministic filler, then each file stamps its number and version over the start of a copy. */
const filler = Buffer.alloc(BYTES);
for (let i = 0, x = 1; i < BYTES; i++) filler[i] = 97 + ((x = (x * 1103515245 + 12345) >>> 0) % 26);
// One buffer for every file: write() hashes and stores the bytes before it returns, so the
// producer makes no garbage and peak RSS is the publisher's own.
const scratch = Buffer.alloc(BYTES);
function content(i: number, version: number): Buffer {
  filler.copy(scratch);
  scratch.write(`{"i":${i},"v":${version},"x":"`, 0, "latin1");
  scratch.write('"}', BYTES - 2, "latin1");
  return scratch;
}

/** The files changed in run `version`: one in each of `CHANGED` tournaments spread over the store. */
function changedSet(): Set<number> {
  const tournaments = Math.ceil(FILES / PER_TOURNAMENT);
  const out = new Set<number>();
  for (let j = 0; j < CHANGED; j++) {
    out.add(Math.floor((j * tournaments) / CHANGED) * PER_TOURNAMENT + (j % PER_TOURNAMENT));
  }
  return out;
}

async function child(design: string, modulePath: string): Promise<void> {
  const { publishSnapshot } = (await import(pathToFileURL(modulePath).href)) as { publishSnapshot: Publish };
  const dir = mkdtempSync(path.join(os.tmpdir(), `bench-publish-${design}-`));
  const outDir = path.join(dir, "dist");
  const changed = changedSet();
  const versionOf = new Map<number, number>(); // file -> version of its bytes (default 0)
  const writeAll = (w: Writer): void => {
    for (let i = 0; i < FILES; i++) w.write(relPath(i), content(i, versionOf.get(i) ?? 0));
  };
  const keepUnchanged = (touched: Set<number>) => (w: Writer) => {
    const groups = new Map<number, number[]>();
    for (const i of touched) {
      const t = Math.floor(i / PER_TOURNAMENT);
      groups.set(t, [...(groups.get(t) ?? []), i]);
    }
    for (let t = 0; t * PER_TOURNAMENT < FILES; t++) {
      const members = Array.from(
        { length: Math.min(PER_TOURNAMENT, FILES - t * PER_TOURNAMENT) },
        (_, k) => t * PER_TOURNAMENT + k,
      );
      if (!groups.has(t) && w.keepAll(members.map(relPath))) continue;
      for (const i of members) w.write(relPath(i), content(i, versionOf.get(i) ?? 0));
    }
  };
  const results: Record<string, { ms: number; written: number }> = {};
  const run = async (name: string, produce: (w: Writer) => void): Promise<void> => {
    execFileSync("sync");
    const started = performance.now();
    const r = await publishSnapshot({ outDir }, produce);
    results[name] = { ms: performance.now() - started, written: r.filesWritten };
    const phases = Object.entries(r.phases)
      .map(([k, v]) => `${k} ${(v / 1000).toFixed(3)}`)
      .join(", ");
    process.stderr.write(
      `${design} ${name}: ${(results[name].ms / 1000).toFixed(3)} s, ${r.filesWritten} written (${phases}) rss ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB, max ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB\n`,
    );
  };
  await run("full", writeAll);
  await run("second", writeAll);
  await run("same/write", writeAll);
  for (const i of changed) versionOf.set(i, 1);
  await run("7/write", writeAll);
  for (const i of changed) versionOf.set(i, 2);
  await run("7/keepAll", keepUnchanged(changed));
  await run("same/keepAll", keepUnchanged(new Set()));
  const rssMiB = process.resourceUsage().maxRSS / 1024;
  process.stdout.write(JSON.stringify({ design, results, rssMiB }) + "\n");
  rmSync(dir, { recursive: true, force: true });
}

/** src/publish and src/errors.ts at `ref`, written to a temporary tree; returns its publish.ts. */
function oldModule(ref: string, dir: string): string {
  const files = execFileSync("git", ["ls-tree", "--name-only", ref, "src/publish/"], {
    cwd: ROOT,
    encoding: "utf8",
  })
    .split("\n")
    .filter(Boolean);
  for (const file of [...files, "src/errors.ts"]) {
    const text = execFileSync("git", ["show", `${ref}:${file}`], { cwd: ROOT, encoding: "utf8" });
    mkdirSync(path.join(dir, path.dirname(file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  return path.join(dir, "src/publish/publish.ts");
}

async function main(): Promise<void> {
  if (args.child) return child(args.child, args.module!);
  const tmp = mkdtempSync(path.join(os.tmpdir(), "bench-publish-old-"));
  const rows: Array<{
    design: string;
    results: Record<string, { ms: number; written: number }>;
    rssMiB: number;
  }> = [];
  try {
    for (const design of args.designs.split(",")) {
      const modulePath =
        design === "old" ? oldModule(args["old-ref"], tmp) : path.join(ROOT, "src/publish/publish.ts");
      const r = spawnSync(
        process.execPath,
        [
          fileURLToPath(import.meta.url),
          "--child",
          design,
          "--module",
          modulePath,
          "--files",
          String(FILES),
          "--bytes",
          String(BYTES),
          "--changed",
          String(CHANGED),
        ],
        { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], maxBuffer: 1 << 24 },
      );
      if (r.status !== 0) throw new Error(`${design} failed with ${r.status}`);
      rows.push(JSON.parse(r.stdout.trim().split("\n").pop()!));
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  const names = ["full", "second", "same/write", "7/write", "7/keepAll", "same/keepAll"];
  console.log(
    `${FILES} files of ${BYTES} bytes, ${CHANGED} changed; node ${process.version}, ${os.cpus().length} CPUs`,
  );
  console.log(["design", ...names, "peak RSS"].join(" | "));
  for (const row of rows) {
    const full = row.results.full!.ms;
    const cells = names.map((n) => {
      const r = row.results[n]!;
      const ratio = n === "full" ? "" : ` (${((r.ms / full) * 100).toFixed(2)} %)`;
      return `${(r.ms / 1000).toFixed(3)} s${ratio}, ${r.written} written`;
    });
    console.log([row.design, ...cells, `${row.rssMiB.toFixed(0)} MiB`].join(" | "));
  }
  if (rows.length === 2) {
    const [a, b] = rows;
    console.log(
      `${a!.design}/${b!.design} time: ` +
        names.map((n) => `${n} ${(a!.results[n]!.ms / b!.results[n]!.ms).toFixed(3)}`).join(", "),
    );
  }
}

await main();
