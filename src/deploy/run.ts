// One deploy's phases, in the order deploy.ts calls them, over the state they share: the bucket,
// the lease, the request count, the stage a stop would report and the report being filled.
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { changedTags, changedUrls } from "../hosting/purge.ts";
import { BuildError, EXIT } from "../shared/errors.ts";
import { openBucket, type Bucket } from "./bucket.ts";
import { failureKind, requestFailure } from "./failure.ts";
import { syncKeyValueStore } from "./kvs.ts";
import { acquireLease, DEFAULT_LEASE_SECONDS, type Lease } from "./lease.ts";
import { metadataDigest, objectMetadata, objectSpec } from "./objects.ts";
import { edgeFactsOf, planFromBookkeeping, type Planned } from "./plan-source.ts";
import { orderRemovals, type Upload } from "./plan.ts";
import { pool } from "./pool.ts";
import {
  decodePending,
  decodeRecord,
  encodePending,
  encodeRecord,
  PENDING_KEY,
  PENDING_PARTS,
  pendingPartKey,
  RECORD_KEY,
  type DeployRecord,
} from "./record.ts";
import { readSnapshotFiles } from "./snapshot-files.ts";
import { DeployStopped, type DeployOptions, type DeployReport, type StopStage } from "./types.ts";

/** What the bucket said before the plan: the record (with its ETag) and the pending mark. */
export interface BucketState {
  recordRead?: { body: Buffer; etag: string };
  pendingBytes?: Buffer;
  /** The record, unless a pending mark that cannot be read makes every key unknown. */
  trusted?: DeployRecord;
  /** Keys a dead deploy may have touched. */
  unknown: Set<string>;
  /** The pending parts of a dead streamed publication (record.ts PENDING_PARTS): removed after the record. */
  parts: string[];
}

/** The plan made, with what deciding and carrying it out needs. */
export interface Made extends Planned {
  metadata: string;
  facts: ReturnType<typeof edgeFactsOf>;
  uploads: Upload[];
  /** Every key the plan writes, retags or removes. */
  touched: string[];
}

export class DeployRun {
  readonly bucket: Bucket;
  private readonly t0 = performance.now();
  private requests = 0;
  private lease: Lease | undefined;
  private stage: StopStage = "before-changes";
  private stepsDone = 0;
  private hadRecord = false;
  private abandoned = 0;
  report: DeployReport | undefined;

  private readonly o: DeployOptions;

  constructor(o: DeployOptions) {
    this.o = o;
    this.bucket = o.bucketImpl ?? openBucket(o, o.signal && { signal: o.signal, graceMs: o.stopGraceMs });
  }

  private counted<T>(p: Promise<T>): Promise<T> {
    this.requests++;
    return p;
  }

  /** Runs `op`, turning its failure into the deploy's error for `doing`. */
  private async attempt<T>(doing: string, op: () => Promise<T>): Promise<T> {
    try {
      return await op();
    } catch (e) {
      // After a stop, a request that failed (or was aborted after the grace) is no news: stop.
      if (this.o.signal?.aborted && failureKind(e) === "stopped") this.abandoned++;
      this.stopIfAsked();
      throw requestFailure(e, this.o, doing);
    }
  }

  /** One request to the bucket, counted in the report. */
  private request<T>(doing: string, op: () => Promise<T>): Promise<T> {
    return this.attempt(doing, () => this.counted(op()));
  }

  /** At a safe point: throws DeployStopped once a stop was asked for. */
  stopIfAsked(): void {
    if (!this.o.signal?.aborted) return;
    const r = this.report;
    const stopped = new DeployStopped(
      this.o.signal.reason,
      this.stage,
      r && {
        sent: r.sent,
        toSend: r.toSend,
        retagged: r.retagged,
        toRetag: r.toRetag,
        removed: r.removed,
        toRemove: r.toRemove,
        steps: r.steps,
        stepsDone: this.stepsDone,
        first: !this.hadRecord,
      },
    );
    stopped.abandoned = this.abandoned;
    throw stopped;
  }

  /** Throws when a renewal found the lease taken by another deploy. */
  checkLease(): void {
    this.lease?.check();
  }

