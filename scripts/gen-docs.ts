// Regenerates docs/reference/ (the CLI reference, the endpoint table, the exit codes) from the
// code. `npm run gen-docs`; a test fails when the checked-in files are stale. A file of the shelf
// that the code no longer generates is removed.
import { mkdirSync, readdirSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { REFERENCE_DIR, referenceDocs } from "./reference-docs.ts";

const files = await referenceDocs();
mkdirSync(REFERENCE_DIR, { recursive: true });
for (const name of readdirSync(REFERENCE_DIR)) {
  if (name.endsWith(".md") && !files.has(name)) unlinkSync(path.join(REFERENCE_DIR, name));
}
for (const [name, text] of files) writeFileSync(path.join(REFERENCE_DIR, name), text);
console.log(`wrote ${files.size} files to docs/reference/`);
