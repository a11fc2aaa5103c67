// The bucket as deploy uses it: put, get, delete of one key, through @aws-sdk/client-s3 configured
// the standard AWS way (credentials, region and endpoint from the environment and ~/.aws, or the
// options), with the SDK's standard retry strategy (backoff on throttling) and, around it, our own
// backoff for a throttled or dropped request that the SDK gave up on. Every request has a deadline
// (timeouts.ts) and a stop (the deploy's Ctrl-C) aborts the requests still in flight after a
// grace period: a server that accepts and never answers cannot hold a deploy.
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from "@aws-sdk/client-s3";
import { Agent } from "node:https";
import { Agent as HttpAgent } from "node:http";
import { handlerTimeouts, stopAfterGrace, type RequestStop } from "./timeouts.ts";

export interface BucketOptions {
  bucket: string;
  /** Key prefix, "" or ending with "/". */
  prefix: string;
  /** An S3-compatible endpoint (R2, GCS, B2, MinIO); default: AWS, or AWS_ENDPOINT_URL_S3. */
  endpoint?: string;
  region?: string;
  /** Path-style URLs (`endpoint/bucket/key`), which MinIO and some gateways need. */
  pathStyle?: boolean;
  /** Requests in flight at once. */
  concurrency: number;
  /** Our retries after the SDK's own; 0 in tests that want the first failure. */
  retries?: number;
  /**
   * Seconds one request may take, its answer included (default DEFAULT_REQUEST_SECONDS): a request
   * over it fails as a timeout, which the SDK tries again (5 attempts in all).
   */
  requestSeconds?: number;
}

export interface PutObject {
  key: string;
  body: Buffer;
  contentType: string;
  cacheControl?: string;
  metadata?: Record<string, string>;
}

/** A conditional write: only when no object is at the key, or only over the object with this ETag. */
export type WriteCondition = { ifNoneMatch: "*" } | { ifMatch: string };

export interface Bucket {
  put(o: PutObject): Promise<void>;
  /** The object's bytes, or undefined when there is none. */
  get(key: string): Promise<Buffer | undefined>;
  /** Removes the key; a key that is already gone is not an error. */
  remove(key: string): Promise<void>;
  /**
   * A conditional put (S3's If-None-Match / If-Match on PutObject): the new object's ETag, or
   * undefined when the condition failed (412) or a concurrent conditional write won (409).
   */
  putIf(o: PutObject, condition: WriteCondition): Promise<string | undefined>;
  /** The object's bytes and ETag, or undefined when there is none. */
  getTagged(key: string): Promise<{ body: Buffer; etag: string } | undefined>;
  /** Removes the key only while it holds the object with this ETag; false when it did not. */
  removeIf(key: string, etag: string): Promise<boolean>;
  /**
   * Replaces an object's headers and metadata without sending its bytes again (CopyObject onto
   * itself with MetadataDirective REPLACE): for a change of Cache-Control or Link alone.
   */
  replaceMetadata(o: Omit<PutObject, "body">): Promise<void>;
  /**
   * Every key under the prefix (relative to it), page by page. Only the full comparison after the
   * change log was lost uses it (a record of the log's generation lists no files): O(objects).
   */
  list?(): Promise<string[]>;
  close(): void;
}

/** A conditional request that lost: 412 Precondition Failed, or 409 ConditionalRequestConflict. */
export function isConditionFailed(e: unknown): boolean {
  const err = e as { name?: string; $metadata?: { httpStatusCode?: number } };
  const status = err.$metadata?.httpStatusCode;
  return (
    status === 412 ||
    status === 409 ||
    err.name === "PreconditionFailed" ||
    err.name === "ConditionalRequestConflict"
  );
}

/** Errors worth trying again: throttling, a server error, a dropped connection. */
export function isTransient(e: unknown): boolean {
  const err = e as {
    name?: string;
    code?: string;
    $retryable?: unknown;
    $metadata?: { httpStatusCode?: number };
  };
  const status = err.$metadata?.httpStatusCode;
  if (status !== undefined && (status === 429 || status >= 500)) return true;
  if (err.$retryable) return true;
  const name = err.name ?? "";
  if (/SlowDown|Throttl|RequestTimeout|TooManyRequests|ServiceUnavailable|InternalError/.test(name))
    return true;
  return ["ECONNRESET", "ECONNREFUSED", "ETIMEDOUT", "EPIPE", "EAI_AGAIN", "ENOTFOUND"].includes(
    err.code ?? "",
  );
}

/**
 * Runs `op`, waiting 0.2 s, 0.4 s, … (capped at 10 s, with full jitter) between transient failures;
 * never again once `stop` is aborted.
 */
export async function backoff<T>(op: () => Promise<T>, retries: number, stop?: AbortSignal): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await op();
    } catch (e) {
      if (attempt >= retries || !isTransient(e) || stop?.aborted) throw e;
      const cap = Math.min(10_000, 200 * 2 ** attempt);
      await new Promise((r) => setTimeout(r, Math.random() * cap));
    }
  }
}

function isMissing(e: unknown): boolean {
  const err = e as { name?: string; $metadata?: { httpStatusCode?: number } };
  return err.name === "NoSuchKey" || err.name === "NotFound" || err.$metadata?.httpStatusCode === 404;
}