  async takeLease(): Promise<void> {
    if (this.o.dryRun) return;
    // The lease counts its own requests.
    this.lease = await this.attempt("taking the deploy lease", () =>
      acquireLease(this.bucket, {
        bucket: this.o.bucket,
        prefix: this.o.prefix,
        seconds: this.o.leaseSeconds ?? DEFAULT_LEASE_SECONDS,
      }),
    );
    this.o.onLease?.(this.lease.holder.id, this.lease.owner);
  }

  async readBucketState(): Promise<BucketState> {
    const [recordRead, pendingBytes] = await this.request("reading the deploy record", () =>
      Promise.all([this.bucket.getTagged(RECORD_KEY), this.counted(this.bucket.get(PENDING_KEY))]),
    );
    const record = recordRead ? decodeRecord(recordRead.body) : undefined;
    let pendingKeys = pendingBytes ? decodePending(pendingBytes) : undefined;
    this.hadRecord = recordRead !== undefined;
    const parts: string[] = [];
    if (pendingKeys?.some((k) => k.startsWith(PENDING_PARTS))) {
      const read = await this.readParts(pendingKeys);
      pendingKeys = read.keys;
      parts.push(...read.parts);
    }
    return {
      ...(recordRead && { recordRead }),
      ...(pendingBytes && { pendingBytes }),
      // An unreadable pending mark: a dead deploy touched keys we cannot name, so trust no record.
      ...(!(pendingBytes && !pendingKeys) && record && { trusted: record }),
      unknown: new Set(pendingKeys ?? []),
      parts,
    };
  }

  /** A streamed run's mark: its keys with those of each of its parts (undefined: a part unreadable). */
  private async readParts(marked: string[]): Promise<{ keys: string[] | undefined; parts: string[] }> {
    const keys = new Set(marked.filter((k) => !k.startsWith(PENDING_PARTS)));
    const parts: string[] = [];
    let readable = true;
    for (const run of marked.filter((k) => k.startsWith(PENDING_PARTS))) {
      for (let n = 1; ; n++) {
        const key = pendingPartKey(run.slice(PENDING_PARTS.length), n);
        const body = await this.request("reading the pending mark", () => this.bucket.get(key));
        if (!body) break;
        parts.push(key);
        const listed = decodePending(body);
        if (!listed) readable = false;
        for (const k of listed ?? []) keys.add(k);
      }
    }
    return { keys: readable ? [...keys] : undefined, parts };
  }

  /**
   * Before a streamed publication's render (stream-upload.ts): the mark names this run, whose
   * parts will list its keys, with the keys of a dead run.
   */
  async markStreaming(state: BucketState, run: string): Promise<void> {
    this.stopIfAsked();
    this.stage = "changing";
    const body = encodePending(new Set([...state.unknown, `${PENDING_PARTS}${run}`]));
    await this.request("writing the pending mark", () =>
      this.bucket.put({ key: PENDING_KEY, body, contentType: "application/gzip" }),
    );
  }

  async plan(state: BucketState): Promise<Made> {
    const metadata = metadataDigest();
    const facts = edgeFactsOf(this.o.dir);
    const planned = planFromBookkeeping(this.o.dir, state.trusted, state.unknown, metadata, facts);
    const { plan, fallback } = planned;
    if (fallback !== undefined && state.trusted?.at && this.bucket.list) {
      // The record says a generation of a log that cannot answer any more (made anew, or past its
      // reach): what the bucket holds beyond the snapshot is unknown, so list it once and remove
      // the served keys the snapshot no longer has (never keys no rule serves: not ours).
      const list = this.bucket.list.bind(this.bucket);
      const keys = await this.request("listing the prefix", list);
      const extra = keys.filter((k) => !plan.target.has(k) && objectSpec(k) !== undefined);
      plan.removals = orderRemovals([...new Set([...plan.removals, ...extra])]);
    }
    const uploads = plan.steps.flat();
    const touched = [...uploads.map((u) => u.file), ...plan.retags.map((u) => u.file), ...plan.removals];
    return { ...planned, metadata, facts, uploads, touched };
  }

