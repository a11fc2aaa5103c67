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
  loadGroup,
  PLAYER_GROUPS,
} from "../../../src/ledger/ledger-groups.ts";
import { tempDir } from "../../support/temp.ts";

describe("ledger groups", () => {
  it("puts a tournament's files, a player's files and record, and a search chunk in their groups", () => {
    expect(groupOfOwner("t/1201344")).toBe("t/1201344");
    const g = groupOfOwner("t/~players/3201414")!;
    expect(g).toMatch(/^p\/[0-9a-f]{3}$/);
    expect(parseInt(g.slice(2), 16)).toBeLessThan(PLAYER_GROUPS);
    expect(groupOfRecord("p:3201414")).toBe(g);
    expect(groupOfRecord("s:1671.t1")).toBe("s:1671.t1");
    // The index keeps the lists, the host files, the search root and sections, the tournaments' records.
    for (const o of ["", "hosts", "l/c/lyon", "t/~search/a", "t/~search-s/a"])
      expect(groupOfOwner(o)).toBeNull();
    for (const k of ["t:1201344", "lists", "s", "s/a"]) expect(groupOfRecord(k)).toBeNull();
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
      `INSERT INTO records (key, fp, detail) VALUES ('t:1', 'a', '{}'), ('p:42', 'b', '{"entries":[]}'), ('s:x', 'c', '[]')`,
    );
    const all = new Set(["t/1", "t/2", groupOfOwner("t/~players/42")!, "s:x", "t/9"]);
    const cut = extractGroups(db, all);
    expect(cut.get("t/9")).toBeNull();
    expect(cut.get(groupOfOwner("t/~players/42")!)!.players).toBe(1);
    l.close();

    const index = path.join(dir, "index.sqlite");
    copyFileSync(path.join(dir, "bookkeeping.sqlite"), index);
    const ix = new Database(index);
    cutIndex(ix);
    const rows = (sql: string) => ix.prepare(sql).raw().all();
    expect(rows("SELECT path FROM files")).toEqual([["api/index.json"]]);
    expect(rows("SELECT key FROM records")).toEqual([["t:1"]]);
    // Loaded back: the same rows as the ledger they were cut from.
    for (const g of ["t/1", groupOfOwner("t/~players/42")!, "s:x"]) loadGroup(ix, cut.get(g)!.body);
    expect(rows("SELECT path, owner FROM files ORDER BY path")).toEqual([
      ["api/index.json", "l/public"],
      ["api/players/42.json", "t/~players/42"],
      ["api/t/1/index.json", "t/1"],
      ["api/t/1/standings.json", "t/1"],
    ]);
    expect(rows("SELECT key, fp, detail FROM records ORDER BY key")).toEqual([
      ["p:42", "b", '{"entries":[]}'],
      ["s:x", "c", "[]"],
      ["t:1", "a", "{}"],
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
