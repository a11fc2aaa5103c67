// `build-api deploy`: brings a bucket prefix to the snapshot's files in O(change). Takes the
// prefix's lease (lease.ts: one deploy at a time), reads the deploy record (record.ts), plans (plan.ts), marks the keys it is about to touch as pending, sends the
// upload steps in order with bounded concurrency, removes what the snapshot no longer has, then
// writes the record (only over the one it read: a second fence besides the lease) and clears the
// pending mark, and releases the lease. Any failure leaves the pending mark: the next run
// sends those keys again, so a rerun finishes an interrupted deploy. See
// docs/guide/object-storage.md for what a reader sees meanwhile.
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
import { acquireLease, DEFAULT_LEASE_SECONDS, type Lease } from "./lease.ts";
import { metadataDigest, objectMetadata } from "./objects.ts";
import { planDeploy, type Upload } from "./plan.ts";
import {
  decodePending,
  decodeRecord,
  encodePending,
  encodeRecord,
  PENDING_KEY,
  RECORD_KEY,
} from "./record.ts";
import { readSnapshotFiles } from "./snapshot-files.ts";

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
}

export interface DeployReport {
  bucket: string;
  prefix: string;
  dryRun: boolean;
  /** The previous deploy had died: its pending keys were checked again. */
  resumed: boolean;
  /** The record was missing, unreadable or written under other metadata rules: all was sent. */
  full: boolean;
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
}

/** Runs `work` over `items`, at most `limit` at a time; the first failure stops new work. */
async function pool<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failed: unknown;
  const worker = async () => {
    while (failed === undefined && next < items.length) {
      const item = items[next++]!;
      try {
        await work(item);
      } catch (e) {
        failed ??= e;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failed !== undefined) throw failed;
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
  const snap = readSnapshotFiles(o.dir);
  const bucket = o.bucketImpl ?? openBucket(o);
  let requests = 0;
  const counted = <T>(p: Promise<T>): Promise<T> => {
    requests++;
    return p;
  };
  let lease: Lease | undefined;
  let leaseRequests = () => 0;
  try {
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
    const unknown = new Set(pendingKeys ?? []);
    const metadata = metadataDigest();
    const facts = edgeFactsOf(o.dir);
    const plan = planDeploy(snap.files, trusted, unknown, metadata, facts);
    const uploads = plan.steps.flat();

    const touched = [...uploads.map((u) => u.file), ...plan.retags.map((u) => u.file), ...plan.removals];
    const purgeFiles = [...new Set(touched)];
    const report: DeployReport = {
      bucket: o.bucket,
      prefix: o.prefix,
      dryRun: o.dryRun ?? false,
      resumed: pendingBytes !== undefined,
      full: !trusted || trusted.metadata !== metadata,
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
    const finish = () => {
      report.requests = requests + leaseRequests();
      report.seconds = (performance.now() - t0) / 1000;
    };
    if (o.dryRun || (touched.length === 0 && !pendingBytes && trusted)) {
      await lease?.release();
      lease = undefined;
      finish();
      return report;
    }

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

    const send = async (u: Upload): Promise<void> => {
      let body: Buffer;
      try {
        body = await readFile(path.join(snap.root, u.file));
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
              where: path.join(snap.root, u.file),
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
      report.sent++;
      report.sentBytes += body.length;
    };
    const total = plan.steps.length + (plan.retags.length > 0 ? 1 : 0) + (plan.removals.length > 0 ? 1 : 0);
    for (const [i, step] of plan.steps.entries()) {
      lease?.check();
      await pool(step, o.concurrency, send);
      o.onStep?.(i + 1, total, `${step.length} uploaded`);
    }
    // Headers alone: CopyObject onto itself with the new metadata, no bytes sent. After the
    // uploads (a header is no link), before the removals.
    lease?.check();
    await pool(plan.retags, o.concurrency, async (u) => {
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
      report.retagged++;
    });
    if (plan.retags.length > 0)
      o.onStep?.(plan.steps.length + 1, total, `${plan.retags.length} with new headers (bytes not sent)`);
    lease?.check();
    await pool(plan.removals, o.concurrency, async (key) => {
      try {
        await counted(bucket.remove(key));
      } catch (e) {
        throw failure(e, o, `removing ${key}`);
      }
      report.removed++;
    });
    if (plan.removals.length > 0) o.onStep?.(total, total, `${plan.removals.length} removed`);

    lease?.check();
    let written: string | undefined;
    try {
      // Only over the record this deploy read: if another deploy wrote one meanwhile (its lease
      // lapsed under this one), this one must not record over it.
      written = await counted(
        bucket.putIf(
          {
            key: RECORD_KEY,
            body: encodeRecord({ metadata, files: plan.target, facts }),
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
    finish();
    return report;
  } finally {
    // A failed deploy gives the lease back too: the pending mark, not the lease, says what to redo.
    await lease?.release().catch(() => undefined);
    if (!o.bucketImpl) bucket.close();
  }
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
