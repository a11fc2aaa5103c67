// Store-wide problems: club rows, broken flags, shared identifiers and dangling references.
import { afterAll, describe, expect, it } from "vitest";
import BetterSqlite from "better-sqlite3";
import type Database from "better-sqlite3";
import { IDS, insert, makeStore, storeProblems, stripConstraints, withStore } from "../../support/stores.ts";
import { removeTempDirs } from "../../support/temp.ts";

afterAll(removeTempDirs);

const unchecked = (statement: string) => (db: Database.Database) => {
  db.pragma("ignore_check_constraints = ON");
  db.exec(statement);
};

/** Catalog entries of a missing club and of a missing tournament, and a tag of a missing entry. */
const MISSING_CATALOG_TARGETS = (db: Database.Database): void => {
  insert(db, "club_tournaments", { club_id: 42, tournament_id: IDS.published });
  insert(db, "club_tournaments", { club_id: IDS.club, tournament_id: 77 });
  insert(db, "club_tournament_tags", { club_id: IDS.club, tournament_id: IDS.unpublished, tag: "x" });
};

/** A recap and a publication of missing tournaments, and a tag of a missing publication. */
const MISSING_TOURNAMENTS = (db: Database.Database): void => {
  insert(db, "recaps", {
    tournament_id: 88,
    language: "es",
    kind: "Final",
    headline: "H",
    paragraphs: "[]",
  });
  insert(db, "publications", { tournament_id: 89, published_at: "x" });
  insert(db, "publication_tags", { tournament_id: IDS.clubOnly, tag: "orphan" });
};

describe("checkStore", () => {
  it("finds nothing wrong with the baseline", () => {
    expect(withStore(makeStore(), (store) => store.checkStore())).toEqual([]);
  });

  it("reports every bad column of an enabled club", () => {
    const problems = storeProblems((db) =>
      db.exec(`UPDATE clubs SET uuid = 'not-a-uuid', slug = '../admin', website_url = 'javascript:alert(1)',
        contact_email = 'nobody', default_language = 'spanish', time_zone = 'Mars/Olympus', brand_color = 'red',
        logo_path = 'data:image/png;base64,AAAA' WHERE club_id = ${IDS.club}`),
    );
    expect(problems).toEqual([
      'sample.sqlite: table clubs, row (club_id=1), column uuid: is "not-a-uuid", expected a UUID (fix: write a UUID such as 123e4567-e89b-12d3-a456-426614174000)',
      expect.stringContaining(
        'row (club_id=1), column slug: slug "../admin" does not match the slug pattern',
      ),
      expect.stringContaining(
        'column logo_path: is "data:image/png;base64,AAAA", expected an https URL or a relative path',
      ),
      expect.stringContaining(
        'column website_url: is "javascript:alert(1)", expected an absolute http or https URL',
      ),
      expect.stringContaining('column contact_email: is "nobody", expected an e-mail address'),
      expect.stringContaining('column default_language: language "spanish" does not match'),
      expect.stringContaining('column time_zone: is "Mars/Olympus", expected an IANA time-zone name'),
      expect.stringContaining('column brand_color: is "red", expected a colour #rrggbb'),
    ]);
  });

  it("reports a slug that is a reserved path word", () => {
    expect(
      storeProblems((db) => db.exec(`UPDATE clubs SET slug = 'tournaments' WHERE club_id = ${IDS.club}`)),
    ).toEqual([
      'sample.sqlite: table clubs, row (club_id=1), column slug: slug "tournaments" is a reserved path word ' +
        "(tag, language, rounds, standings, live, recaps, tournaments, openapi.json) (fix: choose another slug)",
    ]);
  });

  it("checks only the enabled flag of a disabled club", () => {
    expect(
      storeProblems((db) =>
        db.exec(`UPDATE clubs SET uuid = 'junk', slug = 'UPPER' WHERE club_id = ${IDS.disabledClub}`),
      ),
    ).toEqual([]);
    expect(
      storeProblems(unchecked(`UPDATE clubs SET enabled = 2 WHERE club_id = ${IDS.disabledClub}`)),
    ).toEqual([
      expect.stringContaining(
        "table clubs, row (club_id=2), column enabled: holds the integer 2, expected 0 or 1",
      ),
    ]);
  });

  it("reports a broken draft flag, and such a tournament is not published", () => {
    const file = makeStore(
      unchecked(`UPDATE tournaments SET is_draft = 'no' WHERE tournament_id = ${IDS.published}`),
    );
    withStore(file, (store) => {
      expect(store.checkStore().map((p) => p.where + ": " + p.what)).toEqual([
        'sample.sqlite: table tournaments, row (tournament_id=3), column is_draft: holds the text "no", expected 0 or 1',
      ]);
      expect(store.publishedTournaments().map((t) => t.rowId)).toEqual([IDS.clubOnly]);
    });
  });

  it("reports a published tournament without an integer external_id and leaves it out", () => {
    const file = makeStore((db) => {
      stripConstraints(db, "tournaments");
      db.exec(`UPDATE tournaments SET external_id = 'abc' WHERE tournament_id = ${IDS.clubOnly}`);
    });
    withStore(file, (store) => {
      expect(store.checkStore().map((p) => p.where + ": " + p.what)).toEqual([
        'sample.sqlite: table tournaments, row (tournament_id=4), column external_id: holds the text "abc", expected an integer',
      ]);
      expect(store.publishedTournaments().map((t) => t.rowId)).toEqual([IDS.published]);
    });
  });

  it("reports two published tournaments sharing an external_id in a store without UNIQUE", () => {
    const problems = storeProblems((db) => {
      stripConstraints(db, "tournaments");
      db.exec(`UPDATE tournaments SET external_id = 2002 WHERE tournament_id = ${IDS.published}`);
    });
    expect(problems).toEqual([
      "sample.sqlite: table tournaments, rows (external_id=2002), column external_id: 2 published tournaments share the external_id 2002 " +
        "(fix: give every tournament its own external_id)",
    ]);
  });

  it("reports two enabled clubs sharing a slug", () => {
    const problems = storeProblems((db) => {
      stripConstraints(db, "clubs");
      insert(db, "clubs", {
        club_id: 9,
        uuid: "923e4567-e89b-12d3-a456-426614174000",
        slug: "madrid-chess",
        name: "Twin",
        enabled: 1,
      });
    });
    expect(problems).toEqual([
      expect.stringContaining('rows (slug="madrid-chess"), column slug: 2 enabled clubs share the slug'),
    ]);
  });
});

