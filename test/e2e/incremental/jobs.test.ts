// Worker threads (--jobs) give the bytes of --jobs 1, and one build reads one state of the store
// even while a writer commits during it (rollback journal: the writer waits; WAL: the build keeps
// its snapshot, workers included).
import { copyFileSync, realpathSync, renameSync, unlinkSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build, type BuildReport } from "../../../src/pipeline/build.ts";
import { BuildError, EXIT } from "../../../src/shared/errors.ts";
import { generateStore, REFERENCE_NOW } from "../../../scripts/gen-store.ts";
import { removeTempDirs, tempDir } from "../../support/temp.ts";
import { hashTree } from "../../support/tree.ts";

// Generous: the extension files (issue 22) multiply the files to remove on a shared, loaded machine.
afterAll(removeTempDirs, 300_000);

const NOW = Date.parse(REFERENCE_NOW);
/** The store the --jobs comparisons render: enough tournaments for every worker to take many. */
let store: string;
/**
 * A smaller one for the writer and the replaced store: more than the 6 tournaments the writer
 * commits after, and more than one for each worker; their size is not what those tests are about.
 */
let small: string;

beforeAll(() => {
  store = path.join(tempDir("jobs-store"), "store.sqlite");
  generateStore({ tournaments: 60, seed: "jobs", out: store });
  small = path.join(tempDir("jobs-small"), "store.sqlite");
  generateStore({ tournaments: 12, seed: "jobs", out: small });
});

/** One --jobs 1 build of each store, shared by the tests that compare with it. */
const references = new Map<
  string,
  Promise<{ out: string; report: BuildReport; tree: Record<string, string> }>
>();
function referenceOf(
  db: string,
): Promise<{ out: string; report: BuildReport; tree: Record<string, string> }> {
  let ref = references.get(db);
  if (ref === undefined) {
    const out = path.join(tempDir("jobs-reference"), "dist");
    ref = build({ db, out, now: NOW, jobs: 1 }).then((report) => ({
      out,
      report,
      tree: hashTree(realpathSync(out)),
    }));
    references.set(db, ref);
  }
  return ref;
}

function copyOf(file: string): string {
  const copy = path.join(tempDir("jobs-copy"), "store.sqlite");
  copyFileSync(file, copy);
  return copy;
}

describe("--jobs", () => {
  it("gives byte-identical snapshots with 1 and 3 threads, revisions kept or rows hashed", async () => {
    const dir = tempDir("jobs");
    const three = path.join(dir, "three", "dist");
    const { report: r1, tree: one } = await referenceOf(store);
    const r3 = await build({ db: store, out: three, now: NOW, jobs: 3, minJobsForWorkers: 1 });
    expect(r3.render).toEqual(r1.render);
    expect(hashTree(realpathSync(three))).toEqual(one);

    // A store without its triggers: fingerprints hash the rows, in the workers.
    const old = copyOf(store);
    const w = new Database(old);
    w.exec("DROP TRIGGER games_revision_update");
    w.close();
    const a = path.join(dir, "a", "dist");
    const b = path.join(dir, "b", "dist");
    await build({ db: old, out: a, now: NOW, jobs: 1 });
    await build({ db: old, out: b, now: NOW, jobs: 2, minJobsForWorkers: 1 });
    expect(hashTree(realpathSync(b))).toEqual(hashTree(realpathSync(a)));
    // A rebuild with workers keeps every tournament: the rows hash to the recorded fingerprints.
    const again = await build({ db: old, out: b, now: NOW + 1, jobs: 2, minJobsForWorkers: 1 });
    expect(again.publish.filesWritten).toBeLessThanOrEqual(2); // _build-api.json and the manifest at most
  }, 120_000);
  it("gives the bytes of --jobs 1 when a worker runs out of memory, and the report says so", async () => {
    const dir = tempDir("jobs-oom");
    const oom = path.join(dir, "oom", "dist");
    const { report: r1, tree: one } = await referenceOf(store);
    const r = await build({
      db: store,
      out: oom,
      now: NOW,
      jobs: 2,
      minJobsForWorkers: 1,
      // Too small for the renderer (test/integration/render/pool.test.ts).
      workerLimits: { maxOldGenerationSizeMb: 6, maxYoungGenerationSizeMb: 1 },
    });
    expect(r.render).toEqual(r1.render);
    expect(hashTree(realpathSync(oom))).toEqual(one);
    const notes = (r.notes ?? []).filter((n) => n.includes("out of memory"));
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(
      /^a render worker ran out of memory \(its heap is capped at 6 MiB\) at tournament \d+: this thread rendered the (\d+) left/,
    );
    expect(Number(/rendered the (\d+) left/.exec(notes[0]!)![1])).toBe(r1.render.rendered?.tournaments);
    expect(r1.notes ?? []).toEqual([]);
  }, 120_000);
});

