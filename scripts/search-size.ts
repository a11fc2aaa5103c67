// `node scripts/search-size.ts [--tournaments 100000] [--seed 7]`: the static search index's
// sizes at a scale too large to build here (XL: 100,000 tournaments), from the name distribution
// of `npm run gen-store` (scripts/gen-store.ts: a tournament's name, its player count, "Last,
// First" names from scripts/lib/synthetic.ts, a FIDE ID for 7 players in 10, drafts and
// unpublished tournaments left out), not from a built snapshot. Names are drawn with the same
// shapes and counts, then the index is laid out as render/search.ts lays it out on a first build
// (items sorted by key, cut into runs of CHUNK_MAX / 2, sections of SECTION_MAX chunks): the count
// of chunks, the root's and a section's bytes, the largest index file and the bytes one query
// transfers (the root, one section and one chunk: pages/search.ts),
// raw and gzip-compressed (the hosts compress JSON). A chunk grows up to CHUNK_MAX before a later
// build cuts it, so the largest file is taken as CHUNK_MAX.
import { gzipSync } from "node:zlib";
import { exitWithUsage, scriptArgs } from "./lib/args.ts";
import { CITIES, FIRST_NAMES, LAST_NAMES, Rng } from "./lib/synthetic.ts";
import { foldWords } from "../src/pages/search.ts";
import { CHUNK_MAX, SECTION_MAX } from "../src/render/search.ts";

const args = scriptArgs(import.meta.url, {
  tournaments: { type: "string", default: "100000" },
  seed: { type: "string", default: "7" },
});
const n = Number(args.tournaments);
if (!Number.isInteger(n) || n < 1) exitWithUsage(import.meta.url, "--tournaments: a positive integer");
const rng = new Rng(Number(args.seed));

/** Per word: its items' count and bytes (an item: [word, kind, id, name] in the chunk's JSON). */
const words = new Map<string, { count: number; bytes: number }>();
const add = (kind: string, id: string, name: string): void => {
  for (const w of foldWords(name)) {
    const bytes = JSON.stringify([w, kind, id, name]).length + 1;
    const s = words.get(w);
    if (s) {
      s.count++;
      s.bytes += bytes;
    } else words.set(w, { count: 1, bytes });
  }
};
let players = 0;
let tournaments = 0;
for (let i = 0; i < n; i++) {
  if (i % 31 === 17 || i % 37 === 23) continue; // drafts and unpublished: not in the index
  const roundRobin = rng.chance(0.2);
  const count = roundRobin ? rng.pick([10, 12, 14]) : 10 + Math.floor(rng.next() ** 2 * 291);
  const kind = roundRobin
    ? "Invitational"
    : rng.pick(["Open", "Rapid", "Weekender", "Championship", "Juniors Cup"]);
  const city = CITIES[i % CITIES.length]!.city;
  const id = String(1_000_000 + i * 13);
  add("t", id, `${city.charAt(0).toUpperCase()}${city.slice(1)} ${kind} 2026 · ${i + 1}`);
  tournaments++;
  for (let p = 0; p < count; p++) {
    const name = `${rng.pick(LAST_NAMES)}, ${rng.pick(FIRST_NAMES)}`;
    if (!rng.chance(0.7)) continue;
    add("p", String(rng.int(100_000, 99_999_999)), name);
    players++;
  }
}

// The first build's cut: runs of CHUNK_MAX / 2 over the items in key order (a word's items are
// one stretch of keys; within it, items of the word's average size).
const target = CHUNK_MAX / 2;
const bounds: string[] = [""];
let run = 0;
let total = 0;
for (const w of [...words.keys()].sort()) {
  const { count, bytes } = words.get(w)!;
  total += bytes;
  const each = bytes / count;
  for (let k = 0; k < count; k++) {
    if (run + each > target && run > 0) {
      bounds.push(`${w}.p${String(10_000_000 + k)}`);
      run = 0;
    }
    run += each;
  }
}
// Sections of SECTION_MAX chunks (a first build's; a later one cuts a fuller section in two), the
// root naming each section's first bound.
const sections: string[][] = [];
for (let i = 0; i < bounds.length; i += SECTION_MAX) sections.push(bounds.slice(i, i + SECTION_MAX));
const root = JSON.stringify({ sections: sections.map((g) => g[0]) });
const section = sections.map((g) => JSON.stringify({ chunks: g })).sort((a, b) => b.length - a.length)[0]!;
// A full chunk of the most common word's items, to compress.
const common = [...words].sort((a, b) => b[1].count - a[1].count)[0]![0];
const items: unknown[] = [];
for (let size = 0, k = 0; size < CHUNK_MAX - 200; k++) {
  const it = [
    common,
    "p",
    String(20_000_000 + k * 7919),
    `${LAST_NAMES[k % LAST_NAMES.length]}, ${FIRST_NAMES[k % FIRST_NAMES.length]}`,
  ];
  size += JSON.stringify(it).length + 1;
  items.push(it);
}
const chunk = JSON.stringify({ items });
const gz = (s: string): number => gzipSync(s).length;
const kb = (b: number): string => `${(b / 1024).toFixed(1)} KiB`;
console.log(
  `${tournaments} tournaments and ${players} FIDE-rated players indexed (${words.size} distinct words), from gen-store's distribution (--tournaments ${n})`,
);
console.log(`index: ${kb(total)} of items in ${bounds.length} chunks`);
console.log(`root file: ${kb(root.length)} raw, ${kb(gz(root))} gzip (${sections.length} sections)`);
console.log(`largest section file: ${kb(section.length)} raw, ${kb(gz(section))} gzip`);
const largest = Math.max(root.length, section.length, CHUNK_MAX);
console.log(`largest index file: ${kb(largest)} raw (a chunk grows to CHUNK_MAX before it is cut)`);
const query = root.length + section.length + chunk.length;
const zipped = gz(root) + gz(section) + gz(chunk);
console.log(`one query: root + one section + one full chunk = ${kb(query)} raw, ${kb(zipped)} gzip`);
