// The split layout of a bucket's ledger: which group holds what, and that a group cut from one
// ledger and loaded into a copy that lacks it gives back the same rows; the index keeps none of them.
import { copyFileSync, mkdtempSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { Bookkeeping } from "../../../src/ledger/bookkeeping.ts";
import {
  cutIndex,
  extractGroups,
  groupOfOwner,
  groupOfRecord,
  keepsLayout,
  LEGACY_LAYOUT,
  loadGroup,
  playerLayoutFor,
  PLAYERS_PER_GROUP,
} from "../../../src/ledger/ledger-groups.ts";
import { tempDir } from "../../support/temp.ts";

describe("ledger groups", () => {
  it("puts a tournament's files, a player's files and record, and a search chunk in their groups", () => {
    expect(groupOfOwner("t/1201344", 12)).toBe("t/1201344");
    const g = groupOfOwner("t/~players/3201414", 12)!;
    expect(g).toMatch(/^p12\/[0-9a-f]{3}$/);
    expect(parseInt(g.slice(4), 16)).toBeLessThan(4096);
    expect(groupOfRecord("p:3201414", 12)).toBe(g);
    expect(groupOfRecord("s:1671.t1", 12)).toBe("s:1671.t1");
    // A tournament's record: its FIDE IDs in its group, the rest in the index.
    expect(groupOfRecord("t:1201344", 12)).toBe("t/1201344");
    // Format 2's layout, read to convert it: 4,096 groups p/<xyz>.
    expect(groupOfOwner("t/~players/3201414", LEGACY_LAYOUT)).toMatch(/^p\/[0-9a-f]{3}$/);
    // The index keeps the lists, the host files, the search root and sections.
    for (const o of ["", "hosts", "l/c/lyon", "t/~search/a", "t/~search-s/a"])
      expect(groupOfOwner(o, 12)).toBeNull();
    for (const k of ["lists", "s", "s/a"]) expect(groupOfRecord(k, 12)).toBeNull();
  });

  it("gives the players as many groups as keep each small, however many players there are", () => {
    const ids = (n: number) => Array.from({ length: n }, (_, i) => String(100000 + i * 7));
    for (const players of [20_000, 60_000, 200_000]) {
      const layout = playerLayoutFor(players);
      expect(keepsLayout(layout, players)).toBe(true);
      const sizes = new Map<string, number>();
      for (const id of ids(players)) {
        const g = groupOfRecord(`p:${id}`, layout)!;
        sizes.set(g, (sizes.get(g) ?? 0) + 1);
      }
      // The average stays near the aim whatever the count, and no group holds many more.
      const average = players / sizes.size;
      expect(average).toBeGreaterThan(PLAYERS_PER_GROUP / 2);
      expect(average).toBeLessThanOrEqual(PLAYERS_PER_GROUP);
      expect(Math.max(...sizes.values())).toBeLessThan(4 * PLAYERS_PER_GROUP);
    }
    // A layout is kept while the count moves a little, and changed once it grew some fivefold (or shrank as much).
    const m = playerLayoutFor(100_000);
    expect(keepsLayout(m, 110_000)).toBe(true);
    expect(keepsLayout(m, 6 * 100_000)).toBe(false);
    expect(keepsLayout(m, 100_000 / 8)).toBe(false);
    // Format 2's fixed groups, and no layout at all, are always laid out anew.
    expect(keepsLayout(LEGACY_LAYOUT, 100_000)).toBe(false);
    expect(keepsLayout(undefined, 0)).toBe(false);
  });

  it("cuts groups from a ledger and loads them back into its index, row for row", () => {
    const dir = mkdtempSync(path.join(tempDir("ledger-groups"), "l-"));
    const l = Bookkeeping.open(dir);
    const db = l.connection;
    const sha = Buffer.alloc(32, 7);
    const files: [string, string][] = [
      ["api/t/1/index.json", "t/1"],
      ["api/t/1/standings.json", "t/1"],
      ["api/t/2/index.json", "t/2"],
      ["api/players/42.json", "t/~players/42"],
      ["api/index.json", "l/public"],
    ];
    for (const [p, o] of files)
      db.prepare("INSERT INTO files (path, owner, sha256, bytes, gen) VALUES (?, ?, ?, 10, 1)").run(
        p,
        o,
        sha,
      );
    db.exec(
      `INSERT INTO owners (owner, files, bytes) VALUES ('t/1', 2, 20), ('t/2', 1, 10), ('t/~players/42', 1, 10), ('l/public', 1, 10)`,
    );
    db.exec(
      `INSERT INTO records (key, fp, detail) VALUES ('t:1', 'a', '{"fileCount":2,"fideIds":["42"]}'),
        ('t:2', 'd', '{"fileCount":1}'), ('p:42', 'b', '{"entries":[]}'), ('s:x', 'c', '[]')`,
    );
    const p42 = groupOfOwner("t/~players/42", 12)!;
    const all = new Set(["t/1", "t/2", p42, "s:x", "t/9"]);
    const cut = extractGroups(db, all, 12);
    expect(cut.get("t/9")).toBeNull();
    expect(cut.get(p42)!.players).toBe(1);
    l.close();

    const index = path.join(dir, "index.sqlite");
    copyFileSync(path.join(dir, "bookkeeping.sqlite"), index);
    const ix = new Database(index);
    cutIndex(ix);
    const rows = (sql: string) => ix.prepare(sql).raw().all();
    expect(rows("SELECT path FROM files")).toEqual([["api/index.json"]]);
    // The index keeps the tournaments' records less their FIDE IDs (the bulk of a record).
    expect(rows("SELECT key, detail FROM records ORDER BY key")).toEqual([
      ["t:1", '{"fileCount":2}'],
      ["t:2", '{"fileCount":1}'],
    ]);
    // Loaded back: the same rows as the ledger they were cut from.
    for (const g of ["t/1", p42, "s:x"]) loadGroup(ix, cut.get(g)!.body);
    expect(rows("SELECT path, owner FROM files ORDER BY path")).toEqual([
      ["api/index.json", "l/public"],
      ["api/players/42.json", "t/~players/42"],
      ["api/t/1/index.json", "t/1"],
      ["api/t/1/standings.json", "t/1"],
    ]);
    expect(rows("SELECT key, fp, detail FROM records ORDER BY key")).toEqual([
      ["p:42", "b", '{"entries":[]}'],
      ["s:x", "c", "[]"],
      ["t:1", "a", '{"fileCount":2,"fideIds":["42"]}'],
      ["t:2", "d", '{"fileCount":1}'],
    ]);
    expect(rows("SELECT owner, files, bytes FROM owners ORDER BY owner")).toEqual([
      ["l/public", 1, 10],
      ["t/1", 2, 20],
      ["t/~players/42", 1, 10],
    ]);
    expect(ix.prepare("SELECT sha256 FROM files WHERE path = 'api/t/1/index.json'").pluck().get()).toEqual(
      sha,
    );
    ix.close();
  });
});
