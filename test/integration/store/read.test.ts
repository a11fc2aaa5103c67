import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { VOCABULARY_INDEXES, vocabularySql } from "../../../src/store/read/queries.ts";
import type { PublishedTournament } from "../../../src/domain/types.ts";
import { EXTERNAL, IDS, insert, makeStore, tournamentProblems, withStore } from "../../support/stores.ts";
import { removeTempDirs, tempDir } from "../../support/temp.ts";
import { generateStore } from "../../../scripts/gen-store.ts";
import type { ChunkKey } from "../../../src/store/read/reader.ts";

afterAll(removeTempDirs);

const baseline = makeStore();

function load(file: string, rowId: number): PublishedTournament {
  return withStore(file, (store) => {
    const { value, problems } = store.loadTournament(rowId);
    expect(problems).toEqual([]);
    return value!;
  });
}

describe("publishedTournaments", () => {
  it("lists non-draft tournaments of the global surface or an enabled club, by external_id", () => {
    const list = withStore(baseline, (store) => store.publishedTournaments());
    expect(list).toEqual([
      { rowId: IDS.clubOnly, externalId: EXTERNAL.clubOnly },
      { rowId: IDS.published, externalId: EXTERNAL.published },
    ]);
  });

  it("leaves out drafts even when published, unpublished ones, and ones only a disabled club lists", () => {
    const ids = withStore(baseline, (store) => store.publishedTournaments().map((t) => t.rowId));
    expect(ids).not.toContain(IDS.draft);
    expect(ids).not.toContain(IDS.unpublished);
    expect(ids).not.toContain(IDS.disabledOnly);
  });

  it("reads the same list a chunk at a time, each with its revision token, and counts it", () => {
    const db = path.join(tempDir("chunks"), "s.sqlite");
    generateStore({ tournaments: 40, seed: "3", out: db });
    withStore(db, (store) => {
      const whole = store.publishedTournaments();
      expect(store.publishedCount()).toBe(whole.length);
      for (const size of [1, 7, whole.length, whole.length + 5]) {
        const chunks: ReturnType<typeof store.publishedAfter>[] = [];
        let after: ChunkKey | null = null;
        do {
          const chunk = store.publishedAfter(after, size, true);
          chunks.push(chunk);
          after = chunk.next;
        } while (after !== null && chunks.length <= whole.length + 1);
        const keys = chunks.flatMap((c) => c.keys);
        expect(keys.map(({ rowId, externalId }) => ({ rowId, externalId }))).toEqual(whole);
        expect(chunks.length).toBe(Math.floor(whole.length / size) + 1);
        // The tokens are the store's revisions, as a tick reads them one by one.
        expect(keys.map((k) => k.token)).toEqual(store.revisionTokens(whole.map((k) => k.rowId)));
      }
      expect(store.publishedAfter(null, 5, false).keys.every((k) => k.token === null)).toBe(true);
    });
  });

  it("keeps int64 values beyond 2^53 exact", () => {
    const [, big] = withStore(baseline, (store) => store.publishedTournaments());
    expect(big!.externalId).toBe(9_007_199_254_740_993n);
    const t = load(
      makeStore((db) =>
        db
          .prepare("UPDATE players SET fide_id = ? WHERE tournament_id = ? AND source_player_number = 1")
          .run(2n ** 63n - 1n, IDS.published),
      ),
      IDS.published,
    ).tournament;
    expect(t.externalId).toBe(9_007_199_254_740_993n);
    expect(t.fideEventId).toBe(2n ** 62n);
    expect(t.players[0]!.fideId).toBe(9_223_372_036_854_775_807n);
  });
});

