// The build is SIGKILLed at every step it reports, in a child process. After each kill the
// target must serve one complete snapshot, byte for byte: the previous one if the kill came before
// the switch, the new one after it. The next build must then succeed and leave no leftovers.
import { cpSync, lstatSync } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { publishSnapshot } from "../../../src/publish/publish.ts";
import { liveFiles, publicationChanges } from "../../../src/publish/changes.ts";
import { expectNoLeftovers, expectSnapshot, fileIdentities, writeAll } from "../../support/publish.ts";
import { removeTempDirs, tempDir } from "../../support/temp.ts";
import { hashTree } from "../../support/tree.ts";
import { inPool, startChild } from "../../support/run-child.ts";
import { sampleFiles } from "../../support/sample-files.ts";

/** Each case spawns about thirty Node processes. */
const TIMEOUT_MS = 240_000;
const POOL = Math.max(2, Math.min(8, availableParallelism()));

/** The steps a build from `prepare`'s state to variant 1 reports, found by an in-process run. */
async function stepsOfBuild(prepare: (out: string) => Promise<void>): Promise<string[]> {
  const out = path.join(tempDir(), "dist");
  await prepare(out);
  const steps: string[] = [];
  await publishSnapshot({ outDir: out, onStep: (s) => steps.push(s) }, writeAll(sampleFiles(1)));
  return steps;
}

/** An older build's output: a real directory with the marker, not a link. */
async function realDirectorySnapshot(out: string): Promise<void> {
  const elsewhere = path.join(tempDir(), "dist");
  await publishSnapshot({ outDir: elsewhere }, writeAll(sampleFiles(0)));
  cpSync(elsewhere, out, { recursive: true, dereference: true });
}

/**
 * One version only, as an older build-api's first build left it (or a first build killed before
 * its second version was sealed): the next build makes the second version itself.
 */
async function linkedSnapshot(out: string): Promise<void> {
  await publishSnapshot({ outDir: out, pairFirstBuild: false }, writeAll(sampleFiles(0)));
}

afterAll(removeTempDirs);

/** Both versions present and paired: the steady state, where a build updates only what changed. */
async function pairedSnapshot(out: string): Promise<void> {
  // The versions then differ at one file that variant 1 does not change, so the build from
  // variant 0 to 1 updates paths the pair record does not list yet.
  const draft = { ...sampleFiles(0), "api/public/v1/tournaments/6/index.json": "{}" };
  await publishSnapshot({ outDir: out }, writeAll(draft));
  await publishSnapshot({ outDir: out }, writeAll(sampleFiles(0)));
}

/**
 * Kills a build from `prepare`'s state to variant 1 after each step in turn. Then: the target
 * serves the previous snapshot byte for byte (before the switch) or the new one (after); the next
 * builds (the live snapshot again, then another) succeed and leave the two versions in step; a
 * no-change build after them writes nothing and keeps every inode; and one more build, into the
 * other version, is complete too.
 */
async function killAtEveryStep(prepare: (out: string) => Promise<void>, minSteps: number): Promise<void> {
  // Variant 0 must be the snapshot `prepare` leaves live.
  const steps = await stepsOfBuild(prepare);
  expect(steps.length).toBeGreaterThanOrEqual(minSteps);
  const switchedAt = steps.indexOf("switched");
  expect(switchedAt).toBeGreaterThan(steps.indexOf("staged"));
  expect(steps.indexOf("staged")).toBeGreaterThan(steps.indexOf("pair-widened"));
  // The bookkeeping's two steps: the delta pending before the switch, applied after it.
  expect(steps.indexOf("bookkeeping-staged")).toBeGreaterThan(steps.indexOf("marker-written"));
  expect(steps.indexOf("bookkeeping-staged")).toBeLessThan(switchedAt);
  expect(steps.indexOf("bookkeeping-applied")).toBe(switchedAt + 1);

  const killed = await inPool(
    POOL,
    steps.map((step, i) => async () => {
      const out = path.join(tempDir(), "dist");
      await prepare(out);
      const previous = hashTree(out);
      const generation = liveFiles(out)!.to.generation;
      const result = await startChild(out, 1, i).done;
      expect(result.signal, `${step}: ${result.stderr}`).toBe("SIGKILL");

      if (i < switchedAt) expect(hashTree(out), `killed after ${step}`).toEqual(previous);
      else expectSnapshot(out, sampleFiles(1));
      // The bookkeeping describes what is served: the old generation, or the new one (a delta
      // pending when the kill came between the switch and its application is applied on open).
      expect(liveFiles(out)?.to.generation, `bookkeeping after ${step}`).toBe(
        i < switchedAt ? generation : generation + 1,
      );
      const changes = publicationChanges(out);
      expect(changes.known, `change log after ${step}`).toBe(true);

      // A build of the very snapshot that is live changes no file: what it puts live is only the
      // other version, repaired from the pair record alone.
      const live = i < switchedAt ? 0 : 1;
      await expectBuildsGoOn(out, live, step);
      return step;
    }),
  );
  expect(killed).toEqual(steps);
}

