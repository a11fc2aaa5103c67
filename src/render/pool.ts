// Renders tournaments on worker threads (--jobs). Each worker opens the store read-only inside its
// own read transaction and proves it reads the main thread's state (src/render/worker.ts). The main
// thread hands jobs out in order, keeps at most a few per worker in flight, and passes results on
// strictly in job order, so the files are written in the same order as with --jobs 1 and the
// output is byte-identical; memory stays bounded by the jobs in flight, whatever the store's size.
// The players across tournaments (render/player-job.ts) follow on the same workers, when kept.
import os from "node:os";
import v8 from "node:v8";
import { Worker, type ResourceLimits } from "node:worker_threads";
import type { StatusOptions } from "../domain/status.ts";
import { BuildError, type ExitCode } from "../shared/errors.ts";
import type { RenderPool, TournamentJob, TournamentResult } from "./tournament.ts";
import type { PlayerJob, PlayerResult } from "./player-job.ts";
import { buffersOf, type Files, type FromWorker, type ToWorker, type WorkerInit } from "./protocol.ts";

export interface PoolOptions {
  /** Worker threads to start (workerCount's `workers`); 0: none, this thread renders. */
  workers: number;
  /** Start workers only when at least this many tournaments are to be rendered (default 24). */
  minJobs?: number;
  db: string;
  /** The file the main thread opened: every worker reads that very file or fails the build. */
  identity: string;
  storeKey: string | null;
  now: number;
  statusOptions: StatusOptions;
  /** Test hook: the workers' heap limits (default WORKER_LIMITS). */
  limits?: ResourceLimits;
}

/** Why this thread rendered what the workers had been given, and how much. */
export interface PoolFallback {
  /** A worker ran out of its capped heap, or read a newer state of the store than this thread. */
  reason: "out-of-memory" | "stale";
  /** The tournament that worker had in hand (the oldest it was sent and had not answered). */
  at: string | null;
  /** Tournaments this thread rendered instead of the workers. */
  tournaments: number;
  /** The workers' old generation cap (MiB). */
  heapMib: number;
}

export interface ClosablePool extends RenderPool {
  /**
   * Ends the workers (run() ends them itself once its jobs are done, or players() after it when
   * run() kept them); safe to call again.
   */
  close(): Promise<void>;
  /** Worker threads alive now (0 once run() has returned). */
  readonly liveWorkers: number;
  /** Set when run() went on in this thread: the report names it (the memory may pass the budget). */
  readonly fallback: PoolFallback | undefined;
}

/** Below this many tournaments to render, starting workers costs more than it saves. */
const MIN_JOBS_FOR_WORKERS = 24;
/**
 * The semi-space size a worker starts with and keeps (MiB). The growth factor of 1 that
 * bin/young-generation.js sets for the main thread is process-wide, so without this a worker would
 * keep V8's initial 1 MiB semi-spaces and scavenge after every MiB of the short-lived strings a
 * render makes: 5.7 s of garbage collection in 18.8 s of a worker's time at 500 tournaments. With 8
 * MiB its user CPU fell by a quarter for a few MiB of RSS. With 12, most tournaments' data dies
 * before a second scavenge would promote it: 9-10 full collections instead of 21-24 at 200
 * tournaments, and full builds at M took 15-23% less user CPU for 4-8 MiB more RSS
 * (docs/design/memory.md). V8 12 (Node 22) rounds a semi-space up to a power of two, and 16 MiB
 * cost 10-31 MiB more at 200 tournaments: there it stays 8. V8 reads the flag when an isolate is
 * made, so setting it here reaches the workers and not the running main thread.
 */
