// Issue 11: an incremental build (unchanged tournaments kept by their fingerprints, list files kept
// when what they list is the same) is byte-identical to a full `--rebuild`, whatever the edits.
// fast-check (seeded) makes random edits to a copy of the sample store — players renamed, results
// changed, tournaments unpublished, published, drafted, tags and recaps added, clubs renamed,
// moved or disabled, private columns edited — and lets time pass across status thresholds; after
// each step the incremental snapshot (--jobs 1 or 2, workers forced) must equal a full rebuild,
// bookkeeping files included. The store keeps its revisions (schema 2) or, with a trigger
// dropped, is fingerprinted by hashing its rows.
import { copyFileSync, existsSync, realpathSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build, type BuildReport } from "../../../src/pipeline/build.ts";
import { liveTotals } from "../../../src/publish/changes.ts";
import { BuildError } from "../../../src/shared/errors.ts";
import { makeSampleStore, SAMPLE_NOW } from "../../support/e2e.ts";
import { removeTempDirs, tempDir } from "../../support/temp.ts";
import { hashTree } from "../../support/tree.ts";
import { apply, edit } from "../../support/store-edits.ts";

// Generous: the extension files (issue 22) multiply the files to remove on a shared, loaded machine.
afterAll(removeTempDirs, 300_000);

const SEED = 20261124;
const HOUR = 3_600_000;

let sample: string;
beforeAll(() => {
  sample = makeSampleStore(tempDir("incremental-sample"));
});

/** A build's snapshot tree, or the exit code it failed with. */
async function outcome(
  run: () => Promise<BuildReport>,
  out: string,
): Promise<{ tree: Record<string, string> } | { failed: number }> {
  try {
    await run();
    return { tree: hashTree(realpathSync(out)) };
  } catch (e) {
    if (e instanceof BuildError) return { failed: e.exitCode };
    throw e;
  }
}

/** The files whose bytes differ (or the exit codes, when a build failed). */
function differences(
  a: Awaited<ReturnType<typeof outcome>>,
  b: Awaited<ReturnType<typeof outcome>>,
): string[] {
  if (!("tree" in a) || !("tree" in b))
    return JSON.stringify(a) === JSON.stringify(b) ? [] : [JSON.stringify([a, b])];
  const files = new Set([...Object.keys(a.tree), ...Object.keys(b.tree)]);
  return [...files].filter((f) => a.tree[f] !== b.tree[f]).sort();
}

