#!/usr/bin/env node
// Runs the JavaScript that `npm run build` compiles from src/ into lib/.
// First of all: an unsupported Node stops here with the fix, before any native addon loads.
import "./check-node.js";
// Before any work: the main thread's young generation stays small (bin/young-generation.js).
import "./young-generation.js";
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
