// Regenerates schema/*.json (one JSON Schema per response component) and schema/openapi.json
// from the zod contracts and the route table. `npm run gen-schema`; a test fails when stale.
import { readdirSync, unlinkSync, writeFileSync } from "node:fs";
import { generatedSchemaFiles } from "../src/output/generated.ts";
import { SCHEMA_DIR } from "../src/output/validate.ts";

const files = generatedSchemaFiles();
for (const name of readdirSync(SCHEMA_DIR)) {
  if (name.endsWith(".json") && !files.has(name)) unlinkSync(new URL(name, SCHEMA_DIR));
}
for (const [name, text] of files) writeFileSync(new URL(name, SCHEMA_DIR), text);
console.log(`wrote ${files.size} files to schema/`);
