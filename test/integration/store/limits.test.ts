// Row-count limits of one tournament (limits.ts): a tournament one row over a limit is refused with
// the problem naming it, and one exactly at the limit loads. The rows are read at most one past each
// limit and counted only when they cannot prove the tournament within them (sizes.ts), so both sides
// of every limit are pinned here.
import { afterAll, describe, expect, it } from "vitest";
import type Database from "better-sqlite3";
import { formatProblem } from "../../../src/shared/errors.ts";
import {
  MAX_BOARDS_PER_ROUND,
  MAX_GAMES,
  MAX_PLAYERS,
  MAX_RECAPS,
  MAX_ROUNDS,
  MAX_STANDING_ROWS,
  MAX_STANDING_ROWS_PER_ROUND,
  MAX_TAGS_PER_TOURNAMENT,
} from "../../../src/store/limits.ts";
import { IDS, TS, makeStore, stripConstraints, withStore } from "../../support/stores.ts";
import { removeTempDirs } from "../../support/temp.ts";

afterAll(removeTempDirs);

const T = IDS.published;

function load(change: (db: Database.Database) => void, rowId: number = T) {
  return withStore(makeStore(change), (store) => {
    const { value, problems } = store.loadTournament(rowId);
    return { value, problems: problems.map(formatProblem) };
  });
}

/** `SELECT <select> FROM n(i)` for i = from..to (none when to < from). */
function series(from: number, to: number, select: string): string {
  return `WITH RECURSIVE n(i) AS (SELECT ${from} UNION ALL SELECT i + 1 FROM n WHERE i < ${to})
    SELECT ${select} FROM n WHERE i <= ${to}`;
}

function overLimit(rows: string, what: string, name: string): string[] {
  return [
    `sample.sqlite: table ${rows}: ${what} (fix: remove the extra rows: the limits, far above any real event, ` +
      `are documented in schema/store.sql (${name}))`,
  ];
}

/** The baseline tournament has players 1..5; these add the others up to `last`. */
const players = (last: number) => (db: Database.Database) =>
  db.exec(
    `INSERT INTO players (tournament_id, source_player_number, name) ${series(6, last, `${T}, i, 'Player ' || i`)}`,
  );

/** Rounds 3..last (the baseline has 1 and 2), with total_rounds raised to match. */
const rounds = (last: number) => (db: Database.Database) =>
  db.exec(`UPDATE tournaments SET total_rounds = ${Math.min(last, 99)} WHERE tournament_id = ${T};
    INSERT INTO rounds (tournament_id, round_number, first_scraped_at, last_scraped_at)
      ${series(3, last, `${T}, i, '${TS}', '${TS}'`)}`);

/** Unpaired boards (no players, no result) numbered from..to in `round`. */
const boards = (round: number, from: number, to: number) => (db: Database.Database) =>
  db.exec(`INSERT INTO games (tournament_id, round_number, board_number, first_seen_at, last_seen_at)
    ${series(from, to, `${T}, ${round}, i, '${TS}', '${TS}'`)}`);

const both =
  (...changes: ((db: Database.Database) => void)[]) =>
  (db: Database.Database) => {
    for (const change of changes) change(db);
  };

