// The embedded sample (data/sample.sql) must keep the shapes the snapshot build and its tests
// rely on. These checks read the built store directly with SQL.
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildSample } from "../../scripts/build-sample.ts";
import { STORE_SCHEMA_VERSION } from "../../src/store/schema.ts";
import { revisionTrouble } from "../../src/store/read/revisions.ts";
import { tempDir } from "../support/temp.ts";

const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const LANGUAGE = /^[a-z]{2,3}(?:-[A-Z]{2})?$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z$/;
const RESERVED = ["tag", "language", "rounds", "standings", "live", "recaps", "tournaments", "openapi.json"];

let dir: string;
let db: Database.Database;

/** Published = non-draft and on the global surface or in an enabled club's catalog. */
const PUBLISHED = `
  SELECT t.* FROM tournaments t
  WHERE t.is_draft = 0 AND (
    t.tournament_id IN (SELECT tournament_id FROM publications)
    OR t.tournament_id IN (
      SELECT ct.tournament_id FROM club_tournaments ct JOIN clubs c USING (club_id) WHERE c.enabled = 1))`;

function all<T>(sql: string, ...params: unknown[]): T[] {
  return db.prepare(sql).all(...params) as T[];
}
function count(sql: string, ...params: unknown[]): number {
  return (
    (db
      .prepare(sql)
      .pluck()
      .get(...params) as number) ?? 0
  );
}

beforeAll(() => {
  dir = tempDir("sample-test");
  const file = join(dir, "sample.sqlite");
  buildSample(file);
  db = new Database(file, { readonly: true });
  db.defaultSafeIntegers(false);
});

