// The bookkeeping connection keeps a small page cache: a full build's delta (one row per file,
// 80,000 at M) otherwise leaves better-sqlite3's 16 MiB default resident (docs/design/memory.md).
import { afterAll, describe, expect, it } from "vitest";
import { Bookkeeping, BOOKKEEPING_CACHE_KIB } from "../../../src/ledger/bookkeeping.ts";
import { removeTempDirs, tempDir } from "../../support/temp.ts";

afterAll(removeTempDirs);

/** The connection's cache_size as SQLite reports it (the class keeps its connection private). */
function cacheSize(b: Bookkeeping): number {
  const db = (b as unknown as { db: { pragma(p: string, o: { simple: true }): unknown } }).db;
  return db.pragma("cache_size", { simple: true }) as number;
}

describe("Bookkeeping connection", () => {
  it("keeps a page cache of BOOKKEEPING_CACHE_KIB, read-write and read-only", () => {
    const dir = tempDir();
    const rw = Bookkeeping.open(dir);
    expect(BOOKKEEPING_CACHE_KIB).toBeLessThanOrEqual(4096);
    expect(cacheSize(rw)).toBe(-BOOKKEEPING_CACHE_KIB);
    const ro = Bookkeeping.openReader(dir);
    expect(cacheSize(ro)).toBe(-BOOKKEEPING_CACHE_KIB);
    ro.close();
    rw.close();
  });
});
