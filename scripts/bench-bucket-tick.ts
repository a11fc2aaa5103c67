// What a fresh CI runner's tick costs against a bucket (issue 48), on a local S3-compatible server
// (s3rver in its own process, loopback): with `build-api publish` (the ledger in the bucket) and
// with today's route without a cache (a full `build` into an empty folder, then `deploy`, whose
// record names another change log: every object is sent again). Per size:
//   1. publish of the store into prefix `p/` from a fresh runner (the first publication);
//   2. one tournament changed (one player renamed), publish again from a fresh runner: objects and
//      bytes sent, requests, bytes of state read (the ledger object), the temporary folder's
//      size (the files with new bytes and the ledger copy), seconds;
//   3. today: a full build into an empty folder and a deploy to `d/` (its first), then the same
//      change, a full build into another empty folder and a deploy: objects and bytes sent,
//      seconds; and the size of the snapshot a cache would carry (`du` of dist and its versions,
//      and as `tar | zstd -3` when zstd is installed), the Pages hosts' route.
//   node scripts/bench-bucket-tick.ts [--sizes 50,2000] [--concurrency 16] [--seed 7] [--no-today]
//     [--today-build-only] [--sink] [--warm] [--stage-mb 256] [--no-stream] [--first-only]
// The peak local disk of a publication: the temporary folder's size (`du`, the ledger's copy
// included) sampled at each streamed batch and before the last uploads, and the stream's own count
// of the rendered bytes it held at most (spooled, not yet sent). A first publication streams what
// it renders with at most --stage-mb held (--no-stream: the whole snapshot rendered first, as before).
// --sink: an in-process bucket that keeps the bytes of the build-api keys (lease, record, the
// ledger's index and group objects) and only the size of the served objects, so a first
// publication at M costs its build, not 678,000 loopback PUTs to s3rver: the state read, objects
// written, local disk and wall time of the tick are measured; transfer time is not. A streamed
// publication's upload thread (its own bucket) then reads and checks each file and drops it.
// --warm: also a local warm tick of the same change (a full `build`, the change, a `build`), the
// tick the fresh runner's is compared with.
// Each publication reads its own copy of the store (another file, as a runner's download is);
// the copy's time is not counted.
import { execSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { CreateBucketCommand, GetObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { scriptArgs } from "./lib/args.ts";
import { startS3Child } from "./lib/s3-child.ts";
import { Harness } from "./bench.ts";
import { generateStore, REFERENCE_NOW } from "./gen-store.ts";
import { build } from "../src/pipeline/build.ts";
import { deploy } from "../src/deploy/deploy.ts";
import { openBucket, type Bucket } from "../src/deploy/bucket.ts";
import { LEDGER_KEY } from "../src/deploy/publish-run.ts";
import { publishToBucket, type PublishToBucketReport } from "../src/cli/publish.ts";

const values = scriptArgs(import.meta.url, {
  sizes: { type: "string", default: "50,2000" },
  concurrency: { type: "string", default: "16" },
  seed: { type: "string", default: "7" },
  "no-today": { type: "boolean", default: false },
  // Today's route at one size only as its full build and the cache's size (no deploys): a
  // fresh runner's deploy sends every object, as the first publication does (measured above).
  "today-build-only": { type: "boolean", default: false },
  sink: { type: "boolean", default: false },
  warm: { type: "boolean", default: false },
  "stage-mb": { type: "string", default: "256" },
  "no-stream": { type: "boolean", default: false },
  "first-only": { type: "boolean", default: false },
});
const sizes = values.sizes.split(",").map(Number);
const concurrency = Number(values.concurrency);
const now = Date.parse(REFERENCE_NOW);
const harness = new Harness(path.join(import.meta.dirname, "../bin/build-api.js"), undefined);

Object.assign(process.env, {
  AWS_ACCESS_KEY_ID: "S3RVER",
  AWS_SECRET_ACCESS_KEY: "S3RVER",
  AWS_REGION: "us-east-1",
});

const load = () => loadavg()[0]!.toFixed(1);
const mb = (n: number) => (n / 1e6).toFixed(2);

/** `du -sb` of the given paths, in bytes (apparent sizes: hard links counted once; files deleted meanwhile skipped). */
const du = (paths: string[]): number =>
  Number(
    execSync(`du -scb ${paths.map((p) => JSON.stringify(p)).join(" ")} 2>/dev/null | tail -1`)
      .toString()
      .split("\t")[0],
  );

function zstdBytes(dir: string, names: string[]): number | undefined {
  try {
    execSync("command -v zstd", { stdio: "ignore" });
  } catch {
    return undefined;
  }
  const cmd = `tar -C ${JSON.stringify(dir)} -cf - ${names.join(" ")} | zstd -3 -T0 -c | wc -c`;
  return Number(
    execSync(cmd, { maxBuffer: 1 << 20 })
      .toString()
      .trim(),
  );
}

/** A bucket keeping the bytes of build-api's own keys only (see --sink). */
function sinkBucket(): Bucket {
  const kept = new Map<string, { body: Buffer; etag: string }>();
  let n = 0;
  const keep = (key: string, body: Buffer) => {
    const etag = `"${++n}"`;
    kept.set(key, { body: key.startsWith("_build-api") ? body : Buffer.alloc(0), etag });
    return etag;
  };
  return {
    put: async (o) => void keep(o.key, o.body),
    get: async (k) => kept.get(k)?.body,
    remove: async (k) => void kept.delete(k),
    putIf: async (o, c) => {
      const at = kept.get(o.key);
      if ("ifNoneMatch" in c ? at !== undefined : at?.etag !== c.ifMatch) return undefined;
      return keep(o.key, o.body);
    },
    getTagged: async (k) => kept.get(k),
    removeIf: async (k, etag) => (kept.get(k)?.etag === etag ? kept.delete(k) : false),
    replaceMetadata: async () => {},
    close: () => {},
  };
}

function line(label: string, r: PublishToBucketReport, seconds: number, state: number, disk: number): string {
  const d = r.deploy;
  const l = r.ledger;
  return (
    `${label}: ${seconds.toFixed(1)} s (bucket read ${r.seconds.open.toFixed(1)}, build ${r.seconds.build.toFixed(1)}, ` +
    `send ${r.seconds.send.toFixed(1)}), sent ${d.sent} objects (${mb(d.sentBytes)} MB), removed ${d.removed}, ` +
    `${d.requests} requests, rendered ${r.build?.render.rendered?.tournaments ?? 0} tournaments, ` +
    `state read ${mb(state)} MB (index ${mb(l.indexBytes)} MB, ${l.objectsRead} group objects ${mb(l.bytesRead)} MB), ` +
    `ledger objects written ${l.objectsWritten} (${mb(l.bytesWritten)} MB), removed ${l.objectsRemoved}, builds ${l.builds}, ` +
    `temporary folder at most ${mb(disk)} MB` +
    (r.stream
      ? `, streamed in ${r.stream.batches} batches (${r.stream.sent} objects), at most ${mb(r.stream.maxStagedBytes)} MB ` +
        `held (budget ${mb(r.stream.budget)} MB), uploads ${r.stream.drainSeconds.toFixed(1)} s past the render`
      : "") +
    `${r.fallback ? ` (${r.fallback})` : ""}, load ${load()}`
  );
}

for (const size of sizes) {
  const work = mkdtempSync(path.join(tmpdir(), `build-api-bench-bucket-${size}-`));
  const server = values.sink
    ? { endpoint: "http://127.0.0.1:9", stop: () => {} }
    : await startS3Child(path.join(work, "s3"));
  const sink = values.sink ? sinkBucket() : undefined;
  try {
    const db = path.join(work, "store.sqlite");
    generateStore({ tournaments: size, seed: values.seed, out: db });
    const client = new S3Client({ endpoint: server.endpoint, forcePathStyle: true });
    if (!sink) await client.send(new CreateBucketCommand({ Bucket: "bench" }));
    const ledgerBytes = async () => {
      if (sink) return (await sink.get(LEDGER_KEY))?.length ?? 0;
      const o = await client.send(new GetObjectCommand({ Bucket: "bench", Key: `p/${LEDGER_KEY}` }));
      return (await o.Body!.transformToByteArray()).length;
    };
    const bucket = { bucket: "bench", endpoint: server.endpoint, pathStyle: true, concurrency };
    const runner = path.join(work, "runner");
    mkdirSync(runner);
    const publish = async (label: string) => {
      const download = mkdtempSync(path.join(work, "download-"));
      const copy = path.join(download, "store.sqlite");
      copyFileSync(db, copy);
      const t0 = performance.now();
      let disk = 0;
      const r = await publishToBucket({
        ...bucket,
        ...(sink && { bucketImpl: sink }),
        prefix: "p/",
        tmpDir: runner,
        // At each streamed batch, and just before the last uploads (the folder then holds all the
        // files not streamed): the temporary folder's size.
        onStep: (done, total) => {
          if (done === 1 || total === 0) disk = Math.max(disk, du([runner]));
        },
        stream: values["no-stream"]
          ? false
          : { budget: Number(values["stage-mb"]) * 1024 * 1024, ...(sink && { discard: true }) },
        build: { db: copy, now },
      });
      rmSync(download, { recursive: true, force: true });
      const state = r.ledger.indexBytes + r.ledger.bytesRead;
      console.log(line(`${size} tournaments: ${label}`, r, (performance.now() - t0) / 1000, state, disk));
    };
    if (values.warm) {
      // The warm tick: the same change on a runner that keeps its snapshot.
      const dist = path.join(work, "warm", "dist");
      await build({ db, out: dist, now });
      harness.changeOneTournament(db, 0);
      const t0 = performance.now();
      const tick = await build({ db, out: dist, now });
      console.log(
        `${size} tournaments: warm tick (local snapshot kept): ${((performance.now() - t0) / 1000).toFixed(2)} s, ` +
          `${tick.publish.filesWritten} files written, load ${load()}`,
      );
      rmSync(path.join(work, "warm"), { recursive: true, force: true });
      // Back to the store the publication starts from: the same tournament changed once more below.
    }
    await publish("publish, first (fresh runner)");
    if (values["first-only"]) continue;
    harness.changeOneTournament(db, 0);
    await publish("publish, tick after one tournament changed (fresh runner)");
    console.log(`${size} tournaments: the ledger's index is ${mb(await ledgerBytes())} MB (gzip)`);
    client.destroy();

    if (values["no-today"]) continue;
    const todayRuns = values["today-build-only"]
      ? ["full build only"]
      : ["first", "tick after one more tournament changed"];
    for (const [i, label] of todayRuns.entries()) {
      if (i === 1) harness.changeOneTournament(db, 1);
      const fresh = path.join(work, `today-${i}`);
      mkdirSync(fresh);
      const t0 = performance.now();
      const built = await build({ db, out: path.join(fresh, "dist"), now });
      const t1 = performance.now();
      if (values["today-build-only"]) {
        const disk = du([path.join(fresh, "dist/"), path.join(fresh, ".dist.snapshots")]);
        const zst = zstdBytes(fresh, [".dist.snapshots"]);
        console.log(
          `${size} tournaments: today, ${label}: build ${((t1 - t0) / 1000).toFixed(1)} s (${built.publish.files} files); ` +
            `dist + .dist.snapshots ${mb(disk)} MB on disk${zst === undefined ? "" : `, ${mb(zst)} MB as tar | zstd -3`}, load ${load()}`,
        );
        rmSync(fresh, { recursive: true, force: true });
        continue;
      }
      // The record names another change log: the deploy sends every object again. Its listing of
      // the prefix (to find keys to remove) fails on s3rver past a few thousand keys, so the
      // bucket is given without `list`: the same uploads, no removals.
      const real = openBucket({ ...bucket, prefix: "d/" });
      const { list: _list, ...unlisted } = real;
      const bucketImpl = { ...unlisted, close: () => real.close() } as Bucket;
      const d = await deploy({ ...bucket, prefix: "d/", dir: path.join(fresh, "dist"), bucketImpl }).finally(
        () => real.close(),
      );
      const t2 = performance.now();
      const disk = du([path.join(fresh, "dist/"), path.join(fresh, ".dist.snapshots")]);
      const zst = zstdBytes(fresh, [".dist.snapshots"]);
      console.log(
        `${size} tournaments: today, ${label} (fresh runner: full build + deploy): build ${((t1 - t0) / 1000).toFixed(1)} s ` +
          `(${built.publish.files} files), deploy ${((t2 - t1) / 1000).toFixed(1)} s, sent ${d.sent} objects ` +
          `(${mb(d.sentBytes)} MB), ${d.requests} requests${d.fallback ? ` (${d.fallback})` : ""}; ` +
          `dist + .dist.snapshots ${mb(disk)} MB on disk${zst === undefined ? "" : `, ${mb(zst)} MB as tar | zstd -3`}, load ${load()}`,
      );
      rmSync(fresh, { recursive: true, force: true });
    }
  } finally {
    server.stop();
    await new Promise((r) => setTimeout(r, 300));
    rmSync(work, { recursive: true, force: true });
  }
}