  startReport(state: BucketState, m: Made): DeployReport {
    const purgeFiles = [...new Set(m.touched)];
    const lease = this.lease;
    this.report = {
      bucket: this.o.bucket,
      prefix: this.o.prefix,
      dryRun: this.o.dryRun ?? false,
      resumed: state.pendingBytes !== undefined,
      full: m.fallback !== undefined,
      ...(m.fallback !== undefined && { fallback: m.fallback }),
      generation: m.to,
      rowsRead: m.rowsRead,
      toSend: m.uploads.length,
      toRetag: m.plan.retags.length,
      toRemove: m.plan.removals.length,
      sent: 0,
      retagged: 0,
      sentBytes: 0,
      removed: 0,
      unchanged: m.plan.unchanged,
      skipped: m.plan.skipped,
      steps: m.plan.steps.length,
      requests: 0,
      seconds: 0,
      ...(lease && {
        lease: {
          holder: lease.holder.id,
          owner: lease.owner,
          ...(lease.tookOver && { tookOverFrom: lease.tookOver.id }),
        },
      }),
      purge: {
        // The most specific tag of each changed or removed file, as a build's purge names them.
        tags: changedTags({ count: purgeFiles.length, paths: purgeFiles }).tags,
        urls: changedUrls({ count: purgeFiles.length, paths: purgeFiles }),
      },
    };
    return this.report;
  }

  /** True when the bucket already holds this snapshot: nothing to send, no dead deploy to finish. */
  static upToDate(state: BucketState, m: Made): boolean {
    const at = state.trusted?.at;
    const reached =
      at !== undefined &&
      state.trusted!.metadata === m.metadata &&
      at.log === m.to.log &&
      at.generation === m.to.generation;
    return m.touched.length === 0 && !state.pendingBytes && reached;
  }

  /** Before the first change: the keys this run may touch, with those of a dead run. */
  async markPending(state: BucketState, m: Made, streamed?: string): Promise<void> {
    this.stopIfAsked();
    // From the pending mark on, a stop leaves it for the rerun.
    this.stage = "changing";
    const run = streamed === undefined ? [] : [`${PENDING_PARTS}${streamed}`];
    const body = encodePending(new Set([...state.unknown, ...m.touched, ...run]));
    await this.request("writing the pending mark", () =>
      this.bucket.put({ key: PENDING_KEY, body, contentType: "application/gzip" }),
    );
  }

  /** The upload steps, one after another; each pool stops issuing requests on a stop. */
  async upload(m: Made, total: number): Promise<void> {
    for (const [i, step] of m.plan.steps.entries()) {
      this.checkLease();
      this.stopIfAsked();
      await pool(step, this.o.concurrency, (u) => this.send(m.root, u), this.o.signal);
      this.stopIfAsked();
      this.stepsDone = i + 1;
      this.o.onStep?.(i + 1, total, `${step.length} uploaded`);
    }
  }

