// `build-api publish`: a store straight to a bucket, with no local snapshot. The deploy layer opens
// the bucket's side (lease, record, the ledger's working copy: deploy/publish-run.ts), the
// pipeline renders what changed into a temporary folder (pipeline/bucket-build.ts), and the deploy
// layer sends it in `deploy`'s order and writes the ledger. The folder goes when the run ends.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import type { BuildOptions, BuildReport } from "../pipeline/build.ts";
import type { DeployReport } from "../deploy/types.ts";
import type { PublishRunOptions } from "../deploy/publish-run.ts";

export interface PublishToBucketOptions extends Omit<PublishRunOptions, "work"> {
  build: Omit<BuildOptions, "out" | "rebuild" | "site">;
  /** Where the temporary folder is made (default: the system's). */
  tmpDir?: string;
}

export interface PublishToBucketReport {
  /** The build's report; undefined when the bucket was up to date (nothing rendered). */
  build?: BuildReport;
  deploy: DeployReport;
  /** Why every file was rendered and compared, when it was. */
  fallback?: string;
  /** Seconds of each part: the bucket read (lease, record, ledger), the build, the uploads. */
  seconds: { open: number; build: number; send: number };
  /**
   * A run that rendered every file streamed it to the bucket as it rendered: its batches, and the
   * most bytes it held on this disk at once (spooled, not yet sent) against its budget.
   */
  stream?: { batches: number; sent: number; maxStagedBytes: number; budget: number; drainSeconds: number };
  /** The ledger's objects: the index read, the groups read and written (issue 48). */
  ledger: ReturnType<InstanceType<typeof import("../deploy/publish-run.ts").PublishRun>["ledgerFigures"]>;
}

export async function publishToBucket(o: PublishToBucketOptions): Promise<PublishToBucketReport> {
  const [{ PublishRun }, { buildForBucket }] = await Promise.all([
    import("../deploy/publish-run.ts"),
    import("../pipeline/bucket-build.ts"),
  ]);
  const work = mkdtempSync(path.join(o.tmpDir ?? os.tmpdir(), "build-api-publish-"));
  const run = new PublishRun({ ...o, work });
  const t0 = performance.now();
  try {
    const opened = await run.open();
    const t1 = performance.now();
    // A build that renders every file streams it (and the bucket is not up to date: every file).
    const stream = await run.startStream(o.build.now);
    const at = { ...opened, ...(stream && { stream }) };
    let built = await buildForBucket({ ...o.build, out: run.outDir }, at);
    // The build read groups of the ledger not loaded (a tick's players, its tournaments): again.
    while (!built.upToDate && (await run.buildAgain()))
      built = await buildForBucket({ ...o.build, out: run.outDir }, at);
    run.run.stopIfAsked();
    const t2 = performance.now();
    const seconds = () => ({
      open: (t1 - t0) / 1000,
      build: (t2 - t1) / 1000,
      send: (performance.now() - t2) / 1000,
    });
    if (built.upToDate) {
      const deploy = await run.unchanged();
      return { deploy, seconds: seconds(), ledger: run.ledgerFigures() };
    }
    const deploy = await run.send(built.changes);
    const streamed = run.streamFigures();
    return {
      build: built.report,
      deploy,
      ledger: run.ledgerFigures(),
      ...(streamed && {
        stream: {
          batches: streamed.batches,
          sent: streamed.sent,
          maxStagedBytes: streamed.maxStagedBytes,
          budget: streamed.budget,
          drainSeconds: streamed.drainSeconds,
        },
      }),
      ...(opened.fallback !== undefined && { fallback: opened.fallback }),
      seconds: seconds(),
    };
  } catch (e) {
    // The upload thread stops before the lease is given back: no upload outlives it.
    await run.endStream();
    await run.release(e);
    throw e;
  } finally {
    await run.endStream();
    run.close();
    rmSync(work, { recursive: true, force: true });
  }
}
