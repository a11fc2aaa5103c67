// Pure: which objects a deploy sends and removes, and in which order, from the snapshot's files and
// the deploy record. A reader must never follow a link to an object that is not there yet, so the
// uploads are steps run one after another: error bodies and assets, then each tournament's files
// deepest first (a round before the tournament that lists it, the JSON before the pages), then
// lists, catalogs and the index page; within a step new objects before changed ones. Removals come
// after every upload, lists first, so nothing still published points to what goes. Objects whose
// bytes are unchanged but whose headers are not (a tournament moved to the archive cache class, a
// paged list's Link header) are found from the edge facts the record kept, and get their metadata
// replaced without their bytes (retags), after the uploads.
import { NO_EDGE_FACTS, type EdgeFacts } from "../routes/pagination.ts";
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
  /** Unchanged bytes, changed headers: metadata replaced in the bucket, after the uploads. */
  retags: Upload[];
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
 * `facts`: the snapshot's edge facts (archived tournaments take the archive cache class; a paged
 * list's files carry their Link header).
 */
export function planDeploy(
  files: ReadonlyMap<string, SnapshotFile>,
  record: DeployRecord | undefined,
  unknown: ReadonlySet<string>,
  metadata: string,
  facts: EdgeFacts = NO_EDGE_FACTS,
): DeployPlan {
  const archived = new Set(facts.archived);
  const specOf = (file: string): ObjectSpec | undefined => {
    const spec = objectSpec(file, archived);
    const link = facts.links[file];
    return spec && link !== undefined ? { ...spec, link } : spec;
  };
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
    const spec = specOf(file);
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

  // Headers changed under the same bytes: only where the edge facts differ from the record's.
  const retags: Upload[] = [];
  if (record && record.metadata === metadata) {
    for (const file of headerSuspects(facts, record.facts, target.keys())) {
      const f = target.get(file);
      const had = held.get(file);
      if (!f || !had || had.sha256 !== f.sha256 || unknown.has(file)) continue; // sent anyway
      const spec = specOf(file);
      if (!spec) continue;
      retags.push({ file, sha256: f.sha256, bytes: f.bytes, spec, isNew: false });
      unchanged--;
    }
    retags.sort((a, b) => (a.file < b.file ? -1 : 1));
  }

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
  return { steps, retags, removals, unchanged, skipped, target };
}

/** A tournament's id in a key (`…/tournaments/<id>`, `…/tournaments/<id>/…`). */
const TOURNAMENT_IN_KEY = /(?:^|\/)tournaments\/([0-9]+)(?:\/|$)/;

/**
 * Keys whose headers may differ from what the bucket was sent, from the edge facts alone: files
 * whose Link header changed, and every file of a tournament that entered or left the archive
 * class (found by scanning the keys only when some did). `before` undefined (a record from before
 * facts were kept): every linked file and every archived tournament's files.
 */
export function headerSuspects(
  now: EdgeFacts,
  before: EdgeFacts | undefined,
  keys: Iterable<string>,
): Set<string> {
  const out = new Set<string>();
  const was = before ?? NO_EDGE_FACTS;
  for (const [file, link] of Object.entries(now.links))
    if (!before || was.links[file] !== link) out.add(file);
  for (const file of Object.keys(was.links)) if (now.links[file] === undefined) out.add(file);
  const a = new Set(now.archived);
  const b = new Set(was.archived);
  const flipped = new Set<string>();
  for (const id of a) if (!before || !b.has(id)) flipped.add(id);
  for (const id of b) if (!a.has(id)) flipped.add(id);
  if (flipped.size > 0) {
    for (const key of keys) {
      const m = TOURNAMENT_IN_KEY.exec(key);
      if (m && flipped.has(m[1]!)) out.add(key);
    }
  }
  return out;
}
