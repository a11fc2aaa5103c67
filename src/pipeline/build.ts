// The one place that joins I/O: check → open store → render → validate → publish.
import { realpathSync } from "node:fs";
import { performance } from "node:perf_hooks";
import type { ResourceLimits } from "node:worker_threads";
import { DEFAULT_STATUS_OPTIONS, type StatusOptions } from "../domain/status.ts";
import { LIST_PAGE_SIZE } from "../routes/pagination.ts";
import type { Publication, PublishOptions, PublishReport } from "../publish/index.ts";
import { liveTotals, withLiveIndex } from "../publish/changes.ts";
import type { ChangedTags, ChangedUrls } from "../hosting/purge.ts";
import type { PoolFallback } from "../render/pool.ts";
import type { RenderReport } from "../render/snapshot.ts";
import { sha256 } from "../ledger/state.ts";
import { clubsDigest } from "../ledger/keyed-ids.ts";
import {
  checkedOf,
  currentInputs,
  INPUTS_FILE,
  programKey,
  readRecord,
  recordText,
  upToDate,
  type Inputs,
  type InputsRecord,
  type RecordedWindow,
} from "../ledger/inputs.ts";

/** The render report as the inputs record keeps it (JSON writes its infinite bounds as null). */
type RecordedReport = Omit<RenderReport, "validFrom" | "validUntil"> & RecordedWindow;

export interface BuildOptions {
  db: string;
  out: string;
  /** The build instant, epoch milliseconds: the same store and instant give the same bytes. */
  now: number;
  statusOptions?: StatusOptions;
  skipInvalid?: boolean;
  force?: boolean;
  /** Render everything even when the previous snapshot was built from the same inputs. */
  rebuild?: boolean;
  /** Worker threads that render tournaments (default: os.availableParallelism()); 1: this thread. */
  jobs?: number;
  /**
   * A first build also makes the second snapshot version, so that the next build in `out` costs
   * what changed (default true). False (--no-second-version) suits a one-off build that is
   * deployed or exported and then discarded: the next build in `out`, if any, makes it instead.
   */
  secondVersion?: boolean;
  /** Items per page of a long list (default LIST_PAGE_SIZE, routes/pagination.ts; tests lower it). */
  pageSize?: number;
  /** The base path the snapshot is served under (routes/urls.ts parseBasePath); "": the root. */
  basePath?: string;
  /** The language of the pages, feeds, calendars and error pages (src/i18n; default "en"). The
   * JSON answers are the same in every language. */
  language?: string;
  /** The origin the snapshot is served at (build --origin, https://host): absolute links where a
   * path will not do (webcal: subscriptions); absent: none. */
  origin?: string;
  /**
   * List every tournament's warnings and standings stops in the report (--verbose, --json), not
   * only count them: that reads the detail of each tournament that has any.
   */
  listIssues?: boolean;
  /** Test hook: start workers only when at least this many tournaments are to be rendered. */
  minJobsForWorkers?: number;
  /** Test hook: the render workers' heap limits (render/pool.ts WORKER_LIMITS). */
  workerLimits?: ResourceLimits;
  onPhase?: (name: string) => void;
  /**
   * Where the snapshot is published instead of the versions beside `out` (`build-api publish`: a
   * bucket, publish/bucket-publication.ts): the previous inputs record and the publication come
   * from it, and the caller decides whether the inputs are up to date.
   */
  site?: {
    previous(): InputsRecord<RecordedReport> | null;
    begin(o: PublishOptions): Promise<Publication>;
  };
  /** After each tournament: `done` of `total` through, `files` rendered by this build so far. */
  onProgress?: (done: number, total: number, files: number) => void;
}

export interface BuildReport {
  /** True when the previous snapshot was built from the same inputs and is kept as it is. */
  upToDate: boolean;
  render: RenderReport;
  publish: PublishReport;
  /** The URL paths a CDN must purge: those serving the files the publication wrote or removed. */
  changedUrls?: ChangedUrls;
  /**
   * Facts the operator should know that are no error: why the store's revisions are not trusted
   * (every tournament's rows are then read and hashed, O(store) per build).
   */
  notes?: string[];
  /**
   * Render threads: --jobs as asked (default: the cores) and as used (never more than the cores;
   * by default no more workers than fit in the memory budget beside this thread: render/pool.ts).
   */
  jobs?: { requested: number; used: number; capped: boolean; workers: number; memoryCapped: boolean };
  /** The purge tags (Cache-Tag, Surrogate-Key) of the answers whose files changed. */
  changedTags?: ChangedTags;
}

