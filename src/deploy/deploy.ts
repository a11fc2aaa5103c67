// `build-api deploy`: brings a bucket prefix to the snapshot's files in O(change). Takes the
// prefix's lease (lease.ts: one deploy at a time), reads the deploy record (record.ts), plans (plan.ts), marks the keys it is about to touch as pending, sends the
// upload steps in order with bounded concurrency, removes what the snapshot no longer has, then
// writes the record (only over the one it read: a second fence besides the lease) and clears the
// pending mark, and releases the lease. Any failure leaves the pending mark: the next run
// sends those keys again, so a rerun finishes an interrupted deploy. A stop asked for (`signal`:
// the CLI's Ctrl-C) issues no new request, lets those in flight finish, releases the lease and
// throws DeployStopped, saying how far it got. See docs/guide/object-storage.md for what a
// reader sees meanwhile.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { changedTags, changedUrls, type ChangedUrls } from "../hosting/purge.ts";
import { EDGE_FILE } from "../hosting/rules.ts";
import { NO_EDGE_FACTS, type EdgeFacts } from "../routes/pagination.ts";
import { BuildError, EXIT } from "../shared/errors.ts";
import { openBucket, type Bucket, type BucketOptions } from "./bucket.ts";
import { syncKeyValueStore, type KeyValueStore, type KvsReport } from "./kvs.ts";
import { acquireLease, DEFAULT_LEASE_SECONDS, type Lease } from "./lease.ts";
import { metadataDigest, objectMetadata, objectSpec } from "./objects.ts";
import {
  headerSuspects,
  orderRemovals,
  planChanges,
  planDeploy,
  type DeployPlan,
  type Upload,
} from "./plan.ts";
import {
  decodePending,
  decodeRecord,
  encodePending,
  encodeRecord,
  PENDING_KEY,
  RECORD_KEY,
  type DeployRecord,
} from "./record.ts";
import {
  readSnapshotChanges,
  readSnapshotFiles,
  snapshotGeneration,
  type SnapshotFile,
} from "./snapshot-files.ts";
import type { Generation } from "../publish/changes.ts";

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
   * Stop asked for (Ctrl-C): from its abort on, no new request is issued; those in flight finish,
   * the lease is released and the deploy throws DeployStopped. Its reason is passed on.
   */
  signal?: AbortSignal;
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
  /** Who held the lease (this deploy), and whose lapsed lease it took over, if any. */
  lease?: { owner: string; tookOverFrom?: string };
  purge: { tags: string[]; urls: ChangedUrls };
  /** What the deploy did to the CloudFront KeyValueStore, when given one. */
  kvs?: KvsReport;
}

/**
 * Runs `work` over `items`, at most `limit` at a time; the first failure, or `stop` aborted,
 * stops new work (the items in flight finish).
 */
