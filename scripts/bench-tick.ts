// `node scripts/bench-tick.ts [--tournaments 2000] [--seed 7] [--ticks 3] [--jobs N] [--db file]
//   [--work DIR] [--keep] [--cli other/bin/build-api.js] [--floor-sample k] [--settle 60]
//   [--team-events k]`
//
// The regeneration an operator runs every minute, at one size: `npm run bench` (scripts/bench.ts,
// the one harness) for one store: a full build, a first tick (the first after the full build), --ticks
// steady one-tournament ticks (with --team-events k, as many ticks of a team event's changed round
// beside them), a no-change rebuild, start-up and the JSON floor, then issue 19's
// targets for that size. --cli measures another build of build-api (e.g. main's) on the same store.
import { BENCH_OPTIONS, runBenchCli } from "./bench.ts";
import { scriptArgs } from "./lib/args.ts";

const { sizes: _sizes, ...options } = BENCH_OPTIONS;
const { tournaments, ...rest } = scriptArgs(import.meta.url, {
  ...options,
  tournaments: { type: "string", default: "2000" },
});
runBenchCli(import.meta.url, { ...rest, sizes: tournaments });
