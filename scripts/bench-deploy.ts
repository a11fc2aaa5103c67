// Measures `build-api deploy` against a local S3-compatible server (s3rver in its own process):
// a first deploy of a synthetic store (objects per second, and the CPU the client and the server
// each spent, to say which one bounds it), then deploys after a one-tournament tick (one player
// renamed, rebuilt): objects sent, requests, seconds. The ratio of tick seconds between the sizes
// says whether a deploy's time grows with the store.
//   node scripts/bench-deploy.ts [--sizes 200,2000] [--ticks 3] [--concurrency 16] [--keep DIR]
//     [--record-only-above N]
// --keep DIR keeps each size's store and snapshot in DIR/<size>/ (store.sqlite, dist) and reuses
// them when present: a 20,000-tournament store takes many minutes to generate and build; the
// layout is `npm run bench -- --work DIR --keep`'s, so the snapshots of the build bench serve here.
// Builds run as `build-api build` in a child process (scripts/bench.ts's harness), so a kept
// snapshot is brought up to date by a no-change rebuild, not rebuilt. --seed is the generator's
// seed for a store not kept (7, as the build bench).
// --record-only-above N: above N tournaments the first deploy reads, hashes and records every file
// but sends none of them (a bucket that drops object writes): the ticks after it are measured as
// after a full first deploy, since a deploy trusts its record and never lists the bucket, without
// the hour of uploads; the first-deploy rate then comes from the smaller sizes.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { scriptArgs } from "./lib/args.ts";
import { startS3Child } from "./lib/s3-child.ts";
import { CreateBucketCommand, S3Client } from "@aws-sdk/client-s3";
import { openBucket, type Bucket } from "../src/deploy/bucket.ts";
import { deploy, type DeployReport } from "../src/deploy/deploy.ts";
import { Harness } from "./bench.ts";
import { generateStore } from "./gen-store.ts";

const values = scriptArgs(import.meta.url, {
  sizes: { type: "string", default: "200,2000" },
  ticks: { type: "string", default: "3" },
  concurrency: { type: "string", default: "16" },
  keep: { type: "string" },
  "record-only-above": { type: "string", default: String(Number.MAX_SAFE_INTEGER) },
  seed: { type: "string", default: "7" },
});
const sizes = values.sizes.split(",").map(Number);
const ticks = Number(values.ticks);
const concurrency = Number(values.concurrency);
const recordOnlyAbove = Number(values["record-only-above"]);
const harness = new Harness(path.join(import.meta.dirname, "../bin/build-api.js"), undefined);

Object.assign(process.env, {
  AWS_ACCESS_KEY_ID: "S3RVER",
  AWS_SECRET_ACCESS_KEY: "S3RVER",
  AWS_REGION: "us-east-1",
});

/** CPU seconds a process has used (user + system), from /proc. */
function cpuOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (100 Hz)
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** The bucket with object writes dropped: only the deploy's own bookkeeping (keys `_build-api-…`) goes up. */
function recordOnly(b: Bucket): Bucket {
  return { ...b, put: (o) => (o.key.startsWith("_build-api-") ? b.put(o) : Promise.resolve()) };
}

interface Row {
  size: number;
  recordOnly: boolean;
  first: DeployReport;
  firstClientCpu: number;
  firstServerCpu: number;
  ticks: DeployReport[];
}

const rows: Row[] = [];
console.log(
  `cores ${cpus().length}, load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")}, concurrency ${concurrency}`,
);
for (const size of sizes) {
  const work = mkdtempSync(path.join(tmpdir(), `build-api-bench-deploy-${size}-`));
  const server = await startS3Child(path.join(work, "s3"));
  try {
    const kept = values.keep === undefined ? work : path.resolve(values.keep, String(size));
    mkdirSync(kept, { recursive: true });
    const db = path.join(kept, "store.sqlite");
    const out = path.join(kept, "dist");
    if (!existsSync(db)) generateStore({ tournaments: size, seed: values.seed, out: db });
    const ready = harness.build(db, out, kept);
    console.log(
      `${size} tournaments: store and snapshot ready (build ${ready.seconds.toFixed(1)} s, ` +
        `${ready.upToDate ? "up to date" : `${ready.written} files written`})`,
    );
    const client = new S3Client({ endpoint: server.endpoint, forcePathStyle: true });
    await client.send(new CreateBucketCommand({ Bucket: "bench" }));
    client.destroy();
    const opts = {
      dir: out,
      bucket: "bench",
      prefix: "",
      endpoint: server.endpoint,
      pathStyle: true,
      concurrency,
    };
    const c0 = process.cpuUsage();
    const s0 = cpuOf(server.pid);
    const skipObjects = size > recordOnlyAbove;
    const real = skipObjects ? openBucket(opts) : undefined;
    const first = await deploy(real ? { ...opts, bucketImpl: recordOnly(real) } : opts);
    real?.close();
    const c1 = process.cpuUsage(c0);
    const row: Row = {
      size,
      recordOnly: skipObjects,
      first,
      firstClientCpu: (c1.user + c1.system) / 1e6,
      firstServerCpu: cpuOf(server.pid) - s0,
      ticks: [],
    };
    const builds: number[] = [];
    for (let i = 0; i < ticks; i++) {
      harness.changeOneTournament(db, i);
      builds.push(harness.build(db, out, kept).seconds);
      row.ticks.push(await deploy(opts));
    }
    rows.push(row);
    const t = row.ticks;
    console.log(
      `${size} tournaments: first deploy ${skipObjects ? `RECORD ONLY (${first.toSend} objects hashed and recorded, none sent)` : `${first.sent} objects`} in ${first.seconds.toFixed(1)} s ` +
        `(${(first.toSend / first.seconds).toFixed(0)} objects/s; CPU client ${row.firstClientCpu.toFixed(1)} s, ` +
        `server ${row.firstServerCpu.toFixed(1)} s); tick builds ${builds.map((b) => b.toFixed(1)).join("/")} s; ` +
        `tick deploy: sent ${t.map((r) => r.sent).join("/")} objects, ` +
        `${t.map((r) => r.requests).join("/")} requests, ${t.map((r) => r.seconds.toFixed(3)).join("/")} s ` +
        `(median ${median(t.map((r) => r.seconds)).toFixed(3)} s)`,
    );
  } finally {
    server.stop();
    await new Promise((r) => setTimeout(r, 300));
    rmSync(work, { recursive: true, force: true }); // the bucket; a --keep directory stays
  }
}
if (rows.length >= 2) {
  const a = median(rows[0]!.ticks.map((r) => r.seconds));
  const b = median(rows.at(-1)!.ticks.map((r) => r.seconds));
  console.log(`tick deploy time ratio ${rows.at(-1)!.size}/${rows[0]!.size}: ${(b / a).toFixed(2)}`);
}
console.log(
  `load after ${loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")}`,
);
