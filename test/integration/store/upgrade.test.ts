// A version 1 store (before the revision triggers) is upgraded in place, and then keeps revisions.
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { EXIT } from "../../../src/shared/errors.ts";
import { createSampleStore, createStore } from "../../../src/store/write/init.ts";
import { upgradeStore } from "../../../src/store/write/upgrade.ts";
import { maintainsRevisions, readRevisions } from "../../../src/store/read/revisions.ts";
import { removeTempDirs, tempDir } from "../../support/temp.ts";

afterAll(removeTempDirs);

/** Turns a current store into what version 1 wrote: no revision tables, no triggers. */
function downgradeToVersion1(file: string): void {
  const db = new Database(file);
  for (const { name } of db
    .prepare<[], { name: string }>("SELECT name FROM sqlite_schema WHERE type = 'trigger'")
    .all())
    db.exec(`DROP TRIGGER "${name}"`);
  db.exec("DROP TABLE tournament_revisions; DROP TABLE store_revisions");
  db.pragma("user_version = 1");
  db.close();
}

describe("upgrade-store", () => {
  it("adds the revision tables and triggers to a version 1 store, every tournament at revision 0", () => {
    const file = join(tempDir(), "v1.sqlite");
    createSampleStore(file);
    downgradeToVersion1(file);
    let db = new Database(file, { readonly: true });
    expect(maintainsRevisions(db)).toBe(false);
    const tournaments = (db.prepare("SELECT count(*) AS n FROM tournaments").get() as { n: number }).n;
    db.close();

    expect(upgradeStore(file)).toBe(1);
    db = new Database(file);
    expect(db.pragma("user_version", { simple: true })).toBe(2);
    expect(maintainsRevisions(db)).toBe(true);
    const before = readRevisions(db)!;
    expect(before.tournaments.size).toBe(tournaments);
    expect(new Set(before.tournaments.values())).toEqual(new Set(["0"]));

    // The triggers work: a renamed player gives its tournament a new revision, and only it.
    const { tournament_id: id } = db.prepare("SELECT tournament_id FROM players LIMIT 1").get() as {
      tournament_id: number;
    };
    db.prepare(
      "UPDATE players SET name = 'Renamed' WHERE tournament_id = ? AND source_player_number = 1",
    ).run(id);
    const after = readRevisions(db)!;
    db.close();
    expect(after.tournaments.get(id)).not.toBe("0");
    for (const [other, rev] of after.tournaments) if (other !== id) expect(rev).toBe("0");
    expect(after.store).not.toBe(before.store);
  });

  it("leaves a current store as it is, and refuses a store of an unknown version", () => {
    const current = join(tempDir(), "v2.sqlite");
    createStore(current);
    expect(upgradeStore(current)).toBe(2);

    const odd = join(tempDir(), "v7.sqlite");
    createStore(odd);
    const db = new Database(odd);
    db.pragma("user_version = 7");
    db.close();
    expect(() => upgradeStore(odd)).toThrow(expect.objectContaining({ exitCode: EXIT.storeSchema }));
  });
});
