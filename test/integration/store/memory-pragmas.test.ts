// Every store connection of a build reads with a small page cache and no memory map: with
// better-sqlite3's default (16 MiB a connection, filled by quick_check and the render) a full build
// held three of them resident (issue 19, point 5; docs/design/memory.md).
import Database from "better-sqlite3";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { openCheckedStore, openStore, STORE_CACHE_KIB } from "../../../src/store/read/open.ts";
import { makeStore } from "../../support/stores.ts";
import { removeTempDirs } from "../../support/temp.ts";

afterAll(removeTempDirs);
afterEach(() => vi.restoreAllMocks());

/** The connections `open` made, with their cache_size and mmap_size as SQLite reports them. */
function settingsOf(open: () => { close(): void }): { cache: number; mmap: number }[] {
  const spy = vi.spyOn(Database.prototype, "pragma");
  const store = open();
  const connections = new Set(spy.mock.contexts as Database.Database[]);
  spy.mockRestore();
  try {
    return [...connections]
      .filter((db) => db.open)
      .map((db) => ({
        cache: db.pragma("cache_size", { simple: true }) as number,
        mmap: db.pragma("mmap_size", { simple: true }) as number,
      }));
  } finally {
    store.close();
  }
}

describe("store connections", () => {
  it("the build's own connection (openStore) keeps a page cache of STORE_CACHE_KIB and maps nothing", () => {
    const file = makeStore();
    expect(STORE_CACHE_KIB).toBeLessThanOrEqual(4096);
    expect(settingsOf(() => openStore(file))).toEqual([{ cache: -STORE_CACHE_KIB, mmap: 0 }]);
  });

  it("a render worker's connection (openCheckedStore) too", () => {
    const file = makeStore();
    const identity = openStore(file, { quickCheck: false });
    identity.close();
    expect(settingsOf(() => openCheckedStore(file, identity.identity))).toEqual([
      { cache: -STORE_CACHE_KIB, mmap: 0 },
    ]);
  });

  it("SQLite's default as better-sqlite3 builds it is larger: the setting is what makes it small", () => {
    const db = new Database(makeStore(), { readonly: true });
    try {
      expect(db.pragma("cache_size", { simple: true })).toBeLessThan(-STORE_CACHE_KIB);
    } finally {
      db.close();
    }
  });
});
