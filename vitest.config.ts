import { defineConfig } from "vitest/config";

// Three tiers: `npx vitest --project unit` answers in seconds (pure code, in-memory stores, small
// temp files); integration runs real stores and publications in process; e2e runs the CLI as a
// process, the npm package, kills and concurrent builds. `npm test` runs all three.
export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    projects: [
      { extends: true, test: { name: "unit", include: ["test/unit/**/*.test.ts"] } },
      { extends: true, test: { name: "integration", include: ["test/integration/**/*.test.ts"] } },
      { extends: true, test: { name: "e2e", include: ["test/e2e/**/*.test.ts"] } },
    ],
  },
});
