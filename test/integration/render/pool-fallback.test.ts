// A render worker that runs out of its capped heap (render/pool.ts WORKER_LIMITS) does not fail the
// build: this thread renders what the worker had in hand and the rest, in order, and the pool says
// so (build.ts puts it in the report's notes, since this thread's memory is not capped).
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_STATUS_OPTIONS } from "../../../src/domain/status.ts";
import { SnapshotValidator } from "../../../src/output/validate.ts";
import { createPool } from "../../../src/render/pool.ts";
import {
  renderTournament,
  type TournamentJob,
  type TournamentResult,
} from "../../../src/render/tournament.ts";
import { openStore, type Store } from "../../../src/store/read/open.ts";
import { generateStore, REFERENCE_NOW } from "../../../scripts/gen-store.ts";
import { removeTempDirs, tempDir } from "../../support/temp.ts";

const NOW = Date.parse(REFERENCE_NOW);
let file: string;
let store: Store;

beforeAll(() => {
  file = path.join(tempDir("pool-oom"), "store.sqlite");
  generateStore({ tournaments: 5, seed: "pool-oom", out: file });
  store = openStore(file);
});
afterAll(() => {
  store.close();
  removeTempDirs();
});

const text = (r: TournamentResult): [string, string][] =>
  r.kind === "rendered"
    ? r.files.map(([f, b]) => [f, typeof b === "string" ? b : Buffer.from(b).toString("utf8")])
    : [];

describe("a render worker out of memory", () => {
  it("hands its jobs to this thread, which renders all of them in order and says so", async () => {
    const site = { languages: store.vocabulary().languages };
    const ctx = {
      now: NOW,
      statusOptions: DEFAULT_STATUS_OPTIONS,
      validator: new SnapshotValidator(),
      site,
      base: null,
    };
    const pool = createPool({
      workers: 1,
      minJobs: 1,
      db: file,
      identity: store.identity,
      storeKey: store.storeKey(),
      now: NOW,
      statusOptions: DEFAULT_STATUS_OPTIONS,
      // Too small to load the renderer, big enough to start an isolate (2 MiB aborts the process): the
      // worker runs out of memory before it answers a job, on Node 22 and 24.
      limits: { maxOldGenerationSizeMb: 6, maxYoungGenerationSizeMb: 1 },
    })!;
    const jobs: TournamentJob[] = store
      .publishedTournaments()
      .map((k) => ({ rowId: k.rowId, externalId: k.externalId.toString(), token: null, previous: null }));
    expect(jobs.length).toBe(5);
    // One job is kept (its revision says unchanged): it needs no renderer and is not counted.
    jobs[3] = { ...jobs[3]!, keep: true };
    const order: string[] = [];
    await pool.run(
      jobs,
      (job, result) => {
        order.push(job.externalId);
        if (job.keep) return;
        expect(text(result)).toEqual(text(renderTournament(store, job, ctx)));
      },
      {
        site,
        base: null,
        revisions: store.revisionState(),
        local: (job) => (job.keep ? { kind: "unchanged", fp: "" } : renderTournament(store, job, ctx)),
      },
    );
    expect(order).toEqual(jobs.map((j) => j.externalId));
    expect(pool.fallback).toEqual({
      reason: "out-of-memory",
      at: jobs[0]!.externalId,
      tournaments: 4,
      heapMib: 6,
    });
    expect(pool.liveWorkers).toBe(0);
  });
});
