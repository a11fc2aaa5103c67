// Regenerates src/hosting/hosts/*/runtime/generated/ (the edge entries bundled with the resolver they share
// with the preview). `npm run gen-edge`, then commit; a test fails when stale.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { edgeModules, ROOT } from "./lib/edge-bundle.ts";

const modules = await edgeModules();
for (const [rel, text] of modules) {
  mkdirSync(path.dirname(path.join(ROOT, rel)), { recursive: true });
  writeFileSync(path.join(ROOT, rel), text);
}
console.log(`wrote ${[...modules.keys()].join(", ")}`);