describe("row limits of one tournament", () => {
  it("loads exactly MAX_PLAYERS players and refuses one more", () => {
    const at = load(players(MAX_PLAYERS));
    expect(at.problems).toEqual([]);
    expect(at.value!.tournament.players).toHaveLength(MAX_PLAYERS);
    expect(load(players(MAX_PLAYERS + 1)).problems).toEqual(
      overLimit(
        `players, rows (tournament_id=${T})`,
        "the tournament has more than the limit of 20,000 players",
        "MAX_PLAYERS",
      ),
    );
  });

  it("loads exactly MAX_ROUNDS rounds and source standings, and refuses one more of each", () => {
    const standings = (last: number) => (db: Database.Database) =>
      db.exec(`INSERT INTO source_standings (tournament_id, after_round, retrieved_at, tie_break_labels)
        ${series(2, last, `${T}, i, '${TS}', '[]'`)}`);
    const at = load(both(rounds(MAX_ROUNDS), standings(MAX_ROUNDS)));
    expect(at.problems).toEqual([]);
    expect(at.value!.tournament.rounds).toHaveLength(MAX_ROUNDS);
    expect(at.value!.tournament.sourceStandings).toHaveLength(MAX_ROUNDS);
    // Round 100 is out of range too, but a tournament over a limit is refused before its cells.
    expect(load(rounds(MAX_ROUNDS + 1)).problems).toEqual(
      overLimit(
        `rounds, rows (tournament_id=${T})`,
        "the tournament has more than the limit of 99 rounds",
        "MAX_ROUNDS",
      ),
    );
    expect(load(both(rounds(MAX_ROUNDS), standings(MAX_ROUNDS + 1))).problems).toEqual(
      overLimit(
        `source_standings, rows (tournament_id=${T})`,
        "the tournament has more than the limit of 99 source standings",
        "MAX_ROUNDS",
      ),
    );
  });

  it("loads exactly MAX_GAMES games and refuses one more", () => {
    // 25 rounds of 10,000 boards in place of the baseline's games.
    const games = (extra: number) =>
      both(rounds(25), (db) => {
        db.exec(`DELETE FROM games WHERE tournament_id = ${T}`);
        for (let r = 1; r <= 25; r++) boards(r, 1, MAX_GAMES / 25 + (r === 25 ? extra : 0))(db);
      });
    const at = load(games(0));
    expect(at.problems).toEqual([]);
    expect(at.value!.tournament.rounds.reduce((n, r) => n + r.games.length, 0)).toBe(MAX_GAMES);
    expect(load(games(1)).problems).toEqual(
      overLimit(
        `games, rows (tournament_id=${T})`,
        "the tournament has more than the limit of 250,000 games (boards and byes)",
        "MAX_GAMES",
      ),
    );
  });

  it("loads a round of exactly MAX_BOARDS_PER_ROUND boards and refuses one more", () => {
    // The baseline's round 1 has boards 1 and 2.
    const at = load(boards(1, 3, MAX_BOARDS_PER_ROUND));
    expect(at.problems).toEqual([]);
    expect(at.value!.tournament.rounds[0]!.games).toHaveLength(MAX_BOARDS_PER_ROUND);
    expect(load(boards(1, 3, MAX_BOARDS_PER_ROUND + 1)).problems).toEqual(
      overLimit(
        `games, rows (tournament_id=${T}, round_number=1)`,
        "round 1 has 20,001 boards, more than the limit of 20,000",
        "MAX_BOARDS_PER_ROUND",
      ),
    );
  });

  it("loads exactly MAX_STANDING_ROWS source standing rows and refuses one more", () => {
    // 25 standings of 10,000 rows in place of the baseline's.
    const perRound = MAX_STANDING_ROWS / 25;
    const standingRows = (extra: number) =>
      both(players(perRound + extra), rounds(25), (db) => {
        db.exec(`DELETE FROM source_standings WHERE tournament_id = ${T};
          DELETE FROM source_standing_rows WHERE tournament_id = ${T};
          INSERT INTO source_standings (tournament_id, after_round, retrieved_at, tie_break_labels)
            ${series(1, 25, `${T}, i, '${TS}', '[]'`)};
          INSERT INTO source_standing_rows
              (tournament_id, after_round, source_player_number, rank, name, tie_break_values)
            SELECT ${T}, r.i, p.i, p.i, 'Player ' || p.i, '[]'
            FROM (${series(1, 25, "i")}) r, (${series(1, perRound, "i")}) p;
          INSERT INTO source_standing_rows
              (tournament_id, after_round, source_player_number, rank, name, tie_break_values)
            ${series(perRound + 1, perRound + extra, `${T}, 25, i, i, 'Player ' || i, '[]'`)}`);
      });
    const at = load(standingRows(0));
    expect(at.problems).toEqual([]);
    expect(at.value!.tournament.sourceStandings.reduce((n, s) => n + s.rows.length, 0)).toBe(
      MAX_STANDING_ROWS,
    );
    expect(load(standingRows(1)).problems).toEqual(
      overLimit(
        `source_standing_rows, rows (tournament_id=${T})`,
        "the tournament has more than the limit of 250,000 source standing rows",
        "MAX_STANDING_ROWS",
      ),
    );
  });

  it("loads standings of exactly MAX_STANDING_ROWS_PER_ROUND rows and refuses one more", () => {
    // The baseline's standings after round 1 have players 1 and 3.
    const standingRows = both(players(MAX_STANDING_ROWS_PER_ROUND), (db) =>
      db.exec(`UPDATE source_standings SET tie_break_labels = '[]' WHERE tournament_id = ${T};
        DELETE FROM source_standing_rows WHERE tournament_id = ${T};
        INSERT INTO source_standing_rows
            (tournament_id, after_round, source_player_number, rank, name, tie_break_values)
          ${series(1, MAX_STANDING_ROWS_PER_ROUND, `${T}, 1, i, i, 'Player ' || i, '[]'`)}`),
    );
    const at = load(standingRows);
    expect(at.problems).toEqual([]);
    expect(at.value!.tournament.sourceStandings[0]!.rows).toHaveLength(MAX_STANDING_ROWS_PER_ROUND);
    // One row more without one player more: a store without the primary key repeats a player.
    const over = both(standingRows, (db) => {
      stripConstraints(db, "source_standing_rows");
      db.exec(`INSERT INTO source_standing_rows
          (tournament_id, after_round, source_player_number, rank, name, tie_break_values)
        VALUES (${T}, 1, 1, 1, 'Player 1', '[]')`);
    });
    expect(load(over).problems).toEqual(
      overLimit(
        `source_standing_rows, rows (tournament_id=${T}, after_round=1)`,
        "round 1 has 20,001 standing rows, more than the limit of 20,000",
        "MAX_STANDING_ROWS_PER_ROUND",
      ),
    );
  });

  it("loads exactly MAX_RECAPS recaps besides drafts and refuses one more", () => {
    // The baseline has two recaps and one draft; drafts are not counted.
    const recaps = (extra: number) => (db: Database.Database) =>
      db.exec(`INSERT INTO recaps (recap_id, tournament_id, language, kind, headline, paragraphs, is_draft)
        ${series(1000, 1000 + MAX_RECAPS - 3 + extra, `i, ${T}, 'en', 'Final', 'Headline', '[]', 0`)};
        INSERT INTO recaps (recap_id, tournament_id, language, kind, headline, paragraphs, is_draft)
        ${series(10000, 10010, `i, ${T}, 'en', 'Final', 'Draft', '[]', 1`)}`);
    const at = load(recaps(0));
    expect(at.problems).toEqual([]);
    expect(at.value!.tournament.recaps).toHaveLength(MAX_RECAPS);
    expect(load(recaps(1)).problems).toEqual(
      overLimit(
        `recaps, rows (tournament_id=${T})`,
        "the tournament has more than the limit of 2,000 recaps (drafts not counted)",
        "MAX_RECAPS",
      ),
    );
  });

  /** Tags t1..tN of the tournament `id` (the baseline's tags stay). */
  const globalTags =
    (n: number, id: number = T) =>
    (db: Database.Database) =>
      db.exec(`INSERT INTO publication_tags (tournament_id, tag) ${series(1, n, `${id}, 't' || i`)}`);
  const clubTags =
    (n: number, club: number = IDS.club) =>
    (db: Database.Database) =>
      db.exec(`INSERT INTO club_tournament_tags (club_id, tournament_id, tag)
      ${series(1, n, `${club}, ${T}, 't' || i`)}`);

  it("loads exactly MAX_TAGS_PER_TOURNAMENT global tags and refuses one more", () => {
    // The baseline's tournament has the global tags "open" and "elite".
    const at = load(globalTags(MAX_TAGS_PER_TOURNAMENT - 2));
    expect(at.problems).toEqual([]);
    expect(at.value!.globalTags).toHaveLength(MAX_TAGS_PER_TOURNAMENT);
    expect(load(globalTags(MAX_TAGS_PER_TOURNAMENT - 1)).problems).toEqual(
      overLimit(
        `publication_tags, rows (tournament_id=${T})`,
        "the tournament has more than the limit of 50 global tags",
        "MAX_TAGS_PER_TOURNAMENT",
      ),
    );
  });

  it("counts the global tags of a tournament that is not on the global surface", () => {
    const id = IDS.clubOnly;
    const at = load(globalTags(MAX_TAGS_PER_TOURNAMENT, id), id);
    expect(at.problems).toEqual([]);
    expect(at.value!.globalTags).toBeNull();
    expect(load(globalTags(MAX_TAGS_PER_TOURNAMENT + 1, id), id).problems).toEqual(
      overLimit(
        `publication_tags, rows (tournament_id=${id})`,
        "the tournament has more than the limit of 50 global tags",
        "MAX_TAGS_PER_TOURNAMENT",
      ),
    );
  });

  it("loads exactly MAX_TAGS_PER_TOURNAMENT tags in a catalog and refuses one more", () => {
    // The baseline's tournament has the tag "youth" in the enabled club's catalog.
    const at = load(clubTags(MAX_TAGS_PER_TOURNAMENT - 1));
    expect(at.problems).toEqual([]);
    expect(at.value!.clubs[0]!.tags).toHaveLength(MAX_TAGS_PER_TOURNAMENT);
    expect(load(clubTags(MAX_TAGS_PER_TOURNAMENT)).problems).toEqual(
      overLimit(
        `club_tournament_tags, rows (club_id=${IDS.club}, tournament_id=${T})`,
        "the tournament has more than the limit of 50 tags in this catalog",
        "MAX_TAGS_PER_TOURNAMENT",
      ),
    );
  });

  it("loads every tag of two catalogs that have more tags together than one may", () => {
    const second = (db: Database.Database) =>
      db.exec(`UPDATE clubs SET enabled = 1 WHERE club_id = ${IDS.disabledClub};
        INSERT INTO club_tournaments (club_id, tournament_id, display_order) VALUES (${IDS.disabledClub}, ${T}, 1)`);
    const at = load(both(second, clubTags(40), clubTags(40, IDS.disabledClub)));
    expect(at.problems).toEqual([]);
    expect(at.value!.clubs.map((c) => [c.slug, c.tags.length])).toEqual([
      ["closed-club", 40],
      ["madrid-chess", 41],
    ]);
  });
});
