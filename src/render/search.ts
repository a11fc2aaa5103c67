// The static search index (issue 47), kept chunk by chunk. Every name of the snapshot (a globally
// published tournament's, a FIDE-rated player's) is one item per word, [word, kind, id, name],
// sorted by its key `word.kindid`; a chunk holds one range of keys, named by its first key (its
// bound). Two levels name the chunks, as a B-tree's: a section file lists the bounds of up to
// SECTION_MAX chunks and the root lists the sections' first bounds (pages/search.ts reads root,
// section, chunk), so no file grows with the index (at XL a flat list of bounds alone passed
// 270 KiB: scripts/search-size.ts). A build applies the names that changed to the chunks their
// keys fall in: a chunk past CHUNK_MAX is cut (its section gains a bound), one left empty goes,
// likewise for sections; every other file keeps its bytes. Chunks, sections and the root are
// ledger records (`s:<bound>`, `s/<bound>`, `s`).
import { toJson } from "../output/json.ts";
import { chunkName, foldWords } from "../pages/search.ts";
import { SEARCH_ROOT_PATH } from "../routes/urls.ts";
import type { PlayerRecords } from "../ledger/players.ts";
import { sha256, type StateRecord } from "../ledger/state.ts";

/** What the files across tournaments need of the build's sink (render/snapshot.ts FileSink). */
export interface AcrossSink {
  write(relPath: string, data: string, owner: string): void;
  keepOwned?(owner: string): number | false;
  dropOwner?(owner: string): void;
}

export type SearchItem = [word: string, kind: "t" | "p", id: string, name: string];

/** A name that changed: null before (new) or after (gone). */
export interface NameChange {
  kind: "t" | "p";
  id: string;
  before: string | null;
  after: string | null;
}

/** A chunk is cut when its file passes this many bytes, into chunks of about half of it. */
export const CHUNK_MAX = 64 * 1024;
/** A section (a file naming chunks) is cut when it names more chunks than this, in two halves. */
export const SECTION_MAX = 400;
const ROOT_KEY = "s";
const chunkKey = (bound: string): string => `s:${bound}`;
const sectionKey = (bound: string): string => `s/${bound}`;
const chunkOwner = (bound: string): string => `t/~search/${bound}`;
const sectionOwner = (bound: string): string => `t/~search-s/${bound}`;
const ROOT_OWNER = "t/~search-root";

/** The file of the chunk whose first key is `bound` (the first chunk's bound is ""). */
export function chunkFile(bound: string): string {
  return `search/w-${chunkName(bound)}.json`;
}

/** The file of the section whose first chunk's bound is `bound`. */
export function sectionFile(bound: string): string {
  return `search/s-${chunkName(bound)}.json`;
}

const keyOf = (it: SearchItem): string => `${it[0]}.${it[1]}${it[2]}`;

function itemsOf(kind: "t" | "p", id: string, name: string | null): SearchItem[] {
  return name === null ? [] : foldWords(name).map((w): SearchItem => [w, kind, id, name]);
}