  private async send(root: string, u: Upload): Promise<void> {
    let body: Buffer;
    try {
      body = await readFile(path.join(root, u.file));
    } catch {
      body = Buffer.alloc(0);
    }
    // The bytes must be those the manifest names: a build may switch the snapshot meanwhile.
    if (createHash("sha256").update(body).digest("hex") !== u.sha256) {
      throw new BuildError(
        `The snapshot at ${this.o.dir} changed during the deploy.`,
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
    const { contentType, cacheControl } = u.spec;
    await this.request(`uploading ${u.file}`, () =>
      this.bucket.put({ key: u.file, body, contentType, cacheControl, metadata }),
    );
    this.report!.sent++;
    this.report!.sentBytes += body.length;
  }

  /**
   * Headers alone: CopyObject onto itself with the new metadata, no bytes sent. After the uploads
   * (a header is no link), before the removals.
   */
  async retag(m: Made, total: number): Promise<void> {
    this.checkLease();
    this.stopIfAsked();
    const retag = async (u: Upload) => {
      const { contentType, cacheControl } = u.spec;
      const metadata = objectMetadata(u.sha256, u.spec);
      await this.request(`replacing the headers of ${u.file}`, () =>
        this.bucket.replaceMetadata({ key: u.file, contentType, cacheControl, metadata }),
      );
      this.report!.retagged++;
    };
    await pool(m.plan.retags, this.o.concurrency, retag, this.o.signal);
    this.stopIfAsked();
    const n = m.plan.retags.length;
    if (n > 0) this.o.onStep?.(m.plan.steps.length + 1, total, `${n} with new headers (bytes not sent)`);
  }

  /**
   * The function's `?tag=` keys: a new tag's key once its list is up, a removed tag's key before
   * its list goes (until then the function sends the list's tag URL to the object).
   */
  async syncKvs(state: BucketState, m: Made, written: string[], removed: string[]): Promise<void> {
    const kvs = this.o.kvs;
    if (!kvs || !this.report) return;
    this.checkLease();
    this.report.kvs = await this.attempt("updating the CloudFront KeyValueStore", () =>
      syncKeyValueStore(kvs, {
        from: state.trusted?.at,
        to: m.to,
        written,
        removed,
        allFiles: () => readSnapshotFiles(this.o.dir).files.keys(),
        // The bucket's own plan was a full comparison, or a dead deploy's keys are redone: the
        // store is compared in full too (rare, and then the snapshot is read whole anyway).
        full: m.fallback !== undefined || state.pendingBytes !== undefined,
      }),
    );
  }

  /** What the snapshot no longer has, lists first, after every upload. */
  async remove(m: Made, total: number): Promise<void> {
    this.checkLease();
    const remove = async (key: string) => {
      await this.request(`removing ${key}`, () => this.bucket.remove(key));
      this.report!.removed++;
    };
    await pool(m.plan.removals, this.o.concurrency, remove, this.o.signal);
    this.stopIfAsked();
    const n = m.plan.removals.length;
    if (n > 0) this.o.onStep?.(total, total, `${n} removed`);
  }

  /**
   * The record, only over the one this deploy read: if another deploy wrote one meanwhile (its
   * lease lapsed under this one), this one must not record over it. It names the generation whose
   * rows were planned: every file changed after it was sent (the hash check refuses bytes of
   * another generation), so the next deploy asks the log from here. Until this write the record
   * keeps the older generation, and the pending mark names what this run touched: a rerun after a
   * kill sends both.
   */
  async writeRecord(state: BucketState, m: Made, parts: readonly string[] = []): Promise<void> {
    this.checkLease();
    this.stage = "before-record";
    this.stopIfAsked();
    const body = encodeRecord({ metadata: m.metadata, at: m.to, facts: m.facts });
    const condition = state.recordRead ? { ifMatch: state.recordRead.etag } : { ifNoneMatch: "*" as const };
    const written = await this.request("writing the deploy record", () =>
      this.bucket.putIf({ key: RECORD_KEY, body, contentType: "application/gzip" }, condition),
    );
    if (written === undefined) {
      throw new BuildError(
        `Deploy to s3://${this.o.bucket}/${this.o.prefix} did not record its work.`,
        [
          {
            what: "another deploy wrote the deploy record while this one ran (this one's lease had lapsed)",
            where: `s3://${this.o.bucket}/${this.o.prefix}${RECORD_KEY}`,
            fix: "run the deploy again: the pending mark makes it check every key this one touched",
          },
        ],
        EXIT.deploy,
      );
    }
    // The parts of streamed runs first: the record is written, so a kill before the mark goes leaves
    // a mark whose keys are no longer needed (nothing is left behind unnamed).
    await pool([...state.parts, ...parts], this.o.concurrency, (key) =>
      this.request("removing the pending mark", () => this.bucket.remove(key)),
    );
    await this.request("removing the pending mark", () => this.bucket.remove(PENDING_KEY));
  }

  /** Gives the lease back and completes the report. */
  async finish(): Promise<DeployReport> {
    await this.lease?.release();
    const report = this.report!;
    report.requests = this.requests + (this.lease?.requests() ?? 0);
    report.seconds = (performance.now() - this.t0) / 1000;
    this.lease = undefined;
    return report;
  }

  /**
   * After a failure: a stop gives the lease back now (so the rerun need not wait for it to lapse)
   * and says whether it could; any other failure gives it back too (the pending mark, not the
   * lease, says what to redo).
   */
  async release(e: unknown): Promise<void> {
    const lease = this.lease;
    this.lease = undefined;
    if (!lease) return;
    const released = await lease.release().then(
      () => true,
      () => false,
    );
    if (e instanceof DeployStopped) e.leaseReleased = released;
  }

  close(): void {
    if (!this.o.bucketImpl) this.bucket.close();
  }
}
