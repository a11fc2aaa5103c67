// Serves a snapshot through the generated R2 Worker (src/hosting/hosts/r2/runtime/generated/r2-worker.ts) under wrangler's
// local runtime (Miniflare running workerd, with its R2 simulation), for scripts/ci-hosts.sh to
// probe. The local R2 bucket is filled with the objects `build-api deploy` would write (the
// served files, with the same Content-Type, Cache-Control and metadata); Miniflare comes from
// the separate npm project scripts/hosts, never the root. Loopback only; stops on SIGTERM.
//   node scripts/r2-worker-local.ts --dir DIR --port N [--hosts scripts/hosts]
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { exitWithUsage, scriptArgs } from "./lib/args.ts";
import { r2WorkerText } from "../src/deploy/edge-code.ts";
import { storedObject } from "../src/deploy/objects.ts";
import { EDGE_FILE } from "../src/hosting/rules.ts";
import type { EdgeFacts } from "../src/routes/pagination.ts";
import { readSnapshotFiles } from "../src/deploy/snapshot-files.ts";

const values = scriptArgs(import.meta.url, {
  dir: { type: "string" },
  port: { type: "string" },
  hosts: { type: "string", default: path.join(import.meta.dirname, "hosts") },
});
if (!values.dir || !values.port)
  exitWithUsage(import.meta.url, "--dir <snapshot> and --port <n> are required");

interface R2Put {
  put(key: string, body: Uint8Array, options: object): Promise<unknown>;
}
interface MiniflareLike {
  ready: Promise<URL>;
  getR2Bucket(name: string): Promise<R2Put>;
  dispose(): Promise<void>;
}
const require = createRequire(path.join(path.resolve(values.hosts), "package.json"));
const { Miniflare } = require("miniflare") as { Miniflare: new (o: object) => MiniflareLike };

const mf = new Miniflare({
  modules: true,
  // As `deploy --edge-out` writes it: the snapshot's facts come with each object's metadata.
  script: r2WorkerText(values.dir),
  compatibilityDate: "2025-01-01",
  r2Buckets: ["BUCKET"],
  bindings: { PREFIX: "" },
  host: "127.0.0.1",
  port: Number(values.port),
});
const bucket = await mf.getR2Bucket("BUCKET");
const snap = readSnapshotFiles(values.dir);
let n = 0;
const facts = JSON.parse(readFileSync(path.join(values.dir, EDGE_FILE), "utf8")) as EdgeFacts;
for (const [file, f] of snap.files) {
  // What the deploy stores (deploy/objects.ts): headers and metadata, Link and archive class included.
  const stored = storedObject(file, f.sha256, facts);
  if (!stored) continue;
  // A plain Uint8Array: Miniflare serialises the body and refuses a Buffer.
  await bucket.put(file, new Uint8Array(readFileSync(path.join(snap.root, file))), {
    httpMetadata: { contentType: stored.contentType, cacheControl: stored.cacheControl },
    customMetadata: stored.metadata,
  });
  n++;
}
console.log(`r2 worker at ${(await mf.ready).href} (${n} objects)`);
process.on("SIGTERM", () => {
  void mf.dispose().then(() => process.exit(0));
});
