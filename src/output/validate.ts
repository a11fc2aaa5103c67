// Validation of every emitted file against the checked-in JSON Schemas in schema/: the exact bytes
// a client gets are parsed and checked by the validators ajv compiled from those schemas ahead of
// time (output/validators.ts, `npm run gen-schema`), so no build compiles a schema.
import type { ErrorObject } from "ajv";
import { BuildError, EXIT, type Problem } from "../shared/errors.ts";
import * as COMPILED from "./generated/validators.ts";

/** A compiled validator: true when valid, else its errors are left on `errors`. */
interface Compiled {
  (value: unknown): boolean;
  errors?: ErrorObject[] | null;
}

const VALIDATORS = COMPILED as unknown as Readonly<Record<string, Compiled | undefined>>;

export class SnapshotValidator {
  private validator(id: string): Compiled {
    const v = VALIDATORS[id];
    if (!v)
      throw new Error(`no validator for ${id}: no schema ${id}.json in schema/ (run npm run gen-schema)`);
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
