// Writes the edge code for a snapshot: the CloudFront Function with its first lines (the runtime's
// KeyValueStore module and the snapshot's base path: it must be republished only when the base
// path or build-api changes), the `?tag=` keys for its KeyValueStore as an import file (the
// deploy's --kvs-arn writes them itself, in O(change): deploy/kvs.ts), the viewer-response
// function (the same for every snapshot), and the R2 Worker, which needs nothing from the
// snapshot. Refuses a function over CloudFront's 10 KB.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { EDGE_FILE, hostRules } from "../hosting/rules.ts";
import { BuildError, EXIT } from "../shared/errors.ts";
import { readSnapshotFiles } from "./snapshot-files.ts";
import { CLOUDFRONT_FUNCTION } from "../hosting/hosts/cloudfront/runtime/generated/cloudfront-function.ts";
import { CLOUDFRONT_RESPONSE_FUNCTION } from "../hosting/hosts/cloudfront/runtime/generated/cloudfront-response.ts";
import { R2_WORKER } from "../hosting/hosts/r2/runtime/generated/r2-worker.ts";
import { KVS_VALUE, kvsKeysOf } from "../hosting/hosts/cloudfront/runtime/cloudfront-function.ts";

/** Room the bundled code must leave for the lines written in front of it (import, base path). */
export const CLOUDFRONT_PREFIX_RESERVE = 160;

/** CloudFront's quota on a function's code. */
export const CLOUDFRONT_MAX_BYTES = 10 * 1024;

export const CLOUDFRONT_FILE = "cloudfront-function.js";
export const CLOUDFRONT_RESPONSE_FILE = "cloudfront-response.js";
export const CLOUDFRONT_KVS_FILE = "cloudfront-kvs.json";
export const R2_WORKER_FILE = "r2-worker.js";

/** The line CloudFront's runtime needs first to read the associated KeyValueStore. */
export const CLOUDFRONT_KVS_IMPORT = "import cf from 'cloudfront';";

/** The CloudFront Function's text for a snapshot built under `base` ("" at the root). */
export function cloudfrontFunctionText(base = ""): string {
  const baseLine = base ? `var BUILD_API_BASE=${JSON.stringify(base)};\n` : "";
  return `${CLOUDFRONT_KVS_IMPORT}\n${baseLine}${CLOUDFRONT_FUNCTION}`;
}

/**
 * The snapshot's `?tag=` keys in the format CloudFront imports a KeyValueStore from (`data`: key
 * and value pairs; at most 5 MB, keys of at most 512 characters): for creating the store with
 * `aws cloudfront create-key-value-store --import-source`.
 */
export function kvsImportText(files: Iterable<string>): string {
  const data = kvsKeysOf(hostRules(), files).map((key) => ({ key, value: KVS_VALUE }));
  return `${JSON.stringify({ data }, null, 1)}\n`;
}

/** The CloudFront Function's text, refused (exit 11) over CloudFront's limit (a long base path). */
export function checkedCloudfrontFunction(base: string, where: string): string {
  const fn = cloudfrontFunctionText(base);
  const size = Buffer.byteLength(fn);
  if (size <= CLOUDFRONT_MAX_BYTES) return fn;
  throw new BuildError(
    "The CloudFront Function for this snapshot does not fit CloudFront's limit.",
    [
      {
        what:
          `it is ${size} bytes; CloudFront takes at most ${CLOUDFRONT_MAX_BYTES}: the code is ` +
          `${Buffer.byteLength(CLOUDFRONT_FUNCTION)} bytes and the base path's line the rest`,
        where,
        fix: "build with a shorter --base-path, or serve this snapshot with R2 and r2-worker.js",
      },
    ],
    EXIT.deploy,
  );
}

/** The base path a snapshot was built under (its edge facts' basePath), "" at the root. */
export function snapshotBasePath(snapshotDir: string): string {
  try {
    const f = JSON.parse(readFileSync(path.join(snapshotDir, EDGE_FILE), "utf8")) as { basePath?: unknown };
    return typeof f.basePath === "string" ? f.basePath : "";
  } catch {
    return "";
  }
}

/**
 * The R2 Worker: the same for every snapshot, since the headers that depend on the snapshot (an
 * archived tournament's Cache-Control, a paged list's Link) come with each object's metadata.
 * `snapshotDir` is kept for callers that name the snapshot.
 */
export function r2WorkerText(_snapshotDir?: string): string {
  return R2_WORKER;
}

/** Writes the edge files into `outDir`; returns report lines. */
export function writeEdgeCode(snapshotDir: string, outDir: string): string[] {
  const snap = readSnapshotFiles(snapshotDir);
  const fn = checkedCloudfrontFunction(snapshotBasePath(snapshotDir), path.join(outDir, CLOUDFRONT_FILE));
  const size = Buffer.byteLength(fn);
  mkdirSync(outDir, { recursive: true });
  const target = path.join(outDir, CLOUDFRONT_FILE);
  let before: string | undefined;
  try {
    before = readFileSync(target, "utf8");
  } catch {
    before = undefined;
  }
  writeFileSync(target, fn);
  const workerTarget = path.join(outDir, R2_WORKER_FILE);
  const worker = r2WorkerText(snapshotDir);
  let workerBefore: string | undefined;
  try {
    workerBefore = readFileSync(workerTarget, "utf8");
  } catch {
    workerBefore = undefined;
  }
  writeFileSync(workerTarget, worker);
  const responseTarget = path.join(outDir, CLOUDFRONT_RESPONSE_FILE);
  writeFileSync(responseTarget, CLOUDFRONT_RESPONSE_FUNCTION);
  const kvsTarget = path.join(outDir, CLOUDFRONT_KVS_FILE);
  writeFileSync(kvsTarget, kvsImportText(snap.files.keys()));
  return [
    `wrote ${kvsTarget} (the ?tag= keys, to create the function's KeyValueStore from; deploy --kvs-arn keeps it up to date)`,
    `wrote ${responseTarget} (viewer response: the same for every snapshot)`,
    `wrote ${target} (${size} bytes, ${CLOUDFRONT_MAX_BYTES - size} left${before === fn ? ", unchanged" : before === undefined ? "" : ", changed: publish it again"})`,
    `wrote ${workerTarget}${workerBefore === worker ? " (unchanged)" : workerBefore === undefined ? "" : " (changed: deploy it again)"}`,
  ];
}
