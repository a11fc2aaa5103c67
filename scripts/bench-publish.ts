// `node scripts/bench-publish.ts [--files 28000] [--bytes 9000] [--changed 7] [--designs new,old]
//                                [--old-ref 4cfe694]`
//
// Times the publication layer alone (no store, no rendering) with synthetic files: `--files` files
// of about `--bytes` bytes, 14 per "tournament" directory. Each design runs in its own
// directory, and each publication in its own process (so its peak RSS is its own), in order:
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
import { scriptArgs } from "./lib/args.ts";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const args = scriptArgs(import.meta.url, {
  files: { type: "string", default: "28000" },
  bytes: { type: "string", default: "9000" },
  changed: { type: "string", default: "7" },
  designs: { type: "string", default: "new,old" },
  "old-ref": { type: "string", default: "4cfe694" },
  child: { type: "string" },
  module: { type: "string" },
  out: { type: "string" },
  step: { type: "string" },
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

const STEPS = ["full", "second", "same/write", "7/write", "7/keepAll", "same/keepAll"];

/** Runs publication number `stepIndex` of the sequence into `outDir`, in this process. */
async function child(design: string, modulePath: string, outDir: string, stepIndex: number): Promise<void> {
  const { publishSnapshot } = (await import(pathToFileURL(modulePath).href)) as { publishSnapshot: Publish };
  const name = STEPS[stepIndex]!;
  const changed = changedSet();
  // The changed files hold version 1 from "7/write" on, version 2 from "7/keepAll" on.
  const version = (i: number): number =>
    changed.has(i)
      ? stepIndex >= STEPS.indexOf("7/keepAll")
        ? 2
        : stepIndex >= STEPS.indexOf("7/write")
          ? 1
          : 0
      : 0;
  const writeAll = (w: Writer): void => {
    for (let i = 0; i < FILES; i++) w.write(relPath(i), content(i, version(i)));
  };
  const keepUnchanged = (touched: Set<number>) => (w: Writer) => {
    const tournaments = new Set([...touched].map((i) => Math.floor(i / PER_TOURNAMENT)));
    for (let t = 0; t * PER_TOURNAMENT < FILES; t++) {
      const members = Array.from(
        { length: Math.min(PER_TOURNAMENT, FILES - t * PER_TOURNAMENT) },
        (_, k) => t * PER_TOURNAMENT + k,
      );
      if (!tournaments.has(t) && w.keepAll(members.map(relPath))) continue;
      for (const i of members) w.write(relPath(i), content(i, version(i)));
    }
  };
  const produce =
    name === "7/keepAll"
      ? keepUnchanged(changed)
      : name === "same/keepAll"
        ? keepUnchanged(new Set())
        : writeAll;
  const started = performance.now();
  const r = await publishSnapshot({ outDir }, produce);
  const ms = performance.now() - started;
  const rssMiB = process.resourceUsage().maxRSS / 1024;
  const phases = Object.entries(r.phases)
    .map(([k, v]) => `${k} ${(v / 1000).toFixed(3)}`)
    .join(", ");
  process.stderr.write(
    `${design} ${name}: ${(ms / 1000).toFixed(3)} s, ${r.filesWritten} written (${phases}), peak RSS ${rssMiB.toFixed(0)} MiB\n`,
  );
  process.stdout.write(JSON.stringify({ ms, written: r.filesWritten, rssMiB }) + "\n");
}

/** src/publish and src/shared/errors.ts at `ref`, written to a temporary tree; returns its publish.ts. */
function oldModule(ref: string, dir: string): string {
  const files = execFileSync("git", ["ls-tree", "--name-only", ref, "src/publish/"], {
    cwd: ROOT,
    encoding: "utf8",
  })
    .split("\n")
    .filter(Boolean);
  for (const file of [...files, "src/shared/errors.ts"]) {
    const text = execFileSync("git", ["show", `${ref}:${file}`], { cwd: ROOT, encoding: "utf8" });
    mkdirSync(path.join(dir, path.dirname(file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  return path.join(dir, "src/publish/publish.ts");
}

interface Result {
  ms: number;
  written: number;
  rssMiB: number;
}

async function main(): Promise<void> {
  if (args.child) return child(args.child, args.module!, args.out!, Number(args.step));
  const tmp = mkdtempSync(path.join(os.tmpdir(), "bench-publish-"));
  const rows: Array<{ design: string; results: Record<string, Result> }> = [];
  try {
    for (const design of args.designs.split(",")) {
      const modulePath =
        design === "old"
          ? oldModule(args["old-ref"], path.join(tmp, "old"))
          : path.join(ROOT, "src/publish/publish.ts");
      const outDir = path.join(tmp, design, "dist");
      mkdirSync(path.dirname(outDir), { recursive: true });
      const results: Record<string, Result> = {};
      for (let i = 0; i < STEPS.length; i++) {
        execFileSync("sync");
        const r = spawnSync(
          process.execPath,
          [
            fileURLToPath(import.meta.url),
            ...["--child", design, "--module", modulePath, "--out", outDir, "--step", String(i)],
            ...["--files", String(FILES), "--bytes", String(BYTES), "--changed", String(CHANGED)],
          ],
          { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] },
        );
        if (r.status !== 0) throw new Error(`${design} ${STEPS[i]} failed with ${r.status}`);
        results[STEPS[i]!] = JSON.parse(r.stdout.trim().split("\n").pop()!);
      }
      rows.push({ design, results });
      rmSync(path.join(tmp, design), { recursive: true, force: true });
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  console.log(
    `${FILES} files of ${BYTES} bytes, ${CHANGED} changed; node ${process.version}, ${os.cpus().length} CPUs; ` +
      "each publication in its own process: time of publishSnapshot, peak RSS of the process",
  );
  console.log(["design", ...STEPS].join(" | "));
  for (const row of rows) {
    const full = row.results.full!.ms;
    const cells = STEPS.map((n) => {
      const r = row.results[n]!;
      const ratio = n === "full" ? "" : ` (${((r.ms / full) * 100).toFixed(2)} % of full)`;
      return `${(r.ms / 1000).toFixed(3)} s${ratio}, ${r.written} written, ${r.rssMiB.toFixed(0)} MiB`;
    });
    console.log([row.design, ...cells].join(" | "));
  }
  if (rows.length === 2) {
    const [a, b] = rows;
    console.log(
      `${a!.design}/${b!.design} time: ` +
        STEPS.map((n) => `${n} ${(a!.results[n]!.ms / b!.results[n]!.ms).toFixed(3)}`).join(", "),
    );
  }
}

await main();
