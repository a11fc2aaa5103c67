// A publication that renders every file (a first one, or after a killed run) streams what it
// renders to the bucket instead of holding the whole snapshot on this disk (issue 48): the files
// of the tournaments, players and search chunks (owners under `t/`) are spooled into a flat folder
// and handed, in batches cut at an owner's end, to an upload thread (stream-worker.ts) that sends
// each batch while the next renders, and deletes each file once sent. When the spool holds more
// than the budget the render waits (Atomics.wait: the writer is synchronous, and the uploads run on
// the other thread), so the local disk stays near the budget whatever the store's size.
//
// Order, as deploy's (plan.ts): the tournaments render before the players, the search index, the
// lists and the index page, and a batch never mixes two of those kinds, so every batch goes up
// after the ones before it and each batch's files go in deploy's steps (a round before its
// tournament). The lists, catalogs, assets and host files (every other owner) stay on disk (they
// grow with the lists, not the files) and go up after the stream, in the plan's steps, as today.
// Before a batch's first object the upload thread puts its pending part (the keys it may touch),
// and the pending mark, put before the render starts, names the run's parts: a run killed
// mid-stream is settled by the next as any pending mark is (run.ts reads the parts).
import { writeFileSync, rmSync, mkdirSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { receiveMessageOnPort, MessageChannel, Worker } from "node:worker_threads";
import { entryHex } from "../ledger/file-entry.ts";
import type { Ledger } from "../ledger/port.ts";
import { BuildError, type ExitCode } from "../shared/errors.ts";
import type { BucketOptions } from "./bucket.ts";
import { objectMetadata } from "./objects.ts";
import { planDeploy } from "./plan.ts";
import { encodePending, pendingPartKey } from "./record.ts";
import type { SnapshotFile } from "./snapshot-files.ts";
import type { FromStreamWorker, StreamBatch, StreamedObject, StreamWorkerInit } from "./stream-worker.ts";

/** The default local budget of a streamed publication: bytes spooled and not yet sent. */
export const DEFAULT_STAGE_BYTES = 256 * 1024 * 1024;

const WORKER_URL = new URL(
  `./stream-worker${import.meta.url.endsWith(".ts") ? ".ts" : ".js"}`,
  import.meta.url,
);

export interface StreamOptions {
  bucket: BucketOptions;
  /** An empty private folder for the spooled files. */
  spool: string;
  /** Bytes spooled and not yet sent beyond which the render waits. */
  budget: number;
  /** The bucket's ledger rows, when they describe what the bucket serves under these metadata rules. */
  known: Ledger | undefined;
  /** Keys a dead run may have touched: sent again whatever the ledger says. */
  unknown: ReadonlySet<string>;
  metadata: string;
  /** The tournaments archived so far (their objects take the archive cache class). */
  archived: () => readonly string[];
  /** The run's id: its pending parts are named by it. */
  run: string;
  /** At each batch: throws on a stop or a lost lease. */
  check: () => void;
  onBatch?: (batch: number, sent: number) => void;
  discard?: boolean;
}

/** What a streamed file became: its entry, and the Cache-Control it went up with (none: not sent). */
export interface Streamed extends SnapshotFile {
  cacheControl?: string;
}

type Kind = 0 | 1 | 2;
const kindOf = (owner: string): Kind | undefined =>
  !owner.startsWith("t/") ? undefined : owner.startsWith("t/~players/") ? 1 : owner.startsWith("t/~") ? 2 : 0;

export class StreamUpload {
  readonly files = new Map<string, Streamed>();
  /** `drainSeconds`: how long the uploads went on after the render ended (the last batches). */
  readonly stats = {
    batches: 0,
    sent: 0,
    sentBytes: 0,
    requests: 0,
    maxStagedBytes: 0,
    budget: 0,
    drainSeconds: 0,
  };
  readonly parts: string[] = [];
  private readonly o: StreamOptions;
  private readonly worker: Worker;
  private readonly port;
  private readonly freed: BigInt64Array;
  private batch: { file: string; spool: string; sha256: string; bytes: number }[] = [];
  private batchBytes = 0;
  private kind: Kind = 0;
  private owner = "";
  /** Bytes spooled (a sum), and bytes deleted without being sent (unchanged files). */
  private spooled = 0;
  private dropped = 0;
  private seq = 0;
  private inFlight = 0;
  private closed = false;
  /** The upload thread died without a word (seen only where this thread waits asynchronously). */
  private died: Error | undefined;

  constructor(o: StreamOptions) {
    this.o = o;
    this.stats.budget = o.budget;
    mkdirSync(o.spool, { recursive: true });
    const shared = new SharedArrayBuffer(8);
    this.freed = new BigInt64Array(shared);
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    const init: StreamWorkerInit = {
      bucket: o.bucket,
      spool: o.spool,
      freed: shared,
      port: port2,
      discard: o.discard ?? false,
    };
    this.worker = new Worker(WORKER_URL, { workerData: init, transferList: [port2] });
    this.worker.unref();
    this.worker.on("error", (e) => (this.died ??= e));
    this.worker.on("exit", (code) => {
      if (!this.closed) this.died ??= new Error(`the upload thread exited with code ${code}`);
    });
  }

  /** Bytes spooled and not yet sent or deleted. */
  private staged(): number {
    return this.spooled - this.dropped - Number(Atomics.load(this.freed, 0));
  }

  /** The writer's hook: true when the file is taken (streamed), false for the files kept on disk. */
  take = (relPath: string, bytes: Uint8Array, sha: Buffer, owner: string): boolean => {
    const kind = kindOf(owner);
    if (kind === undefined) return false;
    const half = this.o.budget / 2;
    if (this.batch.length > 0 && (kind !== this.kind || (owner !== this.owner && this.batchBytes >= half))) {
      this.cut();
      this.waitFor(half);
    }
    this.kind = kind;
    this.owner = owner;
    const spool = String(this.seq++);
    writeFileSync(path.join(this.o.spool, spool), bytes);
    this.batch.push({ file: relPath, spool, sha256: sha.toString("hex"), bytes: bytes.length });
    this.batchBytes += bytes.length;
    this.spooled += bytes.length;
    this.stats.maxStagedBytes = Math.max(this.stats.maxStagedBytes, this.staged());
    return true;
  };

  /** Hands the batch to the upload thread: its unchanged files deleted, the others in deploy's steps. */
  private cut(): void {
    this.o.check();
    this.poll();
    const batch = this.batch;
    this.batch = [];
    this.batchBytes = 0;
    const files = new Map(batch.map((f) => [f.file, { sha256: f.sha256, bytes: f.bytes }]));
    const spoolOf = new Map(batch.map((f) => [f.file, f.spool]));
    const rows = new Map<string, SnapshotFile>();
    for (const f of batch) {
      const row = this.o.known?.get(f.file);
      if (row) rows.set(f.file, entryHex(row));
    }
    const record = this.o.known && { metadata: this.o.metadata, files: rows };
    const archived = this.o.archived();
    const plan = planDeploy(files, record, this.o.unknown, this.o.metadata, {
      archived: [...archived],
      links: {},
    });
    const sent = new Set<string>();
    const steps: StreamedObject[][] = plan.steps.map((step) =>
      step.map((u) => {
        sent.add(u.file);
        const { contentType, cacheControl } = u.spec;
        this.files.set(u.file, { sha256: u.sha256, bytes: u.bytes, cacheControl });
        return {
          key: u.file,
          spool: spoolOf.get(u.file)!,
          sha256: u.sha256,
          bytes: u.bytes,
          contentType,
          cacheControl,
          metadata: objectMetadata(u.sha256, u.spec),
        };
      }),
    );
    for (const f of batch) {
      if (sent.has(f.file)) continue;
      // Unchanged (or served by no rule): nothing to send.
      this.files.set(f.file, { sha256: f.sha256, bytes: f.bytes });
      rmSync(path.join(this.o.spool, f.spool), { force: true });
      this.dropped += f.bytes;
    }
    if (steps.length === 0) return;
    const id = ++this.stats.batches;
    const key = pendingPartKey(this.o.run, id);
    this.parts.push(key);
    const part = { key, body: encodePending(sent) };
    this.inFlight++;
    this.worker.postMessage({ id, part, steps } satisfies StreamBatch);
  }

  /** Reads the upload thread's news; throws its failure. */
  private poll(): void {
    for (let m = receiveMessageOnPort(this.port); m; m = receiveMessageOnPort(this.port)) {
      const msg = m.message as FromStreamWorker;
      if (msg.type === "error") {
        const e = new BuildError(msg.message, msg.problems ?? [], (msg.exitCode ?? 1) as ExitCode);
        throw e;
      }
      this.inFlight--;
      this.stats.sent += msg.sent;
      this.stats.sentBytes += msg.sentBytes;
      this.stats.requests += msg.requests;
      this.o.onBatch?.(msg.id, msg.sent);
    }
  }

  /** Waits (blocking this thread: the render is synchronous) until at most `limit` bytes are staged. */
  private waitFor(limit: number): void {
    for (;;) {
      this.poll();
      const freed = Atomics.load(this.freed, 0);
      if (this.staged() <= limit || this.inFlight === 0) return;
      Atomics.wait(this.freed, 0, freed, 1000);
    }
  }

  /** After the render: the last batch sent, every batch done. */
  async finish(): Promise<void> {
    const t0 = performance.now();
    if (this.batch.length > 0) this.cut();
    while (this.inFlight > 0) {
      this.poll();
      if (this.inFlight === 0) break;
      if (this.died) throw this.died;
      await new Promise((r) => setTimeout(r, 5));
    }
    this.stats.drainSeconds = (performance.now() - t0) / 1000;
  }

  /** Ends the upload thread: the batches not sent stay named by their parts (the next run's to settle). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.worker.postMessage({ type: "stop" });
    await this.worker.terminate();
    this.port.close();
  }
}