describe("a writer committing during a build", () => {
  for (const mode of ["delete", "wal"] as const) {
    it(`does not mix two states into one snapshot (journal_mode ${mode})`, async () => {
      const db = copyOf(small);
      const setup = new Database(db);
      setup.pragma(`journal_mode = ${mode}`);
      setup.close();
      const writer = new Database(db, { timeout: 0 });
      const out = path.join(tempDir("writer"), "dist");
      let commits = 0;
      let refused = 0;
      try {
        await build({
          db,
          out,
          now: NOW,
          jobs: 2,
          minJobsForWorkers: 1,
          // After each of the first tournaments: rename every player of every tournament, in one
          // transaction.
          onProgress: (done) => {
            if (done > 6) return;
            try {
              writer.prepare("UPDATE players SET name = name || '!'").run();
              commits++;
            } catch (e) {
              if ((e as { code?: string }).code !== "SQLITE_BUSY") throw e;
              refused++;
            }
          },
        });
      } finally {
        writer.close();
      }
      if (mode === "wal") expect(commits).toBeGreaterThan(0);
      else expect(refused).toBeGreaterThan(0);
      // The snapshot is the one of the store as it was when the build began (its journal mode
      // changes no file).
      const got = hashTree(realpathSync(out));
      const want = (await referenceOf(small)).tree;
      // Every served file; the bookkeeping names the store file, which is another one.
      const bookkeeping = ["_build-api.json", "_build-api-state.json", ".build-api-manifest.json"];
      expect(Object.keys(got).filter((f) => got[f] !== want[f] && !bookkeeping.includes(f))).toEqual([]);
      expect(Object.keys(got).length).toBe(Object.keys(want).length);
      // The next build reads the store with every commit.
      const next = await build({ db, out, now: NOW, jobs: 1 });
      if (commits > 0) expect(next.publish.filesWritten).toBeGreaterThan(0);
    }, 120_000);
  }
});

describe("a store replaced or removed during a build", () => {
  for (const how of ["renamed over", "removed"] as const) {
    it(`fails the build with a store error naming the file (${how}), the old snapshot serving`, async () => {
      const db = copyOf(small);
      const other = copyOf(small);
      const w = new Database(other);
      w.prepare("UPDATE players SET name = name || '?'").run();
      w.close();
      const out = path.join(tempDir("replaced"), "dist");
      await build({ db, out, now: NOW, jobs: 1 });
      const live = hashTree(realpathSync(out));
      // After the main thread opened the store, before the workers open it.
      const replace = (phase: string): void => {
        if (phase !== "produce") return;
        if (how === "removed") unlinkSync(db);
        else renameSync(other, db);
      };
      const error = await build({
        db,
        out,
        now: NOW,
        rebuild: true,
        jobs: 2,
        minJobsForWorkers: 1,
        onPhase: replace,
      }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(BuildError);
      expect((error as BuildError).exitCode).toBe(EXIT.storeUnreadable);
      expect((error as BuildError).message).toContain(db);
      expect((error as BuildError).message).toContain("replaced or removed");
      expect(hashTree(realpathSync(out))).toEqual(live);
    }, 120_000);
  }
});