describe("dangling references", () => {
  it("reports catalog entries of a missing club or tournament, and tags of a missing entry", () => {
    const problems = storeProblems(MISSING_CATALOG_TARGETS);
    expect(problems).toEqual([
      "sample.sqlite: table club_tournaments, rows (club_id=42), column club_id: 1 row references club 42, which does not exist in table clubs " +
        "(fix: add the missing clubs row, or correct or delete these rows)",
      expect.stringContaining(
        "table club_tournaments, rows (tournament_id=77), column tournament_id: 1 row references tournament 77, which does not exist",
      ),
      expect.stringContaining(
        `table club_tournament_tags, rows (club_id=1, tournament_id=${IDS.unpublished}): 1 row (a tag) belongs to a catalog entry that does not exist`,
      ),
    ]);
  });

  it("reports recaps, publications and tags of missing tournaments", () => {
    const problems = storeProblems(MISSING_TOURNAMENTS);
    expect(problems).toEqual([
      expect.stringContaining(
        "table recaps, rows (tournament_id=88), column tournament_id: 1 row references tournament 88",
      ),
      expect.stringContaining(
        "table publications, rows (tournament_id=89), column tournament_id: 1 row references tournament 89",
      ),
      expect.stringContaining(
        `table publication_tags, rows (tournament_id=${IDS.clubOnly}), column tournament_id: 1 row references publication of tournament ${IDS.clubOnly}`,
      ),
    ]);
  });

  it("reports rows of a deleted tournament once per table with their count", () => {
    const problems = storeProblems((db) =>
      db.exec(`DELETE FROM tournaments WHERE tournament_id = ${IDS.unpublished}`),
    );
    const six = `rows (tournament_id=${IDS.unpublished}), column tournament_id`;
    expect(problems).toEqual([
      expect.stringContaining(`table players, ${six}: 5 rows reference tournament 6`),
      expect.stringContaining(`table rounds, ${six}: 2 rows reference tournament 6`),
      expect.stringContaining(`table games, ${six}: 5 rows reference tournament 6`),
      expect.stringContaining(`table source_standings, ${six}: 1 row references tournament 6`),
      expect.stringContaining(`table source_standing_rows, ${six}: 2 rows reference tournament 6`),
      expect.stringContaining(`table recaps, ${six}: 3 rows reference tournament 6`),
    ]);
  });

  it("reports a NULL reference in a store without NOT NULL", () => {
    const problems = storeProblems((db) => {
      stripConstraints(db, "recaps");
      db.exec("UPDATE recaps SET tournament_id = NULL WHERE recap_id = 31");
    });
    expect(problems).toEqual([
      expect.stringContaining(
        "table recaps, rows (tournament_id=NULL), column tournament_id: 1 row has no tournament_id",
      ),
    ]);
  });
});

describe("checkStore scoped to the tournaments changed since a count of the store's revisions", () => {
  /** The store-wide `all` count now: what a build records as checked. */
  const allCount = (file: string): bigint => {
    const db = new BetterSqlite(file, { readonly: true });
    try {
      return db
        .prepare<[], bigint>("SELECT revision FROM store_revisions WHERE scope = 'all'")
        .safeIntegers(true)
        .pluck()
        .get()!;
    } finally {
      db.close();
    }
  };
  // Changes made through the triggers (no table rebuilt: that would drop them, and a build then
  // checks the whole store).
  const changes: Record<string, (db: Database.Database) => void> = {
    "a broken draft flag": unchecked(
      `UPDATE tournaments SET is_draft = 'no' WHERE tournament_id = ${IDS.published}`,
    ),
    "catalog entries of a missing club or tournament, tags of a missing entry": MISSING_CATALOG_TARGETS,
    "recaps, publications and tags of missing tournaments": MISSING_TOURNAMENTS,
    "the rows of a deleted tournament": (db) =>
      db.exec(`DELETE FROM tournaments WHERE tournament_id = ${IDS.unpublished}`),
  };
  for (const [name, change] of Object.entries(changes)) {
    it(`finds ${name} made after that count, as the whole-store check does`, () => {
      const file = makeStore();
      const since = allCount(file);
      const db = new BetterSqlite(file);
      db.pragma("foreign_keys = OFF"); // as another tool's connection may run
      change(db);
      db.close();
      withStore(file, (store) => {
        const full = store.checkStore();
        expect(full.length).toBeGreaterThan(0);
        expect(store.checkStore(since)).toEqual(full);
      });
    });
  }

  it("does not look again at what did not change after that count (a build passed it then)", () => {
    const file = makeStore((db) =>
      db.exec(`DELETE FROM tournaments WHERE tournament_id = ${IDS.unpublished}`),
    );
    withStore(file, (store) => {
      expect(store.checkStore().length).toBeGreaterThan(0);
      expect(store.checkStore(allCount(file))).toEqual([]);
    });
  });
});