afterAll(() => {
  db?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("embedded sample", () => {
  it("is reproducible: building twice gives identical bytes", () => {
    const again = join(dir, "again.sqlite");
    buildSample(again);
    expect(readFileSync(again).equals(readFileSync(join(dir, "sample.sqlite")))).toBe(true);
  });

  it("is a current store with trusted revisions, stamped from its SQL text (so the bytes repeat)", () => {
    expect(db.pragma("user_version", { simple: true })).toBe(STORE_SCHEMA_VERSION);
    expect(revisionTrouble(db)).toBeNull();
    const stamps = db
      .prepare("SELECT hex(stamp) FROM tournament_revisions UNION ALL SELECT hex(stamp) FROM store_revisions")
      .pluck()
      .all() as string[];
    expect(stamps.every((s) => /^[0-9A-F]{16}$/.test(s))).toBe(true);
    expect(new Set(stamps).size).toBe(stamps.length);
  });

  it("has three clubs with valid uuids and slugs, one of them disabled with its own catalog", () => {
    const clubs = all<{
      club_id: number;
      uuid: string;
      slug: string;
      enabled: number;
      default_language: string;
    }>("SELECT * FROM clubs");
    expect(clubs).toHaveLength(3);
    for (const club of clubs) {
      expect(club.uuid).toMatch(UUID);
      expect(club.slug).toMatch(SLUG);
      expect(RESERVED).not.toContain(club.slug);
      expect(club.default_language).toMatch(LANGUAGE);
    }
    const disabled = clubs.filter((c) => c.enabled === 0);
    expect(disabled).toHaveLength(1);
    expect(
      count("SELECT count(*) FROM club_tournaments WHERE club_id = ?", disabled[0]!.club_id),
    ).toBeGreaterThan(0);
    expect(
      count("SELECT count(*) FROM club_tournament_tags WHERE club_id = ?", disabled[0]!.club_id),
    ).toBeGreaterThan(0);
  });

  it("has at least eight published non-draft tournaments", () => {
    expect(count(`SELECT count(*) FROM (${PUBLISHED})`)).toBeGreaterThanOrEqual(8);
  });

  it("has a published draft and an unpublished tournament", () => {
    expect(
      count(
        `SELECT count(*) FROM tournaments WHERE is_draft = 1
           AND tournament_id IN (SELECT tournament_id FROM publications)
           AND tournament_id IN (SELECT tournament_id FROM club_tournaments)`,
      ),
    ).toBeGreaterThan(0);
    expect(
      count(
        `SELECT count(*) FROM tournaments
         WHERE tournament_id NOT IN (SELECT tournament_id FROM publications)
           AND tournament_id NOT IN (SELECT tournament_id FROM club_tournaments)`,
      ),
    ).toBeGreaterThan(0);
  });

  it("publishes both pairing systems, several tie-break lists and rule sets", () => {
    const systems = all<{ pairing_system: string }>(`SELECT DISTINCT pairing_system FROM (${PUBLISHED})`);
    expect(systems.map((s) => s.pairing_system).sort()).toEqual(["round-robin", "swiss"]);
    expect(
      count(`SELECT count(DISTINCT tiebreaks) FROM (${PUBLISHED}) WHERE tiebreaks <> ''`),
    ).toBeGreaterThan(2);
    expect(count(`SELECT count(DISTINCT tiebreak_rules) FROM (${PUBLISHED})`)).toBeGreaterThan(1);
  });

  it("has byes of every written kind, forfeits, unplayed games and double forfeits", () => {
    const byes = all<{
      white_player_number: number | null;
      black_player_number: number | null;
      raw_result: string;
      bye_kind: string;
    }>("SELECT * FROM games WHERE result = 'Bye'");
    expect(byes.length).toBeGreaterThan(0);
    for (const bye of byes) {
      // A bye row holds exactly one player.
      expect([bye.white_player_number, bye.black_player_number].filter((p) => p !== null)).toHaveLength(1);
      expect(bye.bye_kind).not.toBeNull();
      expect(bye.raw_result).not.toBe("");
    }
    expect(new Set(byes.map((b) => b.bye_kind))).toEqual(new Set(["pab", "half", "zero"]));
    expect(
      count("SELECT count(*) FROM games WHERE result = 'WhiteForfeitWin' AND raw_result = '+ - -'"),
    ).toBeGreaterThan(0);
    expect(count("SELECT count(*) FROM games WHERE result = 'BlackForfeitWin'")).toBeGreaterThan(0);
    expect(count("SELECT count(*) FROM games WHERE result = 'DoubleForfeit'")).toBeGreaterThan(0);
    expect(count("SELECT count(*) FROM games WHERE result = 'Unplayed'")).toBeGreaterThan(0);
  });

  it("has unfinished games: pending with and without a stored result, provisional points, adjourned", () => {
    expect(count("SELECT count(*) FROM games WHERE raw_result = '' AND result = 'Pending'")).toBeGreaterThan(
      0,
    );
    expect(count("SELECT count(*) FROM games WHERE raw_result = '' AND result IS NULL")).toBeGreaterThan(0);
    expect(count("SELECT count(*) FROM games WHERE provisional_points IS NOT NULL")).toBeGreaterThan(0);
    expect(count("SELECT count(*) FROM games WHERE result = 'Adjourned'")).toBeGreaterThan(0);
    // Finished games left for the build to normalize.
    expect(count("SELECT count(*) FROM games WHERE result IS NULL AND raw_result <> ''")).toBeGreaterThan(0);
  });

  it("has players who are not paired in some round", () => {
    const unpaired = count(`
      SELECT count(*) FROM players p JOIN rounds r USING (tournament_id)
      WHERE EXISTS (SELECT 1 FROM games g WHERE g.tournament_id = r.tournament_id AND g.round_number = r.round_number)
        AND NOT EXISTS (SELECT 1 FROM games g WHERE g.tournament_id = r.tournament_id AND g.round_number = r.round_number
          AND p.source_player_number IN (g.white_player_number, g.black_player_number))`);
    expect(unpaired).toBeGreaterThan(0);
  });

  it("has every game's players in the player directory, boards unique and positive", () => {
    expect(
      count(`
        SELECT count(*) FROM games g WHERE
          (g.white_player_number IS NOT NULL AND NOT EXISTS (SELECT 1 FROM players p
             WHERE p.tournament_id = g.tournament_id AND p.source_player_number = g.white_player_number))
          OR (g.black_player_number IS NOT NULL AND NOT EXISTS (SELECT 1 FROM players p
             WHERE p.tournament_id = g.tournament_id AND p.source_player_number = g.black_player_number))`),
    ).toBe(0);
    expect(count("SELECT count(*) FROM games WHERE board_number <= 0")).toBe(0);
  });

  it("has source standings for one tournament's newest complete round and none for others", () => {
    const standings = all<{ tournament_id: number; after_round: number; tie_break_labels: string }>(
      "SELECT * FROM source_standings",
    );
    expect(standings.length).toBeGreaterThan(0);
    for (const s of standings) {
      const labels = JSON.parse(s.tie_break_labels) as string[];
      expect(labels).toEqual(["TB1", "TB2", "TB3"]);
      expect(s.after_round).toBe(
        count("SELECT max(round_number) FROM games WHERE tournament_id = ?", s.tournament_id),
      );
      const rows = all<{ tie_break_values: string }>(
        "SELECT tie_break_values FROM source_standing_rows WHERE tournament_id = ? AND after_round = ?",
        s.tournament_id,
        s.after_round,
      );
      expect(rows.length).toBe(
        count("SELECT count(*) FROM players WHERE tournament_id = ?", s.tournament_id),
      );
      for (const row of rows) expect(JSON.parse(row.tie_break_values)).toHaveLength(labels.length);
    }
    expect(
      count(
        `SELECT count(*) FROM (${PUBLISHED}) WHERE tournament_id NOT IN (SELECT tournament_id FROM source_standings)`,
      ),
    ).toBeGreaterThan(0);
  });

  it("has recaps in es and en of every kind, and a draft recap", () => {
    const published = all<{
      language: string;
      kind: string;
      round_number: number | null;
      paragraphs: string;
    }>("SELECT * FROM recaps WHERE is_draft = 0");
    expect(new Set(published.map((r) => r.language))).toEqual(new Set(["es", "en"]));
    expect(new Set(published.map((r) => r.kind))).toEqual(new Set(["Preview", "Round", "Final"]));
    for (const recap of published) {
      expect(recap.round_number === null).toBe(recap.kind !== "Round");
      expect(Array.isArray(JSON.parse(recap.paragraphs))).toBe(true);
    }
    expect(count("SELECT count(*) FROM recaps WHERE is_draft = 1")).toBeGreaterThan(0);
  });

  it("has valid tags on both surfaces", () => {
    const global = all<{ tag: string }>("SELECT tag FROM publication_tags");
    const club = all<{ tag: string }>("SELECT tag FROM club_tournament_tags");
    expect(global.length).toBeGreaterThan(0);
    expect(club.length).toBeGreaterThan(0);
    for (const { tag } of [...global, ...club]) {
      expect(tag).toMatch(SLUG);
      expect(RESERVED).not.toContain(tag);
    }
  });

  it("fills every private column with values that look private", () => {
    expect(count("SELECT count(*) FROM clubs WHERE internal_notes LIKE 'PRIVATE-NOTE-%'")).toBe(3);
    expect(count("SELECT count(*) FROM tournaments WHERE internal_notes NOT LIKE 'PRIVATE-NOTE-%'")).toBe(0);
    expect(count("SELECT count(*) FROM players WHERE email LIKE '%@example.invalid'")).toBeGreaterThan(0);
    expect(count("SELECT count(*) FROM players WHERE birth_date IS NOT NULL")).toBeGreaterThan(0);
    expect(count("SELECT count(*) FROM recaps WHERE generator NOT LIKE 'PRIVATE-GENERATOR%'")).toBe(0);
    expect(count("SELECT count(*) FROM publications")).toBeGreaterThan(0);
  });

  it("has an external_id beyond 2^53", () => {
    const ids = db
      .prepare("SELECT external_id FROM tournaments")
      .pluck()
      .safeIntegers(true)
      .all() as bigint[];
    expect(ids.some((id) => id > 2n ** 53n)).toBe(true);
  });

  it("writes every timestamp as ISO 8601 UTC with Z", () => {
    const columns: [string, string][] = [
      ["tournaments", "created_at"],
      ["tournaments", "last_scraped_at"],
      ["tournaments", "last_source_change_at"],
      ["tournaments", "next_refresh_at"],
      ["rounds", "first_scraped_at"],
      ["rounds", "last_scraped_at"],
      ["rounds", "last_source_change_at"],
      ["games", "first_seen_at"],
      ["games", "last_seen_at"],
      ["games", "result_changed_at"],
      ["source_standings", "retrieved_at"],
      ["publications", "published_at"],
    ];
    for (const [table, column] of columns) {
      for (const value of all<{ v: string }>(
        `SELECT ${column} AS v FROM ${table} WHERE ${column} IS NOT NULL`,
      )) {
        expect(value.v, `${table}.${column}`).toMatch(TIMESTAMP);
      }
    }
  });
});
