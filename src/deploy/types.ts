// What a deploy is given and what it reports, and the error of a deploy stopped at a safe point.
import type { ChangedUrls } from "../hosting/purge.ts";
import type { Generation } from "../publish/changes.ts";
import type { Bucket, BucketOptions } from "./bucket.ts";
import type { KeyValueStore, KvsReport } from "./kvs.ts";

export interface DeployOptions extends BucketOptions {
  dir: string;
  /** Plan only: read the record, send nothing. */
  dryRun?: boolean;
  /** Called after each step and removal batch (progress lines). */
  onStep?: (done: number, total: number, what: string) => void;
  /** A bucket to use instead of opening one (tests). */
  bucketImpl?: Bucket;
  /** Seconds the deploy lease lasts without renewal (default DEFAULT_LEASE_SECONDS). */
  leaseSeconds?: number;
  /**
   * The CloudFront Function's KeyValueStore (kvs.ts): its `?tag=` keys are brought to the
   * snapshot after the uploads and before the removals.
   */
  kvs?: KeyValueStore;
  /**
   * Stop asked for (Ctrl-C): from its abort on, no new request is issued; those in flight finish
   * (or are aborted after `stopGraceMs`, default STOP_GRACE_MS: timeouts.ts), the lease is
   * released and the deploy throws DeployStopped. Its reason is passed on.
   */
  signal?: AbortSignal;
  stopGraceMs?: number;
  /** Called once the lease is taken: its holder id (what the bucket shows) and who holds it. */
  onLease?: (holder: string, owner: string) => void;
}

/**
 * Where a stopped deploy was: nothing written yet; objects being changed (the pending mark is
 * written); or every object changed, only the record not written.
 */
export type StopStage = "before-changes" | "changing" | "before-record";

/** A deploy stopped at a safe point because its `signal` was aborted; the pending mark stays. */
export class DeployStopped extends Error {
  readonly reason: unknown;
  readonly stage: StopStage;
  /** How far it got; undefined before the plan was made. */
  readonly progress?: Pick<
    DeployReport,
    "sent" | "toSend" | "retagged" | "toRetag" | "removed" | "toRemove" | "steps"
  > & {
    stepsDone: number;
    /** No deploy had finished into the prefix (no record): what is not sent yet is missing. */
    first: boolean;
  };
  /** The lease was given back (true), could not be (false), or was never taken (undefined). */
  leaseReleased?: boolean;
  /** Requests in flight at the stop that did not end within its grace and were aborted. */
  abandoned = 0;
  constructor(reason: unknown, stage: StopStage, progress: DeployStopped["progress"]) {
    super(`deploy stopped (${String(reason)})`);
    this.name = "DeployStopped";
    this.reason = reason;
    this.stage = stage;
    this.progress = progress;
  }
}

export interface DeployReport {
  bucket: string;
  prefix: string;
  dryRun: boolean;
  /** The previous deploy had died: its pending keys were checked again. */
  resumed: boolean;
  /**
   * The full comparison ran (every row of the snapshot read) instead of the change log's answer;
   * `fallback` says why (no record, an older record version, another log, a log that does not
   * reach back, other metadata rules, a tournament entering or leaving the archive class).
   */
  full: boolean;
  fallback?: string;
  /** The generation of the publication the bucket now holds (the record's), and the log's id. */
  generation: Generation;
  /** Rows of the snapshot's bookkeeping read: the changed ones on a tick, every one when full. */
  rowsRead: number;
  /** Objects the plan sends and removes (what a dry run reports). */
  toSend: number;
  /** Objects whose headers alone change (metadata replaced in place, bytes not sent). */
  toRetag: number;
  toRemove: number;
  sent: number;
  retagged: number;
  sentBytes: number;
  removed: number;
  unchanged: number;
  skipped: number;
  steps: number;
  /** Requests to the bucket, the record's and the pending mark's included. */
  requests: number;
  seconds: number;
  /**
   * The lease this deploy held: its holder id (all the bucket shows of it), who it is here (user,
   * host, pid, CI run: in this report only), and the holder id of a lapsed lease it took over.
   */
  lease?: { holder: string; owner: string; tookOverFrom?: string };
  purge: { tags: string[]; urls: ChangedUrls };
  /** What the deploy did to the CloudFront KeyValueStore, when given one. */
  kvs?: KvsReport;
}
