// Validation of every emitted file against the checked-in JSON Schemas in schema/, with the
// validators ajv compiled from those schemas ahead of time (output/validators.ts, `npm run
// gen-schema`), so no build compiles a schema. A build checks each body as the value it serializes
// (assert): JSON.stringify writes a plain value exactly, and parsing the bytes back only to check
// them again was 9% of a render worker's time (docs/design/incremental.md#start-up). The tests check
// the bytes themselves (check), every emitted file of their builds.
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

  /** Problems of one emitted file's bytes (parsed, then checked); empty when they are valid. */
  check(file: string, schemaId: string, bytes: string): Problem[] {
    let value: unknown;
    try {
      value = JSON.parse(bytes);
    } catch (e) {
      return [{ where: file, what: `not JSON: ${(e as Error).message}` }];
    }
    return this.checkBody(file, schemaId, value);
  }

  /**
   * Problems of one body, the value a file is serialized from; empty when it is valid. A body is
   * plain JSON data (views/): a value JSON.stringify would change, such as a non-finite number, an
   * undefined array item or a Date, is not of its schema's types and fails here, and so does a key
   * left undefined that the contract lacks (the bytes would drop it): stricter, never looser.
   */
  checkBody(file: string, schemaId: string, body: unknown): Problem[] {
    const v = this.validator(schemaId);
    if (v(body)) return [];
    return (v.errors ?? []).map((e) => ({
      where: `${file} at ${e.instancePath || "/"}`,
      what: `does not match ${schemaId}: ${e.message ?? e.keyword}`,
    }));
  }

  /** Throws when a body does not validate: a bug in build-api, never published. */
  assert(file: string, schemaId: string, body: unknown): void {
    const problems = this.checkBody(file, schemaId, body);
    if (problems.length > 0) {
      throw new BuildError(
        "An emitted file does not match its schema (a bug in build-api).",
        problems,
        EXIT.invalidOutput,
      );
    }
  }
}
