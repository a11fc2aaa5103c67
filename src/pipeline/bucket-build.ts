// The build of `build-api publish`: the same build as `build`, published into a bucket
// publication (publish/bucket-publication.ts) over the working copy of the bucket's ledger. It
// renders what changed since the generation the bucket serves into a temporary folder; the deploy
// layer (deploy/publish-run.ts) uploads it and the ledger, and cli/publish.ts joins the two.
import { copyFileSync, existsSync } from "node:fs";
import path from "node:path";
import { DEFAULT_STATUS_OPTIONS } from "../domain/status.ts";
import { currentInputs, INPUTS_FILE, readRecord, upToDate } from "../ledger/inputs.ts";
import type { Ledger } from "../ledger/port.ts";
import { beginBucketPublication, type BucketChanges } from "../publish/bucket-publication.ts";
import { LIST_PAGE_SIZE } from "../routes/pagination.ts";
import { build, type BuildOptions, type BuildReport } from "./build.ts";

/** The working ledger as the deploy layer opened it (deploy/publish-run.ts Opened). */
export interface BucketLedger {
  ledger: Ledger;
  ledgerDir: string;
  describes: boolean;
  rewriteAll: boolean;
  version: string;
  generation: number;
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
        });
        return Promise.resolve(publication);
      },
    },
  });
  const written = path.join(o.out, INPUTS_FILE);
  if (existsSync(written)) copyFileSync(written, path.join(at.ledgerDir, INPUTS_FILE));
  return { upToDate: false, report, changes: publication!.changes() };
}
