// `node scripts/bench-compare.ts --cli a/bin/build-api.js --cli b/bin/build-api.js [--tournaments 2000]
//   [--seed 7] [--ticks 5] [--work DIR] [--reuse]`
//
// Two (or more) builds of build-api on one store, under the same load: a full build of each into its
// own --out, then --ticks steady ticks, each one player renamed (scripts/bench.ts Harness, another
// tournament each tick) and then every program's tick on its own snapshot, the order turned each
// tick (a, b; b, a; ...), so load that comes and goes falls on both. Prints each build's seconds,
// files and files written, each build's and each tick's CPU (user + system: the load moves it far
// less than the wall time), each program's median tick (wall and CPU) and the ratio of each to the
// first's. The store is generated into --work once (gen-store --seed) and reused when there; with
// --reuse so are the snapshots (DIR/dist-<i>, the i-th --cli's), brought up to date instead of
// built afresh.
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { generateStore } from "./gen-store.ts";
import { Harness, load, removeOut, type Run } from "./bench.ts";
import { median } from "./lib/bench-targets.ts";

const { values: a } = parseArgs({
  options: {
    cli: { type: "string", multiple: true },
    tournaments: { type: "string", default: "2000" },
    seed: { type: "string", default: "7" },
    ticks: { type: "string", default: "5" },
    work: { type: "string", default: ".tmp/bench-compare" },
    reuse: { type: "boolean", default: false },
  },
});
const clis = (a.cli ?? []).map((c) => path.resolve(c));
if (clis.length < 2) throw new Error("give two --cli paths (bin/build-api.js of each checkout) to compare");
const work = path.resolve(a.work);
const db = path.join(work, `store-${a.tournaments}-${a.seed}.sqlite`);
mkdirSync(work, { recursive: true });
if (!existsSync(db)) {
  console.log(`generating ${db} (${a.tournaments} tournaments, seed ${a.seed})`);
  generateStore({ tournaments: Number(a.tournaments), seed: Number(a.seed), out: db });
}
const harness = clis.map((cli) => new Harness(cli, undefined));
const outs = clis.map((_, i) => path.join(work, `dist-${i}`));
const scratch = path.join(work, "scratch");
mkdirSync(scratch, { recursive: true });
const show = (r: Run): string =>
  `${r.seconds.toFixed(2)} s, ${r.files} files (${r.written} written), ${r.rssMb.toFixed(0)} MiB`;

/** CPU seconds (user + system) of this process's waited-for children so far (/proc/self/stat
 * cutime and cstime, in clock ticks of 1/100 s): a build's CPU, which the load moves far less than
 * its wall time. */
function childCpu(): number {
  const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[13]) + Number(fields[14])) / 100;
}
for (const [i, cli] of clis.entries()) {
  // With --reuse, a snapshot of an earlier run is brought up to date (not a full build).
  const reused = a.reuse && existsSync(outs[i]!);
  if (!reused) removeOut(outs[i]!);
  const what = reused ? "catch-up build" : "full build";
  const before = childCpu();
  const r = harness[i]!.build(db, outs[i]!, scratch);
  const used = childCpu() - before;
  console.log(`${what} ${i} (${cli}) at load ${load()}: ${show(r)}, ${used.toFixed(2)} s CPU`);
}
const ticks: number[][] = clis.map(() => []);
const cpu: number[][] = clis.map(() => []);
for (let t = 0; t < Number(a.ticks); t++) {
  harness[0]!.changeOneTournament(db, t + 1);
  const order = t % 2 === 0 ? clis.map((_, i) => i) : clis.map((_, i) => i).reverse();
  for (const i of order) {
    const before = childCpu();
    const r = harness[i]!.build(db, outs[i]!, scratch);
    const used = childCpu() - before;
    ticks[i]!.push(r.seconds);
    cpu[i]!.push(used);
    console.log(`tick ${t + 1} of ${i} at load ${load()}: ${show(r)}, ${used.toFixed(2)} s CPU`);
  }
}
const base = median(ticks[0]!);
const baseCpu = median(cpu[0]!);
for (const [i, cli] of clis.entries()) {
  const m = median(ticks[i]!);
  const c = median(cpu[i]!);
  console.log(
    `${i} ${cli}: ticks ${ticks[i]!.map((s) => s.toFixed(2)).join(", ")} s, median ${m.toFixed(2)} s, ` +
      `${(m / base).toFixed(2)} × the first's; CPU ${cpu[i]!.map((s) => s.toFixed(2)).join(", ")} s, ` +
      `median ${c.toFixed(2)} s, ${(c / baseCpu).toFixed(2)} × the first's`,
  );
}
rmSync(scratch, { recursive: true, force: true });
