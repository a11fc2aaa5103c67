// build(): an up-to-date snapshot is kept as it is; anything that can change a byte rebuilds it.
import { mkdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build } from "../../../src/pipeline/build.ts";
import { INPUTS_FILE } from "../../../src/ledger/inputs.ts";
import { DEFAULT_STATUS_OPTIONS } from "../../../src/domain/status.ts";
import { BuildError, EXIT } from "../../../src/shared/errors.ts";
import { makeSampleStore, SAMPLE_NOW } from "../../support/e2e.ts";
import { removeTempDirs, tempDir } from "../../support/temp.ts";

afterAll(removeTempDirs);

let db: string;
let out: string;
const STANDINGS = "api/public/v1/tournaments/index.json";

beforeAll(async () => {
  const dir = tempDir("build");
  db = makeSampleStore(dir);
  out = path.join(dir, "dist");
  const first = await build({ db, out, now: SAMPLE_NOW });
  expect(first.upToDate).toBe(false);
});

function record(): {
  render: { validFrom: number | null; validUntil: number | null };
  store: string;
  code: string;
} {
  return JSON.parse(readFileSync(path.join(out, INPUTS_FILE), "utf8"));
}

describe("build: up-to-date snapshots", () => {
  it("keeps the snapshot when the store, options and statuses are the same", async () => {
    const before = statSync(path.join(out, STANDINGS));
    const again = await build({ db, out, now: SAMPLE_NOW + 60_000 });
    expect(again.upToDate).toBe(true);
    expect(again.publish).toMatchObject({ filesWritten: 0, filesRemoved: 0 });
    expect(again.publish.filesUnchanged).toBe(again.publish.files);
    expect(again.render.tournaments).toBe(8);
    const after = statSync(path.join(out, STANDINGS));
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
  });

  it("rebuilds once a status can have changed, and the record names that instant", async () => {
    // The record names the program (its sources' hash) and the store it was built from.
    expect(record().code).toMatch(/^[0-9a-f]{64}$/);
    expect(record().store).toMatch(/^(revisions|sha256):[0-9a-f]{64}$/);
    const { validUntil } = record().render;
    expect(validUntil).toBeGreaterThan(SAMPLE_NOW);
    const inside = await build({ db, out, now: validUntil! - 1 });
    expect(inside.upToDate).toBe(true);
    const list = readFileSync(path.join(out, STANDINGS), "utf8");
    const later = await build({ db, out, now: validUntil! });
    expect(later.upToDate).toBe(false);
    expect(later.publish.filesWritten).toBeGreaterThan(0);
    expect(readFileSync(path.join(out, STANDINGS), "utf8")).not.toBe(list);
    // Back at the sample's instant: the same bytes as the first build.
    const back = await build({ db, out, now: SAMPLE_NOW });
    expect(back.upToDate).toBe(false);
    expect(readFileSync(path.join(out, STANDINGS), "utf8")).toBe(list);
  });

  it("rebuilds when the store changes, when options change, and when asked to", async () => {
    const d = new Database(db);
    d.prepare("UPDATE tournaments SET name = name || ' (updated)' WHERE tournament_id = 1").run();
    d.close();
    const changed = await build({ db, out, now: SAMPLE_NOW });
    expect(changed.upToDate).toBe(false);
    expect(changed.publish.filesWritten).toBeGreaterThan(0);
    expect(readFileSync(path.join(out, STANDINGS), "utf8")).toContain("(updated)");

    const options = await build({
      db,
      out,
      now: SAMPLE_NOW,
      statusOptions: { ...DEFAULT_STATUS_OPTIONS, graceMs: 60_000 },
    });
    expect(options.upToDate).toBe(false);
    const before = readFileSync(path.join(out, STANDINGS), "utf8");
    const forced = await build({
      db,
      out,
      now: SAMPLE_NOW,
      rebuild: true,
      statusOptions: { ...DEFAULT_STATUS_OPTIONS, graceMs: 60_000 },
    });
    expect(forced.upToDate).toBe(false);
    // --rebuild writes every file anew (a file edited by hand in the live version is replaced),
    // with the same bytes as before.
    expect(forced.publish.filesWritten).toBe(forced.publish.files);
    expect(readFileSync(path.join(out, STANDINGS), "utf8")).toBe(before);
  });
});

describe("build: --force never deletes the input store", () => {
  it("refuses an --out directory that holds the store, and leaves the store as it was", async () => {
    const dir = tempDir("build-force");
    const holder = path.join(dir, "data");
    mkdirSync(holder);
    const store = makeSampleStore(holder);
    const bytes = readFileSync(store);
    const refused = await build({ db: store, out: holder, now: SAMPLE_NOW, force: true }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(BuildError);
    expect((refused as BuildError).exitCode).toBe(EXIT.unsafeOutput);
    expect(readFileSync(store).equals(bytes)).toBe(true);
  });
});