/** The origin (build --origin) the snapshot in `out` was built with; undefined without one. */
export function snapshotOrigin(out: string): string | undefined {
  return readRecord(out)?.origin;
}

export async function build(opts: BuildOptions): Promise<BuildReport> {
  const started = performance.now();
  const statusOptions = opts.statusOptions ?? DEFAULT_STATUS_OPTIONS;
  opts.onPhase?.("check");
  const pageSize = opts.pageSize ?? LIST_PAGE_SIZE;
  const inputs = currentInputs(
    opts.db,
    statusOptions,
    !!opts.skipInvalid,
    pageSize,
    opts.basePath,
    opts.language,
    opts.origin,
  );
  const site = opts.site;
  const previous =
    inputs && !opts.rebuild ? (site ? site.previous() : readRecord<RecordedReport>(opts.out)) : null;
  const manifest =
    !site && previous && upToDate(previous, inputs, opts.now) ? liveTotals(opts.out) : undefined;
  if (manifest) {
    const bytes = manifest.bytes;
    const r = previous!.render;
    // The record counts the warnings; listing them reads the live tournaments' records.
    const listed = opts.listIssues
      ? await import("../ledger/tournament-index.ts").then((ix) =>
          withLiveIndex(opts.out, (index) => ix.issuesOf(index)),
        )
      : undefined;
    return {
      upToDate: true,
      render: {
        ...r,
        ...listed,
        validFrom: r.validFrom ?? -Infinity,
        validUntil: r.validUntil ?? Infinity,
        rendered: { tournaments: 0, warnings: [], unknownResults: 0, standingsStops: [] },
      },
      changedUrls: { count: 0, paths: [], complete: true },
      changedTags: { tags: [], complete: true },
      publish: {
        filesWritten: 0,
        filesUnchanged: manifest.size,
        filesRemoved: 0,
        bytesWritten: 0,
        bytesTotal: bytes,
        files: manifest.size,
        phases: { check: performance.now() - started },
        snapshotDir: realpathSync(opts.out),
        changed: { count: 0, paths: [] },
        warnings: [],
      },
    };
  }

  // The heavy modules (schemas, ajv, the domain, the writers) load only when there is work to do.
  const [
    { openApiText },
    { hostFiles },
    { SnapshotValidator },
    { beginPublication },
    { renderSnapshot },
    { openStore },
    { createPool, workerCount, MEMORY_BUDGET_MIB, WORKER_RSS_MIB },
    { changedUrls, changedTags },
  ] = await Promise.all([
    import("../output/generated.ts"),
    import("../hosting/hosts/index.ts"),
    import("../output/validate.ts"),
    import("../publish/index.ts"),
    import("../render/snapshot.ts"),
    import("../store/read/open.ts"),
    import("../render/pool.ts"),
    import("../hosting/purge.ts"),
  ]);
  opts.onPhase?.("open");
  // The store is read in one transaction from here on: one build reads one state of it. Its
  // quick_check reads every page: full builds and --rebuild run it, a tick (a previous snapshot
  // to build on) does not; `build-api verify` runs it on a schedule (docs/design/incremental.md).
  const store = openStore(opts.db, { quickCheck: previous === null });
  const jobs = workerCount(opts.jobs);
  const notes: string[] = [];
  const trouble = store.revisionTrouble();
  if (trouble)
    notes.push(
      `${trouble}: every build reads and hashes every tournament's rows to find what changed ` +
        "(run `build-api upgrade-store`, or restore the triggers of schema/store.sql)",
    );
  const missingIndexes = store.missingIndexes();
  if (missingIndexes.length > 0)
    notes.push(
      `the store lacks the indexes ${missingIndexes.join(", ")} of schema/store.sql: every build reads every ` +
        "tag and recap row, and every revision (run `build-api upgrade-store` to add them)",
    );
  if (jobs.memoryCapped)
    notes.push(
      `${jobs.used} render worker${jobs.used === 1 ? "" : "s"} for ${jobs.requested} cores, to keep the build's memory near ` +
        `${MEMORY_BUDGET_MIB} MiB (each worker takes about ${WORKER_RSS_MIB} MiB); --jobs <n> uses more`,
    );
  let pool: Awaited<ReturnType<typeof createPool>> | undefined;
  try {
    const storeKey = store.storeKey();
    // What the live snapshot's build read: when it read this same file, with the same clubs, at a
    // count not past today's, the render may look only at what changed since (render/snapshot.ts
    // onHistory decides, with the tournaments that build found changed last).
    const counts = store.revisionCounts();
    const before = checkedOf(previous?.checked, store.history);
    const checked =
      counts && before && before.clubs === clubsDigest(counts.clubs) && before.since <= counts.all
        ? {
            since: before.since,
            base: before.base,
            skipped: previous!.render.skipped.map((t) => t.externalId),
          }
        : undefined;
    // Begun under the lock: the live snapshot, whose files keepOwned keeps, cannot change now.
    const publication = await (site?.begin ?? beginPublication)({
      outDir: opts.out,
      force: opts.force,
      onPhase: opts.onPhase,
      // --rebuild writes every file anew; --force never deletes the input store.
      rewriteAll: opts.rebuild,
      protectedPaths: [opts.db],
      pairFirstBuild: opts.secondVersion !== false,
    });
    const { writer } = publication;
    let render: RenderReport;
    try {
      pool = createPool({
        workers: jobs.workers,
        minJobs: opts.minJobsForWorkers,
        db: opts.db,
        identity: store.identity,
        storeKey,
        now: opts.now,
        statusOptions,
        limits: opts.workerLimits,
      });
      // The files and the state go to the publication (its ledger takes the state with the
      // files, in one transaction); the progress line counts the files rendered, not those kept.
      render = await renderSnapshot(store, writer, {
        now: opts.now,
        statusOptions,
        skipInvalid: opts.skipInvalid ?? false,
        validator: new SnapshotValidator(),
        openApi: openApiText(opts.basePath),
        hostFiles: (facts) => hostFiles(store.vocabulary(), facts),
        pageSize,
        listIssues: opts.listIssues,
        basePath: opts.basePath,
        language: opts.language,
        origin: opts.origin,
        onProgress: opts.onProgress && ((done, total) => opts.onProgress!(done, total, writer.written)),
        programKey: inputs ? programKey(inputs) : null,
        index: writer.index,
        checked,
        rebuild: opts.rebuild ?? false,
        previousBase: before?.base,
        pool,
      });
      notes.push(...fallbackNotes(pool?.fallback, MEMORY_BUDGET_MIB));
      if (inputs) writeInputs(publication, inputs, storeKey, counts, store.history, render);
    } catch (e) {
      throw publication.abort(e);
    }
    const publish = publication.commit();
    return {
      upToDate: false,
      render,
      publish,
      changedUrls: changedUrls(publish.changed, opts.basePath),
      jobs,
      notes,
      changedTags: changedTags(publish.changed),
    };
  } finally {
    await pool?.close();
    store.close();
  }
}

