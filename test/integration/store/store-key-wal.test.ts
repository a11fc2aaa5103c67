// A WAL-mode store read by root: SQLite fchown()s the -wal file to the database's owner each time
// it opens it, which changes the file's ctime without changing a byte. The store key (the
// whole-snapshot up-to-date check) must not change with it, or every build of such a store
// renders again (issue 49).
import { chmodSync, copyFileSync, existsSync, statSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { currentStoreKey } from "../../../src/store/read/revisions.ts";
import { makeSampleStore } from "../../support/e2e.ts";
import { removeTempDirs, tempDir } from "../../support/temp.ts";

afterAll(removeTempDirs);

const RENAME = "UPDATE players SET name = name";
const ONE_PLAYER =
  "WHERE source_player_number = 1 AND tournament_id = (SELECT tournament_id FROM tournaments WHERE external_id = 1270466)";

describe("the store key of a WAL store", () => {
  it("does not follow the -wal file's ctime, only its bytes", async () => {
    const dir = tempDir("store-key-wal");
    const file = path.join(dir, "s.sqlite");
    copyFileSync(makeSampleStore(dir), file);
    // A writer that stays open keeps the -wal file (closing the last connection removes it).
    const writer = new Database(file);
    try {
      writer.pragma("journal_mode = WAL");
      writer.exec(`${RENAME} || ' Jr' ${ONE_PLAYER}`);
      const wal = `${file}-wal`;
      expect(existsSync(wal)).toBe(true);
      const before = currentStoreKey(file);
      expect(before).toMatch(/^revisions:/);
      const ctime = statSync(wal, { bigint: true }).ctimeNs;
      // What root's fchown does to it: a metadata change, the bytes untouched.
      await new Promise((resolve) => setTimeout(resolve, 20));
      chmodSync(wal, statSync(wal).mode);
      expect(statSync(wal, { bigint: true }).ctimeNs).not.toBe(ctime);
      expect(currentStoreKey(file)).toBe(before);
      // A write to the WAL is a change.
      writer.exec(`${RENAME} || ' II' ${ONE_PLAYER}`);
      expect(currentStoreKey(file)).not.toBe(before);
    } finally {
      writer.close();
    }
  });
});