describe("loadTournament", () => {
  it("assembles the tournament with players, rounds, games, standings and recaps", () => {
    const { tournament: t } = load(baseline, IDS.published);
    expect(t.name).toBe("Open 3");
    expect(t.totalRounds).toBe(5);
    expect(t.scoring.draw).toBe(0.5);
    expect(t.players.map((p) => p.sourcePlayerNumber)).toEqual([1, 2, 3, 4, 5]);
    expect(t.players[0]).toMatchObject({ name: "Player 1", rating: 2001, startingRank: 1, fideId: null });
    expect(t.rounds.map((r) => r.roundNumber)).toEqual([1, 2]);
    expect(t.sourceStandings).toEqual([
      expect.objectContaining({
        afterRound: 1,
        tieBreakLabels: ["BH", "SB"],
        rows: [
          expect.objectContaining({
            rank: 1,
            sourcePlayerNumber: 1,
            points: 1,
            tieBreakValues: ["1", "0.5"],
          }),
          expect.objectContaining({ rank: 2, sourcePlayerNumber: 3 }),
        ],
      }),
    ]);
  });

  it("normalizes raw results when result is NULL", () => {
    const { tournament: t } = load(baseline, IDS.published);
    const games = t.rounds.flatMap((r) =>
      r.games.map((g) => [r.roundNumber, g.boardNumber, g.result, g.resultText, g.byeKind]),
    );
    expect(games).toEqual([
      [1, 1, "WhiteWin", "1 - 0", null],
      [1, 2, "Draw", "½ - ½", null],
      [2, 1, "Pending", "", null],
      [2, 2, "BlackWin", "0 - 1", null],
      [2, 3, "Bye", "bye", "pab"],
    ]);
    expect(t.rounds[0]!.games[0]!.rawResult).toBe("1 - 0");
  });

  it("prefers the stored result and bye_kind over raw_result", () => {
    const file = makeStore((db) => {
      db.exec(
        `UPDATE games SET result = 'BlackWin' WHERE tournament_id = ${IDS.published} AND round_number = 1 AND board_number = 1`,
      );
      db.exec(
        `UPDATE games SET bye_kind = 'half' WHERE tournament_id = ${IDS.published} AND round_number = 2 AND board_number = 3`,
      );
    });
    const { tournament: t } = load(file, IDS.published);
    expect(t.rounds[0]!.games[0]).toMatchObject({
      result: "BlackWin",
      resultText: "0 - 1",
      rawResult: "1 - 0",
    });
    expect(t.rounds[1]!.games[2]).toMatchObject({ result: "Bye", resultText: "bye (½)", byeKind: "half" });
  });

  it("returns non-draft recaps only, in recap_id order", () => {
    const { tournament: t } = load(baseline, IDS.published);
    expect(t.recaps).toEqual([
      {
        language: "es",
        kind: "Round",
        round: 1,
        headline: "Headline 31",
        preview: null,
        paragraphs: ["First paragraph.", "Second."],
      },
      {
        language: "en",
        kind: "Preview",
        round: null,
        headline: "Headline 32",
        preview: null,
        paragraphs: ["First paragraph.", "Second."],
      },
    ]);
  });

  it("gives the global tags sorted, and null when not published globally", () => {
    expect(load(baseline, IDS.published).globalTags).toEqual(["elite", "open"]);
    expect(load(baseline, IDS.clubOnly).globalTags).toBeNull();
  });

  it("gives the catalog entries of enabled clubs only", () => {
    const file = makeStore((db) =>
      insert(db, "club_tournaments", {
        club_id: IDS.disabledClub,
        tournament_id: IDS.published,
        display_order: 9,
      }),
    );
    expect(load(file, IDS.published).clubs).toEqual([
      { slug: "madrid-chess", tags: ["youth"], displayOrder: 2 },
    ]);
  });

  it("refuses drafts, unpublished and unknown tournaments", () => {
    withStore(baseline, (store) => {
      for (const [rowId, what] of [
        [IDS.draft, "the tournament is a draft"],
        [IDS.unpublished, "the tournament is not published"],
        [IDS.disabledOnly, "the tournament is not published"],
        [999, "no such tournament"],
      ] as const) {
        const { value, problems } = store.loadTournament(rowId);
        expect(value).toBeNull();
        expect(problems).toEqual([expect.objectContaining({ what })]);
        expect(problems[0]!.where).toBe(`sample.sqlite: table tournaments, row (tournament_id=${rowId})`);
      }
    });
  });

  it("accepts a foreign store whose REAL columns hold integers", () => {
    const file = makeStore((db) => {
      // Rebuilt with an INTEGER points column, as another tool might declare it.
      db.exec(`CREATE TABLE loose AS SELECT tournament_id, after_round, source_player_number, rank, name, title,
          international_rating, national_rating, gender, player_type, player_group, federation, club,
          CAST(points + 1 AS INTEGER) AS points, tie_break_values FROM source_standing_rows;
        DROP TABLE source_standing_rows; ALTER TABLE loose RENAME TO source_standing_rows;`);
      const types = db.prepare("SELECT DISTINCT typeof(points) AS t FROM source_standing_rows").pluck().all();
      expect(types).toEqual(["integer"]);
    });
    const rows = load(file, IDS.published).tournament.sourceStandings[0]!.rows;
    expect(rows.map((r) => r.points)).toEqual([2, 2]);
  });
});