/** The index of the range holding `key`: the last bound at or before it. */
function rangeOf(bounds: readonly string[], key: string): number {
  let lo = 0;
  let hi = bounds.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (bounds[mid]! <= key) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

const chunkText = (items: readonly SearchItem[]): string => toJson({ items });

/** The length of chunkText(items), from each item's: a first build's one chunk is never made whole. */
function textLength(sizes: readonly number[]): number {
  return '{"items":[]}'.length + sizes.reduce((a, b) => a + b, 0) + Math.max(sizes.length - 1, 0);
}

/** Cuts sorted items into runs of about CHUNK_MAX / 2 bytes when they pass CHUNK_MAX. */
function cut(items: SearchItem[]): SearchItem[][] {
  const sizes = items.map((it) => JSON.stringify(it).length);
  if (textLength(sizes) <= CHUNK_MAX) return [items];
  const runs: SearchItem[][] = [];
  let run: SearchItem[] = [];
  let size = 0;
  for (const [i, it] of items.entries()) {
    const n = sizes[i]! + 1;
    if (run.length > 0 && size + n > CHUNK_MAX / 2) {
      runs.push(run);
      run = [];
      size = 0;
    }
    run.push(it);
    size += n;
  }
  runs.push(run);
  return runs;
}

export interface SearchInput {
  records: Pick<PlayerRecords, "previousRow">;
  changes: readonly NameChange[];
  /** Not a tick: the chunks this build leaves alone are kept by owner (keepOwned). */
  full: boolean;
  /** The fingerprints' common part: another program rebuilds the index from `changes` alone. */
  base: string;
  sink: AcrossSink;
}

interface RootRecord {
  base: string;
  sections: string[];
  /** How many chunks the sections name (the report counts the index's files). */
  chunks: number;
}

/** A section's chunk bounds as this build sees them, read once. */
type Sections = Map<string, { before: string[] | null; chunks: string[] }>;

/** Applies the changed names to the chunks; the files written and kept, and the records. */
export function updateSearch(input: SearchInput): {
  files: number;
  records: Map<string, StateRecord>;
  removed: string[];
} {
  const { records, sink } = input;
  const prevRow = records.previousRow(ROOT_KEY);
  const prevRoot = prevRow ? (JSON.parse(prevRow.detail) as RootRecord) : null;
  // Another program (or none before): every name is in `changes` (every tournament was rendered).
  const fresh = prevRoot === null || prevRoot.base !== input.base || !Array.isArray(prevRoot.sections);
  const sectionBounds = fresh ? [""] : prevRoot.sections;
  const sections: Sections = new Map();
  const sectionOf = (key: string): string => {
    const b = sectionBounds[rangeOf(sectionBounds, key)]!;
    if (!sections.has(b)) {
      const row = fresh ? null : records.previousRow(sectionKey(b));
      const before = row ? (JSON.parse(row.detail) as string[]) : null;
      sections.set(b, { before, chunks: before ? [...before] : [""] });
    }
    return b;
  };
  const touched = new Map<string, { section: string; remove: Set<string>; add: SearchItem[] }>();
  const at = (key: string): { remove: Set<string>; add: SearchItem[] } => {
    const section = sectionOf(key);
    const chunks = sections.get(section)!.chunks;
    const bound = chunks[rangeOf(chunks, key)]!;
    let t = touched.get(bound);
    if (!t) touched.set(bound, (t = { section, remove: new Set(), add: [] }));
    return t;
  };
  for (const ch of input.changes) {
    if (ch.before === ch.after && !fresh) continue;
    if (!fresh) for (const it of itemsOf(ch.kind, ch.id, ch.before)) at(keyOf(it)).remove.add(keyOf(it));
    for (const it of itemsOf(ch.kind, ch.id, ch.after)) at(keyOf(it)).add.push(it);
  }
  if (fresh) at("");
  const out = { files: 0, records: new Map<string, StateRecord>(), removed: [] as string[] };
  let chunkCount = fresh ? 0 : prevRoot.chunks;
  for (const [bound, t] of touched) {
    const before = fresh ? null : records.previousRow(chunkKey(bound));
    const kept = before
      ? (JSON.parse(before.detail) as SearchItem[]).filter((it) => !t.remove.has(keyOf(it)))
      : [];
    const byKey = new Map([...kept, ...t.add].map((it) => [keyOf(it), it]));
    const items = [...byKey.keys()].sort().map((k) => byKey.get(k)!);
    const list = sections.get(t.section)!.chunks;
    if (!before) chunkCount++;
    if (items.length === 0 && bound !== "") {
      list.splice(list.indexOf(bound), 1);
      chunkCount--;
      out.removed.push(chunkKey(bound));
      if (!input.full) sink.dropOwner?.(chunkOwner(bound));
      continue;
    }
    cut(items).forEach((run, i) => {
      const b = i === 0 ? bound : keyOf(run[0]!);
      if (i > 0) {
        list.push(b);
        chunkCount++;
      }
      writeChunk(input, b, run, i === 0 ? before : null, out.records);
    });
  }
  const roots = writeSections(input, sections, sectionBounds, out);
  // A full build keeps, by owner, every chunk and section it did not touch.
  if (input.full && !fresh) keepUntouched(input, sectionBounds, sections, touched);
  const rootText = toJson({ sections: roots });
  const rootFp = sha256(input.base, rootText);
  const same = !fresh && prevRow !== null && prevRow.fp === rootFp;
  if (!same || (input.full && sink.keepOwned?.(ROOT_OWNER) === false))
    sink.write(SEARCH_ROOT_PATH.slice(1), rootText, ROOT_OWNER);
  const root: RootRecord = { base: input.base, sections: roots, chunks: chunkCount };
  out.records.set(ROOT_KEY, { fp: rootFp, from: null, until: null, detail: JSON.stringify(root) });
  // Every file of the index, written or kept: the chunks, the sections and the root.
  out.files = chunkCount + roots.length + 1;
  return out;
}

/** Writes the touched sections (cut when too long, gone when empty); the root's section bounds. */
function writeSections(
  input: SearchInput,
  sections: Sections,
  bounds: readonly string[],
  out: { records: Map<string, StateRecord>; removed: string[] },
): string[] {
  const roots = new Set(bounds);
  for (const [bound, s] of sections) {
    const chunks = [...s.chunks].sort();
    if (chunks.length === 0 && bound !== "") {
      roots.delete(bound);
      out.removed.push(sectionKey(bound));
      if (!input.full) input.sink.dropOwner?.(sectionOwner(bound));
      continue;
    }
    const groups: string[][] = [];
    for (let i = 0; i < chunks.length; i += chunks.length > SECTION_MAX ? SECTION_MAX / 2 : SECTION_MAX)
      groups.push(chunks.slice(i, i + (chunks.length > SECTION_MAX ? SECTION_MAX / 2 : SECTION_MAX)));
    groups.forEach((g, i) => {
      const b = i === 0 ? bound : g[0]!;
      roots.add(b);
      const text = toJson({ chunks: g });
      const same = i === 0 && s.before !== null && toJson({ chunks: s.before }) === text;
      if (same && (!input.full || input.sink.keepOwned?.(sectionOwner(b)) !== false)) return;
      input.sink.write(sectionFile(b), text, sectionOwner(b));
      out.records.set(sectionKey(b), {
        fp: sha256(text),
        from: null,
        until: null,
        detail: JSON.stringify(g),
      });
    });
  }
  return [...roots].sort();
}

/** On a full build: keeps the chunks and sections this build did not touch, by owner. */
function keepUntouched(
  input: SearchInput,
  bounds: readonly string[],
  sections: Sections,
  touched: ReadonlyMap<string, unknown>,
): void {
  for (const b of bounds) {
    const s = sections.get(b);
    if (!s) input.sink.keepOwned?.(sectionOwner(b));
    const row = s ? null : input.records.previousRow(sectionKey(b));
    const chunks = s ? (s.before ?? []) : row ? (JSON.parse(row.detail) as string[]) : [];
    for (const c of chunks) if (!touched.has(c)) input.sink.keepOwned?.(chunkOwner(c));
  }
}

/** Writes one chunk unless its bytes are the previous ones (kept: by owner on a full build). */
function writeChunk(
  input: SearchInput,
  bound: string,
  items: SearchItem[],
  before: { fp: string } | null,
  records: Map<string, StateRecord>,
): void {
  const text = chunkText(items);
  const fp = sha256(text);
  if (before?.fp === fp && (!input.full || input.sink.keepOwned?.(chunkOwner(bound)) !== false)) return;
  input.sink.write(chunkFile(bound), text, chunkOwner(bound));
  records.set(chunkKey(bound), { fp, from: null, until: null, detail: JSON.stringify(items) });
}