async function pool<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>,
  stop?: AbortSignal,
): Promise<void> {
  let next = 0;
  let failed: unknown;
  const worker = async () => {
    while (failed === undefined && !stop?.aborted && next < items.length) {
      const item = items[next++]!;
      try {
        await work(item);
      } catch (e) {
        failed ??= e;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  // After a stop, a request that failed in flight is one more pending key, not the news.
  if (failed !== undefined && !stop?.aborted) throw failed;
}

function failure(e: unknown, o: DeployOptions, what: string): BuildError {
  if (e instanceof BuildError) return e;
  const err = e as { name?: string; message?: string; $metadata?: { httpStatusCode?: number } };
  const status = err.$metadata?.httpStatusCode;
  return new BuildError(
    `Deploy to s3://${o.bucket}/${o.prefix} did not finish.`,
    [
      {
        what: `${what}: ${err.name ?? "Error"}${status ? ` (HTTP ${status})` : ""}: ${err.message ?? String(e)}`,
        where: o.endpoint ?? "the AWS endpoint",
        fix:
          "check the bucket name, credentials (AWS_ACCESS_KEY_ID/AWS_PROFILE), region and --endpoint; " +
          "then run the same deploy again: it resumes where this one stopped",
      },
    ],
    EXIT.deploy,
  );
}

export async function deploy(o: DeployOptions): Promise<DeployReport> {
  const t0 = performance.now();
  // Fails before any request when there is no snapshot to deploy.
  snapshotGeneration(o.dir);
  const bucket = o.bucketImpl ?? openBucket(o);
  let requests = 0;
  const counted = <T>(p: Promise<T>): Promise<T> => {
    requests++;
    return p;
  };
  let lease: Lease | undefined;
  let leaseRequests = () => 0;
  let stage: StopStage = "before-changes";
  let report: DeployReport | undefined;
  let stepsDone = 0;
  let hadRecord = false;
  /** At a safe point: throws DeployStopped once a stop was asked for. */
  const stopIfAsked = (): void => {
    if (!o.signal?.aborted) return;
    throw new DeployStopped(
      o.signal.reason,
      stage,
      report && {
        sent: report.sent,
        toSend: report.toSend,
        retagged: report.retagged,
        toRetag: report.toRetag,
        removed: report.removed,
        toRemove: report.toRemove,
        steps: report.steps,
        stepsDone,
        first: !hadRecord,
      },
    );
  };
  try {
    stopIfAsked();
    if (!o.dryRun) {
      try {
        lease = await acquireLease(bucket, {
          bucket: o.bucket,
          prefix: o.prefix,
          seconds: o.leaseSeconds ?? DEFAULT_LEASE_SECONDS,
        });
      } catch (e) {
        throw failure(e, o, "taking the deploy lease");
      }
      leaseRequests = lease.requests;
    }
    stopIfAsked();
    let recordRead: { body: Buffer; etag: string } | undefined;
    let pendingBytes: Buffer | undefined;
    try {
      [recordRead, pendingBytes] = await Promise.all([
        counted(bucket.getTagged(RECORD_KEY)),
        counted(bucket.get(PENDING_KEY)),
      ]);
    } catch (e) {
      throw failure(e, o, "reading the deploy record");
    }
    const recordBytes = recordRead?.body;
    const record = recordBytes ? decodeRecord(recordBytes) : undefined;
    const pendingKeys = pendingBytes ? decodePending(pendingBytes) : undefined;
    // An unreadable pending mark: a dead deploy touched keys we cannot name, so trust no record.
    const trusted = pendingBytes && !pendingKeys ? undefined : record;
    hadRecord = recordBytes !== undefined;
    const unknown = new Set(pendingKeys ?? []);
    const metadata = metadataDigest();
    const facts = edgeFactsOf(o.dir);
    const { plan, root, to, fallback, rowsRead } = planFromBookkeeping(
      o.dir,
      trusted,
      unknown,
      metadata,
      facts,
    );
    if (fallback !== undefined && trusted?.at && bucket.list) {
      // The record says a generation of a log that cannot answer any more (made anew, or past its
      // reach): what the bucket holds beyond the snapshot is unknown, so list it once and remove
      // the served keys the snapshot no longer has (never keys no rule serves: not ours).
      let keys: string[];
      try {
        keys = await counted(bucket.list());
      } catch (e) {
        throw failure(e, o, "listing the prefix");
      }
      const extra = keys.filter((k) => !plan.target.has(k) && objectSpec(k) !== undefined);
      plan.removals = orderRemovals([...new Set([...plan.removals, ...extra])]);
    }
    const uploads = plan.steps.flat();

    const touched = [...uploads.map((u) => u.file), ...plan.retags.map((u) => u.file), ...plan.removals];
    const purgeFiles = [...new Set(touched)];
    report = {
      bucket: o.bucket,
      prefix: o.prefix,
      dryRun: o.dryRun ?? false,
      resumed: pendingBytes !== undefined,
      full: fallback !== undefined,
      ...(fallback !== undefined && { fallback }),
      generation: to,
      rowsRead,
      toSend: uploads.length,
      toRetag: plan.retags.length,
      toRemove: plan.removals.length,
      sent: 0,
      retagged: 0,
      sentBytes: 0,
      removed: 0,
      unchanged: plan.unchanged,
      skipped: plan.skipped,
      steps: plan.steps.length,
      requests: 0,
      seconds: 0,
      ...(lease && {
        lease: {
          owner: lease.holder.owner,
          ...(lease.tookOver && { tookOverFrom: lease.tookOver.owner }),
        },
      }),
      purge: {
        // The most specific tag of each changed or removed file, as a build's purge names them.
        tags: changedTags({ count: purgeFiles.length, paths: purgeFiles }).tags,
        urls: changedUrls({ count: purgeFiles.length, paths: purgeFiles }),
      },
    };
    const finish = (r: DeployReport) => {
      r.requests = requests + leaseRequests();
      r.seconds = (performance.now() - t0) / 1000;
    };
    const reached =
      trusted?.at !== undefined &&
      trusted.metadata === metadata &&
      trusted.at.log === to.log &&
      trusted.at.generation === to.generation;
    const syncKvs = async (written: string[], removed: string[]) => {
      // `report` is set by now; the closure cannot see that.
      if (!o.kvs || !report) return;
      try {
        report.kvs = await syncKeyValueStore(o.kvs, {
          from: trusted?.at,
          to,
          written,
          removed,
          allFiles: () => readSnapshotFiles(o.dir).files.keys(),
          // The bucket's own plan was a full comparison, or a dead deploy's keys are redone: the
          // store is compared in full too (rare, and then the snapshot is read whole anyway).
          full: fallback !== undefined || pendingBytes !== undefined,
        });
      } catch (e) {
        throw failure(e, o, "updating the CloudFront KeyValueStore");
      }
    };
    if (o.dryRun || (touched.length === 0 && !pendingBytes && reached)) {
      // Nothing to send; a store given for the first time is still filled (its marker says so).
      if (!o.dryRun) await syncKvs([], []);
      await lease?.release();
      lease = undefined;
      finish(report);
      return report;
    }

    stopIfAsked();
    // From the pending mark on, a stop leaves it for the rerun.
    stage = "changing";
    try {
      // Before the first change: the keys this run may touch, with those of a dead run.
      await counted(
        bucket.put({
          key: PENDING_KEY,
          body: encodePending(new Set([...unknown, ...touched])),
          contentType: "application/gzip",
        }),
      );
    } catch (e) {
      throw failure(e, o, "writing the pending mark");
    }

    const r = report;
    const send = async (u: Upload): Promise<void> => {
      let body: Buffer;
      try {
        body = await readFile(path.join(root, u.file));
      } catch {
        body = Buffer.alloc(0);
      }
      // The bytes must be those the manifest names: a build may switch the snapshot meanwhile.
      if (createHash("sha256").update(body).digest("hex") !== u.sha256) {
        throw new BuildError(
          `The snapshot at ${o.dir} changed during the deploy.`,
          [
            {
              what: `${u.file} no longer has the bytes its manifest lists`,
              where: path.join(root, u.file),
              fix: "run the deploy again after the build has finished (it resumes)",
            },
          ],
          EXIT.deploy,
        );
      }
      const metadata = objectMetadata(u.sha256, u.spec);
      try {
        await counted(
          bucket.put({
            key: u.file,
            body,
            contentType: u.spec.contentType,
            cacheControl: u.spec.cacheControl,
            metadata,
          }),
        );
      } catch (e) {
        throw failure(e, o, `uploading ${u.file}`);
      }
      r.sent++;
      r.sentBytes += body.length;
    };
    const total = plan.steps.length + (plan.retags.length > 0 ? 1 : 0) + (plan.removals.length > 0 ? 1 : 0);
    // Each pool stops issuing requests on a stop; stopIfAsked after it then throws.
    for (const [i, step] of plan.steps.entries()) {
      lease?.check();
      stopIfAsked();
      await pool(step, o.concurrency, send, o.signal);
      stopIfAsked();
      stepsDone = i + 1;
      o.onStep?.(i + 1, total, `${step.length} uploaded`);
    }
    // Headers alone: CopyObject onto itself with the new metadata, no bytes sent. After the
    // uploads (a header is no link), before the removals.
    lease?.check();
    stopIfAsked();
    await pool(
      plan.retags,
      o.concurrency,
      async (u) => {
        try {
          await counted(
            bucket.replaceMetadata({
              key: u.file,
              contentType: u.spec.contentType,
              cacheControl: u.spec.cacheControl,
              metadata: objectMetadata(u.sha256, u.spec),
            }),
          );
        } catch (e) {
          throw failure(e, o, `replacing the headers of ${u.file}`);
        }
        r.retagged++;
      },
      o.signal,
    );
    stopIfAsked();
    if (plan.retags.length > 0)
      o.onStep?.(plan.steps.length + 1, total, `${plan.retags.length} with new headers (bytes not sent)`);
    // The function's `?tag=` keys: a new tag's key once its list is up, a removed tag's key
    // before its list goes (until then the function sends the list's tag URL to the object).
    lease?.check();
    await syncKvs(
      uploads.map((u) => u.file),
      plan.removals,
    );
    lease?.check();
    await pool(
      plan.removals,
      o.concurrency,
      async (key) => {
        try {
          await counted(bucket.remove(key));
        } catch (e) {
          throw failure(e, o, `removing ${key}`);
        }
        r.removed++;
      },
      o.signal,
    );
    stopIfAsked();
    if (plan.removals.length > 0) o.onStep?.(total, total, `${plan.removals.length} removed`);

    lease?.check();
    stage = "before-record";
    stopIfAsked();
    let written: string | undefined;
    try {
      // Only over the record this deploy read: if another deploy wrote one meanwhile (its lease
      // lapsed under this one), this one must not record over it.
      written = await counted(
        bucket.putIf(
          {
            key: RECORD_KEY,
            // The generation whose rows were planned: every file changed after it was sent (the
            // hash check above refuses bytes of another generation), so the next deploy asks
            // the log from here. Until this write the record keeps the older generation, and the
            // pending mark names what this run touched: a rerun after a kill sends both.
            body: encodeRecord({ metadata, at: to, facts }),
            contentType: "application/gzip",
          },
          recordRead ? { ifMatch: recordRead.etag } : { ifNoneMatch: "*" },
        ),
      );
    } catch (e) {
      throw failure(e, o, "writing the deploy record");
    }
    if (written === undefined) {
      throw new BuildError(
        `Deploy to s3://${o.bucket}/${o.prefix} did not record its work.`,
        [
          {
            what: "another deploy wrote the deploy record while this one ran (this one's lease had lapsed)",
            where: `s3://${o.bucket}/${o.prefix}${RECORD_KEY}`,
            fix: "run the deploy again: the pending mark makes it check every key this one touched",
          },
        ],
        EXIT.deploy,
      );
    }
    try {
      await counted(bucket.remove(PENDING_KEY));
    } catch (e) {
      throw failure(e, o, "removing the pending mark");
    }
    await lease?.release();
    lease = undefined;
    finish(report);
    return report;
  } catch (e) {
    // Stopped: give the lease back now, so the rerun need not wait for it to lapse, and say so.
    if (e instanceof DeployStopped && lease) {
      e.leaseReleased = await lease.release().then(
        () => true,
        () => false,
      );
      lease = undefined;
    }
    throw e;
  } finally {
    // A failed deploy gives the lease back too: the pending mark, not the lease, says what to redo.
    await lease?.release().catch(() => undefined);
    if (!o.bucketImpl) bucket.close();
  }
}

interface Planned {
  plan: DeployPlan;
  root: string;
  to: Generation;
  fallback?: string;
  rowsRead: number;
}

/**
 * The plan from the snapshot's bookkeeping: from the change log since the record's generation
 * when it can say (reading the changed rows, the pending keys' and the header suspects' rows), or
 * the full comparison of every row with what the record knows (a version-1 or -2 record lists its
 * files; otherwise nothing is known and every served file is sent).
 */
function planFromBookkeeping(
  dir: string,
  record: DeployRecord | undefined,
  unknown: ReadonlySet<string>,
  metadata: string,
  facts: EdgeFacts,
): Planned {
  let fallback: string;
  if (!record) fallback = "no deploy record in the bucket";
  else if (!record.at) fallback = "the deploy record is of an older version (it lists every file)";
  else if (record.metadata !== metadata)
    fallback = "the deploy record was written under other metadata rules";
  else {
    const at = record.at;
    // A tournament entering or leaving the archive class changes the headers of its every key:
    // finding them scans every path (O(files) rows read; still only what changed is sent).
    const all = archiveFlipped(facts, record.facts) ? readSnapshotFiles(dir) : undefined;
    {
      const suspects = [...headerSuspects(facts, record.facts, all ? all.files.keys() : [])];
      const c = readSnapshotChanges(dir, at, [...unknown, ...suspects]);
      if (all && (all.generation.log !== c.to.log || all.generation.generation !== c.to.generation))
        throw new BuildError(
          `The snapshot at ${dir} changed during the deploy.`,
          [{ what: "a build published while the deploy read it", where: dir, fix: "run the deploy again" }],
          EXIT.deploy,
        );
      if (c.changes) {
        const rowsOf = (keys: Iterable<string>) =>
          new Map<string, SnapshotFile | undefined>([...keys].map((k) => [k, c.rows.get(k)]));
        const plan = planChanges({
          written: c.changes.written,
          removed: c.changes.removed,
          unknown: rowsOf(unknown),
          suspects: rowsOf(suspects),
          facts,
        });
        return { plan, root: c.root, to: c.to, rowsRead: c.rowsRead + (all?.files.size ?? 0) };
      }
      fallback =
        at.log === c.to.log
          ? `the change log does not reach back to generation ${at.generation}`
          : "the deploy record is of another change log (the bookkeeping was made anew)";
    }
  }
  const snap = readSnapshotFiles(dir);
  const plan = planDeploy(snap.files, record?.files ? record : undefined, unknown, metadata, facts);
  return { plan, root: snap.root, to: snap.generation, fallback, rowsRead: snap.files.size };
}

/** True when a tournament entered or left the archive class (its every key's headers change). */
function archiveFlipped(now: EdgeFacts, before: EdgeFacts | undefined): boolean {
  const a = new Set(now.archived);
  const b = new Set(before?.archived ?? []);
  return a.size !== b.size || [...a].some((id) => !b.has(id));
}

/** The snapshot's edge facts (Link headers, archived tournaments); none when it has no such file. */
function edgeFactsOf(dir: string): EdgeFacts {
  try {
    const f = JSON.parse(readFileSync(path.join(dir, EDGE_FILE), "utf8")) as Partial<EdgeFacts>;
    return { links: f.links ?? {}, archived: (f.archived ?? []).map(String) };
  } catch {
    return NO_EDGE_FACTS;
  }
}
