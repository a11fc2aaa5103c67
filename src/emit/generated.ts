// The checked-in generated files of schema/, as text: JSON Schemas and the OpenAPI document.
import { readFileSync } from "node:fs";
import { jsonSchemaFiles } from "./jsonschema.ts";
import { openApiDocument } from "./openapi.ts";

export function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
    version: string;
  };
  return pkg.version;
}

export function openApiText(): string {
  return JSON.stringify(openApiDocument(packageVersion()), null, 2) + "\n";
}

export function generatedSchemaFiles(): Map<string, string> {
  const out = new Map<string, string>();
  for (const [name, schema] of jsonSchemaFiles()) out.set(name, JSON.stringify(schema, null, 2) + "\n");
  out.set("openapi.json", openApiText());
  return out;
}
