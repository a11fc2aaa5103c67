// The static search index (issue 47), kept chunk by chunk. Every name of the snapshot (a globally
// published tournament's, a FIDE-rated player's) is one item per word, [word, kind, id, name],
// sorted by its key `word.kindid`; a chunk holds one range of keys, named by its first key (its
// bound), and the root lists the bounds (pages/search.ts reads them). A build applies the names
// that changed to the chunks their keys fall in: a chunk that grows past CHUNK_MAX is cut in two
// (the root gains a bound), one left empty goes (it loses one), and every other chunk, and the
// root when no bound moved, keeps its file. Chunks and root are ledger records (`s:<bound>`, `s`).
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
const ROOT_KEY = "s";
const chunkKey = (bound: string): string => `s:${bound}`;
const chunkOwner = (bound: string): string => `t/~search/${bound}`;
const ROOT_OWNER = "t/~search-root";

/** The file of the chunk whose first key is `bound` (the first chunk's bound is ""). */
export function chunkFile(bound: string): string {
  return `search/w-${chunkName(bound)}.json`;
}

const keyOf = (it: SearchItem): string => `${it[0]}.${it[1]}${it[2]}`;

function itemsOf(kind: "t" | "p", id: string, name: string | null): SearchItem[] {
  return name === null ? [] : foldWords(name).map((w): SearchItem => [w, kind, id, name]);
}

/** The index of the chunk holding `key`: the last bound at or before it. */
function chunkOf(bounds: readonly string[], key: string): number {
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

/** Cuts sorted items into runs of about CHUNK_MAX / 2 bytes when they pass CHUNK_MAX. */
function cut(items: SearchItem[]): SearchItem[][] {
  if (chunkText(items).length <= CHUNK_MAX) return [items];
  const runs: SearchItem[][] = [];
  let run: SearchItem[] = [];
  let size = 0;
  for (const it of items) {
    const n = JSON.stringify(it).length + 1;
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

/** Applies the changed names to the chunks; the files written and kept, and the records. */
export function updateSearch(input: SearchInput): {
  files: number;
  records: Map<string, StateRecord>;
  removed: string[];
} {
  const { records, sink } = input;
  const prevRootRow = records.previousRow(ROOT_KEY);
  const prevRoot = prevRootRow
    ? (JSON.parse(prevRootRow.detail) as { base: string; chunks: string[] })
    : null;
  // Another program (or none before): every name is in `changes` (every tournament was rendered).
  const fresh = prevRoot === null || prevRoot.base !== input.base;
  const bounds = fresh ? [""] : prevRoot.chunks;
  const touched = new Map<string, { remove: Set<string>; add: SearchItem[] }>();
  const at = (key: string): { remove: Set<string>; add: SearchItem[] } => {
    const bound = bounds[chunkOf(bounds, key)]!;
    let t = touched.get(bound);
    if (!t) touched.set(bound, (t = { remove: new Set(), add: [] }));
    return t;
  };
  for (const ch of input.changes) {
    if (ch.before === ch.after && !fresh) continue;
    if (!fresh) for (const it of itemsOf(ch.kind, ch.id, ch.before)) at(keyOf(it)).remove.add(keyOf(it));
    for (const it of itemsOf(ch.kind, ch.id, ch.after)) at(keyOf(it)).add.push(it);
  }
  if (fresh) at("");
  const out = { files: 0, records: new Map<string, StateRecord>(), removed: [] as string[] };
  const gone = new Set<string>();
  const added: string[] = [];
  for (const [bound, t] of touched) {
    const before = fresh ? null : records.previousRow(chunkKey(bound));
    const kept = before
      ? (JSON.parse(before.detail) as SearchItem[]).filter((it) => !t.remove.has(keyOf(it)))
      : [];
    const byKey = new Map([...kept, ...t.add].map((it) => [keyOf(it), it]));
    const items = [...byKey.keys()].sort().map((k) => byKey.get(k)!);
    if (items.length === 0 && bound !== "") {
      gone.add(bound);
      out.removed.push(chunkKey(bound));
      if (!input.full) sink.dropOwner?.(chunkOwner(bound));
      continue;
    }
    cut(items).forEach((run, i) => {
      const b = i === 0 ? bound : keyOf(run[0]!);
      if (i > 0) added.push(b);
      writeChunk(input, b, run, i === 0 ? before : null, out.records);
    });
  }
  const chunks = [...bounds.filter((b) => !gone.has(b)), ...added].sort();
  for (const b of bounds) if (input.full && !fresh && !touched.has(b)) sink.keepOwned?.(chunkOwner(b));
  const rootText = toJson({ chunks });
  const rootFp = sha256(input.base, rootText);
  const same = !fresh && prevRootRow !== null && prevRootRow.fp === rootFp;
  if (!same || (input.full && sink.keepOwned?.(ROOT_OWNER) === false))
    sink.write(SEARCH_ROOT_PATH.slice(1), rootText, ROOT_OWNER);
  out.records.set(ROOT_KEY, {
    fp: rootFp,
    from: null,
    until: null,
    detail: JSON.stringify({ base: input.base, chunks }),
  });
  // Every file of the index, written or kept: the chunks and the root.
  out.files = chunks.length + 1;
  return out;
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
