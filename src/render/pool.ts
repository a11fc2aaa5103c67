// Renders tournaments on worker threads (--jobs). Each worker opens the store read-only inside its
// own read transaction and proves it reads the main thread's state (src/render/worker.ts). The main
// thread hands jobs out in order, keeps at most a few per worker in flight, and passes results on
// strictly in job order, so the files are written in the same order as with --jobs 1 and the
// output is byte-identical; memory stays bounded by the jobs in flight, whatever the store's size.
import os from "node:os";
import v8 from "node:v8";
import { Worker, type ResourceLimits } from "node:worker_threads";
import type { StatusOptions } from "../domain/status.ts";
import { BuildError, type ExitCode } from "../shared/errors.ts";
import type { RenderPool, TournamentJob, TournamentResult } from "./tournament.ts";
import { buffersOf, type FromWorker, type ToWorker, type WorkerInit } from "./protocol.ts";

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
  /** Ends the workers (run() ends them itself once its jobs are done); safe to call again. */
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
function release(result: TournamentResult): void {
  for (const b of buffersOf(result)) (b as ArrayBuffer & { transfer(n: number): ArrayBuffer }).transfer(0);
}

/** Starts a render thread with the heap limits and young generation above. */
export function startWorker(url: URL, workerData: unknown, limits: ResourceLimits = WORKER_LIMITS): Worker {
  v8.setFlagsFromString(`--min-semi-space-size=${WORKER_SEMI_SPACE_MIB}`);
  return new Worker(url, { workerData, resourceLimits: limits });
}

/** A pool, or undefined when tournaments are to be rendered in this thread. */
export function createPool(opts: PoolOptions): ClosablePool | undefined {
  const jobs = opts.workers;
  // A WAL store without revisions: a worker could not prove it reads the same state.
  if (jobs < 1 || opts.storeKey === null) return undefined;
  const workers: Worker[] = [];
  let closed = false;
  let fallback: PoolFallback | undefined;
  const close = async (): Promise<void> => {
    closed = true;
    await Promise.all(
      workers.splice(0).map(async (w) => {
        w.postMessage({ type: "stop" } satisfies ToWorker);
        await w.terminate();
      }),
    );
  };
  return {
    get liveWorkers() {
      return workers.length;
    },
    get fallback() {
      return fallback;
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
      for (let i = 0; i < jobs; i++) workers.push(startWorker(WORKER_URL, init, opts.limits));
      await new Promise<void>((resolve, reject) => {
        const pending = first.values();
        const next = (): TournamentJob | undefined => {
          const a = pending.next();
          if (!a.done) return a.value;
          const b = iterator.next();
          return b.done ? undefined : b.value;
        };
        const sent = new Map<number, TournamentJob>();
        /** Results whose bytes a worker transferred here: freed as soon as they are taken. */
        const transferred = new Set<TournamentResult>();
        const results = new Map<number, TournamentResult>();
        let seq = 0;
        let delivered = 0;
        let exhausted = false;
        let failed = false;
        let local = false;
        const fail = (e: Error): void => {
          if (failed) return;
          failed = true;
          reject(e);
        };
        const feed = (w: Worker): void => {
          while (!exhausted && !failed && !local) {
            // Results that arrive out of order wait in `results`: bounded by the jobs in flight.
            if (seq - delivered >= jobs * IN_FLIGHT_PER_WORKER || pendingOf(w) >= IN_FLIGHT_PER_WORKER) break;
            const job = next();
            if (!job) {
              exhausted = true;
              break;
            }
            sent.set(seq, job);
            if (job.keep) {
              results.set(seq++, ctx.local(job));
              deliver();
              continue;
            }
            const held = inHand.get(w);
            if (held) held.push(seq);
            else inHand.set(w, [seq]);
            w.postMessage({ type: "job", seq, job } satisfies ToWorker);
            seq++;
          }
          if (exhausted && !local && delivered === seq) resolve();
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
            if (transferred.delete(result)) release(result);
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
            at: oldest === undefined ? null : sent.get(oldest)!.externalId,
            tournaments: 0,
            heapMib: (opts.limits ?? WORKER_LIMITS).maxOldGenerationSizeMb ?? 0,
          };
          fallback = f;
          const render = (job: TournamentJob): TournamentResult => {
            if (!job.keep) f.tournaments++;
            return ctx.local(job);
          };
          try {
            for (let s = delivered; s < seq; s++) if (!results.has(s)) results.set(s, render(sent.get(s)!));
            deliver();
            for (let job = next(); job && !failed; job = next()) onResult(job, render(job));
            exhausted = true;
            if (!failed) resolve();
          } catch (e) {
            fail(e as Error);
          }
        };
        for (const w of workers) {
          w.on("message", (m: FromWorker) => {
            if (local || m.type === "ready") return;
            if (m.type === "stale") return goLocal("stale", w);
            if (m.type === "error") {
              if (m.exitCode === undefined) return fail(new Error(`a render worker failed: ${m.message}`));
              const e = new BuildError("", m.problems ?? [], m.exitCode as ExitCode);
              e.message = m.message;
              return fail(e);
            }
            inHand.get(w)?.shift();
            transferred.add(m.result);
            results.set(m.seq, m.result);
            deliver();
            for (const x of workers) feed(x);
          });
          w.on("error", (e: Error & { code?: string }) => {
            if (e.code === "ERR_WORKER_OUT_OF_MEMORY") goLocal("out-of-memory", w);
            else fail(e);
          });
          w.on("exit", (code) => {
            if (!closed && !local && code !== 0) fail(new Error(`a render worker exited with code ${code}`));
          });
        }
        for (const w of workers) feed(w);
        if (seq === 0) resolve();
      });
      // The workers are done once their last result is in: their isolates, modules and store
      // connections (60-80 MiB of RSS each) are given back before this thread renders the lists
      // and the publication finishes, where a full build's bookkeeping is largest.
      await close();
    },
  };
}
