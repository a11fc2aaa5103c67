// The build of `build-api publish`: the same build as `build`, published into a bucket
// publication (publish/bucket-publication.ts) over the working copy of the bucket's ledger. It
// renders what changed since the generation the bucket serves into a temporary folder; the deploy
// layer (deploy/publish-run.ts) uploads it and the ledger, and cli/publish.ts joins the two.
import { copyFileSync, existsSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { DEFAULT_STATUS_OPTIONS } from "../domain/status.ts";
import { currentInputs, INPUTS_FILE, readRecord, upToDate } from "../ledger/inputs.ts";
import type { Ledger } from "../ledger/port.ts";
import {
  beginBucketPublication,
  type BucketChanges,
  type BucketPublicationOptions,
} from "../publish/bucket-publication.ts";
import { LIST_PAGE_SIZE } from "../routes/pagination.ts";
import { BuildError, EXIT } from "../shared/errors.ts";
import { revisionCounts } from "../store/read/revisions.ts";
import { build, type BuildOptions, type BuildReport } from "./build.ts";

/** The working ledger as the deploy layer opened it (deploy/publish-run.ts Opened). */
export interface BucketLedger {
  ledger: Ledger;
  ledgerDir: string;
  describes: boolean;
  rewriteAll: boolean;
  version: string;
  generation: number;
  /** Files streamed to the bucket as they are rendered (deploy/stream-upload.ts), when it streams. */
  stream?: BucketPublicationOptions["stream"];
}

export type BucketBuild =
  { upToDate: true } | { upToDate: false; report: BuildReport; changes: BucketChanges };

/**
 * Builds `o.db` into `o.out` (empty; it receives only the files with new bytes) over `at`. Up to
 * date (the bucket's inputs record names these inputs, inside its validity window): nothing is
 * rendered. The new inputs record joins the ledger's working copy, which the upload packs with it.
 */
export async function buildForBucket(o: BuildOptions, at: BucketLedger): Promise<BucketBuild> {
  const previous = at.rewriteAll ? null : readRecord(at.ledgerDir);
  if (at.describes) refuseOlderStore(o.db, previous?.checked?.all);
  const inputs = currentInputs(
    o.db,
    o.statusOptions ?? DEFAULT_STATUS_OPTIONS,
    !!o.skipInvalid,
    o.pageSize ?? LIST_PAGE_SIZE,
    o.basePath,
    o.language,
  );
  if (at.describes && !at.rewriteAll && upToDate(previous, inputs, o.now)) return { upToDate: true };
  let publication: ReturnType<typeof beginBucketPublication> | undefined;
  const report = await build({
    ...o,
    rebuild: at.rewriteAll,
    secondVersion: false,
    site: {
      previous: () => previous as ReturnType<NonNullable<BuildOptions["site"]>["previous"]>,
      begin: () => {
        publication = beginBucketPublication({
          ledger: at.ledger,
          describes: at.describes,
          version: at.version,
          generation: at.generation,
          outDir: o.out,
          rewriteAll: at.rewriteAll,
          ...(at.stream && { stream: at.stream }),
        });
        return Promise.resolve(publication);
      },
    },
  });
  const written = path.join(o.out, INPUTS_FILE);
  if (existsSync(written)) copyFileSync(written, path.join(at.ledgerDir, INPUTS_FILE));
  return { upToDate: false, report, changes: publication!.changes() };
}

/**
 * A store behind what the bucket serves (a backup restored, another store) is refused: its count
 * of changes is below the one the bucket's publication was built from, and a tick would publish
 * an older state as if it were news. Stores that keep no revisions are not compared.
 */
function refuseOlderStore(db: string, recorded: string | undefined): void {
  if (recorded === undefined || !/^\d+$/.test(recorded)) return;
  let counts: ReturnType<typeof revisionCounts> = null;
  try {
    const d = new Database(db, { readonly: true, fileMustExist: true });
    try {
      counts = revisionCounts(d);
    } finally {
      d.close();
    }
  } catch {
    return; // the build's own opening of the store says what is wrong with it
  }
  if (counts === null || counts.all >= BigInt(recorded)) return;
  throw new BuildError(
    `The store ${db} is older than what the bucket serves.`,
    [
      {
        what: `its count of changes is ${counts.all}; the bucket's publication was built from a store at ${recorded} (a store restored from a backup, or another store)`,
        where: db,
        fix: "publish the newest store; to publish this one as it is (a rollback), remove the ledger's index `_build-api-ledger.gz` under the prefix first: the next run then compares every file",
      },
    ],
    EXIT.usage,
  );
}
