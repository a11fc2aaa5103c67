#!/usr/bin/env node
// Runs the JavaScript that `npm run build` compiles from src/ into lib/.
// First of all: an unsupported Node stops here with the fix, before any native addon loads.
import "./check-node.js";
import module from "node:module";
import v8 from "node:v8";
import { fileURLToPath } from "node:url";
import { staleMessage, staleness } from "./lib-stamp.js";

// In a checkout, lib/ must be compiled from src/ as it is now (bin/lib-stamp.js).
const stale = staleness(fileURLToPath(new globalThis.URL("..", import.meta.url)));
if (stale !== null) {
  console.error(staleMessage(stale));
  process.exit(2);
}

// The young generation stays at its initial size (1 MiB semi-spaces) instead of doubling up to
// 64 MiB: the main thread keeps long-lived bookkeeping while workers render, and a full build at
// M peaked at 353 MiB with V8's default, under 256 MiB with this (docs/design/memory.md). Unlike
// --max-semi-space-size, which V8 reads only at start-up (a shebang flag, lost by `node
// bin/build-api.js`), the growth factor is read each time the young generation would grow, so it
// is set here, first, and holds however the CLI is started (installed, npx, node, npm start).
v8.setFlagsFromString("--semi-space-growth-factor=1");

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
