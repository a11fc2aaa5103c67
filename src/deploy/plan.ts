// Pure: which objects a deploy sends and removes, and in which order, from the snapshot's files and
// the deploy record. A reader must never follow a link to an object that is not there yet, so the
// uploads are steps run one after another: error bodies and assets, then each tournament's files
// deepest first (a round before the tournament that lists it, the JSON before the pages), then
// lists, catalogs and the index page; within a step new objects before changed ones. Removals come
// after every upload, lists first, so nothing still published points to what goes.
import { objectSpec, type ObjectSpec } from "./objects.ts";
import type { DeployRecord } from "./record.ts";
import type { SnapshotFile } from "./snapshot-files.ts";

export interface Upload {
  file: string;
  sha256: string;
  bytes: number;
  spec: ObjectSpec;
  /** The bucket had no object at this key (by the record). */
  isNew: boolean;
}

export interface DeployPlan {
  /** Upload steps in order; each finishes before the next starts. */
  steps: Upload[][];
  /** Keys (relative to the prefix) to remove, in order, after every upload. */
  removals: string[];
  /** Files of the snapshot that are uploaded and the same as the bucket's. */
  unchanged: number;
  /** Files of the snapshot no rule serves (host configs, bookkeeping): never uploaded. */
  skipped: number;
  /** What the record will say once the plan is done. */
  target: Map<string, SnapshotFile>;
}

function stepKey(u: Upload): string {
  // Sorts as text: group, then depth (deepest first), then new before changed.
  return `${u.spec.group}.${String(99 - u.spec.depth).padStart(2, "0")}.${u.isNew ? 0 : 1}`;
}

/**
 * `record` is what the bucket holds (undefined: nothing known, send all); `unknown` holds keys a
 * dead deploy may have touched: they are sent again if wanted and removed if not. `metadata` is
 * the current metadataDigest(): a record written under another one is not trusted for any file.
 * `archived`: the snapshot's archived tournaments (their objects take the archive cache class).
 */
export function planDeploy(
  files: ReadonlyMap<string, SnapshotFile>,
  record: DeployRecord | undefined,
  unknown: ReadonlySet<string>,
  metadata: string,
  archived: ReadonlySet<string> = new Set(),
): DeployPlan {
  const held = record && record.metadata === metadata ? record.files : new Map<string, SnapshotFile>();
  const previous = record?.files ?? new Map<string, SnapshotFile>();
  const target = new Map<string, SnapshotFile>();
  const uploads: Upload[] = [];
  let unchanged = 0;
  let skipped = 0;
  for (const [file, f] of files) {
    const had = held.get(file);
    // The record holds served files only: a file it holds with the same bytes needs no rule
    // lookup, so an unchanged file costs one map lookup.
    if (had && had.sha256 === f.sha256 && had.bytes === f.bytes && !unknown.has(file)) {
      target.set(file, f);
      unchanged++;
      continue;
    }
    const spec = objectSpec(file, archived);
    if (!spec) {
      skipped++;
      continue;
    }
    target.set(file, f);
    uploads.push({
      file,
      sha256: f.sha256,
      bytes: f.bytes,
      spec,
      isNew: !previous.has(file) && !unknown.has(file),
    });
  }
  const byStep = new Map<string, Upload[]>();
  for (const u of uploads.sort((a, b) => (a.file < b.file ? -1 : 1))) {
    const k = stepKey(u);
    const step = byStep.get(k) ?? [];
    step.push(u);
    byStep.set(k, step);
  }
  const steps = [...byStep.keys()].sort().map((k) => byStep.get(k)!);

  const gone = new Set<string>();
  for (const key of previous.keys()) if (!target.has(key)) gone.add(key);
  for (const key of unknown) if (!target.has(key)) gone.add(key);
  // Lists before the tournament files they listed; keys no rule names any more (an older
  // build-api's layout) last.
  const rank = (key: string): string => {
    const s = objectSpec(key);
    return s ? `${2 - s.group}.${String(s.depth).padStart(2, "0")}` : "9";
  };
  const removals = [...gone].sort((a, b) => rank(a).localeCompare(rank(b)) || (a < b ? -1 : 1));
  return { steps, removals, unchanged, skipped, target };
}
