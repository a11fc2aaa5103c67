// A publication whose live snapshot is in a bucket, not on this disk (`build-api publish`): the
// build renders into the same StagingWriter as a local publication, but the live bookkeeping
// alone says which files are unchanged (their bytes are in the bucket), and the files with new
// bytes go straight to their place in a temporary folder, the only disk it uses (in proportion to
// the change). Commit stages the ledger's delta in the working copy; uploading the files and the
// ledger is the deploy layer's (deploy/publish-run.ts). No version directory, switch or lock here:
// the bucket's lease and the deploy record stand for them.
import path from "node:path";
import { performance } from "node:perf_hooks";
import type { Ledger } from "../ledger/port.ts";
import { io } from "./io.ts";
import type { Publication, PublishReport } from "./publish.ts";
import type { TournamentIndex } from "../ledger/tournament-index.ts";
import { CHANGED_PATHS_CAP, StagingWriter, type WriterOptions } from "./staging-writer.ts";

export interface BucketPublicationOptions {
  /** The working copy of the bucket's ledger, recovered. */
  ledger: Ledger;
  /** Whether its rows describe what the bucket serves (else every file is written anew). */
  describes: boolean;
  /** The version name and generation this publication stages. */
  version: string;
  generation: number;
  /** An empty folder: the files with new bytes are written at their paths in it. */
  outDir: string;
  /** Write every file anew (a full comparison: nothing is known of the bucket, or a killed run). */
  rewriteAll: boolean;
  /**
   * Streams files with new bytes to the bucket as they are rendered (deploy/stream-upload.ts):
   * `take` keeps a file off the out folder (true), and the stream reads the archived tournaments
   * from the build's index.
   */
  stream?: {
    take: NonNullable<WriterOptions["takeFresh"]>;
    useIndex(index: TournamentIndex): void;
  };
}

/** What the commit leaves for the upload: the changed paths, read once from the staged rows. */
export interface BucketChanges {
  /** Files with new bytes, each at `<outDir>/<path>` (but those a stream took). */
  fresh: string[];
  /** Files of the live ledger this build neither wrote nor kept. */
  removed: string[];
  /** False when every file was written (the plan then compares every file with the bucket's). */
  liveKnown: boolean;
}

export function beginBucketPublication(
  o: BucketPublicationOptions,
): Publication & { changes(): BucketChanges } {
  const t0 = performance.now();
  io.mkdirSync(o.outDir, { recursive: true });
  const incoming = path.join(o.outDir, "..", `incoming-${process.pid}`);
  io.mkdirSync(incoming, { recursive: true });
  const writer = new StagingWriter({
    incoming,
    live: o.describes ? o.ledger : undefined,
    liveElsewhere: true,
    rewriteAll: o.rewriteAll,
    direct: o.outDir,
    staged: o.ledger.staging(),
    index: (live) => o.ledger.index(live),
    ...(o.stream && { takeFresh: o.stream.take }),
    step: () => {},
  });
  o.stream?.useIndex(writer.index);
  let changes: BucketChanges | undefined;
  return {
    writer,
    commit(): PublishReport {
      const produced = performance.now();
      const collected = writer.finish();
      changes = {
        fresh: [...collected.fresh()],
        removed: [...collected.removed()],
        liveKnown: collected.liveKnown,
      };
      // The log restarts when earlier rows existed but described something else.
      o.ledger.stage(collected.delta(!o.describes && o.generation > 1), o.version, o.generation);
      const counts = collected.counts;
      counts.changed = { count: collected.counts.changed.count, paths: collected.changed(CHANGED_PATHS_CAP) };
      counts.changed.count = changes.fresh.length + changes.removed.length;
      return {
        ...counts,
        phases: { produce: produced - t0, finish: performance.now() - produced },
        snapshotDir: o.outDir,
        warnings: [],
      };
    },
    abort(cause: unknown): unknown {
      o.ledger.discard();
      return cause;
    },
    changes() {
      if (!changes) throw new Error("changes() before the bucket publication was committed");
      return changes;
    },
  };
}