/**
 * After a kill at `step`: a build of the live files `live` repairs what the kill left, then builds
 * tick from there (a change, the same again writing nothing, another change), leaving nothing behind.
 */
async function expectBuildsGoOn(out: string, live: number, step: string): Promise<void> {
  await publishSnapshot({ outDir: out }, writeAll(sampleFiles(live)));
  expectSnapshot(out, sampleFiles(live));
  expectNoLeftovers(path.dirname(out));
  await publishSnapshot({ outDir: out }, writeAll(sampleFiles(2)));
  expectSnapshot(out, sampleFiles(2));
  expectNoLeftovers(path.dirname(out));
  const identities = fileIdentities(out);
  const again = await publishSnapshot({ outDir: out }, writeAll(sampleFiles(2)));
  expect(again.filesWritten, `after ${step}`).toBe(0);
  expect(fileIdentities(out), `after ${step}`).toEqual(identities);
  await publishSnapshot({ outDir: out }, writeAll(sampleFiles(0)));
  expectSnapshot(out, sampleFiles(0));
  expectNoLeftovers(path.dirname(out));
}

describe("publishSnapshot under SIGKILL", () => {
  it(
    "keeps the previous snapshot servable byte for byte at every kill point (both versions paired)",
    () => killAtEveryStep(pairedSnapshot, 20),
    TIMEOUT_MS,
  );

  it(
    "keeps the previous snapshot servable byte for byte at every kill point (second version made)",
    () => killAtEveryStep(linkedSnapshot, 30),
    TIMEOUT_MS,
  );

  it(
    "a first build killed at every step, its second version (linked as it writes) included",
    async () => {
      const steps = await stepsOfBuild(async () => {});
      const switchedAt = steps.indexOf("switched");
      // The second version is made before the files, each file linked into it as it is written
      // (before the file's row is recorded), and it is sealed after the switch, before the pair
      // names it.
      const made = steps.indexOf("second-version-made");
      expect(made).toBeGreaterThan(-1);
      expect(made).toBeLessThan(steps.findIndex((s) => s.startsWith("file ")));
      const written = steps.filter((s) => s.startsWith("file ")).map((s) => s.slice("file ".length));
      expect(written.length).toBeGreaterThan(0);
      for (const p of written)
        expect(steps.indexOf(`second-linked ${p}`), p).toBe(steps.indexOf(`file ${p}`) - 1);
      expect(steps.indexOf("second-marker-written")).toBeGreaterThan(steps.indexOf("cleaned-up"));
      expect(steps.indexOf("paired")).toBe(steps.indexOf("second-marker-written") + 1);

      await inPool(
        POOL,
        steps.map((step, i) => async () => {
          const out = path.join(tempDir(), "dist");
          const result = await startChild(out, 1, i).done;
          expect(result.signal, `${step}: ${result.stderr}`).toBe("SIGKILL");
          if (i < switchedAt) expect(lstatSync(out, { throwIfNoEntry: false }), step).toBeUndefined();
          else {
            expectSnapshot(out, sampleFiles(1));
            expect(liveFiles(out)?.to.generation, `bookkeeping after ${step}`).toBe(1);
          }
          // The next builds repair or finish the second version, and tick from there.
          await expectBuildsGoOn(out, 1, step);
        }),
      );
    },
    TIMEOUT_MS,
  );

  it(
    "survives a kill at every step of the one-time move from a real directory to a link",
    async () => {
      const steps = await stepsOfBuild(realDirectorySnapshot);
      const movedAt = steps.indexOf("target-moved");
      const switchedAt = steps.indexOf("switched");
      expect(movedAt).toBe(switchedAt - 1);

      await inPool(
        POOL,
        steps.map((step, i) => async () => {
          const out = path.join(tempDir(), "dist");
          await realDirectorySnapshot(out);
          const previous = hashTree(out);
          const result = await startChild(out, 1, i).done;
          expect(result.signal, `${step}: ${result.stderr}`).toBe("SIGKILL");

          if (i === movedAt) {
            // The one window between the two renames: the target is missing...
            expect(lstatSync(out, { throwIfNoEntry: false })).toBeUndefined();
          } else if (i < switchedAt) {
            expect(hashTree(out), `killed after ${step}`).toEqual(previous);
          } else {
            expectSnapshot(out, sampleFiles(1));
          }
          // ...and the next build, even one that fails, first puts the previous snapshot back.
          await expect(
            publishSnapshot({ outDir: out }, () => {
              throw new Error("bad store");
            }),
          ).rejects.toThrow("bad store");
          if (i < switchedAt) expect(hashTree(out), `after recovery from ${step}`).toEqual(previous);
          else expectSnapshot(out, sampleFiles(1));

          await publishSnapshot({ outDir: out }, writeAll(sampleFiles(2)));
          expectSnapshot(out, sampleFiles(2));
          expectNoLeftovers(path.dirname(out));
        }),
      );
    },
    TIMEOUT_MS,
  );
});
