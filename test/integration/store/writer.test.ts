// The store's one writer: named columns from columns.ts, values in that order, defaults kept for
// omitted columns, unknown columns refused, and a tournament read back as it was written.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import type { Tournament } from "../../../src/domain/types.ts";
import { createStore } from "../../../src/store/write/init.ts";
import { openStore } from "../../../src/store/read/open.ts";
import { StoreWriter, writeTournament, type StoreRow } from "../../../src/store/write/writer.ts";
import { parseTrf } from "../../../src/trf/parse.ts";
import { convertTrf } from "../../../src/trf/to-tournament.ts";
import { tempDir, removeTempDirs } from "../../support/temp.ts";

const work = tempDir("store-writer");
afterAll(removeTempDirs);
const NOW = "2026-11-22T12:00:00Z";
let n = 0;

function freshStore(): { file: string; db: Database.Database } {
  const file = join(work, `store-${++n}.sqlite`);
  createStore(file);
  return { file, db: new Database(file) };
}

/** The TEC crosstable as a domain tournament, with every optional column given a value. */
function tecTournament(): Tournament {
  const text = readFileSync(new URL("../../fixtures/trf/fide-tec-2023-swiss16.trf", import.meta.url), "utf8");
  const t = convertTrf(parseTrf(text, "tec.trf"), {
    externalId: 77n,
    tiebreaks: ["BH-C1", "BH", "SB"],
    rules: "pre-2023",
    now: NOW,
    sourceUrl: "https://example.org/tec",
  }).tournament;
  return {
    ...t,
    organizer: "FIDE TEC",
    fideEventId: 123456n,
    trackingEnabled: true,
    refreshIntervalSeconds: 900,
    nextRefreshAt: "2026-11-22T12:15:00Z",
    lastSourceChangeAt: "2026-11-22T11:00:00Z",
    scoring: { ...t.scoring, win: 3, draw: 1 },
    players: t.players.map((p, i) => ({
      ...p,
      nationalRating: 1500 + i,
      club: "Club",
      type: "U18",
      group: "A",
    })),
    sourceStandings: [
      {
        afterRound: 5,
        retrievedAt: NOW,
        tieBreakLabels: ["TB1"],
        rows: [
          {
            rank: 1,
            sourcePlayerNumber: 1,
            name: t.players[0]!.name,
            title: null,
            internationalRating: 2000,
            nationalRating: null,
            gender: null,
            type: null,
            group: null,
            federation: null,
            club: null,
            points: 4.5,
            tieBreakValues: ["12.5"],
          },
        ],
      },
    ],
    recaps: [
      { language: "en", kind: "Final", round: null, headline: "Done", preview: null, paragraphs: ["One."] },
    ],
  };
}

describe("StoreWriter", () => {
  it("writes a tournament that the store reader gives back unchanged", () => {
    const { file, db } = freshStore();
    const t = tecTournament();
    const id = db.transaction(() => writeTournament(new StoreWriter(db), t, { publishedAt: NOW }))();
    db.close();
    const store = openStore(file);
    try {
      const loaded = store.loadTournament(Number(id));
      expect(loaded.problems).toEqual([]);
      expect(loaded.value!.tournament).toEqual(t);
      expect(loaded.value!.globalTags).toEqual([]);
    } finally {
      store.close();
    }
  });

  it("leaves an omitted column to its DEFAULT", () => {
    const { db } = freshStore();
    const w = new StoreWriter(db);
    w.insert("tournaments", {
      external_id: 1n,
      source_url: "https://example.org/1",
      name: "Defaults",
      created_at: NOW,
      last_scraped_at: NOW,
      // undefined means omitted, like a missing key
      location: undefined,
    });
    const row = db
      .prepare("SELECT pairing_system, tiebreak_rules, points_draw, is_draft, location FROM tournaments")
      .get();
    expect(row).toEqual({
      pairing_system: "swiss",
      tiebreak_rules: "fide-2023",
      points_draw: 0.5,
      is_draft: 0,
      location: null,
    });
    db.close();
  });

  it("names its columns: a table whose columns are in another order gets the same row", () => {
    const db = new Database(":memory:");
    db.exec("CREATE TABLE publication_tags (tag TEXT NOT NULL, tournament_id INTEGER NOT NULL)");
    new StoreWriter(db).insert("publication_tags", { tournament_id: 7, tag: "open" });
    expect(db.prepare("SELECT tournament_id, tag FROM publication_tags").get()).toEqual({
      tournament_id: 7,
      tag: "open",
    });
    db.close();
  });

  it("is unaffected by a column and a trigger the schema adds", () => {
    const { db } = freshStore();
    db.exec(`ALTER TABLE tournaments ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;
      CREATE TRIGGER games_revision AFTER INSERT ON games BEGIN
        UPDATE tournaments SET revision = revision + 1 WHERE tournament_id = NEW.tournament_id;
      END;`);
    const t = tecTournament();
    const id = writeTournament(new StoreWriter(db), t);
    const games = t.rounds.reduce((s, r) => s + r.games.length, 0);
    expect(db.prepare("SELECT revision FROM tournaments WHERE tournament_id = ?").pluck().get(id)).toBe(
      games,
    );
    db.close();
  });

  it("refuses a column that columns.ts does not list, before any SQL runs", () => {
    const { db } = freshStore();
    const w = new StoreWriter(db);
    const bad = { tournament_id: 1, tag: "x", "tag) VALUES (1, 2); --": 1 } as StoreRow<"publication_tags">;
    expect(() => w.insert("publication_tags", bad)).toThrow(/is not a column of the store/);
    expect(() => w.insert("publication_tags", {})).toThrow(/names no column/);
    db.close();
  });

  it("writes private columns but only those columns.ts lists", () => {
    const { db } = freshStore();
    const w = new StoreWriter(db);
    w.insert("clubs", { uuid: "u", slug: "s", name: "C", internal_notes: "private" });
    expect(db.prepare("SELECT internal_notes FROM clubs").pluck().get()).toBe("private");
    expect(w.clubIdOf("s")).toBe(1);
    expect(w.clubIdOf("nope")).toBeNull();
    expect(w.nextDisplayOrder(1)).toBe(0);
    db.close();
  });
});
