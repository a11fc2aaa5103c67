// Regenerates schema/*.json (one JSON Schema per response component) and schema/openapi.json
// from the zod contracts and the route table, and the validators compiled from those schemas
// (src/output/generated/validators.ts). `npm run gen-schema`; a test fails when either is stale.
import { readdirSync, unlinkSync, writeFileSync } from "node:fs";
import { generatedSchemaFiles, SCHEMA_DIR } from "../src/output/generated.ts";
import { VALIDATORS_FILE, validatorsModule } from "../src/output/validators.ts";

const files = generatedSchemaFiles();
for (const name of readdirSync(SCHEMA_DIR)) {
  if (name.endsWith(".json") && !files.has(name)) unlinkSync(new URL(name, SCHEMA_DIR));
}
for (const [name, text] of files) writeFileSync(new URL(name, SCHEMA_DIR), text);
writeFileSync(VALIDATORS_FILE, validatorsModule());
console.log(`wrote ${files.size} files to schema/ and the validators to src/output/generated/`);
