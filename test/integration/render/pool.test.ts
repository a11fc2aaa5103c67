// The render pool gives its memory back as soon as it can (issue 19, point 5): the workers end when
// run() has delivered the last result, before the main thread renders the lists and the
// publication finishes; the bytes a worker transferred are freed once the sink has taken them. A
// worker that runs out of its capped heap does not fail the build: this thread renders what it had
// in hand and the rest, in order, and the pool says so (build.ts puts it in the report's notes).
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_STATUS_OPTIONS } from "../../../src/domain/status.ts";
import { SnapshotValidator } from "../../../src/output/validate.ts";
import { createPool, type PoolOptions } from "../../../src/render/pool.ts";
import {
  renderTournament,
  type TournamentJob,
  type TournamentResult,
} from "../../../src/render/tournament.ts";
import { renderPlayerJob, type PlayerJob, type PlayerResult } from "../../../src/render/player-job.ts";
import { openStore, type Store } from "../../../src/store/read/open.ts";
import { generateStore, REFERENCE_NOW } from "../../../scripts/gen-store.ts";
import { removeTempDirs, tempDir } from "../../support/temp.ts";

const NOW = Date.parse(REFERENCE_NOW);
let file: string;
let store: Store;

beforeAll(() => {
  file = path.join(tempDir("pool-store"), "store.sqlite");
  generateStore({ tournaments: 6, seed: "pool", out: file });
  store = openStore(file);
});
afterAll(() => {
  store.close();
  removeTempDirs();
});

function setup(limits?: PoolOptions["limits"]) {
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
    limits,
  })!;
  const jobs: TournamentJob[] = store
    .publishedTournaments()
    .map((k) => ({ rowId: k.rowId, externalId: k.externalId.toString(), token: null, previous: null }));
  return { site, ctx, pool, jobs };
}

const text = (r: TournamentResult): [string, string][] =>
  r.kind === "rendered"
    ? r.files.map(([f, b]) => [f, typeof b === "string" ? b : Buffer.from(b).toString("utf8")])
    : [];

describe("createPool", () => {
  it("ends its workers when run() returns and frees transferred bytes once they are taken", async () => {
    const { site, ctx, pool, jobs } = setup();
    expect(pool).toBeDefined();
    expect(jobs.length).toBeGreaterThan(1);

    const taken: Uint8Array[] = [];
    const workersDuring: number[] = [];
    let same = 0;
    await pool.run(
      jobs,
      (job, result) => {
        workersDuring.push(pool.liveWorkers);
        expect(result.kind).toBe("rendered");
        if (result.kind !== "rendered") return;
        // The worker's bytes are whole while the sink takes them, and equal this thread's render.
        const here = renderTournament(store, job, ctx);
        if (here.kind !== "rendered") throw new Error("rendered here but not there");
        const local = new Map(here.files);
        for (const [name, bytes] of result.files) {
          expect(bytes).toBeInstanceOf(Uint8Array);
          expect(Buffer.from(bytes as Uint8Array).toString("utf8")).toBe(local.get(name));
          taken.push(bytes as Uint8Array);
          same++;
        }
      },
      {
        site,
        base: null,
        revisions: store.revisionState(),
        local: (job) => renderTournament(store, job, ctx),
      },
    );
    expect(same).toBeGreaterThan(0);
    expect(workersDuring.every((n) => n === 1)).toBe(true);
    // After run(): no worker is left, and every transferred buffer was freed (detached).
    expect(pool.liveWorkers).toBe(0);
    expect(taken.every((b) => b.byteLength === 0)).toBe(true);
    await pool.close(); // a second close is harmless
  });

  it("hands a worker's jobs to this thread when it runs out of memory, in order, and says so", async () => {
    // Too small to load the renderer, big enough to start an isolate (2 MiB aborts the process):
    // the worker runs out of memory before it answers a job, on Node 22 and 24.
    const { site, ctx, pool, jobs } = setup({ maxOldGenerationSizeMb: 6, maxYoungGenerationSizeMb: 1 });
    expect(jobs.length).toBe(6);
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
      tournaments: 5,
      heapMib: 6,
    });
    expect(pool.liveWorkers).toBe(0);
  });

  it("renders in this thread, in order, when a worker reads another state of the store", async () => {
    const { site, ctx, pool, jobs } = setup();
    const order: string[] = [];
    await pool.run(
      jobs,
      (job, result) => {
        order.push(job.externalId);
        expect(text(result)).toEqual(text(renderTournament(store, job, ctx)));
      },
      // As if a writer had committed after this thread began: the workers' revisions differ.
      { site, base: null, revisions: "another state", local: (job) => renderTournament(store, job, ctx) },
    );
    expect(order).toEqual(jobs.map((j) => j.externalId));
    expect(pool.fallback).toMatchObject({
      reason: "stale",
      at: jobs[0]!.externalId,
      tournaments: jobs.length,
    });
    expect(pool.liveWorkers).toBe(0);
  });

  it("keeps its workers for the players when asked; they render the bytes this thread does, then end", async () => {
    const { site, ctx, pool, jobs } = setup();
    const entries = new Map<string, string[]>();
    await pool.run(
      jobs,
      (_job, result) => {
        if (result.kind !== "rendered") return;
        for (const [id, body] of result.fide) entries.set(id, [...(entries.get(id) ?? []), body]);
      },
      {
        site,
        base: "b",
        revisions: store.revisionState(),
        local: (job) => renderTournament(store, job, ctx),
        keepWorkers: true,
      },
    );
    expect(pool.liveWorkers).toBe(1);
    // Players of the previous build: one whose fingerprint stays (no files), one whose changes.
    const ids = [...entries.keys()].sort();
    expect(ids.length).toBeGreaterThan(2);
    const pctx = {
      touched: new Set(jobs.map((j) => j.externalId)),
      base: "b",
      site,
      validator: ctx.validator,
    };
    const first = renderPlayerJob({ fideId: ids[0]!, now: entries.get(ids[0]!)!, prev: null }, pctx);
    const playerJobs: PlayerJob[] = ids.map((fideId, i) => ({
      fideId,
      now: entries.get(fideId)!,
      prev: i === 0 ? { fp: first.record!.fp, detail: `{"entries":${first.record!.entries}}` } : null,
    }));
    const seen: [PlayerJob, PlayerResult][] = [];
    const workersDuring: number[] = [];
    await pool.players!(
      playerJobs,
      (job, result) => {
        workersDuring.push(pool.liveWorkers);
        seen.push([job, result]);
        // Whole while taken (freed after: the bytes were transferred).
        const here = renderPlayerJob(job, pctx);
        expect({ ...result, files: null }).toEqual({ ...here, files: null });
        expect(
          result.files?.map(([f, b]) => [f, Buffer.from(b as Uint8Array).toString("utf8")]) ?? null,
        ).toEqual(here.files);
      },
      { touched: jobs.map((j) => j.externalId), local: (job) => renderPlayerJob(job, pctx) },
    );
    expect(seen.map(([job]) => job.fideId)).toEqual(ids);
    expect(seen[0]![1]).toMatchObject({ same: true, files: null, hadPrevious: true });
    expect(seen[1]![1].files?.length).toBe(4);
    // Made on the worker (UTF-8 bytes), and freed once taken.
    expect(seen[1]![1].files![0]![1]).toBeInstanceOf(Uint8Array);
    expect((seen[1]![1].files![0]![1] as Uint8Array).byteLength).toBe(0);
    expect(workersDuring.every((n) => n === 1)).toBe(true);
    expect(pool.liveWorkers).toBe(0);
  });
});
