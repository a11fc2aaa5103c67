// `node scripts/bench-tick.ts [--tournaments 2000] [--seed 7] [--ticks 3] [--jobs N] [--db file]
//   [--work DIR] [--keep] [--cli other/bin/build-api.js]`
//
// The regeneration an operator runs every minute, at one size: `npm run bench` (scripts/bench.ts,
// the one harness) for one store: a full build, a first tick (makes the second version), --ticks
// steady one-tournament ticks, a no-change rebuild, start-up and the JSON floor, then issue 19's
// targets for that size. --cli measures another build of build-api (e.g. main's) on the same store.
import { parseArgs } from "node:util";
import { BENCH_OPTIONS, runBench } from "./bench.ts";

const { sizes: _sizes, ...options } = BENCH_OPTIONS;
const { values } = parseArgs({
  options: { ...options, tournaments: { type: "string", default: "2000" } },
  strict: true,
});
const { tournaments, ...rest } = values;
process.exitCode = runBench({ ...rest, sizes: tournaments });
