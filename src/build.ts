// The one place that joins I/O: open the store → render every file → validate → publish
// atomically. A failure anywhere leaves the previous snapshot untouched.
import { createHash } from "node:crypto";
import { closeSync, openSync, readFileSync, readSync, realpathSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import fg from "fast-glob";
import { performance } from "node:perf_hooks";
import { DEFAULT_STATUS_OPTIONS, type StatusOptions } from "./domain/status.ts";
import { openApiText, packageVersion } from "./emit/generated.ts";
import { hostFiles } from "./emit/hosts/index.ts";
import { SnapshotValidator } from "./emit/validate.ts";
import { MANIFEST_NAME, publishSnapshot, readManifest, type PublishReport } from "./publish/index.ts";
import { parseEntryValue } from "./publish/manifest.ts";
import { renderSnapshot, type RenderReport } from "./render.ts";
import { openStore } from "./store/open.ts";

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
  onPhase?: (name: string) => void;
  onProgress?: (done: number, total: number, files: number) => void;
}

export interface BuildReport {
  /** True when the previous snapshot was built from the same inputs and is kept as it is. */
  upToDate: boolean;
  render: RenderReport;
  publish: PublishReport;
}

/**
 * What a snapshot was built from, written at its root. The output is a pure function of the
 * store's bytes, build-api's version, the options and the build instant; the instant matters only
 * through the statuses, which stay the same for every instant in [validFrom, validUntil).
 */
export const INPUTS_FILE = "_build-api.json";

interface Inputs {
  version: string;
  /** sha256 of build-api's own sources and schemas: a changed program rebuilds even at the same version. */
  code: string;
  store: string;
  statusOptions: StatusOptions;
  skipInvalid: boolean;
}

interface InputsRecord extends Inputs {
  /** JSON writes the infinite bounds of RenderReport as null. */
  render: Omit<RenderReport, "validFrom" | "validUntil"> & {
    validFrom: number | null;
    validUntil: number | null;
  };
}

function sha256File(file: string): string {
  const hash = createHash("sha256");
  const buf = Buffer.allocUnsafe(1 << 20);
  const fd = openSync(file, "r");
  try {
    for (let n; (n = readSync(fd, buf, 0, buf.length, null)) > 0;) hash.update(buf.subarray(0, n));
  } finally {
    closeSync(fd);
  }
  return hash.digest("hex");
}

// The package root and the folder of the program that runs: src/ in the repository (tests),
// lib/ when compiled or installed. Paths come from fileURLToPath: a URL's pathname is
// percent-encoded, and a root holding a space or a non-ASCII letter would match nothing.
const ROOT = fileURLToPath(new URL("../", import.meta.url));
const PROGRAM_DIR = path.basename(fileURLToPath(new URL(".", import.meta.url)));

/** The hash of the program's own files: a changed program never counts as up to date. */
export function codeFingerprint(root = ROOT, programDir = PROGRAM_DIR): string {
  const hash = createHash("sha256");
  const files = fg.sync([`${programDir}/**/*.{js,ts}`, "bin/*", "schema/*", "package.json"], {
    cwd: root,
    onlyFiles: true,
  });
  if (!files.some((f) => f.startsWith(`${programDir}/`))) {
    throw new Error(
      `no program file found under ${path.join(root, programDir)}: cannot fingerprint the code`,
    );
  }
  for (const f of files.sort()) {
    hash.update(`${f}\0`);
    hash.update(readFileSync(path.join(root, f)));
  }
  return hash.digest("hex");
}

function readRecord(out: string): InputsRecord | null {
  try {
    return JSON.parse(readFileSync(path.join(out, INPUTS_FILE), "utf8")) as InputsRecord;
  } catch {
    return null;
  }
}

function upToDate(previous: InputsRecord | null, inputs: Inputs | null, now: number): boolean {
  if (!previous || !inputs) return false;
  const { version, code, store, statusOptions, skipInvalid } = previous;
  const same =
    JSON.stringify({ version, code, store, statusOptions, skipInvalid }) === JSON.stringify(inputs);
  return (
    same && (previous.render.validFrom ?? -Infinity) <= now && now < (previous.render.validUntil ?? Infinity)
  );
}

export async function build(opts: BuildOptions): Promise<BuildReport> {
  const started = performance.now();
  const statusOptions = opts.statusOptions ?? DEFAULT_STATUS_OPTIONS;
  opts.onPhase?.("check");
  let inputs: Inputs | null = null;
  try {
    inputs = {
      version: packageVersion(),
      code: codeFingerprint(),
      store: sha256File(opts.db),
      statusOptions,
      skipInvalid: !!opts.skipInvalid,
    };
  } catch {
    // An unreadable store is reported by openStore below, with its own message and exit code.
  }
  const previous = inputs && !opts.rebuild ? readRecord(opts.out) : null;
  const manifest = previous ? readManifest(path.join(opts.out, MANIFEST_NAME)) : undefined;
  if (manifest && upToDate(previous, inputs, opts.now)) {
    let bytes = 0;
    for (const value of manifest.values()) bytes += parseEntryValue(value).bytes;
    const r = previous!.render;
    return {
      upToDate: true,
      render: { ...r, validFrom: r.validFrom ?? -Infinity, validUntil: r.validUntil ?? Infinity },
      publish: {
        filesWritten: 0,
        filesUnchanged: manifest.size,
        filesRemoved: 0,
        bytesWritten: 0,
        bytesTotal: bytes,
        files: manifest.size,
        phases: { check: performance.now() - started },
        snapshotDir: realpathSync(opts.out),
      },
    };
  }

  opts.onPhase?.("open");
  const store = openStore(opts.db);
  try {
    const validator = new SnapshotValidator();
    let render: RenderReport | undefined;
    const publish = await publishSnapshot(
      { outDir: opts.out, force: opts.force, onPhase: opts.onPhase },
      (writer) => {
        const r = renderSnapshot(store, writer, {
          now: opts.now,
          statusOptions,
          skipInvalid: opts.skipInvalid ?? false,
          validator,
          openApi: openApiText(),
          hostFiles: hostFiles(store.vocabulary()),
          onProgress: opts.onProgress,
        });
        render = r;
        if (inputs) writer.write(INPUTS_FILE, JSON.stringify({ ...inputs, render: r }, null, 2) + "\n");
      },
    );
    return { upToDate: false, render: render!, publish };
  } finally {
    store.close();
  }
}