describe("clubs", () => {
  it("lists enabled clubs (their catalogs come from their tournaments)", () => {
    const clubs = withStore(baseline, (store) => store.clubs());
    expect(clubs).toEqual([
      {
        clubId: "123e4567-e89b-12d3-a456-426614174000",
        slug: "madrid-chess",
        name: "Madrid Chess",
        description: null,
        logoPath: null,
        websiteUrl: "https://madrid-chess.example",
        contactEmail: null,
        defaultLanguage: "es",
        timeZone: "Europe/Madrid",
        brandColor: "#1a2b3c",
      },
    ]);
  });

  it("orders clubs by slug and leaves out a club whose row is invalid", () => {
    const file = makeStore((db) => {
      insert(db, "clubs", {
        club_id: 10,
        uuid: "323e4567-e89b-12d3-a456-426614174000",
        slug: "a-club",
        name: "A",
      });
      insert(db, "clubs", { club_id: 11, uuid: "not-a-uuid", slug: "b-club", name: "B" });
    });
    expect(withStore(file, (store) => store.clubs().map((c) => c.slug))).toEqual(["a-club", "madrid-chess"]);
  });
});

describe("vocabulary", () => {
  it("collects the tags of each surface and the recap languages of published tournaments", () => {
    expect(withStore(baseline, (store) => store.vocabulary())).toEqual({
      globalTags: ["elite", "open"],
      clubTags: ["blitz", "youth"],
      languages: ["en", "es"],
    });
  });

  it("is the same read through the tag and language indexes as by scanning a store without them", () => {
    const file = makeStore((db) => {
      // Values at both ends of the walk; the baseline's hidden rows (a draft's tags, a disabled
      // club's, a draft recap's language) are met by it and must stay out.
      insert(db, "publication_tags", { tournament_id: IDS.published, tag: "zeta" });
      insert(db, "club_tournament_tags", { club_id: IDS.club, tournament_id: IDS.published, tag: "aaa" });
    });
    const bySeeks = withStore(file, (store) => store.vocabulary());
    expect(bySeeks).toEqual({
      globalTags: ["elite", "open", "zeta"],
      clubTags: ["aaa", "blitz", "youth"],
      languages: ["en", "es"],
    });
    const db = new Database(file);
    expect(Object.values(vocabularySql(db)).every((sql) => sql.includes("WITH RECURSIVE"))).toBe(true);
    for (const name of Object.values(VOCABULARY_INDEXES)) db.exec(`DROP INDEX ${name}`);
    expect(Object.values(vocabularySql(db)).some((sql) => sql.includes("WITH RECURSIVE"))).toBe(false);
    db.close();
    expect(withStore(file, (store) => store.vocabulary())).toEqual(bySeeks);
  });

  it("leaves out values that are not valid path segments (loadTournament reports them)", () => {
    const file = makeStore((db) => {
      insert(db, "publication_tags", { tournament_id: IDS.published, tag: "../etc" });
      insert(db, "publication_tags", { tournament_id: IDS.published, tag: "rounds" });
    });
    expect(withStore(file, (store) => store.vocabulary().globalTags)).toEqual(["elite", "open"]);
    expect(
      tournamentProblems((db) =>
        insert(db, "publication_tags", { tournament_id: IDS.published, tag: "../etc" }),
      ),
    ).toEqual([
      expect.stringContaining(
        'table publication_tags, row (tournament_id=3, tag="../etc"), column tag: tag "../etc" does not match',
      ),
    ]);
  });
});

describe("no private value reaches the domain", () => {
  it("returns no private column's value from any method", () => {
    const everything = withStore(baseline, (store) => ({
      clubs: store.clubs(),
      vocabulary: store.vocabulary(),
      tournaments: store.publishedTournaments().map((t) => store.loadTournament(t.rowId)),
    }));
    const json = JSON.stringify(everything, (_key, value: unknown) =>
      typeof value === "bigint" ? value.toString() : value,
    );
    expect(json).toContain("Madrid Chess");
    for (const secret of [
      "SECRET",
      "secret",
      "1990-01-01",
      "Headline 33",
      "draft-only-tag",
      "draft-club-tag",
      "hidden",
      "Closed Club",
    ]) {
      expect(json).not.toContain(secret);
    }
  });
});
