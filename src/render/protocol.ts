// The messages between the main thread and the render workers (src/render/pool.ts, worker.ts).
import type { StatusOptions } from "../domain/status.ts";
import type { Problem } from "../shared/errors.ts";
import type { TournamentJob, TournamentResult } from "./tournament.ts";
import type { PlayerJob, PlayerResult } from "./player-job.ts";
import type { SiteContext } from "../routes/table.ts";

export interface WorkerInit {
  db: string;
  /** The file the main thread opened (store/read/revisions.ts fileIdentity): workers read it or fail. */
  identity: string;
  /** The hash of the main thread's revisions (null: none kept): a worker that reads others stops. */
  revisions: string | null;
  now: number;
  statusOptions: StatusOptions;
  site: SiteContext;
  base: string | null;
}

export type ToWorker =
  | { type: "job"; seq: number; job: TournamentJob }
  /** The tournaments are done: the players of those rendered or dropped (`touched`) come next. */
  | { type: "players"; touched: string[] }
  | { type: "players-batch"; seq: number; jobs: PlayerJob[] }
  | { type: "stop" };

export type FromWorker =
  | { type: "ready" }
  | { type: "result"; seq: number; result: TournamentResult | PlayerResult[] }
  | { type: "error"; message: string; problems?: Problem[]; exitCode?: number }
  /** The worker's transaction reads another state than the main thread's (a WAL writer committed). */
  | { type: "stale" };

/** A result's files: a path and its text, or its UTF-8 bytes when made by a worker. */
export type Files = readonly (readonly [string, string | Uint8Array])[];

/**
 * The distinct buffers under a result's files: files that share a body share its buffer
 * (render/tournament.ts), and a buffer is transferred, and detached, once.
 */
export function buffersOf(files: Files | null): ArrayBuffer[] {
  if (files === null) return [];
  const buffers = new Set<ArrayBuffer>();
  for (const [, bytes] of files) if (typeof bytes !== "string") buffers.add(bytes.buffer as ArrayBuffer);
  return [...buffers];
}