/** What the build's notes say of a render pool that fell back to this thread. */
function fallbackNotes(fallback: PoolFallback | undefined, budgetMib: number): string[] {
  if (fallback?.reason === "out-of-memory")
    return [
      `a render worker ran out of memory (its heap is capped at ${fallback.heapMib} MiB) at tournament ` +
        `${fallback.at ?? "(none in hand)"}: this thread rendered the ${fallback.tournaments} left, so the build's ` +
        `memory may have gone past ${budgetMib} MiB (--jobs 1 renders in this thread from the start)`,
    ];
  if (fallback)
    return [
      `the store changed while the render workers started: this thread rendered the ${fallback.tournaments} ` +
        "tournaments from the state it read",
    ];
  return [];
}

/** The inputs record, with what the store's checks covered for the next build (StoreChecked). */
function writeInputs(
  publication: Publication,
  inputs: Inputs,
  storeKey: string | null,
  counts: { all: bigint; clubs: string } | null,
  identity: string,
  r: RenderReport,
): void {
  const storeChecked = counts &&
    r.storeCheck?.base && {
      checked: {
        store: sha256(identity),
        all: counts.all.toString(),
        clubs: clubsDigest(counts.clubs),
        base: r.storeCheck.base,
      },
    };
  publication.writer.write(
    INPUTS_FILE,
    recordText({ ...inputs, store: storeKey, ...storeChecked }, publicReport(r)),
  );
}

/**
 * The report as the snapshot records it: only public facts. A skipped tournament's problems name
 * the store's file, private row keys and cell values, so only their count is kept.
 */
function publicReport(r: RenderReport): RenderReport {
  // The warnings themselves stay in the bookkeeping (the record would grow with the store).
  const {
    rendered: _perBuild,
    storeCheck: _check,
    plan: _plan,
    warnings: _w,
    standingsStops: _s,
    ...same
  } = r;
  return {
    ...same,
    skipped: r.skipped.map((s) => ({
      externalId: s.externalId,
      problems: [],
      problemCount: s.problems.length,
    })),
    ...(r.skippedClubs && {
      // The row key (club_id) is private: only the count is kept.
      skippedClubs: r.skippedClubs.map((s) => ({ club: "", problems: [], problemCount: s.problems.length })),
    }),
  };
}
