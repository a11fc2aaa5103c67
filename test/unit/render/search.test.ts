// Issue 47: the static search index kept chunk by chunk (render/search.ts). A first build cuts
// the names into chunks under CHUNK_MAX, each holding exactly the keys of its range; a rename
// rewrites the chunks its words fall in and neither a section nor the root; a chunk left empty
// goes from its section.
import { describe, expect, it } from "vitest";
import {
  CHUNK_MAX,
  chunkFile,
  sectionFile,
  updateSearch,
  type NameChange,
  type SearchItem,
} from "../../../src/render/search.ts";
import { foldWords } from "../../../src/pages/search.ts";
import type { StateRecord } from "../../../src/ledger/state.ts";

/** A sink in memory, and the records of the builds so far. */
function world() {
  const records = new Map<string, StateRecord>();
  let files = new Map<string, string>();
  let written: string[] = [];
  const run = (changes: NameChange[], full = false) => {
    written = [];
    const r = updateSearch({
      records: { previousRow: (k) => records.get(k) ?? null },
      changes,
      full,
      base: "b",
      sink: {
        write: (p, text) => {
          written.push(p);
          files.set(p, text);
        },
        dropOwner: () => {},
      },
    });
    for (const k of r.removed) records.delete(k);
    for (const [k, v] of r.records) records.set(k, v);
    const sections = (JSON.parse(files.get("search/root.json")!) as { sections: string[] }).sections;
    const chunks = sections
      .flatMap((b) => (JSON.parse(files.get(sectionFile(b))!) as { chunks: string[] }).chunks)
      .sort();
    // Only the files the root names are the index (this sink keeps whatever was written).
    const live = new Set(["search/root.json", ...sections.map(sectionFile), ...chunks.map(chunkFile)]);
    files = new Map([...files].filter(([p]) => live.has(p)));
    expect(r.files).toBe(live.size);
    return { written: [...written], chunks, files, r };
  };
  return { run };
}

const SURNAMES = ["Müller", "García", "Kowalski", "Nguyễn", "Øster", "Smith", "Łukasz", "Zoë", "Ивано"];
const names = (n: number): NameChange[] =>
  Array.from({ length: n }, (_, i) => ({
    kind: "p" as const,
    id: String(100000 + i),
    before: null,
    after: `${SURNAMES[i % SURNAMES.length]}${i % 97}, Player ${i}`,
  }));

describe("the search index's chunks", () => {
  it("cuts the names into chunks under CHUNK_MAX, each holding exactly its range of keys", () => {
    const { run } = world();
    const { chunks, files } = run(names(6000), true);
    expect(files.get("search/root.json")).toBe('{"sections":[""]}');
    expect(chunks.length).toBeGreaterThan(3);
    expect(chunks[0]).toBe("");
    expect([...chunks].sort()).toEqual(chunks);
    let total = 0;
    chunks.forEach((b, i) => {
      const text = files.get(chunkFile(b))!;
      expect(text.length).toBeLessThanOrEqual(CHUNK_MAX);
      const items = (JSON.parse(text) as { items: SearchItem[] }).items;
      total += items.length;
      for (const it of items) {
        const key = `${it[0]}.${it[1]}${it[2]}`;
        expect(key >= b).toBe(true);
        if (i + 1 < chunks.length) expect(key < chunks[i + 1]!).toBe(true);
      }
    });
    // Three words a name ("müller5", "player", the number): one item each.
    expect(total).toBe(6000 * 3);
  });

  it("rewrites only the chunks of a renamed player's words, not the root; drops an emptied chunk", () => {
    const { run } = world();
    const all = names(6000);
    run(all, true);
    const renamed = { ...all[5]!, before: all[5]!.after, after: all[5]!.after!.replace("Player", "Playr") };
    const tick = run([renamed]);
    // Each chunk holding a word of the old or the new name (items carry the name), no other.
    const words = new Set([...foldWords(renamed.before!), ...foldWords(renamed.after)]);
    const holding = new Set(
      tick.chunks.filter((b, i) =>
        [...words].some((w) => {
          const key = `${w}.p100005`;
          return key >= b && (i + 1 === tick.chunks.length || key < tick.chunks[i + 1]!);
        }),
      ),
    );
    expect(tick.written.sort()).toEqual([...holding].map(chunkFile).sort());
    expect(tick.written).not.toContain("search/root.json");
    expect(tick.written.length).toBeLessThanOrEqual(4);
    expect(tick.written.some((f) => tick.files.get(f)!.includes("playr"))).toBe(true);
    // Every name whose keys fall in the last chunk goes: that chunk goes, the root is rewritten.
    const last = tick.chunks.at(-1)!;
    const items = (JSON.parse(tick.files.get(chunkFile(last))!) as { items: SearchItem[] }).items;
    const ids = new Set(items.map((it) => it[2]));
    const gone = all.filter((c) => ids.has(c.id)).map((c) => ({ ...c, before: c.after, after: null }));
    const drop = run(gone);
    expect(drop.chunks).not.toContain(last);
    // Its section names one chunk fewer; the root, naming the sections, stays.
    expect(drop.written).toContain(sectionFile(""));
    expect(drop.written).not.toContain("search/root.json");
  });
});
