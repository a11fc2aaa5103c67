// The upload thread of a streamed publication (stream-upload.ts): it sends the batches the render
// hands it, one after another, while the main thread renders the next; each batch's pending part
// first, then its steps in deploy's order, each file deleted once sent. The bytes it frees are
// added to a shared counter the main thread waits on (its back-pressure), so the main thread needs
// no event loop to learn of them while it renders.
import { createHash } from "node:crypto";
import { readFile, unlink } from "node:fs/promises";
import path from "node:path";
import { type MessagePort, parentPort, workerData } from "node:worker_threads";
import { BuildError } from "../shared/errors.ts";
import { openBucket, type BucketOptions, type PutObject } from "./bucket.ts";
import { requestFailure } from "./failure.ts";
import { pool } from "./pool.ts";

/** One object to send: its spooled file and the headers it goes up with. */
export interface StreamedObject extends Omit<PutObject, "body"> {
  spool: string;
  sha256: string;
  bytes: number;
}

export interface StreamBatch {
  id: number;
  /** The batch's pending part, put before any of its objects. */
  part: { key: string; body: Uint8Array };
  steps: StreamedObject[][];
}

export interface StreamWorkerInit {
  bucket: BucketOptions;
  spool: string;
  /** [0]: bytes freed so far (the main thread waits on it). */
  freed: SharedArrayBuffer;
  port: MessagePort;
  /** Bench hook: read and check each file but send nothing (the served objects' transfer left out). */
  discard: boolean;
}

export type FromStreamWorker =
  | { type: "done"; id: number; sent: number; sentBytes: number; requests: number }
  | { type: "error"; message: string; problems?: BuildError["problems"]; exitCode?: number };

const init = workerData as StreamWorkerInit;
const freed = new BigInt64Array(init.freed);
const bucket = init.discard ? undefined : openBucket(init.bucket);
const queue: StreamBatch[] = [];
let busy = false;
let failed = false;

const free = (n: number): void => {
  Atomics.add(freed, 0, BigInt(n));
  Atomics.notify(freed, 0);
};

async function send(b: StreamBatch): Promise<void> {
  let sent = 0;
  let sentBytes = 0;
  let requests = 0;
  const put = async (o: PutObject, doing: string): Promise<void> => {
    requests++;
    try {
      await bucket?.put(o);
    } catch (e) {
      throw requestFailure(e, init.bucket, doing);
    }
  };
  await put(
    { key: b.part.key, body: Buffer.from(b.part.body), contentType: "application/gzip" },
    "writing the pending mark",
  );
  for (const step of b.steps) {
    await pool(step, init.bucket.concurrency, async (u) => {
      const file = path.join(init.spool, u.spool);
      const body = await readFile(file);
      // The bytes must be those the ledger will record.
      if (createHash("sha256").update(body).digest("hex") !== u.sha256)
        throw new Error(`${u.key}: the spooled file changed before it was sent`);
      const { spool: _s, sha256: _h, bytes: _b, ...o } = u;
      await put({ ...o, body }, `uploading ${u.key}`);
      await unlink(file);
      sent++;
      sentBytes += body.length;
      free(body.length);
    });
  }
  init.port.postMessage({ type: "done", id: b.id, sent, sentBytes, requests } satisfies FromStreamWorker);
}

async function drain(): Promise<void> {
  if (busy) return;
  busy = true;
  try {
    for (let b = queue.shift(); b && !failed; b = queue.shift()) await send(b);
  } catch (e) {
    failed = true;
    const m: FromStreamWorker =
      e instanceof BuildError
        ? { type: "error", message: e.message, problems: e.problems, exitCode: e.exitCode }
        : { type: "error", message: e instanceof Error ? e.message : String(e) };
    init.port.postMessage(m);
    // Wakes a main thread waiting for room: it reads the error.
    Atomics.notify(freed, 0);
  } finally {
    busy = false;
  }
}

parentPort!.on("message", (m: StreamBatch | { type: "stop" }) => {
  if ("type" in m) {
    bucket?.close();
    parentPort!.close();
    return;
  }
  queue.push(m);
  void drain();
});
