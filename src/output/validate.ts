// ajv (draft 2020-12, ajv-formats) validation of every emitted file against the checked-in
// JSON Schemas in schema/: the exact bytes a client gets are parsed and checked.
import { readFileSync, readdirSync } from "node:fs";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { BuildError, EXIT, type Problem } from "../shared/errors.ts";

// ajv-formats is CommonJS; under NodeNext its default export is the module object.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

export const SCHEMA_DIR = new URL("../../schema/", import.meta.url);

export class SnapshotValidator {
  private readonly ajv: Ajv2020;
  private readonly cache = new Map<string, ValidateFunction>();

  constructor(schemaDir: URL = SCHEMA_DIR) {
    this.ajv = new Ajv2020({ allErrors: true, strict: true });
    addFormats(this.ajv);
    // OpenAPI's numeric formats; the integer bounds are in the schemas themselves.
    this.ajv.addFormat("int64", { type: "number", validate: Number.isSafeInteger });
    this.ajv.addFormat("int32", { type: "number", validate: Number.isInteger });
    this.ajv.addKeyword("example");
    for (const name of readdirSync(schemaDir).sort()) {
      if (!name.endsWith(".json") || name === "openapi.json") continue;
      this.ajv.addSchema(JSON.parse(readFileSync(new URL(name, schemaDir), "utf8")));
    }
  }

  private validator(id: string): ValidateFunction {
    let v = this.cache.get(id);
    if (!v) {
      v = this.ajv.getSchema(`${id}.json`);
      if (!v) throw new Error(`no schema ${id}.json in schema/ (run npm run gen-schema)`);
      this.cache.set(id, v);
    }
    return v;
  }

  /** Problems of one emitted file; empty when it is valid. */
  check(file: string, schemaId: string, bytes: string): Problem[] {
    let value: unknown;
    try {
      value = JSON.parse(bytes);
    } catch (e) {
      return [{ where: file, what: `not JSON: ${(e as Error).message}` }];
    }
    const v = this.validator(schemaId);
    if (v(value)) return [];
    return (v.errors ?? []).map((e) => ({
      where: `${file} at ${e.instancePath || "/"}`,
      what: `does not match ${schemaId}: ${e.message ?? e.keyword}`,
    }));
  }

  /** Throws when a file does not validate: a bug in build-api, never published. */
  assert(file: string, schemaId: string, bytes: string): void {
    const problems = this.check(file, schemaId, bytes);
    if (problems.length > 0) {
      throw new BuildError(
        "An emitted file does not match its schema (a bug in build-api).",
        problems,
        EXIT.invalidOutput,
      );
    }
  }
}
