// `node scripts/bench-dirs.ts --dir <empty or new directory> [--count 20000] [--bytes 20000]`
//
// What a directory costs against a file on the file system that holds --dir: --count times, a
// recursive `mkdir` of a new directory (200 parents, so the directories spread as a snapshot's
// do) and one file of --bytes bytes written into it with `writeFileSync` (`wx`), as a full build
// writes an endpoint's `index.json`. Prints the mean microseconds of each. A snapshot has more
// directories than files (every URL is a directory), so where a `mkdir` costs what a file does,
// directories are half of a full build's file-system work, and the second version a first build
// makes (a `mkdir` per directory, a `link` per file) adds as much again: see `build
// --no-second-version` and docs/benchmarks.md, thirteenth round. The tree is deleted at the end.
// Do not run it right after deleting a large tree: ext4 then creates files up to ten times slower.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { exitWithUsage, scriptArgs } from "./lib/args.ts";

const values = scriptArgs(import.meta.url, {
  dir: { type: "string" },
  count: { type: "string", default: "20000" },
  bytes: { type: "string", default: "20000" },
});
const count = Number(values.count);
const bytes = Number(values.bytes);
if (values.dir === undefined) exitWithUsage(import.meta.url, "--dir is required");
if (!Number.isInteger(count) || count < 1)
  exitWithUsage(import.meta.url, "--count expects a positive integer");
if (!Number.isInteger(bytes) || bytes < 0) exitWithUsage(import.meta.url, "--bytes expects an integer >= 0");
const root = path.resolve(values.dir);
mkdirSync(root, { recursive: true });
if (readdirSync(root).length > 0) exitWithUsage(import.meta.url, `--dir ${root} is not empty`);

const body = Buffer.alloc(bytes, "a");
let dirMs = 0;
let fileMs = 0;
try {
  for (let i = 0; i < count; i++) {
    const dir = path.join(root, `t${i % 200}`, `x${i}`);
    let t = performance.now();
    mkdirSync(dir, { recursive: true });
    dirMs += performance.now() - t;
    t = performance.now();
    writeFileSync(path.join(dir, "index.json"), body, { flag: "wx" });
    fileMs += performance.now() - t;
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
const us = (ms: number): string => ((ms * 1000) / count).toFixed(1);
console.log(`${root}: ${count} directories and files of ${bytes} bytes`);
console.log(`mkdir ${us(dirMs)} µs a directory, writeFileSync ${us(fileMs)} µs a file`);
