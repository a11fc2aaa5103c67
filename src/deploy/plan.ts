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
  const none = new Map<string, SnapshotFile>();
  const held = record && record.metadata === metadata ? (record.files ?? none) : none;
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
  const steps = orderSteps(uploads);

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
  const removals = orderRemovals(gone);
  return { steps, retags, removals, unchanged, skipped, target };
}

/** Uploads into the steps run one after another (see the top of this file). */
function orderSteps(uploads: Upload[]): Upload[][] {
  const byStep = new Map<string, Upload[]>();
  for (const u of uploads.sort((a, b) => (a.file < b.file ? -1 : 1))) {
    const k = stepKey(u);
    const step = byStep.get(k) ?? [];
    step.push(u);
    byStep.set(k, step);
  }
  return [...byStep.keys()].sort().map((k) => byStep.get(k)!);
}

/**
 * Lists before the tournament files they listed; keys no rule names any more (an older
 * build-api's layout) last.
 */
export function orderRemovals(gone: Iterable<string>): string[] {
  const rank = (key: string): string => {
    const s = objectSpec(key);
    return s ? `${2 - s.group}.${String(s.depth).padStart(2, "0")}` : "9";
  };
  return [...gone].sort((a, b) => rank(a).localeCompare(rank(b)) || (a < b ? -1 : 1));
}

/** What planChanges plans from: the change log since the record's generation, and a few rows. */
export interface ChangeInput {
  /** Files written since the generation the bucket holds, with their live bytes. */
  written: ReadonlyMap<string, SnapshotFile>;
  /** Files removed since then. */
  removed: readonly string[];
  /** Keys a dead deploy may have touched, with their live row (undefined: not in the snapshot). */
  unknown: ReadonlyMap<string, SnapshotFile | undefined>;
  /**
   * Keys whose headers may differ (headerSuspects of the facts), with their live row. The bucket
   * holds their live bytes unless they were written since or are unknown.
   */
  suspects: ReadonlyMap<string, SnapshotFile | undefined>;
  facts: EdgeFacts;
}

/**
 * The plan of a deploy whose record names a generation the change log reaches: the same steps,
 * retags and removals as planDeploy gives for these files, from the changed files alone (O(change)).
 * The bucket holds every other served file of the snapshot with its live bytes (the record's
 * guarantee), so nothing else is looked at. `isNew` is unknown here (false): it only orders new
 * before changed files inside a step, where neither links to the other. `unchanged` is 0 (not
 * counted: counting would read every row); `target` holds the files sent.
 */
export function planChanges(input: ChangeInput): DeployPlan {
  const archived = new Set(input.facts.archived);
  const specOf = (file: string): ObjectSpec | undefined => {
    const spec = objectSpec(file, archived);
    const link = input.facts.links[file];
    return spec && link !== undefined ? { ...spec, link } : spec;
  };
  const send = new Map<string, SnapshotFile>(input.written);
  const gone = new Set<string>();
  for (const p of input.removed) if (!send.has(p)) gone.add(p);
  for (const [p, f] of input.unknown) {
    if (f) send.set(p, f);
    else gone.add(p);
  }
  const target = new Map<string, SnapshotFile>();
  const uploads: Upload[] = [];
  let skipped = 0;
  for (const [file, f] of send) {
    const spec = specOf(file);
    if (!spec) {
      skipped++;
      continue;
    }
    target.set(file, f);
    uploads.push({ file, sha256: f.sha256, bytes: f.bytes, spec, isNew: false });
  }
  const retags: Upload[] = [];
  for (const [file, f] of input.suspects) {
    if (!f || send.has(file)) continue; // gone, or sent anyway
    const spec = specOf(file);
    if (spec) retags.push({ file, sha256: f.sha256, bytes: f.bytes, spec, isNew: false });
  }
  retags.sort((a, b) => (a.file < b.file ? -1 : 1));
  // Only keys a rule serves were ever uploaded (a change of rules changes the metadata digest,
  // which sends the deploy to the full comparison); removing a key never sent is harmless anyway.
  const removals = orderRemovals(
    [...gone].filter((k) => objectSpec(k) !== undefined || input.unknown.has(k)),
  );
  return { steps: orderSteps(uploads), retags, removals, unchanged: 0, skipped, target };
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
