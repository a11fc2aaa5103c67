// A store that cannot be read because a writer holds it, or because its file was written in place
// while a build read it, is reported as what happened, with retrying as the fix, never as damage
// with "restore the store from a good copy" (which would lose the writer's data). A store that
// really is damaged still gets that fix.
import { readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { BuildError, EXIT } from "../../../src/shared/errors.ts";
import { openStore } from "../../../src/store/read/open.ts";
import { createSampleStore } from "../../../src/store/write/init.ts";
import { removeTempDirs, tempDir } from "../../support/temp.ts";

afterAll(removeTempDirs);

function sample(name: string): string {
  const file = join(tempDir(name), "s.sqlite");
  rmSync(file, { force: true });
  createSampleStore(file);
  return file;
}

function thrown(f: () => unknown): BuildError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(BuildError);
    return e as BuildError;
  }
  return expect.fail("expected a BuildError");
}

describe("a store that cannot be read", () => {
  it("held by an exclusive writer: locked, not damaged; the fix is to retry", () => {
    const file = sample("locked");
    const writer = new Database(file);
    writer.exec("BEGIN EXCLUSIVE");
    try {
      const e = thrown(() => openStore(file));
      expect(e.exitCode).toBe(EXIT.storeUnreadable);
      expect(e.problems[0]!.what).toMatch(/^the store is locked by a writer/);
      expect(e.problems[0]!.fix).toMatch(/not damaged: let the writer finish .* run the same command again/);
      expect(e.message).not.toMatch(/good copy/);
      expect((e.cause as { code?: string }).code).toMatch(/^SQLITE_BUSY/);
    } finally {
      writer.exec("ROLLBACK");
      writer.close();
    }
  }, 30_000);

  it("written in place while a build read it: changed under the read; the fix is to retry", () => {
    const file = sample("changed");
    const store = openStore(file, { quickCheck: false });
    const ids = store.publishedTournaments();
    // As `cp other.sqlite store.sqlite` does: the same file, other bytes.
    writeFileSync(file, Buffer.alloc(statSync(file).size, 0));
    const e = thrown(() => {
      for (const t of ids) store.loadTournament(t.rowId);
    });
    store.close();
    expect(e.exitCode).toBe(EXIT.storeUnreadable);
    expect(e.problems[0]!.what).toMatch(/^the store file changed while it was read/);
    expect(e.problems[0]!.fix).toMatch(/^the store is probably not damaged: run the same command again/);
  });

  it("damaged, and left alone: the fix is still a good copy", () => {
    const file = sample("damaged");
    // Damage from before the read: every page after the first is zeros.
    const bytes = Buffer.alloc(statSync(file).size, 0);
    readFileSync(file).copy(bytes, 0, 0, 4096);
    writeFileSync(file, bytes);
    const e = thrown(() => openStore(file));
    expect(e.exitCode).toBe(EXIT.storeUnreadable);
    expect(e.problems[0]!.fix).toBe("restore the store from a good copy");
  });
});
