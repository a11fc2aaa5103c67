// Writes the edge code for a snapshot: the CloudFront Function with the snapshot's query keys in
// front of the bundle (it must be republished when they change: the deploy says so), the
// viewer-response function (the same for every snapshot), and the R2 Worker, which needs nothing
// from the snapshot. Refuses a function over CloudFront's 10 KB.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { hostRules } from "../../hosting/rules.ts";
import { BuildError, EXIT } from "../../shared/errors.ts";
import { readSnapshotFiles } from "../snapshot-files.ts";
import { CLOUDFRONT_FUNCTION } from "./generated/cloudfront-function.ts";
import { CLOUDFRONT_RESPONSE_FUNCTION } from "./generated/cloudfront-response.ts";
import { R2_WORKER } from "./generated/r2-worker.ts";
import { queryKeys } from "./cloudfront-function.ts";

/** Room the bundled code must leave for a snapshot's `?tag=` keys: about 7 clubs of their own tags. */
export const CLOUDFRONT_KEYS_RESERVE = 256;

/** CloudFront's quota on a function's code. */
export const CLOUDFRONT_MAX_BYTES = 10 * 1024;

export const CLOUDFRONT_FILE = "cloudfront-function.js";
export const CLOUDFRONT_RESPONSE_FILE = "cloudfront-response.js";
export const R2_WORKER_FILE = "r2-worker.js";

/** The CloudFront Function's text for a snapshot holding `files`. */
export function cloudfrontFunctionText(files: Iterable<string>): string {
  const keys = queryKeys(hostRules(), files);
  return `var QUERY_KEYS=${JSON.stringify(keys)};\n${CLOUDFRONT_FUNCTION}`;
}

/**
 * The R2 Worker: the same for every snapshot, since the headers that depend on the snapshot (an
 * archived tournament's Cache-Control, a paged list's Link) come with each object's metadata.
 * `snapshotDir` is kept for callers that name the snapshot.
 */
export function r2WorkerText(_snapshotDir?: string): string {
  return R2_WORKER;
}

/**
 * The CloudFront Function's text for a snapshot, refused (exit 11) over CloudFront's limit with
 * what makes it large: the code is fixed (about 9.9 KB), the `?tag=` keys grow by about 17 bytes a
 * club whose tags others share and 40 a club with tags of its own (scripts/cloudfront-size.ts).
 */
export function checkedCloudfrontFunction(files: Iterable<string>, where: string): string {
  const fn = cloudfrontFunctionText(files);
  const size = Buffer.byteLength(fn);
  if (size <= CLOUDFRONT_MAX_BYTES) return fn;
  const code = Buffer.byteLength(CLOUDFRONT_FUNCTION);
  const keys = queryKeys(hostRules(), files);
  const lists = keys.k.reduce((n, m) => n + Object.keys(m).length, 0);
  throw new BuildError(
    "The CloudFront Function for this snapshot does not fit CloudFront's limit.",
    [
      {
        what:
          `it is ${size} bytes; CloudFront takes at most ${CLOUDFRONT_MAX_BYTES}: the code is ${code} bytes and ` +
          `the snapshot's ?tag= keys (${lists} tagged lists, ${keys.v.length} distinct tag lists) ${size - code}`,
        where,
        fix:
          "serve this snapshot with R2 and r2-worker.js (it reads what exists from the bucket: no table, no " +
          "limit), or keep CloudFront for fewer clubs per distribution (one distribution per group of clubs, " +
          "each deployed from its own snapshot); see docs/guide/object-storage.md#limits",
      },
    ],
    EXIT.deploy,
  );
}

/** Writes the edge files into `outDir`; returns report lines. */
export function writeEdgeCode(snapshotDir: string, outDir: string): string[] {
  const snap = readSnapshotFiles(snapshotDir);
  const fn = checkedCloudfrontFunction(snap.files.keys(), path.join(outDir, CLOUDFRONT_FILE));
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
  return [
    `wrote ${responseTarget} (viewer response: the same for every snapshot)`,
    `wrote ${target} (${size} bytes, ${CLOUDFRONT_MAX_BYTES - size} left${before === fn ? ", unchanged" : before === undefined ? "" : ", changed: publish it again"})`,
    `wrote ${workerTarget}${workerBefore === worker ? " (unchanged)" : workerBefore === undefined ? "" : " (changed: deploy it again)"}`,
  ];
}