/**
 * The bucket of `o`. `stop` (the deploy's stop): from its abort on no request is tried again, and
 * those still in flight after its grace period are aborted.
 */
export function openBucket(o: BucketOptions, stop?: RequestStop): Bucket {
  const agentOptions = { keepAlive: true, maxSockets: o.concurrency };
  const config: S3ClientConfig = {
    forcePathStyle: o.pathStyle ?? false,
    // Standard: exponential backoff with jitter on throttling and server errors. Not adaptive: the
    // requests in flight are already bounded by --concurrency, and adaptive's client-side rate
    // limiter, after a burst of 30 SlowDowns, held a 200-object deploy to 63 s against 8.6 s
    // (test/integration/deploy/deploy.test.ts, the throttling case).
    retryMode: "standard",
    maxAttempts: 5,
    // Checksums only where the API requires them: R2, B2 and GCS reject some of the newer
    // default checksum headers, and every body here is checked against the manifest's sha256.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
    // As many sockets as requests in flight (the SDK's default pool is 50).
    requestHandler: {
      httpAgent: new HttpAgent(agentOptions),
      httpsAgent: new Agent(agentOptions),
      ...handlerTimeouts(o.requestSeconds),
    },
  };
  if (o.endpoint) config.endpoint = o.endpoint;
  if (o.region) config.region = o.region;
  const client = new S3Client(config);
  // Every request carries the stop: one in flight is aborted once the stop's grace has passed.
  const req = stopAfterGrace(stop);
  const retries = o.retries ?? 5;
  const withBackoff = <T>(op: () => Promise<T>, n: number) => backoff(op, n, stop?.signal);
  const Bucket = o.bucket;
  const Key = (key: string) => `${o.prefix}${key}`;
  return {
    async put(p) {
      await withBackoff(
        () =>
          client.send(
            new PutObjectCommand({
              Bucket,
              Key: Key(p.key),
              Body: p.body,
              ContentType: p.contentType,
              CacheControl: p.cacheControl,
              Metadata: p.metadata,
            }),
            { abortSignal: req() },
          ),
        retries,
      );
    },
    async get(key) {
      try {
        return await withBackoff(async () => {
          const r = await client.send(new GetObjectCommand({ Bucket, Key: Key(key) }), {
            abortSignal: req(),
          });
          return Buffer.from(await r.Body!.transformToByteArray());
        }, retries);
      } catch (e) {
        if (isMissing(e)) return undefined;
        throw e;
      }
    },
    async remove(key) {
      await withBackoff(
        () => client.send(new DeleteObjectCommand({ Bucket, Key: Key(key) }), { abortSignal: req() }),
        retries,
      );
    },
    async putIf(p, condition) {
      try {
        const r = await withBackoff(
          () =>
            client.send(
              new PutObjectCommand({
                Bucket,
                Key: Key(p.key),
                Body: p.body,
                ContentType: p.contentType,
                CacheControl: p.cacheControl,
                Metadata: p.metadata,
                ...("ifNoneMatch" in condition
                  ? { IfNoneMatch: condition.ifNoneMatch }
                  : { IfMatch: condition.ifMatch }),
              }),
              { abortSignal: req() },
            ),
          retries,
        );
        return r.ETag ?? "";
      } catch (e) {
        if (isConditionFailed(e)) return undefined;
        throw e;
      }
    },
    async getTagged(key) {
      try {
        return await withBackoff(async () => {
          const r = await client.send(new GetObjectCommand({ Bucket, Key: Key(key) }), {
            abortSignal: req(),
          });
          return { body: Buffer.from(await r.Body!.transformToByteArray()), etag: r.ETag ?? "" };
        }, retries);
      } catch (e) {
        if (isMissing(e)) return undefined;
        throw e;
      }
    },
    async removeIf(key, etag) {
      try {
        await withBackoff(
          () =>
            client.send(new DeleteObjectCommand({ Bucket, Key: Key(key), IfMatch: etag }), {
              abortSignal: req(),
            }),
          retries,
        );
        return true;
      } catch (e) {
        if (isConditionFailed(e) || isMissing(e)) return false;
        throw e;
      }
    },
    async replaceMetadata(p) {
      await withBackoff(
        () =>
          client.send(
            new CopyObjectCommand({
              Bucket,
              Key: Key(p.key),
              // The source is `bucket/key`, each segment URL-encoded (keys here are plain segments).
              CopySource: `${Bucket}/${Key(p.key)}`,
              MetadataDirective: "REPLACE",
              ContentType: p.contentType,
              CacheControl: p.cacheControl,
              Metadata: p.metadata,
            }),
            { abortSignal: req() },
          ),
        retries,
      );
    },
    async list() {
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const page = await withBackoff(
          () =>
            client.send(new ListObjectsV2Command({ Bucket, Prefix: o.prefix, ContinuationToken: token }), {
              abortSignal: req(),
            }),
          retries,
        );
        for (const c of page.Contents ?? []) if (c.Key) keys.push(c.Key.slice(o.prefix.length));
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return keys;
    },
    close() {
      client.destroy();
    },
  };
}
