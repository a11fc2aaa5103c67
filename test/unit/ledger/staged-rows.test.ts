// A build's per-file rows live in the bookkeeping connection's TEMP tables (staged-rows.ts), not in
// the writer's heap: the checks that used in-memory sets (a path written twice, a file where a
// directory is, the reverse) still hold when the directories are long out of the writer's small
// cache, and the staged rows become the pending delta by SQL and vanish with the connection.
import { mkdirSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { Bookkeeping } from "../../../src/ledger/bookkeeping.ts";
import { StagingWriter } from "../../../src/publish/staging-writer.ts";
import { removeTempDirs, tempDir } from "../../support/temp.ts";

afterAll(removeTempDirs);

function setup(): { b: Bookkeeping; w: StagingWriter; dir: string } {
  const dir = tempDir();
  const incoming = path.join(dir, "incoming");
  mkdirSync(incoming);
  const b = Bookkeeping.open(dir);
  const w = new StagingWriter({
    incoming,
    staged: b.staging(),
    index: (live) => b.index(live),
    step: () => {},
  });
  return { b, w, dir };
}

function rows(b: Bookkeeping, sql: string): unknown[] {
  const db = (b as unknown as { db: { prepare(s: string): { all(): unknown[] } } }).db;
  return db.prepare(sql).all();
}

describe("staged rows", () => {
  it("refuses duplicates and file/directory clashes after the directory left the writer's cache", () => {
    const { b, w } = setup();
    w.write("a/b/file.json", "{}", "t/1");
    // More directories than the writer remembers (256): "a/b" is then known only to the rows.
    for (let i = 0; i < 600; i++) w.write(`d/${i}/index.json`, `${i}`, "t/2");
    expect(() => w.write("a/b/file.json", "{}")).toThrow(/written twice/);
    expect(() => w.write("a/b", "{}")).toThrow(/clashes/);
    expect(() => w.write("a/b/file.json/x", "{}")).toThrow(/clashes/);
    expect(() => w.write("d/7", "{}")).toThrow(/clashes/);
    expect(() => w.write("A/B/FILE.json", "{}")).toThrow(/letter case/);
    const c = w.finish();
    expect(c.freshCount).toBe(601);
    expect(c.has("a/b/file.json")).toBe(true);
    expect(c.has("a/b")).toBe(false);
    expect(c.freshIndex("a/b/file.json")).toBe(0);
    expect(c.freshIndex("d/0/index.json")).toBe(1);
    expect(c.changed(3)).toEqual(["a/b/file.json", "d/0/index.json", "d/1/index.json"]);
    const fresh = [...c.fresh()];
    expect(fresh).toHaveLength(601);
    expect(fresh).toEqual([...fresh].sort());
    b.close();
  });

  it("becomes the pending delta by SQL, and leaves nothing behind when the connection closes", () => {
    const { b, w, dir } = setup();
    w.write("x/one.json", "1", "t/1");
    w.write("x/two.json", "22", "lists");
    const c = w.finish();
    b.stage(c.delta(false), "1", 1);
    expect(rows(b, "SELECT path, owner, bytes FROM pending_files ORDER BY path")).toEqual([
      { path: "x/one.json", owner: "t/1", bytes: 1 },
      { path: "x/two.json", owner: "lists", bytes: 2 },
    ]);
    b.apply();
    expect(b.get("x/two.json")?.owner).toBe("lists");
    expect(b.totals()).toEqual({ files: 2, bytes: 3 });
    b.close();
    const again = Bookkeeping.open(dir);
    expect(rows(again, "SELECT name FROM sqlite_temp_master")).toEqual([]);
    again.close();
  });
});
