// `build-api publish`'s bucket side: a deploy whose snapshot is not on this disk. The ledger lives
// in the bucket beside the deploy record, split (ledger/ledger-groups.ts): a small index (LEDGER_KEY:
// ledger/bucket-site.ts packs it) and one object per group (ledger-objects.ts), fetched only for
// the groups a run reads, so a fresh runner holding only the store learns there what the bucket
// serves, in proportion to what changed. The phases, in order:
//   open:  the deploy lease (lease.ts), the record and pending mark, the index downloaded (with its
//          ETag) into a working copy and recovered: a delta staged by a run killed after its
//          record was written is applied (its groups' old rows loaded first), one killed before
//          it dropped; the objects either left behind are removed.
//   (the build renders what changed into a temporary folder: cli/publish.ts joins the two, and
//   runs the build again after loading the groups it read that were not loaded)
//   send:  the changed groups cut and named, the index with its pending delta put over the one
//          read (If-Match: two publishers cannot both advance one ledger), the new group objects,
//          then the same steps as `deploy` (run.ts: pending mark, uploads in link order, retags,
//          removals, the record), then the delta applied and the index switched to the new
//          objects (put over the one this run wrote), the replaced objects removed, the lease given back.
// A run killed anywhere leaves the pending mark or the staged delta: the next run settles it. After
// a pending mark the next run renders every file (the keys a dead run touched need their bytes,
// and only a full render has them here) but still sends only what differs from the ledger.
import { createHash, randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { entryHex } from "../ledger/file-entry.ts";
import { INPUTS_FILE } from "../ledger/inputs.ts";
import type { Ledger } from "../ledger/port.ts";
import { workingCopy } from "../ledger/bucket-site.ts";
import { io } from "../publish/io.ts";
import { EDGE_FILE } from "../hosting/rules.ts";
import type { BucketChanges, BucketPublicationOptions } from "../publish/bucket-publication.ts";
import { NO_EDGE_FACTS, type EdgeFacts } from "../routes/pagination.ts";
import { BuildError, EXIT } from "../shared/errors.ts";
import { requestFailure } from "./failure.ts";
import { LedgerObjects } from "./ledger-objects.ts";
import { metadataDigest, objectSpec } from "./objects.ts";
import { edgeFactsOf } from "./plan-source.ts";
import {
  headerSuspects,
  orderRemovals,
  planChanges,
  planDeploy,
  type DeployPlan,
  type Upload,
} from "./plan.ts";
import { DEFAULT_STAGE_BYTES, StreamUpload, type Streamed } from "./stream-upload.ts";
import { DeployRun, type BucketState, type Made } from "./run.ts";
import type { SnapshotFile } from "./snapshot-files.ts";
import type { DeployOptions, DeployReport } from "./types.ts";

/** The ledger's object, beside the deploy record (record.ts) under the prefix; no rule serves it. */
export const LEDGER_KEY = "_build-api-ledger.gz";

/** What `open` found: the working ledger and how the build must use it. */
export interface Opened {
  ledger: Ledger;
  /** The working copy's folder: the previous inputs record is read from it. */
  ledgerDir: string;
  /** The ledger's rows describe what the bucket serves. */
  describes: boolean;
  /** Render every file: nothing is known of the bucket, or a run died leaving its pending mark. */
  rewriteAll: boolean;
  /** Why the plan compares every file, when it does. */
  fallback?: string;
  version: string;
  generation: number;
}

/** `work`: an empty private folder (the ledger copy in `ledger/`, the new files in `out/`). */
export interface PublishRunOptions extends Omit<DeployOptions, "dir" | "kvs" | "dryRun"> {
  work: string;
  /**
   * A run that renders every file streams it to the bucket as it renders (stream-upload.ts), with
   * at most `budget` bytes (default DEFAULT_STAGE_BYTES) spooled and not yet sent; false: never
   * (the files wait in `out/`). Not with `bucketImpl` (the upload thread opens its own bucket)
   * unless `discard` (bench hook: the served objects are read and dropped, not sent).
   */
  stream?: false | { budget?: number; discard?: boolean };
}

/** The name the ledger gives the bucket's generation `g` (the deploy record's). */
const versionOf = (g: number): string => `g${g}`;

export class PublishRun {
  readonly run: DeployRun;
  readonly outDir: string;
  private readonly copy;
  private readonly o: PublishRunOptions;
  private ledgerEtag: string | undefined;
  private ledgerRequests = 0;
  private objects: LedgerObjects | undefined;
  /** The index's bytes read, and how many times the build ran (again after loading what it missed). */
  private indexBytes = 0;
  /** The inputs record as the index had it: a build run again reads it, not the one the first wrote. */
  private inputs: Buffer | undefined;
  builds = 0;
  private state: BucketState | undefined;
  private opened: Opened | undefined;
  private stream: StreamUpload | undefined;
  private streamRun: string | undefined;

  constructor(o: PublishRunOptions) {
    this.o = o;
    this.outDir = path.join(o.work, "out");
    this.copy = workingCopy(path.join(o.work, "ledger"));
    this.run = new DeployRun({ ...o, dir: this.outDir });
  }

  /** A request of the ledger's own, counted, its failure classified as a deploy's. */
  private async request<T>(doing: string, op: () => Promise<T>): Promise<T> {
    this.ledgerRequests++;
    try {
      return await op();
    } catch (e) {
      this.run.stopIfAsked();
      throw requestFailure(e, this.o, doing);
    }
  }

  async open(): Promise<Opened> {
    const run = this.run;
    run.stopIfAsked();
    await run.takeLease();
    const state = await run.readBucketState();
    this.state = state;
    const read = await this.request("reading the ledger", () => run.bucket.getTagged(LEDGER_KEY));
    this.ledgerEtag = read?.etag;
    this.indexBytes = read?.body.length ?? 0;
    const readable = this.copy.unpack(read?.body);
    if (!readable) this.copy.unpack(undefined);
    const inputsFile = path.join(this.copy.dir, INPUTS_FILE);
    this.inputs = existsSync(inputsFile) ? readFileSync(inputsFile) : undefined;
    const ledger = this.copy.open();
    const objects = new LedgerObjects(ledger, run.bucket, (d, op) => this.request(d, op), this.o.concurrency);
    this.objects = objects;
    objects.attach(ledger);
    const at = state.trusted?.at;
    const sameLog = at !== undefined && at.log === ledger.log;
    const live = sameLog ? versionOf(at.generation) : undefined;
    // A delta whose record was written is applied (the run died after it); any other, dropped.
    const pending = ledger.pendingTarget();
    await objects.settle(pending !== undefined && pending.version === live);
    ledger.recover(live, true);
    const describes = sameLog && ledger.describes(live, at.generation);
    const fallback = !read
      ? "no ledger in the bucket"
      : !readable
        ? "the bucket's ledger is not of this format"
        : !state.trusted?.at
          ? "no deploy record of a publication in the bucket"
          : !describes
            ? "the bucket's ledger does not describe the deploy record's generation"
            : state.trusted.metadata !== metadataDigest()
              ? "the deploy record was written under other metadata rules"
              : state.pendingBytes
                ? "a publication was interrupted: every file is rendered to settle the keys it touched"
                : undefined;
    // Every file is compared with the ledger's rows: all of them are read.
    if (describes && fallback !== undefined) await objects.loadAll();
    const generation = ledger.generation + 1;
    this.opened = {
      ledger,
      ledgerDir: this.copy.dir,
      describes,
      rewriteAll: fallback !== undefined,
      ...(fallback !== undefined && { fallback }),
      version: versionOf(generation),
      generation,
    };
    return this.opened;
  }

  /**
   * Before a build that renders every file: the pending mark naming this run, and the stream the
   * build hands its tournaments', players' and search files to (undefined: no stream).
   */
  async startStream(now: number): Promise<BucketPublicationOptions["stream"]> {
    const opened = this.opened!;
    const o = this.o.stream;
    if (!opened.rewriteAll || o === false || (this.o.bucketImpl && !o?.discard)) return undefined;
    const state = this.state!;
    const metadata = metadataDigest();
    const known = opened.describes && state.trusted?.metadata === metadata ? opened.ledger : undefined;
    const runId = randomBytes(8).toString("hex");
    await this.run.markStreaming(state, runId);
    const { bucketImpl: _b, signal: _s, onStep: _o, onLease: _l, stream: _t, work: _w, ...bucket } = this.o;
    let archived: () => readonly string[] = () => [];
    const stream = new StreamUpload({
      bucket,
      spool: path.join(this.o.work, "spool"),
      budget: o?.budget ?? DEFAULT_STAGE_BYTES,
      known,
      unknown: state.unknown,
      metadata,
      archived: () => archived(),
      run: runId,
      check: () => {
        this.run.checkLease();
        this.run.stopIfAsked();
      },
      onBatch: (n, sent) => this.o.onStep?.(n, 0, `${sent} uploaded while rendering`),
      discard: o?.discard ?? false,
    });
    this.stream = stream;
    this.streamRun = runId;
    return {
      take: stream.take,
      useIndex: (index) => {
        archived = () => index.archived(now);
      },
    };
  }

  /** The stream's figures (undefined: the run did not stream). */
  streamFigures(): StreamUpload["stats"] | undefined {
    return this.stream?.stats;
  }

  /** After the build staged its delta: the ledger, the objects, the record, the ledger applied. */
  async send(changes: BucketChanges): Promise<DeployReport> {
    const run = this.run;
    const state = this.state!;
    const stream = this.stream;
    await stream?.finish();
    const made = await this.plan(changes);
    const report = run.startReport(state, made);
    if (stream) {
      report.sent += stream.stats.sent;
      report.sentBytes += stream.stats.sentBytes;
    }
    const total =
      made.plan.steps.length +
      (made.plan.retags.length > 0 ? 1 : 0) +
      (made.plan.removals.length > 0 ? 1 : 0);
    // Staged before any object changes: a run killed after its record finds the delta to apply.
    const objects = this.objects!;
    objects.stage();
    await this.putLedger("writing the ledger's pending delta");
    await objects.upload();
    await run.markPending(state, made, this.streamRun);
    await run.upload(made, total);
    await run.retag(made, total);
    await run.remove(made, total);
    await run.writeRecord(state, made, stream?.parts);
    const ledger = this.copy.open();
    objects.attach(ledger);
    ledger.apply();
    const garbage = objects.switchMap();
    ledger.close();
    await this.putLedger("writing the ledger");
    await objects.remove(garbage);
    const done = await run.finish();
    done.requests += this.ledgerRequests + (stream?.stats.requests ?? 0);
    return { ...report, ...done };
  }

  /**
   * After a build: when it read groups not loaded, its staged delta is dropped, they are loaded,
   * and true says to build again (the out folder emptied).
   */
  async buildAgain(): Promise<boolean> {
    this.builds++;
    const objects = this.objects!;
    if (objects.missing.size === 0) return false;
    // A streamed build loaded every group first (it renders every file): it never builds again.
    if (this.stream) throw new Error("a streamed publication's build read ledger groups it had not loaded");
    this.opened!.ledger.discard();
    io.rmSync(this.outDir, { recursive: true, force: true });
    const inputsFile = path.join(this.copy.dir, INPUTS_FILE);
    if (this.inputs) io.writeFileSync(inputsFile, this.inputs);
    else io.rmSync(inputsFile, { force: true });
    // A build that keeps missing groups (it should not: what it reads follows from what it loaded) loads all.
    if (this.builds >= 4) {
      objects.missing.clear();
      await objects.loadAll();
    } else await objects.loadMissing();
    return true;
  }

  /** What the ledger's own objects cost this run. */
  ledgerFigures(): {
    indexBytes: number;
    objectsRead: number;
    bytesRead: number;
    objectsWritten: number;
    bytesWritten: number;
    objectsRemoved: number;
    builds: number;
  } {
    const o = this.objects;
    return {
      indexBytes: this.indexBytes,
      objectsRead: o?.read.objects ?? 0,
      bytesRead: o?.read.bytes ?? 0,
      objectsWritten: o?.written.objects ?? 0,
      bytesWritten: o?.written.bytes ?? 0,
      objectsRemoved: o?.written.removed ?? 0,
      builds: this.builds,
    };
  }

  /** The bucket already holds what the store gives: nothing is written, the lease is given back. */
  async unchanged(): Promise<DeployReport> {
    const state = this.state!;
    const facts = state.trusted?.facts ?? NO_EDGE_FACTS;
    const plan = planChanges({
      written: new Map(),
      removed: [],
      unknown: new Map(),
      suspects: new Map(),
      facts,
    });
    const to = state.trusted!.at!;
    this.run.startReport(state, {
      plan,
      root: this.outDir,
      to,
      rowsRead: 0,
      metadata: metadataDigest(),
      facts,
      uploads: [],
      touched: [],
    });
    const objects = this.objects;
    if (objects?.owesWriteBack) {
      // A recovered delta changed groups: their objects and the index are written back.
      objects.stage(true);
      await this.putLedger("writing the ledger's pending objects");
      await objects.upload();
      const ledger = this.copy.open();
      objects.attach(ledger);
      const garbage = objects.switchMap();
      ledger.close();
      await this.putLedger("writing the ledger");
      await objects.remove(garbage);
    }
    this.opened?.ledger.close();
    const done = await this.run.finish();
    done.requests += this.ledgerRequests;
    return done;
  }

  /** Closes the working ledger (merging its WAL) and puts it over the one read or last written. */
  private async putLedger(doing: string): Promise<void> {
    this.run.checkLease();
    this.run.stopIfAsked();
    this.opened?.ledger.close();
    const body = this.copy.pack();
    const condition = this.ledgerEtag ? { ifMatch: this.ledgerEtag } : { ifNoneMatch: "*" as const };
    const etag = await this.request(doing, () =>
      this.run.bucket.putIf({ key: LEDGER_KEY, body, contentType: "application/gzip" }, condition),
    );
    if (etag === undefined) throw this.raced();
    this.ledgerEtag = etag;
  }

  private raced(): BuildError {
    return new BuildError(
      `Publish to s3://${this.o.bucket}/${this.o.prefix} did not record its work.`,
      [
        {
          what: "another publication wrote the ledger while this one ran (this one's lease had lapsed)",
          where: `s3://${this.o.bucket}/${this.o.prefix}${LEDGER_KEY}`,
          fix: "run the publish again: it plans from the ledger the other one left",
        },
      ],
      EXIT.deploy,
    );
  }

  /** The plan: from the changed files alone, or (rewriteAll) every file against the ledger's rows. */
  private async plan(changes: BucketChanges): Promise<Made> {
    const opened = this.opened!;
    const state = this.state!;
    const ledger = opened.ledger;
    const metadata = metadataDigest();
    const record = state.trusted;
    const facts: EdgeFacts = changes.fresh.includes(EDGE_FILE)
      ? edgeFactsOf(this.outDir)
      : (record?.facts ?? NO_EDGE_FACTS);
    const streamed = this.stream?.files;
    const written = new Map(changes.fresh.map((p) => [p, streamed?.get(p) ?? this.fileOf(p)]));
    const to = { log: ledger.log, generation: opened.generation };
    let plan: DeployPlan;
    let rowsRead = written.size;
    if (changes.liveKnown && record?.metadata === metadata) {
      // Keys whose headers may change: a tournament entering or leaving the archive reads every row.
      const archive = archiveChanged(facts, record.facts);
      if (archive) await this.objects!.loadAll();
      const keys = archive ? [...ledger.allFiles()].map(([k]) => k) : [];
      const suspects = new Map<string, SnapshotFile | undefined>();
      for (const k of headerSuspects(facts, record.facts, keys)) {
        const row = written.get(k) ?? rowOf(ledger, k);
        suspects.set(k, changes.removed.includes(k) ? undefined : row);
      }
      rowsRead += keys.length + suspects.size;
      plan = planChanges({ written, removed: changes.removed, unknown: new Map(), suspects, facts });
    } else {
      // Every file was rendered: compared with the ledger's rows when they describe the bucket.
      const files = new Map<string, SnapshotFile>();
      for (const [p, row] of opened.describes ? ledger.allFiles() : []) files.set(p, entryHex(row));
      rowsRead += files.size;
      const known = opened.describes ? { metadata: record?.metadata ?? "", files } : undefined;
      plan = planDeploy(written, known, state.unknown, metadata, facts);
      if (!known && this.run.bucket.list) {
        // Nothing known of the prefix: the served keys the snapshot lacks are found by listing it.
        const list = this.run.bucket.list.bind(this.run.bucket);
        const keys = await this.request("listing the prefix", list);
        const extra = keys.filter((k) => !plan.target.has(k) && objectSpec(k) !== undefined);
        plan.removals = orderRemovals([...new Set([...plan.removals, ...extra])]);
      }
    }
    const uploads = plan.steps.flat();
    if (streamed) withoutStreamed(plan, uploads, streamed);
    const touched = [...uploads.map((u) => u.file), ...plan.retags.map((u) => u.file), ...plan.removals];
    return {
      plan,
      root: this.outDir,
      to,
      rowsRead,
      ...(opened.fallback !== undefined && { fallback: opened.fallback }),
      metadata,
      facts,
      uploads,
      touched,
    };
  }

  private fileOf(p: string): SnapshotFile {
    const bytes = readFileSync(path.join(this.outDir, p));
    return { sha256: createHash("sha256").update(bytes).digest("hex"), bytes: bytes.length };
  }

  async release(e: unknown): Promise<void> {
    await this.run.release(e);
  }

  /** Ends the upload thread (its spooled files go with the work folder). */
  async endStream(): Promise<void> {
    await this.stream?.close();
  }

  close(): void {
    try {
      this.opened?.ledger.close();
    } catch {
      // Closed already.
    }
    this.run.close();
  }
}

/**
 * The plan of a streamed run, once the stream sent its files: the plan's steps keep the files left
 * on disk only; a streamed file whose final headers differ from those it went up with (a
 * tournament found archived after its batch) is retagged; `uploads` (the report's, the purge's)
 * keeps them all.
 */
function withoutStreamed(plan: DeployPlan, uploads: Upload[], streamed: ReadonlyMap<string, Streamed>): void {
  plan.steps = plan.steps.map((s) => s.filter((u) => !streamed.has(u.file))).filter((s) => s.length > 0);
  const retags = plan.retags.filter((u) => streamed.get(u.file)?.cacheControl === undefined);
  for (const u of uploads) {
    const sent = streamed.get(u.file)?.cacheControl;
    if (sent !== undefined && sent !== u.spec.cacheControl) retags.push(u);
  }
  plan.retags = retags.sort((a, b) => (a.file < b.file ? -1 : 1));
}

function rowOf(ledger: Ledger, p: string): SnapshotFile | undefined {
  const row = ledger.get(p);
  return row && entryHex(row);
}

function archiveChanged(now: EdgeFacts, before: EdgeFacts | undefined): boolean {
  const a = new Set(now.archived);
  const b = new Set(before?.archived ?? []);
  return a.size !== b.size || [...a].some((id) => !b.has(id));
}