describe("incremental builds (fast-check, seeded)", () => {
  it("are byte-identical to a full --rebuild after random edits and time passing", async () => {
    let kept = 0;
    /** Builds that looked only at the tournaments changed since the last one. */
    let ticks = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.boolean(),
        fc.constantFrom(1, 2),
        // Small pages split the sample's lists, so a tick renders some pages and keeps the others.
        fc.constantFrom(1, 2, 3, 1000),
        fc.array(
          fc.record({ edits: fc.array(edit, { minLength: 0, maxLength: 3 }), hours: fc.nat(24 * 45) }),
          { minLength: 1, maxLength: 3 },
        ),
        async (fallback, jobs, pageSize, steps) => {
          const dir = tempDir("incremental");
          const db = path.join(dir, "store.sqlite");
          copyFileSync(sample, db);
          const w = new Database(db);
          if (fallback) w.exec("DROP TRIGGER players_revision_update");
          const incremental = path.join(dir, "incremental", "dist");
          const full = path.join(dir, "full", "dist");
          let now = SAMPLE_NOW;
          try {
            // The first build of the incremental snapshot: the state later steps start from.
            await build({ db, out: incremental, now, jobs, minJobsForWorkers: 1, pageSize });
            for (const step of steps) {
              for (const e of step.edits) apply(w, e);
              now += step.hours * HOUR;
              const a = await outcome(async () => {
                const r = await build({ db, out: incremental, now, jobs, minJobsForWorkers: 1, pageSize });
                if (r.render.storeCheck?.scope === "changed") ticks++;
                return r;
              }, incremental);
              const b = await outcome(
                () => build({ db, out: full, now, rebuild: true, jobs: 1, pageSize }),
                full,
              );
              expect(differences(a, b)).toEqual([]);
              // The incremental build recorded state (a record per tournament) to build on.
              if ("tree" in a && (liveTotals(incremental)?.size ?? 0) > 0) kept++;
            }
          } finally {
            w.close();
          }
        },
      ),
      { seed: SEED, numRuns: 16, endOnFailure: true },
    );
    expect(kept).toBeGreaterThan(0);
    expect(ticks).toBeGreaterThan(0);
  }, 300_000);

  it("keep unchanged tournaments: one renamed player renders one tournament again", async () => {
    const dir = tempDir("incremental-one");
    const db = path.join(dir, "store.sqlite");
    copyFileSync(sample, db);
    const out = path.join(dir, "dist");
    const first = await build({ db, out, now: SAMPLE_NOW, jobs: 1 });
    const w = new Database(db);
    w.prepare(
      "UPDATE players SET name = 'Renamed Player' WHERE tournament_id = 1 AND source_player_number = 1",
    ).run();
    w.close();
    const before = hashTree(realpathSync(out));
    const again = await build({ db, out, now: SAMPLE_NOW, jobs: 1 });
    const after = hashTree(realpathSync(out));
    const changed = Object.keys(after).filter((f) => after[f] !== before[f]);
    // Only tournament 1201344's files (and lists naming the player? no: lists hold no players),
    // the bookkeeping, and across events (issue 47) the files of its FIDE-rated players (the
    // renamed one's, and their opponents' feeds naming them) and the search index's chunks.
    const r = new Database(db, { readonly: true });
    const fideIds = new Set(
      (
        r
          .prepare("SELECT fide_id FROM players WHERE tournament_id = 1 AND fide_id IS NOT NULL")
          .pluck()
          .all() as number[]
      ).map(String),
    );
    r.close();
    const across = /^(?:api\/public\/v1\/players\/|players\/|feeds\/players\/|calendar\/players\/)(\d+)[/.]/;
    for (const f of changed) {
      const m = across.exec(f);
      if (m) expect(fideIds, f).toContain(m[1]);
      else expect(f).toMatch(/1201344|^_build-api|^\.build-api-snapshot$|^search\/w-/);
    }
    expect(changed.some((f) => f.includes("1201344"))).toBe(true);
    expect(again.publish.filesUnchanged).toBeGreaterThan(first.publish.files / 2);
    // The up-to-date report's totals, summed from the bookkeeping's owners, are the writer's.
    expect(liveTotals(out)).toEqual({
      size: again.publish.files,
      bytes: again.publish.bytesTotal,
    });
    expect(again.render).toEqual({
      ...first.render,
      validFrom: again.render.validFrom,
      validUntil: again.render.validUntil,
      // The report names what this build rendered: the renamed player's tournament alone.
      rendered: { tournaments: 1, warnings: [], unknownResults: 0, standingsStops: [] },
      // The store's checks read the one changed tournament; the first build read the whole store.
      storeCheck: { scope: "changed", base: first.render.storeCheck?.base },
      // Why: its rows changed; no list shows a player, so none is rendered.
      plan: { tournaments: [{ id: "1201344", reason: "rows-changed" }], lists: [] },
    });
    expect(first.render.storeCheck?.scope).toBe("whole");
    expect(first.render.rendered?.tournaments).toBe(first.render.tournaments);
  }, 60_000);

  it("leave the numbered pages of a paged list when an unfinished tournament changes", async () => {
    const dir = tempDir("incremental-head");
    const db = path.join(dir, "store.sqlite");
    copyFileSync(sample, db);
    const out = path.join(dir, "dist");
    // Page size 2: the global list is a head and three numbered pages; 1281735 (Upcoming) heads it.
    await build({ db, out, now: SAMPLE_NOW, jobs: 1, pageSize: 2 });
    const w = new Database(db);
    w.prepare("UPDATE tournaments SET location = 'Anoeta, Donostia' WHERE external_id = 1281735").run();
    w.close();
    const again = await build({ db, out, now: SAMPLE_NOW, jobs: 1, pageSize: 2 });
    const changed = again.publish.changed.paths;
    expect(changed).toContain("api/public/v1/tournaments/index.json");
    expect(changed).toContain("index.html");
    // The numbered pages hold finished tournaments only: their bytes stay (test/unit/render/lists.test.ts
    // shows they are not even rendered).
    expect(changed.filter((f) => /(^|\/)page\/\d+\//.test(f))).toEqual([]);
    expect(existsSync(path.join(out, "api/public/v1/tournaments/page/3/index.json"))).toBe(true);
    const rebuilt = path.join(dir, "full", "dist");
    await build({ db, out: rebuilt, now: SAMPLE_NOW, jobs: 1, pageSize: 2, rebuild: true });
    expect(hashTree(realpathSync(out))).toEqual(hashTree(realpathSync(rebuilt)));
  }, 60_000);
});
