// A body the public surface and the clubs share, or the live round and its round, is one object:
// serialized once, validated once per schema, and in a worker encoded into one buffer that every
// file of it views (render/tournament.ts). The texts die as they are made (issue 19, point 5).
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_STATUS_OPTIONS } from "../../../src/domain/status.ts";
import { SnapshotValidator } from "../../../src/output/validate.ts";
import { BuildError, EXIT } from "../../../src/shared/errors.ts";
import { renderTournament, type TournamentRenderContext } from "../../../src/render/tournament.ts";
import { openStore, type Store } from "../../../src/store/read/open.ts";
import { generateStore, REFERENCE_NOW } from "../../../scripts/gen-store.ts";
import { removeTempDirs, tempDir } from "../../support/temp.ts";

let store: Store;

beforeAll(() => {
  const file = path.join(tempDir("shared-bodies"), "store.sqlite");
  generateStore({ tournaments: 40, seed: "shared", out: file });
  store = openStore(file);
});
afterAll(() => {
  store.close();
  removeTempDirs();
});

function context(validator: SnapshotValidator, encode?: (t: string) => Uint8Array): TournamentRenderContext {
  return {
    now: Date.parse(REFERENCE_NOW),
    statusOptions: DEFAULT_STATUS_OPTIONS,
    validator,
    site: { languages: store.vocabulary().languages },
    base: null,
    encode,
  };
}

const jobs = () =>
  store
    .publishedTournaments()
    .map((k) => ({ rowId: k.rowId, externalId: k.externalId.toString(), token: null, previous: null }));

describe("renderTournament", () => {
  it("validates each text once per schema and encodes a shared body once", () => {
    const validator = new SnapshotValidator();
    const seen = new Map<string, string>();
    const twice: string[] = [];
    const assert = validator.assert.bind(validator);
    validator.assert = (file, schema, body) => {
      const key = `${schema}\0${JSON.stringify(body)}`;
      if (seen.has(key)) twice.push(`${file} (as ${seen.get(key)})`);
      else seen.set(key, file);
      assert(file, schema, body);
    };
    const encoder = new TextEncoder();
    const ctx = context(validator, (t) => encoder.encode(t));
    const plain = context(new SnapshotValidator());
    let live = 0;
    let sharedFiles = 0;
    for (const job of jobs()) {
      const r = renderTournament(store, job, ctx);
      const p = renderTournament(store, job, plain);
      if (r.kind !== "rendered" || p.kind !== "rendered") throw new Error(`${job.externalId} not rendered`);
      // The same files and bytes as without encoding.
      expect(r.files.map(([f, b]) => [f, Buffer.from(b as Uint8Array).toString("utf8")])).toEqual(p.files);
      const byName = new Map(r.files);
      const liveFile = `api/public/v1/tournaments/${job.externalId}/live/index.json`;
      const liveBytes = byName.get(liveFile);
      if (liveBytes) {
        live++;
        // The live round's answer is its round's: the very bytes.
        const round = r.files.find(([f, b]) => f !== liveFile && b === liveBytes);
        expect(round?.[0]).toMatch(/\/rounds\/\d+\/index\.json$/);
      }
      const buffers = new Set(r.files.map(([, b]) => b));
      sharedFiles += r.files.length - buffers.size;
    }
    expect(twice).toEqual([]);
    expect(seen.size).toBeGreaterThan(0);
    expect(live).toBeGreaterThan(0);
    expect(sharedFiles).toBeGreaterThan(0);
  });
});

describe("a body that does not match its schema", () => {
  it("stops the render with the file and the path: the build checks every body it emits", () => {
    // A validator that is shown the detail body with a field the contract lacks, as a faulty view
    // would make it: the real compiled validator rejects it.
    class Tampering extends SnapshotValidator {
      override checkBody(file: string, schemaId: string, body: unknown) {
        const shown =
          schemaId === "PublicTournamentDetailResponse" ? { ...(body as object), secret: 1 } : body;
        return super.checkBody(file, schemaId, shown);
      }
    }
    const [job] = jobs();
    let error: unknown;
    try {
      renderTournament(store, job!, context(new Tampering()));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(BuildError);
    expect((error as BuildError).exitCode).toBe(EXIT.invalidOutput);
    expect((error as BuildError).problems).toEqual([
      {
        where: `api/public/v1/tournaments/${job!.externalId}/index.json at /`,
        what: "does not match PublicTournamentDetailResponse: must NOT have additional properties",
      },
    ]);
  });
});
