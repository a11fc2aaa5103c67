// zod contracts → JSON Schema (draft 2020-12). One document per registered response component,
// referring to the others by file name, as checked in under schema/.
import { z } from "zod";
import { contracts } from "../contracts/index.ts";

export type JsonSchema = Record<string, unknown>;

/** Generated schema documents keyed by file name (e.g. "RoundResponse.json"). */
export function jsonSchemaFiles(): Map<string, JsonSchema> {
  const { schemas } = z.toJSONSchema(contracts, {
    target: "draft-2020-12",
    io: "output",
    uri: (id) => `${id}.json`,
  });
  const files = new Map<string, JsonSchema>();
  for (const id of Object.keys(schemas).sort()) files.set(`${id}.json`, schemas[id] as JsonSchema);
  return files;
}

/** The same schemas as OpenAPI components: references point into #/components/schemas. */
export function componentSchemas(): Record<string, JsonSchema> {
  const { schemas } = z.toJSONSchema(contracts, {
    target: "draft-2020-12",
    io: "output",
    uri: (id) => `#/components/schemas/${id}`,
  });
  const out: Record<string, JsonSchema> = {};
  for (const id of Object.keys(schemas).sort()) {
    const { $schema: _s, $id: _i, ...rest } = schemas[id] as JsonSchema;
    out[id] = rest;
  }
  return out;
}

/** The registered id of a response schema. */
export function schemaId(schema: z.ZodType): string {
  const meta = contracts.get(schema);
  if (!meta) throw new Error("response schema is not registered in contracts");
  return meta.id;
}
