// An S3-compatible server on loopback for deploy tests (@20minutes/s3rver, a maintained s3rver),
// behind a front that adds S3's conditional writes (s3-conditional.ts: s3rver ignores If-Match
// and If-None-Match on writes), with a client for reading the bucket back and a log of the writes
// and removals it saw.
import { rmSync } from "node:fs";
import { CreateBucketCommand, GetObjectCommand, ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import S3rver from "@20minutes/s3rver";
import type { DeployOptions } from "../../src/deploy/deploy.ts";
import { inPool } from "./run-child.ts";
import { startConditionalFront, type ConditionalFront } from "./s3-conditional.ts";
import { ownedTempDir } from "./temp.ts";

export interface S3Event {
  name: string;
  key: string;
}

export interface LocalS3 {
  endpoint: string;
  bucket: string;
  /** The conditional-write front the endpoint is (its count of 412 answers). */
  front: ConditionalFront;
  client: S3Client;
  /** Every object write and removal, in order; clear it with events.length = 0. */
  events: S3Event[];
  /** How many events (writes, single removals) each key has had so far; never cleared, unlike `events`. */
  touched: Map<string, number>;
  /** Keys under `prefix`, relative to it, sorted. */
  list(prefix?: string): Promise<string[]>;
  get(key: string): Promise<
    | {
        body: Buffer;
        contentType?: string;
        cacheControl?: string;
        etag?: string;
        metadata: Record<string, string>;
      }
    | undefined
  >;
  close(): Promise<void>;
}

/** deploy()'s options for the snapshot `dir` into `prefix` of the local server (path-style URLs). */
export function localDeploy(
  s3: LocalS3,
  dir: string,
  prefix: string,
  more: Partial<DeployOptions> = {},
): DeployOptions {
  return { dir, bucket: s3.bucket, prefix, endpoint: s3.endpoint, pathStyle: true, concurrency: 8, ...more };
}

/** The same deploy as the CLI's arguments. */
export function localDeployArgs(s3: LocalS3, dir: string, prefix: string): string[] {
  return [
    "deploy",
    "--dir",
    dir,
    "--bucket",
    s3.bucket,
    "--prefix",
    prefix,
    "--endpoint",
    s3.endpoint,
    "--path-style",
  ];
}

/** The credentials the deploy reads the standard way (environment); s3rver's own. */
export const S3_ENV = {
  AWS_ACCESS_KEY_ID: "S3RVER",
  AWS_SECRET_ACCESS_KEY: "S3RVER",
  AWS_REGION: "us-east-1",
};

export async function startS3(bucket = "snapshots"): Promise<LocalS3> {
  // Where the tests' folders go (in RAM when there is room): s3rver keeps each object in files.
  const dir = ownedTempDir("s3");
  // The SDK's newest signing and s3rver's disagree on a detail; signatures are not what is tested.
  const server = new S3rver({
    port: 0,
    address: "127.0.0.1",
    silent: true,
    directory: dir,
    allowMismatchedSignatures: true,
  });
  const { port } = await server.run();
  const events: S3Event[] = [];
  const touched = new Map<string, number>();
  server.on("event", (e: { Records: { eventName: string; s3: { object: { key: string } } }[] }) => {
    for (const r of e.Records) {
      const key = decodeURIComponent(r.s3.object.key);
      events.push({ name: r.eventName, key });
      touched.set(key, (touched.get(key) ?? 0) + 1);
    }
  });
  const front = await startConditionalFront(`http://127.0.0.1:${port}`);
  const endpoint = front.endpoint;
  const client = new S3Client({
    endpoint,
    region: "us-east-1",
    forcePathStyle: true,
    credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
  });
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  return {
    endpoint,
    bucket,
    front,
    client,
    events,
    touched,
    async list(prefix = "") {
      // s3rver pages a listing in its folder walk's order and resumes after a page's last key in
      // key order, so a file beside the folder a page ends in (`feeds/1.atom` beside `feeds/1/…`)
      // can be lost: the keys under that folder's parent name are listed again at each boundary.
      const found = new Set<string>();
      const flat = async (under: string, fill: boolean): Promise<void> => {
        let after: string | undefined;
        let more = true;
        while (more) {
          const r = await client.send(
            new ListObjectsV2Command({ Bucket: bucket, Prefix: under, StartAfter: after }),
          );
          for (const o of r.Contents ?? []) found.add(o.Key!);
          after = r.Contents?.at(-1)?.Key;
          more = !!r.IsTruncated && after !== undefined;
          if (more && fill) {
            const cut = after!.lastIndexOf("/", after!.lastIndexOf("/") - 1);
            if (cut > under.length) await flat(after!.slice(0, cut), false);
          }
        }
      };
      await flat(prefix, true);
      const keys = [...found].map((k) => k.slice(prefix.length));
      return keys.sort();
    },
    async get(key) {
      try {
        const r = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        return {
          body: Buffer.from(await r.Body!.transformToByteArray()),
          contentType: r.ContentType,
          cacheControl: r.CacheControl,
          etag: r.ETag,
          metadata: r.Metadata ?? {},
        };
      } catch (e) {
        if ((e as { name?: string }).name === "NoSuchKey") return undefined;
        throw e;
      }
    },
    async close() {
      client.destroy();
      await front.close();
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Each server's objects as last read, with the key's count of writes and removals then. */
const readBefore = new WeakMap<LocalS3, Map<string, { touched: number; value: string }>>();

/**
 * Every served object under `prefix` (the build-api bookkeeping keys left out), its bytes and the
 * headers a client sees, as one comparable string per key. The keys are listed anew each time (a
 * removed key drops out, even one a batch delete removed, which raises no event); an object is read
 * again only when the server saw a write of its key since it was last read (every put, copy and
 * completed multipart upload raises one): reading a sample's thousand-odd objects in full for each
 * comparison took most of a publish test's time. Reads go 16 at a time.
 */
export async function servedObjects(s3: LocalS3, prefix: string): Promise<Map<string, string>> {
  const cache = readBefore.get(s3) ?? new Map<string, { touched: number; value: string }>();
  readBefore.set(s3, cache);
  const keys = (await s3.list(prefix)).filter((key) => !key.startsWith("_build-api"));
  const read = async (key: string): Promise<string> => {
    const full = `${prefix}${key}`;
    const touched = s3.touched.get(full) ?? 0;
    const known = cache.get(full);
    if (known?.touched === touched) return known.value;
    const o = (await s3.get(full))!;
    const { contentType, cacheControl, metadata } = o;
    const value = JSON.stringify([o.body.toString("base64"), contentType, cacheControl, metadata]);
    cache.set(full, { touched, value });
    return value;
  };
  const values = await inPool(
    16,
    keys.map((key) => () => read(key)),
  );
  return new Map(keys.map((key, i) => [key, values[i]!]));
}