export const WORKER_SEMI_SPACE_MIB = Number(process.versions.v8.split(".")[0]) >= 13 ? 12 : 8;
/**
 * Heap limits of a worker (MiB): a small heap makes V8 collect early instead of growing. A render
 * keeps 15-49 MiB alive after a full collection (the largest generated tournaments at XL), but
 * with an old generation of up to 128 MiB V8 let the heap reach 80-102 MiB while rendering them,
 * which is what took re-renders at XL over the budget; with 64, full builds at M peaked 13-25 MiB
 * lower (docs/benchmarks.md, eighth round). A tournament near the store's limits (20,000 players,
 * 250,000 games) may not fit: the worker then runs out of memory and this thread renders the rest.
 * The young generation is three semi-spaces (above).
 */
const WORKER_LIMITS = { maxYoungGenerationSizeMb: 3 * WORKER_SEMI_SPACE_MIB, maxOldGenerationSizeMb: 64 };
/**
 * Players per message: a player is little work, and a message each cost the main thread more than
 * writing their files.
 */
const PLAYERS_PER_MESSAGE = 64;

/** The items in arrays of `size` (the last may be shorter), read as they are asked for. */
function* batches<T>(items: Iterable<T>, size: number): Generator<T[]> {
  let batch: T[] = [];
  for (const item of items) {
    batch.push(item);
    if (batch.length === size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

/** Jobs in flight per worker: enough to keep it busy, few enough to bound memory. */
const IN_FLIGHT_PER_WORKER = 4;

// The worker runs from the same tree as this module: src/*.ts under vitest and `node src/...`
// (type stripping), lib/*.js when compiled.
const WORKER_URL = new URL(`./worker${import.meta.url.endsWith(".ts") ? ".ts" : ".js"}`, import.meta.url);

/**
 * The peak RSS (MiB) a build with the default --jobs aims to stay within (issue 19, point 5): the
 * default number of render workers is what fits in it beside the main thread.
 */
export const MEMORY_BUDGET_MIB = 256;
/**
 * What one render worker adds to the process's RSS (MiB): its V8 isolate, the module graph (zod
 * schemas, views, pages), the ajv validators it compiles, its store connection and a heap at work.
 * Measured with scripts/bench-memory.ts on the M store: 35-46 MiB of V8 heap per worker, 60-80 MiB
 * of RSS (docs/benchmarks.md, issue 19).
 */
export const WORKER_RSS_MIB = 80;
/**
 * What the main thread takes before any per-file bookkeeping (MiB): Node, the modules, the store
 * connection and the publication's working set at S (scripts/bench-memory.ts: 130 MiB RSS when
 * `produce` started; 109 MiB since the store connections keep a 2 MiB page cache, store/read/open.ts).
 */
export const MAIN_RSS_MIB = 130;

export interface WorkerPlan {
  /** --jobs as asked; the cores when it was not given. */
  requested: number;
  /** Threads that render: the workers, or 1 when this thread renders. */
  used: number;
  /** A --jobs beyond the cores was capped there. */
  capped: boolean;
  /** Worker threads to start: 0 when this thread renders. */
  workers: number;
  /** The default was lowered below what the cores allow, to stay within MEMORY_BUDGET_MIB. */
  memoryCapped: boolean;
}

/**
 * The render threads of a build for `requested` (--jobs). An explicit --jobs N renders on this
 * thread when N is 1 and on N workers otherwise, never more than the cores (more threads than
 * cores only cost memory and render nothing faster; the report says when it capped).
 *
 * The default follows the cores and the memory budget: this thread hashes, writes and keeps the
 * bookkeeping of every file, a core's work in a full build, so the workers get the other cores,
 * and no more of them than fit in MEMORY_BUDGET_MIB beside it (the report says when that lowered
 * the count). Rendering is still done by a worker on a 2-core machine: a worker's heap is capped
 * (WORKER_LIMITS), so the short-lived garbage of rendering stays in a small heap instead of
 * growing the main thread's, whose heap V8 sizes from its long-lived bookkeeping. One core: this
 * thread renders.
 */
export function workerCount(
  requested: number | undefined,
  cores = os.availableParallelism(),
  budgetMib = MEMORY_BUDGET_MIB,
): WorkerPlan {
  if (requested !== undefined) {
    const used = Math.max(1, Math.min(requested, cores));
    return { requested, used, capped: used < requested, workers: used > 1 ? used : 0, memoryCapped: false };
  }
  if (cores <= 1) return { requested: cores, used: 1, capped: false, workers: 0, memoryCapped: false };
  const fit = Math.max(1, Math.floor((budgetMib - MAIN_RSS_MIB) / WORKER_RSS_MIB));
  const workers = Math.min(cores - 1, fit);
  return { requested: cores, used: workers, capped: false, workers, memoryCapped: workers < cores - 1 };
}

/**
 * Frees the bytes a worker transferred, once the files are written (the sink writes synchronously
 * and keeps no bytes). They were allocated by the worker's thread, so they sit in its malloc arena;
 * left to this thread's garbage collector, thousands of them are freed late and that arena stays
 * large. Detaching a buffer (`transfer(0)`) frees its memory at once.
 */
function release(files: Files | null): void {
  for (const b of buffersOf(files)) (b as ArrayBuffer & { transfer(n: number): ArrayBuffer }).transfer(0);
}

/** Starts a render thread with the heap limits and young generation above. */
export function startWorker(url: URL, workerData: unknown, limits: ResourceLimits = WORKER_LIMITS): Worker {
  v8.setFlagsFromString(`--min-semi-space-size=${WORKER_SEMI_SPACE_MIB}`);
  return new Worker(url, { workerData, resourceLimits: limits });
}

/** How one kind of job goes to the workers and back (tournaments, then players). */
interface Lane<J, R> {
  message(seq: number, job: J): ToWorker;
  local(job: J): R;
  /** Needs no renderer (a kept tournament): passed on in order like the others. */
  keep(job: J): boolean;
  /** Tournaments in the job (a fallback counts those this thread rendered). */
  tournaments(job: J): number;
  /** What a fallback names (the job a failing worker had in hand). */
  label(job: J): string;
  filesOf(result: R): Files | null;
}

/** The pool's shared state: its workers, and whether run() fell back to this thread. */
interface PoolState {
  workers: Worker[];
  limits: ResourceLimits | undefined;
  fallback: PoolFallback | undefined;
  closed: boolean;
  /** Workers that failed or exited: the players are then rendered in this thread. */
  dead: Set<Worker>;
}

/** A pool, or undefined when tournaments are to be rendered in this thread. */
export function createPool(opts: PoolOptions): ClosablePool | undefined {
  const jobs = opts.workers;
  // A WAL store without revisions: a worker could not prove it reads the same state.
  if (jobs < 1 || opts.storeKey === null) return undefined;
  const state: PoolState = {
    workers: [],
    limits: opts.limits,
    fallback: undefined,
    closed: false,
    dead: new Set(),
  };
  const close = async (): Promise<void> => {
    state.closed = true;
    await Promise.all(
      state.workers.splice(0).map(async (w) => {
        w.postMessage({ type: "stop" } satisfies ToWorker);
        await w.terminate();
      }),
    );
  };
  return {
    get liveWorkers() {
      return state.workers.length;
    },
    get fallback() {
      return state.fallback;
    },
    close,
    async run(jobsIn, onResult, ctx) {
      const iterator = jobsIn[Symbol.iterator]();
      // Few tournaments to render (a small change): this thread renders them.
      // Jobs marked `keep` need no renderer; they are passed on in order like the others.
      const minJobs = Math.max(1, opts.minJobs ?? MIN_JOBS_FOR_WORKERS);
      const first: TournamentJob[] = [];
      let toRender = 0;
      for (let n = iterator.next(); !n.done; n = iterator.next()) {
        first.push(n.value);
        if (!n.value.keep && ++toRender >= minJobs) break;
      }
      if (toRender < minJobs) {
        for (const job of first) onResult(job, ctx.local(job));
        return;
      }
      const init: WorkerInit = {
        db: opts.db,
        identity: opts.identity,
        revisions: ctx.revisions,
        now: opts.now,
        statusOptions: opts.statusOptions,
        site: ctx.site,
        base: ctx.base,
      };
      for (let i = 0; i < jobs; i++) {
        const w = startWorker(WORKER_URL, init, opts.limits);
        // Between runs no driver listens: an error then is the next run's (the worker is gone).
        w.on("error", () => state.dead.add(w));
        w.on("exit", () => state.dead.add(w));
        state.workers.push(w);
      }
      const lane: Lane<TournamentJob, TournamentResult> = {
        message: (seq, job) => ({ type: "job", seq, job }),
        local: ctx.local,
        keep: (job) => job.keep === true,
        tournaments: (job) => (job.keep ? 0 : 1),
        label: (job) => job.externalId,
        filesOf: (r) => (r.kind === "rendered" ? r.files : null),
      };
      await drive(state, first.values(), iterator, onResult, lane);
      // The workers are done once their last result is in: their isolates, modules and store
      // connections (60-80 MiB of RSS each) are given back before this thread renders the lists
      // and the publication finishes, where a full build's bookkeeping is largest. Kept for the
      // players when asked (they render those next, and are ended by players()).
      if (!ctx.keepWorkers || state.fallback) await close();
    },
    async players(jobsIn, onResult, ctx) {
      if (state.workers.length === 0 || state.closed || state.dead.size > 0) {
        await close();
        for (const job of jobsIn) onResult(job, ctx.local(job));
        return;
      }
      for (const w of state.workers)
        w.postMessage({ type: "players", touched: ctx.touched } satisfies ToWorker);
      const lane: Lane<PlayerJob[], PlayerResult[]> = {
        message: (seq, jobs) => ({ type: "players-batch", seq, jobs }),
        local: (jobs) => jobs.map(ctx.local),
        keep: () => false,
        tournaments: () => 0,
        label: (jobs) => `player ${jobs[0]!.fideId}`,
        filesOf: (results) => results.flatMap((r) => r.files ?? []),
      };
      const take = (jobs: PlayerJob[], results: PlayerResult[]): void =>
        jobs.forEach((job, i) => onResult(job, results[i]!));
      try {
        await drive(state, [].values(), batches(jobsIn, PLAYERS_PER_MESSAGE), take, lane);
      } finally {
        await close();
      }
    },
  };
}

/**
 * Hands jobs to the workers in order, keeps at most a few per worker in flight, and passes the
 * results on strictly in job order. A worker out of memory, or reading a newer state of the store,
 * sends everything left to this thread (`state.fallback` says so).
 */
function drive<J, R>(
  state: PoolState,
  pending: Iterator<J>,
  iterator: Iterator<J>,
  onResult: (job: J, result: R) => void,
  lane: Lane<J, R>,
): Promise<void> {
  const workers = state.workers;
  const jobs = workers.length;
  return new Promise<void>((resolve, reject) => {
    const next = (): J | undefined => {
      const a = pending.next();
      if (!a.done) return a.value;
      const b = iterator.next();
      return b.done ? undefined : b.value;
    };
    const sent = new Map<number, J>();
    /** Results whose bytes a worker transferred here: freed as soon as they are taken. */
    const transferred = new Set<R>();
    const results = new Map<number, R>();
    let seq = 0;
    let delivered = 0;
    let exhausted = false;
    let failed = false;
    let local = false;
    let settled = false;
    const finish = (e?: Error): void => {
      if (settled) return;
      settled = true;
      for (const w of workers) {
        w.off("message", onMessage.get(w)!);
        w.off("error", onError.get(w)!);
        w.off("exit", onExit.get(w)!);
      }
      if (e) reject(e);
      else resolve();
    };
    const fail = (e: Error): void => {
      if (failed) return;
      failed = true;
      finish(e);
    };
    const feed = (w: Worker): void => {
      while (!exhausted && !failed && !local) {
        // Results that arrive out of order wait in `results`: bounded by the jobs in flight.
        if (seq - delivered >= jobs * IN_FLIGHT_PER_WORKER || pendingOf(w) >= IN_FLIGHT_PER_WORKER) break;
        const job = next();
        if (job === undefined) {
          exhausted = true;
          break;
        }
        sent.set(seq, job);
        if (lane.keep(job)) {
          results.set(seq++, lane.local(job));
          deliver();
          continue;
        }
        const held = inHand.get(w);
        if (held) held.push(seq);
        else inHand.set(w, [seq]);
        w.postMessage(lane.message(seq, job));
        seq++;
      }
      if (exhausted && !local && delivered === seq) finish();
    };
    /** The jobs each worker was sent and has not answered, oldest first (it answers in order). */
    const inHand = new Map<Worker, number[]>();
    const pendingOf = (w: Worker): number => inHand.get(w)?.length ?? 0;
    const deliver = (): void => {
      while (results.has(delivered)) {
        const result = results.get(delivered)!;
        const job = sent.get(delivered)!;
        results.delete(delivered);
        sent.delete(delivered);
        delivered++;
        try {
          onResult(job, result);
        } catch (e) {
          fail(e as Error);
          return;
        }
        if (transferred.delete(result)) release(lane.filesOf(result));
      }
    };
    /**
     * A worker read a newer state (a WAL writer committed while the workers started) or ran out
     * of its capped heap: this thread, whose transaction holds the build's state, renders
     * everything left, in order, and `fallback` tells the report.
     */
    const goLocal = (reason: PoolFallback["reason"], w: Worker): void => {
      if (local) return;
      local = true;
      const oldest = inHand.get(w)?.[0];
      const f: PoolFallback = {
        reason,
        at: oldest === undefined ? null : lane.label(sent.get(oldest)!),
        tournaments: 0,
        heapMib: (state.limits ?? WORKER_LIMITS).maxOldGenerationSizeMb ?? 0,
      };
      state.fallback = f;
      const render = (job: J): R => {
        f.tournaments += lane.tournaments(job);
        return lane.local(job);
      };
      try {
        for (let s = delivered; s < seq; s++) if (!results.has(s)) results.set(s, render(sent.get(s)!));
        deliver();
        for (let job = next(); job !== undefined && !failed; job = next()) onResult(job, render(job));
        exhausted = true;
        if (!failed) finish();
      } catch (e) {
        fail(e as Error);
      }
    };
    const onMessage = new Map<Worker, (m: FromWorker) => void>();
    const onError = new Map<Worker, (e: Error & { code?: string }) => void>();
    const onExit = new Map<Worker, (code: number) => void>();
    for (const w of workers) {
      onMessage.set(w, (m: FromWorker) => {
        if (local || m.type === "ready") return;
        if (m.type === "stale") return goLocal("stale", w);
        if (m.type === "error") {
          if (m.exitCode === undefined) return fail(new Error(`a render worker failed: ${m.message}`));
          const e = new BuildError("", m.problems ?? [], m.exitCode as ExitCode);
          e.message = m.message;
          return fail(e);
        }
        inHand.get(w)?.shift();
        const result = m.result as R;
        transferred.add(result);
        results.set(m.seq, result);
        deliver();
        for (const x of workers) feed(x);
      });
      onError.set(w, (e) => {
        if (e.code === "ERR_WORKER_OUT_OF_MEMORY") goLocal("out-of-memory", w);
        else fail(e);
      });
      onExit.set(w, (code) => {
        if (!state.closed && !local && code !== 0)
          fail(new Error(`a render worker exited with code ${code}`));
      });
      w.on("message", onMessage.get(w)!);
      w.on("error", onError.get(w)!);
      w.on("exit", onExit.get(w)!);
    }
    for (const w of workers) feed(w);
    if (seq === 0 && exhausted) finish();
  });
}
