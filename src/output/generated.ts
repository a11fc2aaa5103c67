// The checked-in generated files of schema/, as text: JSON Schemas and the OpenAPI document.
import { jsonSchemaFiles } from "./jsonschema.ts";
import { openApiDocument } from "./openapi.ts";
import { packageVersion } from "../shared/version.ts";

/** The checked-in folder of the generated schemas. */
export const SCHEMA_DIR = new URL("../../schema/", import.meta.url);

/** `basePath`: the OpenAPI server is the snapshot's base path (routes/urls.ts), "/" at the root. */
export function openApiText(basePath = ""): string {
  return JSON.stringify(openApiDocument(packageVersion(), basePath), null, 2) + "\n";
}

export function generatedSchemaFiles(): Map<string, string> {
  const out = new Map<string, string>();
  for (const [name, schema] of jsonSchemaFiles()) out.set(name, JSON.stringify(schema, null, 2) + "\n");
  out.set("openapi.json", openApiText());
  return out;
}
