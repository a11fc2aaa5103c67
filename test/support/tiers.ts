// The test files that run isolated (their modules loaded afresh, in a process of their own): each
// mocks a module, which would leak into the files after it in a shared worker, or come too late
// for a module an earlier file loaded. vitest.config.ts runs them as the `isolated` project; every
// other file shares its worker's modules with the files before it (test/unit/tiers.test.ts).
export const ISOLATED = ["test/integration/build/tick-sums-and-hosts.test.ts"];
