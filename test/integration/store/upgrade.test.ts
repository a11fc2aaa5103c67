// Older stores are upgraded in place: version 1 (before the revision triggers) then keeps revisions;
// version 2 (before the tie-break practice and the round schedule) gets the column, the schedule
// table and its triggers, and both are read as they are.
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { EXIT } from "../../../src/shared/errors.ts";
import { createSampleStore, createStore } from "../../../src/store/write/init.ts";
import { upgradeStore } from "../../../src/store/write/upgrade.ts";
import { openStore } from "../../../src/store/read/open.ts";
import { maintainsRevisions, readRevisions } from "../../../src/store/read/revisions.ts";
import { removeTempDirs, tempDir } from "../../support/temp.ts";

afterAll(removeTempDirs);

/** Turns a current store into what version 2 wrote: no tiebreak_practice column, no round schedule
 * nor its triggers. */
function downgradeToVersion2(file: string): void {
  const db = new Database(file);
  db.exec("ALTER TABLE tournaments DROP COLUMN tiebreak_practice");
  for (const { name } of db
    .prepare<[], { name: string }>(
      "SELECT name FROM sqlite_schema WHERE type = 'trigger' AND tbl_name = 'round_schedule'",
    )
    .all())
    db.exec(`DROP TRIGGER "${name}"`);
  db.exec("DROP TABLE round_schedule");
  db.pragma("user_version = 2");
  db.close();
}

/** tiebreak_practice of every tournament, by external id. */
function practices(file: string): Record<string, string | null> {
  const store = openStore(file);
  try {
    const out: Record<string, string | null> = {};
    for (const { rowId, externalId } of store.publishedTournaments()) {
      out[String(externalId)] = store.loadTournament(rowId).value!.tournament.tiebreakPractice;
    }
    return out;
  } finally {
    store.close();
  }
}

/** Turns a current store into what version 1 wrote: no revision tables, no triggers. */
function downgradeToVersion1(file: string): void {
  downgradeToVersion2(file);
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
    expect(db.pragma("user_version", { simple: true })).toBe(3);
    expect(db.prepare("SELECT count(*) AS n FROM round_schedule").get()).toEqual({ n: 0 });
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
    const current = join(tempDir(), "v3.sqlite");
    createStore(current);
    expect(upgradeStore(current)).toBe(3);

    const odd = join(tempDir(), "v7.sqlite");
    createStore(odd);
    const db = new Database(odd);
    db.pragma("user_version = 7");
    db.close();
    expect(() => upgradeStore(odd)).toThrow(expect.objectContaining({ exitCode: EXIT.storeSchema }));
  });

  it("adds the round schedule to a version 2 store; its rows then give the tournament a new revision", () => {
    const file = join(tempDir(), "v2.sqlite");
    createSampleStore(file);
    downgradeToVersion2(file);
    // A version 2 store is still read, as one without a schedule.
    const reader = openStore(file);
    reader.close();
    expect(upgradeStore(file)).toBe(2);
    const db = new Database(file);
    expect(db.pragma("user_version", { simple: true })).toBe(3);
    const before = readRevisions(db)!;
    const { tournament_id: id } = db.prepare("SELECT tournament_id FROM tournaments LIMIT 1").get() as {
      tournament_id: number;
    };
    db.prepare(
      "INSERT INTO round_schedule (tournament_id, round_number, scheduled_date, scheduled_time) VALUES (?, 1, '2026-12-01', '18:00')",
    ).run(id);
    const after = readRevisions(db)!;
    db.close();
    expect(after.tournaments.get(id)).not.toBe(before.tournaments.get(id));
    for (const [other, rev] of after.tournaments)
      if (other !== id) expect(rev).toBe(before.tournaments.get(other));
    // The upgraded store has the same tables and triggers as a new one.
    const fresh = join(tempDir(), "v3.sqlite");
    createStore(fresh);
    const objects = (f: string) => {
      const d = new Database(f, { readonly: true });
      const rows = d.prepare("SELECT type, name FROM sqlite_schema ORDER BY type, name").all();
      d.close();
      return rows;
    };
    expect(objects(file)).toEqual(objects(fresh));
  });

  it("adds tiebreak_practice to a version 2 store, NULL (the written rules) in every tournament", () => {
    const file = join(tempDir(), "v2.sqlite");
    createSampleStore(file);
    downgradeToVersion2(file);
    // A version 2 store is read as it is: every tournament follows the written rules.
    const before = practices(file);
    expect(Object.keys(before).length).toBeGreaterThan(0);
    expect(new Set(Object.values(before))).toEqual(new Set([null]));

    expect(upgradeStore(file)).toBe(2);
    const db = new Database(file);
    expect(db.pragma("user_version", { simple: true })).toBe(3);
    // The column takes the allowed values and refuses others (its CHECK came with it).
    db.prepare(
      "UPDATE tournaments SET tiebreak_practice = 'vega' WHERE tournament_id = (SELECT min(tournament_id) FROM tournaments)",
    ).run();
    expect(() => db.prepare("UPDATE tournaments SET tiebreak_practice = 'chess-results'").run()).toThrow(
      /CHECK constraint failed/,
    );
    db.close();
    expect(Object.values(practices(file))).toContain("vega");
  });
});
