// The one place that joins I/O: check → open store → render → validate → publish.
import { realpathSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { DEFAULT_STATUS_OPTIONS, type StatusOptions } from "./domain/status.ts";
import type { PublishReport } from "./publish/index.ts";
import { MANIFEST_NAME, parseEntryValue, readManifest } from "./publish/manifest.ts";
import { readFileSync } from "node:fs";
import type { ChangedUrls } from "./purge.ts";
import type { RenderReport } from "./render.ts";
import { readState } from "./fingerprint.ts";
import { currentInputs, INPUTS_FILE, programKey, readRecord, upToDate } from "./up-to-date.ts";

export { codeFingerprint, INPUTS_FILE } from "./up-to-date.ts";

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
  /** Test hook: start workers only when at least this many tournaments are to be rendered. */
  minJobsForWorkers?: number;
  onPhase?: (name: string) => void;
  onProgress?: (done: number, total: number, files: number) => void;
}

export interface BuildReport {
  /** True when the previous snapshot was built from the same inputs and is kept as it is. */
  upToDate: boolean;
  render: RenderReport;
  publish: PublishReport;
  /** The URL paths a CDN must purge: those serving the files the publication wrote or removed. */
  changedUrls?: ChangedUrls;
}

/**
 * The number of files and bytes a snapshot's manifest lists: what the report of an up-to-date
 * snapshot needs. One pass of a regular expression over the file's text (its lines are the
 * writer's canonical JSON); readManifest, which parses every line, only when the text is not in
 * that form. Undefined when there is no manifest.
 */
export function manifestTotals(file: string): { size: number; bytes: number } | undefined {
  let buf: Buffer;
  try {
    buf = readFileSync(file);
  } catch {
    return undefined;
  }
  const header = Buffer.from('{"format":"build-api-manifest","version":1,"files":[\n');
  if (buf.subarray(0, header.length).equals(header)) {
    // Each entry line ends with `"bytes":<digits>}` and a comma but the last: found with native
    // searches over the bytes, never decoded into one large string.
    const key = Buffer.from('"bytes":');
    let size = 0;
    let bytes = 0;
    let lines = 0;
    for (let at = buf.indexOf(10); at !== -1; at = buf.indexOf(10, at + 1)) lines++;
    for (let at = buf.indexOf(key); at !== -1; at = buf.indexOf(key, at + key.length)) {
      let n = 0;
      let i = at + key.length;
      for (; i < buf.length && buf[i]! >= 48 && buf[i]! <= 57; i++) n = n * 10 + (buf[i]! - 48);
      if (buf[i] !== 125) break; // "}": anything else is not the writer's form
      size++;
      bytes += n;
    }
    if (size === lines - 2) return { size, bytes };
  }
  const entries = readManifest(file);
  if (!entries) return undefined;
  let bytes = 0;
  for (const value of entries.values()) bytes += parseEntryValue(value).bytes;
  return { size: entries.size, bytes };
}

export async function build(opts: BuildOptions): Promise<BuildReport> {
  const started = performance.now();
  const statusOptions = opts.statusOptions ?? DEFAULT_STATUS_OPTIONS;
  opts.onPhase?.("check");
  const inputs = currentInputs(opts.db, statusOptions, !!opts.skipInvalid);
  const previous = inputs && !opts.rebuild ? readRecord(opts.out) : null;
  const manifest =
    previous && upToDate(previous, inputs, opts.now)
      ? manifestTotals(path.join(opts.out, MANIFEST_NAME))
      : undefined;
  if (manifest) {
    const bytes = manifest.bytes;
    const r = previous!.render;
    return {
      upToDate: true,
      render: { ...r, validFrom: r.validFrom ?? -Infinity, validUntil: r.validUntil ?? Infinity },
      changedUrls: { count: 0, paths: [], complete: true },
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
    { publishSnapshot },
    { renderSnapshot },
    { openStore },
    { createPool },
    { changedOf, changedUrls },
  ] = await Promise.all([
    import("./emit/generated.ts"),
    import("./emit/hosts/index.ts"),
    import("./emit/validate.ts"),
    import("./publish/index.ts"),
    import("./render.ts"),
    import("./store/open.ts"),
    import("./render/pool.ts"),
    import("./purge.ts"),
  ]);
  opts.onPhase?.("open");
  // The store is read in one transaction from here on: one build reads one state of it.
  const store = openStore(opts.db);
  let pool: Awaited<ReturnType<typeof createPool>> | undefined;
  try {
    const storeKey = store.storeKey();
    const validator = new SnapshotValidator();
    let render: RenderReport | undefined;
    const publish = await publishSnapshot(
      {
        outDir: opts.out,
        force: opts.force,
        onPhase: opts.onPhase,
        // --rebuild writes every file anew; --force never deletes the input store.
        rewriteAll: opts.rebuild,
        protectedPaths: [opts.db],
      },
      async (writer) => {
        // Read under the lock: the live snapshot, whose files keepAll keeps, cannot change now.
        const previous = inputs && !opts.rebuild ? readState(opts.out) : null;
        pool = createPool({
          jobs: opts.jobs,
          minJobs: opts.minJobsForWorkers,
          db: opts.db,
          storeKey,
          now: opts.now,
          statusOptions,
        });
        const r = await renderSnapshot(store, writer, {
          now: opts.now,
          statusOptions,
          skipInvalid: opts.skipInvalid ?? false,
          validator,
          openApi: openApiText(),
          hostFiles: hostFiles(store.vocabulary()),
          onProgress: opts.onProgress,
          programKey: inputs ? programKey(inputs) : null,
          previous,
          pool,
        });
        render = r;
        if (inputs) {
          writer.write(
            INPUTS_FILE,
            JSON.stringify({ ...inputs, store: storeKey, render: publicReport(r) }, null, 2) + "\n",
          );
        }
      },
    );
    // The publication layer reports the files it changed (`changed`); read defensively.
    const changed = changedOf(publish);
    return {
      upToDate: false,
      render: render!,
      publish,
      ...(changed && { changedUrls: changedUrls(changed) }),
    };
  } finally {
    await pool?.close();
    store.close();
  }
}

/**
 * The report as the snapshot records it: only public facts. A skipped tournament's problems name
 * the store's file, private row keys and cell values, so only their count is kept.
 */
function publicReport(r: RenderReport): RenderReport {
  return {
    ...r,
    skipped: r.skipped.map((s) => ({
      externalId: s.externalId,
      problems: [],
      problemCount: s.problems.length,
    })),
  };
}
