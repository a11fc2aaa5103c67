#!/usr/bin/env -S node --max-semi-space-size=2
// Runs the JavaScript that `npm run build` compiles from src/ into lib/.
// The flag: the main thread keeps long-lived bookkeeping while rendering happens in workers; a
// 2 MiB semi-space (V8's default grows to 16+) took 26-43 MiB off the peak RSS of a full build at M,
// and V8 only reads it at start-up (docs/benchmarks.md, issue 19). `node bin/build-api.js` runs
// without it; the installed `build-api` command and `./bin/build-api.js` run with it.
// First of all: an unsupported Node stops here with the fix, before any native addon loads.
import "./check-node.js";
import module from "node:module";
import { fileURLToPath } from "node:url";
import { staleMessage, staleness } from "./lib-stamp.js";

// In a checkout, lib/ must be compiled from src/ as it is now (bin/lib-stamp.js).
const stale = staleness(fileURLToPath(new globalThis.URL("..", import.meta.url)));
if (stale !== null) {
  console.error(staleMessage(stale));
  process.exit(2);
}

// Node keeps the compiled bytecode of lib/ between runs: start-up is mostly module loading.
module.enableCompileCache?.();
try {
  await import("../lib/cli.js");
} catch (e) {
  if (e?.code === "ERR_MODULE_NOT_FOUND" && String(e.message).includes("lib/cli.js")) {
    console.error("build-api: lib/ is missing; run `npm run build` first (npm start and npm test do it)");
    process.exit(70);
  }
  throw e;
}
