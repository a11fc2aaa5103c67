import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BuildError, EXIT, formatProblem } from "../../../src/shared/errors.ts";
import { openStore } from "../../../src/store/read/open.ts";
import { QUERY_SQL } from "../../../src/store/read/queries.ts";
import { insert, makeStore } from "../../support/stores.ts";
import { removeTempDirs, tempDir } from "../../support/temp.ts";

afterAll(removeTempDirs);

/** The BuildError openStore throws for `file`. */
function openError(file: string): BuildError {
  try {
    openStore(file).close();
  } catch (error) {
    if (error instanceof BuildError) return error;
    throw error;
  }
  throw new Error(`openStore(${file}) did not throw`);
}

describe("openStore: unreadable files", () => {
  it("refuses a missing file", () => {
    const file = join(tempDir(), "nothing.sqlite");
    const error = openError(file);
    expect(error.exitCode).toBe(EXIT.storeUnreadable);
    expect(error.message).toContain(file);
    expect(error.problems[0]!.what).toContain("cannot be found");
  });

  it("refuses a directory", () => {
    const dir = join(tempDir(), "store.sqlite");
    mkdirSync(dir);
    const error = openError(dir);
    expect(error.exitCode).toBe(EXIT.storeUnreadable);
    expect(error.problems[0]!.what).toBe("is not a file");
  });

  it("refuses a file that is not SQLite", () => {
    const file = join(tempDir(), "notes.sqlite");
    writeFileSync(file, "these are not the tournaments you are looking for\n".repeat(200));
    const error = openError(file);
    expect(error.exitCode).toBe(EXIT.storeUnreadable);
    expect(error.problems[0]!.what).toContain("is not a SQLite database");
  });

  it("refuses a truncated SQLite file", () => {
    const good = makeStore((db) => {
      // Enough rows to spread the tables over many pages.
      for (let n = 100; n < 2000; n++) {
        insert(db, "players", {
          tournament_id: 3,
          source_player_number: n,
          name: `Player ${n} ${"x".repeat(80)}`,
        });
      }
    });
    const bytes = readFileSync(good);
    const file = join(tempDir(), "truncated.sqlite");
    writeFileSync(file, bytes.subarray(0, Math.floor(bytes.length / 2)));
    const error = openError(file);
    expect(error.exitCode).toBe(EXIT.storeUnreadable);
    expect(formatProblem(error.problems[0]!)).toMatch(/corrupt|malformed|integrity/);
  });

  it("refuses an empty file", () => {
    const file = join(tempDir(), "empty.sqlite");
    writeFileSync(file, "");
    const error = openError(file);
    expect(error.exitCode).toBe(EXIT.storeUnreadable);
    expect(error.problems[0]!.what).toContain("empty");
  });
});

describe("openStore: schema", () => {
  it("refuses user_version 0 (not a store)", () => {
    const error = openError(makeStore((db) => db.pragma("user_version = 0")));
    expect(error.exitCode).toBe(EXIT.storeSchema);
    expect(error.problems).toHaveLength(1);
    expect(error.problems[0]!.what).toContain("no schema version (0)");
  });

  it("refuses a newer schema version (99)", () => {
    const error = openError(makeStore((db) => db.pragma("user_version = 99")));
    expect(error.exitCode).toBe(EXIT.storeSchema);
    expect(error.problems[0]!.what).toContain("schema version 99, newer than version 5");
    expect(error.problems[0]!.fix).toContain("upgrade build-api");
  });

  it("lists every missing table and column, not only the first", () => {
    const error = openError(
      makeStore((db) => {
        db.exec("DROP TABLE recaps");
        db.exec("DROP TABLE publication_tags");
        db.exec("ALTER TABLE players DROP COLUMN rating");
        db.exec("ALTER TABLE clubs DROP COLUMN brand_color");
      }),
    );
    expect(error.exitCode).toBe(EXIT.storeSchema);
    const lines = error.problems.map(formatProblem);
    expect(lines).toHaveLength(4);
    expect(lines).toContainEqual(expect.stringMatching(/table recaps: the table is missing/));
    expect(lines).toContainEqual(expect.stringMatching(/table publication_tags: the table is missing/));
    expect(lines).toContainEqual(
      expect.stringMatching(/table players, column rating: the column is missing/),
    );
    expect(lines).toContainEqual(
      expect.stringMatching(/table clubs, column brand_color: the column is missing/),
    );
  });

  it("refuses a view that stands in for a table", () => {
    const error = openError(
      makeStore((db) => {
        db.exec("ALTER TABLE games RENAME TO real_games");
        db.exec("CREATE VIEW games AS SELECT * FROM real_games");
      }),
    );
    expect(error.exitCode).toBe(EXIT.storeSchema);
    expect(error.problems.map(formatProblem)).toEqual([
      expect.stringMatching(/table games: is a view, not a table/),
    ]);
  });

  it("opens a good store", () => {
    const store = openStore(makeStore());
    expect(store.file).toMatch(/sample\.sqlite$/);
    store.close();
  });
});

describe("reading never changes the store", () => {
  it("leaves the bytes, the mtime and the directory as they were", () => {
    const file = makeStore();
    const hash = () => createHash("sha256").update(readFileSync(file)).digest("hex");
    const before = { hash: hash(), mtime: statSync(file).mtimeMs, size: statSync(file).size };
    const dir = join(file, "..");
    const filesBefore = readdirSync(dir).sort();

    const store = openStore(file);
    store.checkStore();
    store.clubs();
    store.vocabulary();
    for (const { rowId } of store.publishedTournaments()) store.loadTournament(rowId);
    store.close();

    expect({ hash: hash(), mtime: statSync(file).mtimeMs, size: statSync(file).size }).toEqual(before);
    expect(readdirSync(dir).sort()).toEqual(filesBefore);
  });

  it("opens the file read-only", () => {
    const store = openStore(makeStore());
    // Reaches into the reader's connection: SQLite itself must refuse any write.
    expect(() =>
      (store as unknown as { db: { exec(sql: string): void } }).db.exec("DELETE FROM clubs"),
    ).toThrow(/readonly/);
    store.close();
  });
});

describe("queries", () => {
  it("never select a private column", () => {
    const privateColumns = /\b(internal_notes|birth_date|email|generator|published_at)\b/;
    for (const [name, sql] of Object.entries(QUERY_SQL)) {
      expect(sql, name).not.toMatch(privateColumns);
      // No SELECT * or t.*: a column added later must not leak by default.
      expect(sql, name).not.toMatch(/(?<!\()\*/);
    }
  });
});
