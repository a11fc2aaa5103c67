import { defineConfig } from "vitest/config";

// Three tiers: `npx vitest --project unit` answers in seconds (pure code, in-memory stores, small
// temp files); integration runs real stores and publications in process; e2e runs the CLI as a
// process, the npm package, kills and concurrent builds. `npm test` runs all three.
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
          // Unit tests share no process state (no mocks, no chdir, no globals), so a worker
          // thread runs file after file with its modules loaded once: loading them again for
          // each file took most of the tier's time.
          pool: "threads",
          isolate: false,
        },
      },
      { extends: true, test: { name: "integration", include: ["test/integration/**/*.test.ts"] } },
      { extends: true, test: { name: "e2e", include: ["test/e2e/**/*.test.ts"] } },
    ],
  },
});
