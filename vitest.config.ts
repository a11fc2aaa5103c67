import { tmpdir } from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";
import { ISOLATED } from "./test/support/tiers.ts";

// V8's compile cache for every process and thread the tests start (test/support/run.ts gives the
// CLI's children the same directory): the render workers of in-process builds load src/*.ts anew
// each time: test/e2e/incremental/incremental.test.ts took 26 s of CPU with the cache, 37 s without.
// Set here, before the test processes are forked, which inherit it.
process.env.NODE_COMPILE_CACHE ??= path.join(tmpdir(), "node-compile-cache");

// Three tiers: `npx vitest --project unit` answers in seconds (pure code, in-memory stores, small
// temp files); integration runs real stores and publications in process; e2e runs the CLI as a
// process, the npm package, kills and concurrent builds. `npm test` runs them all, and the `isolated`
// project: an integration file that mocks a module (below).
//
// No tier loads its modules again for each file (isolate: false): a worker runs file after file
// with what the previous files loaded. 24 integration files took 25 s so, 45 s isolated,
// run back to back on the 2-core machine at a load of 9. That is right only while a file changes
// nothing the next would see (test/unit/tiers.test.ts checks it); the files that mock a module run
// isolated, as their own project (test/support/tiers.ts).
export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // vitest's default is one worker less than the cores: on a 2-core machine, one test file at a
    // time. Every core runs a file (docs/benchmarks.md#tests).
    maxWorkers: "100%",
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["test/unit/**/*.test.ts"],
          // Pure code: worker threads, which start faster than processes.
          pool: "threads",
          isolate: false,
        },
      },
      // Processes (forks): some files change the working directory, which a thread may not.
      {
        extends: true,
        test: {
          name: "integration",
          include: ["test/integration/**/*.test.ts"],
          exclude: ISOLATED,
          isolate: false,
        },
      },
      {
        extends: true,
        test: { name: "e2e", include: ["test/e2e/**/*.test.ts"], exclude: ISOLATED, isolate: false },
      },
      { extends: true, test: { name: "isolated", include: ISOLATED } },
    ],
  },
});
