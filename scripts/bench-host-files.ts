// `node scripts/bench-host-files.ts [--archived 0,1000,20000,100000] [--runs 5]`
//
// The host files of a snapshot with many archived tournaments, as a mirror of a results source
// has them (most of its tournaments are finished and unchanged): per count of archived ids, the
// time to render every host file and hash it (what each build does, ticks included), median of
// --runs, and their bytes, file by file. No store and no build: the files come from the rule list
// with synthetic edge facts (ids 1000000 and up).
import { createHash } from "node:crypto";
import { hostFiles } from "../src/hosting/hosts/index.ts";
import { HOST_VOCAB } from "../test/support/host-files.ts";
import { exitWithUsage, scriptArgs } from "./lib/args.ts";

const values = scriptArgs(import.meta.url, {
  archived: { type: "string", default: "0,1000,20000,100000" },
  runs: { type: "string", default: "5" },
});
const counts = values.archived.split(",").map(Number);
const runs = Number(values.runs);
if (counts.some((n) => !Number.isInteger(n) || n < 0))
  exitWithUsage(import.meta.url, "--archived expects counts");
if (!Number.isInteger(runs) || runs < 1) exitWithUsage(import.meta.url, "--runs expects a positive integer");

for (const n of counts) {
  const archived = Array.from({ length: n }, (_, i) => String(1_000_000 + i));
  const times: number[] = [];
  let sizes: [string, number][] = [];
  for (let r = 0; r < runs; r++) {
    const start = performance.now();
    const files = hostFiles(HOST_VOCAB, { links: {}, archived });
    for (const [, text] of files) createHash("sha256").update(text).digest();
    times.push(performance.now() - start);
    sizes = [...files].map(([name, text]) => [name, Buffer.byteLength(text)]);
  }
  times.sort((a, b) => a - b);
  const total = sizes.reduce((s, [, b]) => s + b, 0);
  console.log(
    `${n} archived: ${times[times.length >> 1]!.toFixed(1)} ms (median of ${runs}), ${(total / 1e6).toFixed(2)} MB: ` +
      sizes.map(([name, b]) => `${name} ${(b / 1e3).toFixed(0)} kB`).join(", "),
  );
}
