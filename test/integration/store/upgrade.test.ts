// Older stores are upgraded in place to version 5 (version 4 gets the team tables): version 1 (before the revision triggers) then
// keeps revisions; version 2 (before the tie-break practice and the round schedule) gets the column
// and the schedule table; version 3 (revisions without stamps, blind to REPLACE across tournaments)
// gets the stamps and the current triggers. Their rows stay as they were. The version 3 store is
// made from the schema version 3 shipped (test/fixtures/store/v3.sql).
import { createHash } from "node:crypto";
import { copyFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { EXIT } from "../../../src/shared/errors.ts";
import { STORE_SCHEMA_VERSION } from "../../../src/store/schema.ts";
import { createStore } from "../../../src/store/write/init.ts";
import { upgradeStore } from "../../../src/store/write/upgrade.ts";
import { importTrf } from "../../../src/trf/import.ts";
import { VOCABULARY_INDEXES } from "../../../src/store/read/queries.ts";
import { openStore } from "../../../src/store/read/open.ts";
import {
  maintainsRevisions,
  readRevisions,
  revisionState,
  revisionTrouble,
  schemaTriggers,
} from "../../../src/store/read/revisions.ts";
import { sampleStoreOfVersion } from "../../support/old-stores.ts";
import { makeStore } from "../../support/stores.ts";
import { removeTempDirs, tempDir } from "../../support/temp.ts";

afterAll(removeTempDirs);

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

/** One hash of every row of the tables every version has (the revision tables left out). */
function rowsHash(db: Database.Database): string {
  const hash = createHash("sha256");
  for (const table of [
    "clubs",
    "tournaments",
    "players",
    "rounds",
    "games",
    "source_standings",
    "source_standing_rows",
    "recaps",
    "club_tournaments",
    "club_tournament_tags",
    "publications",
    "publication_tags",
  ]) {
    // Columns of version 1 only: a later column (NULL after an upgrade) does not change the hash.
    const rows = db.prepare(`SELECT * FROM ${table}`).all() as Record<string, unknown>[];
    const lines = rows.map((row) => {
      delete row.tiebreak_practice;
      return `${table}:${JSON.stringify(row)}\n`;
    });
    for (const line of lines.sort()) hash.update(line);
  }
  return hash.digest("hex");
}

function objects(file: string): unknown[] {
  const d = new Database(file, { readonly: true });
  try {
    return d.prepare("SELECT type, name, tbl_name FROM sqlite_schema ORDER BY type, name").all();
  } finally {
    d.close();
  }
}

function counts(db: Database.Database): Record<string, number> {
  const rows = db
    .prepare<[], { id: number; revision: number }>(
      "SELECT tournament_id AS id, revision FROM tournament_revisions",
    )
    .all();
  return Object.fromEntries(rows.map((r) => [String(r.id), r.revision]));
}

describe("upgrade-store", () => {
  it.each([1, 2, 3, 4] as const)(
    "brings a version %i store to version 5: the reference's tables and triggers, rows unchanged, every revision stamped",
    (version) => {
      const file = join(tempDir(), `v${version}.sqlite`);
      sampleStoreOfVersion(file, version);
      let db = new Database(file, { readonly: true });
      // A version 4 store's revisions are trusted: it only lacks the team tables (and their rows).
      expect(maintainsRevisions(db)).toBe(version === 4);
      const rows = rowsHash(db);
      const before = version === 1 ? null : counts(db);
      db.close();

      expect(upgradeStore(file)).toBe(version);
      db = new Database(file);
      try {
        expect(db.pragma("user_version", { simple: true })).toBe(STORE_SCHEMA_VERSION);
        expect(rowsHash(db)).toBe(rows);
        // The trigger set is exactly the reference one, with the same text: revisions are trusted.
        expect(revisionTrouble(db)).toBeNull();
        const triggers = db
          .prepare<[], { name: string; sql: string }>(
            "SELECT name, sql FROM sqlite_schema WHERE type = 'trigger'",
          )
          .all();
        expect(new Map(triggers.map((t) => [t.name, t.sql]))).toEqual(schemaTriggers());
        // Revision counts are kept (version 1 starts every tournament at 0), each with a stamp.
        const tournaments = Number(db.prepare("SELECT count(*) FROM tournaments").pluck().get());
        expect(Object.keys(counts(db))).toHaveLength(tournaments);
        if (before) expect(counts(db)).toEqual(before);
        else expect(new Set(Object.values(counts(db)))).toEqual(new Set([0]));
        expect(
          db
            .prepare(
              "SELECT count(*) FROM (SELECT stamp FROM tournament_revisions UNION ALL SELECT stamp FROM store_revisions) WHERE length(stamp) IS NOT 8",
            )
            .pluck()
            .get(),
        ).toBe(0);
      } finally {
        db.close();
      }
      // The same tables, indexes and triggers as a new store.
      const fresh = join(tempDir(), "v4.sqlite");
      createStore(fresh);
      expect(objects(file)).toEqual(objects(fresh));
      // Upgrading again changes nothing.
      expect(upgradeStore(file)).toBe(STORE_SCHEMA_VERSION);
    },
  );

  it("gives a version 1 store working triggers: a renamed player moves its tournament's revision, and only it", () => {
    const file = join(tempDir(), "v1.sqlite");
    sampleStoreOfVersion(file, 1);
    upgradeStore(file);
    const db = new Database(file);
    const before = readRevisions(db)!;
    const stateBefore = revisionState(db);
    const { tournament_id: id } = db.prepare("SELECT tournament_id FROM players LIMIT 1").get() as {
      tournament_id: number;
    };
    db.prepare(
      "UPDATE players SET name = 'Renamed' WHERE tournament_id = ? AND source_player_number = 1",
    ).run(id);
    const after = readRevisions(db)!;
    const stateAfter = revisionState(db);
    db.close();
    expect(after.tournaments.get(id)).not.toBe(before.tournaments.get(id));
    for (const [other, rev] of after.tournaments)
      if (other !== id) expect(rev).toBe(before.tournaments.get(other));
    expect(stateAfter).not.toBe(stateBefore);
  });

  it("gives two copies of one version 3 store different stamps: a copy of one over the other is seen", () => {
    const a = join(tempDir(), "a.sqlite");
    sampleStoreOfVersion(a, 3);
    const b = join(tempDir(), "b.sqlite");
    copyFileSync(a, b);
    upgradeStore(a);
    upgradeStore(b);
    const read = (f: string) => {
      const db = new Database(f, { readonly: true });
      try {
        return { ...readRevisions(db)!, store: revisionState(db) };
      } finally {
        db.close();
      }
    };
    const ra = read(a);
    const rb = read(b);
    for (const [id, token] of ra.tournaments) expect(rb.tournaments.get(id)).not.toBe(token);
    expect(rb.store).not.toBe(ra.store);
  });

  it("gives a version 3 store the REPLACE triggers: a recap replaced across tournaments moves its owner", () => {
    const file = join(tempDir(), "v3.sqlite");
    sampleStoreOfVersion(file, 3);
    const replace = (db: Database.Database) => {
      const recap = db
        .prepare<[], { id: number; t: number }>(
          "SELECT recap_id AS id, tournament_id AS t FROM recaps ORDER BY 1 LIMIT 1",
        )
        .get()!;
      const other = db
        .prepare<[number], { t: number }>(
          "SELECT tournament_id AS t FROM tournaments WHERE tournament_id <> ? LIMIT 1",
        )
        .get(recap.t)!.t;
      const rev = () =>
        db.prepare("SELECT revision FROM tournament_revisions WHERE tournament_id = ?").pluck().get(recap.t);
      const was = rev();
      db.prepare(
        "INSERT OR REPLACE INTO recaps (recap_id, tournament_id, language, kind, headline, paragraphs) VALUES (?, ?, 'en', 'Preview', 'New preview', '[\"p\"]')",
      ).run(recap.id, other);
      return rev() !== was;
    };
    // Version 3, as shipped: the replaced recap's tournament keeps its revision (issue 23, point 1).
    const copy = join(tempDir(), "v3-copy.sqlite");
    copyFileSync(file, copy);
    let db = new Database(copy);
    expect(replace(db)).toBe(false);
    db.close();
    upgradeStore(file);
    db = new Database(file);
    expect(replace(db)).toBe(true);
    db.close();
  });

  it("reads a version 3 store as it is, with its revisions untrusted and the reason named", () => {
    const file = join(tempDir(), "v3.sqlite");
    sampleStoreOfVersion(file, 3);
    const store = openStore(file);
    try {
      expect(store.revisionCounts()).toBeNull();
      expect(store.revisionTrouble()).toMatch(/schema version 3, whose revisions miss rows that REPLACE/);
      expect(store.publishedTournaments().length).toBeGreaterThan(0);
    } finally {
      store.close();
    }
  });

  it("leaves a current store as it is, and refuses a store of an unknown version", () => {
    const current = join(tempDir(), "v4.sqlite");
    createStore(current);
    const before = objects(current);
    expect(upgradeStore(current)).toBe(STORE_SCHEMA_VERSION);
    expect(objects(current)).toEqual(before);

    const odd = join(tempDir(), "v7.sqlite");
    createStore(odd);
    const db = new Database(odd);
    db.pragma("user_version = 7");
    db.close();
    expect(() => upgradeStore(odd)).toThrow(expect.objectContaining({ exitCode: EXIT.storeSchema }));
  });

  it("gives a current store made before the read indexes existed those indexes, and its rows and revisions stay", () => {
    const file = makeStore();
    const fresh = join(tempDir(), "fresh.sqlite");
    createStore(fresh);
    const db = new Database(file);
    const added = [...Object.values(VOCABULARY_INDEXES), "tournament_revisions_by_revision"];
    for (const name of added) db.exec(`DROP INDEX ${name}`);
    const rows = counts(db);
    const state = revisionState(db);
    db.close();
    expect(upgradeStore(file)).toBe(STORE_SCHEMA_VERSION);
    expect(objects(file)).toEqual(objects(fresh));
    const after = new Database(file, { readonly: true });
    expect(counts(after)).toEqual(rows);
    expect(revisionState(after)).toBe(state);
    after.close();
  });

  it("adds the round schedule to a version 2 store; its rows then give the tournament a new revision", () => {
    const file = join(tempDir(), "v2.sqlite");
    sampleStoreOfVersion(file, 2);
    // A version 2 store is still read, as one without a schedule.
    openStore(file).close();
    expect(upgradeStore(file)).toBe(2);
    const db = new Database(file);
    const before = readRevisions(db)!;
    const stateBefore = revisionState(db);
    const { tournament_id: id } = db.prepare("SELECT tournament_id FROM tournaments LIMIT 1").get() as {
      tournament_id: number;
    };
    db.prepare(
      "INSERT INTO round_schedule (tournament_id, round_number, scheduled_date, scheduled_time) VALUES (?, 1, '2026-12-01', '18:00')",
    ).run(id);
    const after = readRevisions(db)!;
    const stateAfter = revisionState(db);
    db.close();
    expect(after.tournaments.get(id)).not.toBe(before.tournaments.get(id));
    for (const [other, rev] of after.tournaments)
      if (other !== id) expect(rev).toBe(before.tournaments.get(other));
    expect(stateAfter).not.toBe(stateBefore);
  });

  it("adds tiebreak_practice to a version 2 store, NULL (the written rules) in every tournament", () => {
    const file = join(tempDir(), "v2.sqlite");
    sampleStoreOfVersion(file, 2);
    // A version 2 store is read as it is: every tournament follows the written rules.
    const before = practices(file);
    expect(Object.keys(before).length).toBeGreaterThan(0);
    expect(new Set(Object.values(before))).toEqual(new Set([null]));

    expect(upgradeStore(file)).toBe(2);
    const db = new Database(file);
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

describe("a practice newer than an upgraded store's CHECK", () => {
  it("is refused by import-trf with the fix, and accepted by a new store", () => {
    const dir = tempDir();
    // A version 3 store upgraded to the current version: its tiebreak_practice keeps the CHECK
    // version 3 made it with (SQLite cannot change it in place).
    const old = join(dir, "v3.sqlite");
    sampleStoreOfVersion(old, 3);
    upgradeStore(old);
    const file = fileURLToPath(new URL("../../fixtures/trf/fide-tec-2023-swiss16.trf", import.meta.url));
    const options = {
      file,
      externalId: 99n,
      practice: "chessmanager" as const,
      now: "2026-11-22T12:00:00Z",
      sourceUrl: "https://example.org/t",
    };
    expect(() => importTrf({ ...options, db: old })).toThrow(
      /does not accept the practice chessmanager[\s\S]*init-store/,
    );
    const fresh = join(dir, "fresh.sqlite");
    createStore(fresh);
    expect(importTrf({ ...options, db: fresh }).practice).toBe("chessmanager");
  });
});
