// Every kind of bad row loadTournament must report, each naming file, table, row, column and fix.
import { afterAll, describe, expect, it } from "vitest";
import type Database from "better-sqlite3";
import {
  IDS,
  insert,
  makeStore,
  stripConstraints,
  tournamentProblems,
  withStore,
} from "../../support/stores.ts";
import { removeTempDirs } from "../../support/temp.ts";

afterAll(removeTempDirs);

const T = IDS.published;
const TS = "2026-11-20T10:00:00Z";

function game(
  round: number,
  board: number,
  white: number | null,
  black: number | null,
  extra: Record<string, unknown> = {},
) {
  return {
    tournament_id: T,
    round_number: round,
    board_number: board,
    white_player_number: white,
    black_player_number: black,
    first_seen_at: TS,
    last_seen_at: TS,
    ...extra,
  };
}

const sql = (statement: string) => (db: Database.Database) => db.exec(statement);
/** Lets a test store values that the schema's CHECK constraints would refuse. */
const unchecked = (statement: string) => (db: Database.Database) => {
  db.pragma("ignore_check_constraints = ON");
  db.exec(statement);
};

describe("references inside a tournament", () => {
  it("reports a game whose player does not exist, with file, table, row, column and fix", () => {
    expect(tournamentProblems((db) => insert(db, "games", game(2, 4, 99, null)))).toEqual([
      "sample.sqlite: table games, row (tournament_id=3, round_number=2, board_number=4), column white_player_number: " +
        "player 99 does not exist in tournament 3 (fix: add the player or correct the number)",
    ]);
  });

  it("reports a game in a round that does not exist", () => {
    expect(tournamentProblems((db) => insert(db, "games", game(4, 1, 1, 2)))).toEqual([
      "sample.sqlite: table games, row (tournament_id=3, round_number=4, board_number=1), column round_number: " +
        "round 4 does not exist in the tournament (no row in table rounds) (fix: add the round to table rounds or correct the round number)",
    ]);
  });

  it("reports a standings row without its standings header and one for an unknown player", () => {
    const problems = tournamentProblems((db) => {
      insert(db, "source_standing_rows", {
        tournament_id: T,
        after_round: 2,
        source_player_number: 1,
        rank: 1,
        name: "P",
        tie_break_values: "[]",
      });
      insert(db, "source_standing_rows", {
        tournament_id: T,
        after_round: 1,
        source_player_number: 42,
        rank: 3,
        name: "P",
        tie_break_values: '["0", "0"]',
      });
    });
    expect(problems).toEqual([
      expect.stringContaining(
        "source_standing_rows, row (tournament_id=3, after_round=1, source_player_number=42), column source_player_number: player 42 does not exist",
      ),
      expect.stringContaining(
        "source_standing_rows, row (tournament_id=3, after_round=2, source_player_number=1), column after_round: standings after round 2 do not exist",
      ),
    ]);
  });
});

describe("duplicates", () => {
  it("reports duplicate board numbers in a round of a store without the primary key", () => {
    const problems = tournamentProblems((db) => {
      stripConstraints(db, "games");
      insert(db, "games", game(1, 2, 5, null, { raw_result: "bye" }));
    });
    expect(problems).toContainEqual(
      "sample.sqlite: table games, row (tournament_id=3, round_number=1, board_number=2), column board_number: " +
        "board 2 occurs 2 times in round 1 (fix: give every board of a round its own number)",
    );
  });

  it("reports a player paired twice in the same round", () => {
    expect(tournamentProblems((db) => insert(db, "games", game(1, 3, 5, 1)))).toEqual([
      "sample.sqlite: table games, row (tournament_id=3, round_number=1, board_number=3), column black_player_number: " +
        "player 1 also plays on board 1 of round 1 (fix: a player has one game per round: remove or correct one of the pairings)",
    ]);
  });

  it("reports a player playing himself", () => {
    expect(
      tournamentProblems(
        sql(
          `UPDATE games SET black_player_number = 1 WHERE tournament_id = ${T} AND round_number = 1 AND board_number = 1`,
        ),
      ),
    ).toContainEqual(
      expect.stringContaining("column black_player_number: white and black are both player 1"),
    );
  });

  it("reports duplicate player numbers of a store without the primary key", () => {
    const problems = tournamentProblems((db) => {
      stripConstraints(db, "players");
      insert(db, "players", { tournament_id: T, source_player_number: 2, name: "Twin" });
    });
    expect(problems).toEqual([
      "sample.sqlite: table players, row (tournament_id=3, source_player_number=2): player 2 appears more than once (fix: keep one row per player number)",
    ]);
  });
});

describe("numbers out of range", () => {
  it("reports zero, negative and absurd round numbers and a round beyond total_rounds", () => {
    const problems = tournamentProblems((db) => {
      for (const r of [0, -1, 100, 7]) {
        insert(db, "rounds", {
          tournament_id: T,
          round_number: r,
          first_scraped_at: TS,
          last_scraped_at: TS,
        });
      }
    });
    expect(problems).toEqual([
      expect.stringContaining(
        "row (tournament_id=3, round_number=-1), column round_number: is -1, outside the range 1..99",
      ),
      expect.stringContaining(
        "row (tournament_id=3, round_number=0), column round_number: is 0, outside the range 1..99",
      ),
      expect.stringContaining(
        "row (tournament_id=3, round_number=7), column round_number: round 7 is beyond total_rounds 5",
      ),
      expect.stringContaining(
        "row (tournament_id=3, round_number=100), column round_number: is 100, outside the range 1..99",
      ),
    ]);
  });

  it("reports zero, negative and absurd board numbers", () => {
    const problems = tournamentProblems((db) => {
      insert(db, "games", game(1, 0, null, null));
      insert(db, "games", game(1, -3, null, null));
      insert(db, "games", game(1, 20_001, null, null));
    });
    expect(problems).toEqual([
      expect.stringContaining("board_number=-3), column board_number: is -3, outside the range 1..20000"),
      expect.stringContaining("board_number=0), column board_number: is 0, outside the range 1..20000"),
      expect.stringContaining(
        "board_number=20001), column board_number: is 20001, outside the range 1..20000",
      ),
    ]);
  });

  it("reports a negative refresh interval and an int32 value out of range", () => {
    const problems = tournamentProblems(
      sql(
        `UPDATE tournaments SET refresh_interval_seconds = -60, average_rating = 3000000000 WHERE tournament_id = ${T}`,
      ),
    );
    expect(problems).toEqual([
      expect.stringContaining(
        "table tournaments, row (tournament_id=3), column average_rating: is 3000000000, outside the range 0..4000",
      ),
      expect.stringContaining("column refresh_interval_seconds: is -60, outside the range 1..2147483647"),
    ]);
  });

  it("reports a rating beyond int32", () => {
    expect(
      tournamentProblems(
        sql(
          `UPDATE players SET national_rating = 2147483648 WHERE tournament_id = ${T} AND source_player_number = 2`,
        ),
      ),
    ).toEqual([
      expect.stringContaining(
        "table players, row (tournament_id=3, source_player_number=2), column national_rating: is 2147483648, outside",
      ),
    ]);
  });

  it("reports infinite scoring points", () => {
    expect(
      tournamentProblems(sql(`UPDATE tournaments SET points_win = 9e999 WHERE tournament_id = ${T}`)),
    ).toEqual([expect.stringContaining("column points_win: is Infinity, outside -10..10")]);
  });
});

describe("wrong types", () => {
  it("reports text in INTEGER columns, a real where an integer belongs, a BLOB for text and text for a REAL", () => {
    const problems = tournamentProblems(
      unchecked(`
        UPDATE players SET rating = 'high' WHERE tournament_id = ${T} AND source_player_number = 2;
        UPDATE players SET name = x'00ff' WHERE tournament_id = ${T} AND source_player_number = 3;
        UPDATE games SET white_player_number = 1.5 WHERE tournament_id = ${T} AND round_number = 1 AND board_number = 1;
        UPDATE tournaments SET points_draw = 'half' WHERE tournament_id = ${T};
        UPDATE tournaments SET tracking_enabled = 'yes' WHERE tournament_id = ${T};
      `),
    );
    expect(problems).toEqual([
      expect.stringContaining(
        'table tournaments, row (tournament_id=3), column tracking_enabled: holds the text "yes", expected 0 or 1',
      ),
      expect.stringContaining(
        'table tournaments, row (tournament_id=3), column points_draw: holds the text "half", expected a number',
      ),
      expect.stringContaining(
        'row (tournament_id=3, source_player_number=2), column rating: holds the text "high", expected an integer',
      ),
      expect.stringContaining(
        "row (tournament_id=3, source_player_number=3), column name: holds a BLOB of 2 bytes, expected text",
      ),
      expect.stringContaining(
        "board_number=1), column white_player_number: holds the real number 1.5, expected an integer",
      ),
    ]);
  });

  it("reports a NULL in a required column of a store without NOT NULL", () => {
    const problems = tournamentProblems((db) => {
      stripConstraints(db, "rounds");
      db.exec(`UPDATE rounds SET first_scraped_at = NULL WHERE tournament_id = ${T} AND round_number = 2`);
    });
    expect(problems).toEqual([
      "sample.sqlite: table rounds, row (tournament_id=3, round_number=2), column first_scraped_at: is NULL but a value is required (fix: set a value)",
    ]);
  });
});

describe("dates and timestamps", () => {
  it("reports dates that are not real calendar days and an end before the start", () => {
    expect(
      tournamentProblems(
        sql(
          `UPDATE tournaments SET start_date = '2026-02-30', end_date = '2026-13-01' WHERE tournament_id = ${T}`,
        ),
      ),
    ).toEqual([
      expect.stringContaining('column start_date: is "2026-02-30", expected a calendar date YYYY-MM-DD'),
      expect.stringContaining('column end_date: is "2026-13-01", expected a calendar date YYYY-MM-DD'),
    ]);
    expect(
      tournamentProblems(
        sql(
          `UPDATE tournaments SET start_date = '2026-11-22', end_date = '2026-11-01' WHERE tournament_id = ${T}`,
        ),
      ),
    ).toEqual([expect.stringContaining("column end_date: 2026-11-01 is before start_date 2026-11-22")]);
  });

  it("reports timestamps without Z, with an offset, on a day that does not exist or at hour 24", () => {
    const problems = tournamentProblems(
      sql(`
        UPDATE tournaments SET created_at = '2026-11-20 10:00:00', last_scraped_at = '2026-11-20T10:00:00+01:00' WHERE tournament_id = ${T};
        UPDATE rounds SET first_scraped_at = '2026-02-29T10:00:00Z' WHERE tournament_id = ${T} AND round_number = 1;
        UPDATE games SET result_changed_at = '2026-11-20T24:00:00Z' WHERE tournament_id = ${T} AND round_number = 1 AND board_number = 2;
      `),
    );
    expect(problems).toEqual([
      expect.stringContaining(
        'column created_at: is "2026-11-20 10:00:00", expected an ISO 8601 UTC timestamp ending in Z',
      ),
      expect.stringContaining(
        'column last_scraped_at: is "2026-11-20T10:00:00+01:00", expected an ISO 8601 UTC timestamp',
      ),
      expect.stringContaining(
        'table rounds, row (tournament_id=3, round_number=1), column first_scraped_at: is "2026-02-29T10:00:00Z"',
      ),
      expect.stringContaining('board_number=2), column result_changed_at: is "2026-11-20T24:00:00Z"'),
    ]);
  });

  it("accepts fractional seconds and a leap day", () => {
    expect(
      tournamentProblems(
        sql(
          `UPDATE tournaments SET created_at = '2028-02-29T23:59:59.123Z', start_date = '2028-02-29' WHERE tournament_id = ${T}`,
        ),
      ),
    ).toEqual([]);
  });
});

describe("long strings", () => {
  it("reports a name over 200 characters and keeps one of exactly 200", () => {
    expect(
      tournamentProblems(
        sql(
          `UPDATE players SET name = '${"n".repeat(200)}' WHERE tournament_id = ${T} AND source_player_number = 1`,
        ),
      ),
    ).toEqual([]);
    expect(
      tournamentProblems(
        sql(
          `UPDATE players SET name = '${"n".repeat(201)}' WHERE tournament_id = ${T} AND source_player_number = 1`,
        ),
      ),
    ).toEqual([
      "sample.sqlite: table players, row (tournament_id=3, source_player_number=1), column name: is longer than 200 characters " +
        "(fix: shorten it to at most 200 characters)",
    ]);
  });

  it("counts characters, not UTF-16 units: 200 emoji fit in a name", () => {
    expect(
      tournamentProblems(
        sql(
          `UPDATE players SET name = '${"♞😀".repeat(100)}' WHERE tournament_id = ${T} AND source_player_number = 1`,
        ),
      ),
    ).toEqual([]);
  });

  it("reports megabyte strings with a short message", () => {
    const problems = tournamentProblems(
      sql(`
        UPDATE tournaments SET location = printf('%.*c', 1000000, 'x') WHERE tournament_id = ${T};
        UPDATE recaps SET headline = printf('%.*c', 1000000, 'y') WHERE recap_id = 31;
        UPDATE recaps SET paragraphs = '["' || printf('%.*c', 1000000, 'z') || '"]' WHERE recap_id = 32;
      `),
    );
    expect(problems).toEqual([
      expect.stringContaining("column location: is longer than 10000 characters"),
      expect.stringContaining(
        "table recaps, row (recap_id=31), column headline: is longer than 500 characters",
      ),
      expect.stringContaining(
        "table recaps, row (recap_id=32), column paragraphs: is longer than 200000 characters",
      ),
    ]);
    for (const p of problems) expect(p.length).toBeLessThan(300);
  });

  it("reports a paragraph over 10,000 characters", () => {
    expect(
      tournamentProblems(
        sql(`UPDATE recaps SET paragraphs = '["ok", "${"p".repeat(10_001)}"]' WHERE recap_id = 31`),
      ),
    ).toEqual([
      expect.stringContaining("row (recap_id=31), column paragraphs: item 1 is longer than 10000 characters"),
    ]);
  });

  it("reports control characters", () => {
    expect(
      tournamentProblems(
        sql(
          `UPDATE players SET club = 'Bad' || char(0) || 'Club' WHERE tournament_id = ${T} AND source_player_number = 4`,
        ),
      ),
    ).toEqual([
      expect.stringContaining("source_player_number=4), column club: contains the control character U+0000"),
    ]);
  });
});

describe("slugs, tags and languages", () => {
  it("reports tags outside the pattern, reserved words and look-alike letters on both surfaces", () => {
    const problems = tournamentProblems((db) => {
      for (const tag of ["Open", "../etc", "rounds", "оpen", "a%2Fb"])
        insert(db, "publication_tags", { tournament_id: T, tag });
      insert(db, "club_tournament_tags", { club_id: IDS.club, tournament_id: T, tag: "tag" });
    });
    expect(problems).toEqual([
      expect.stringContaining(
        'table publication_tags, row (tournament_id=3, tag="../etc"), column tag: tag "../etc" does not match the tag pattern',
      ),
      expect.stringContaining('tag="Open"), column tag: tag "Open" does not match'),
      expect.stringContaining('tag="a%2Fb"), column tag: tag "a%2Fb" does not match'),
      expect.stringContaining('tag="rounds"), column tag: tag "rounds" is a reserved path word'),
      expect.stringContaining('tag="оpen"), column tag: tag "оpen" does not match'),
      expect.stringContaining(
        'table club_tournament_tags, row (club_id=1, tournament_id=3, tag="tag"), column tag: tag "tag" is a reserved path word',
      ),
    ]);
  });

  it("reports recap languages outside the pattern", () => {
    expect(
      tournamentProblems(
        sql(
          `UPDATE recaps SET language = 'ES' WHERE recap_id = 31; UPDATE recaps SET language = 'en-gb' WHERE recap_id = 32`,
        ),
      ),
    ).toEqual([
      expect.stringContaining(
        'row (recap_id=31), column language: language "ES" does not match the language pattern',
      ),
      expect.stringContaining('row (recap_id=32), column language: language "en-gb" does not match'),
    ]);
  });
});

describe("JSON columns", () => {
  it("reports invalid JSON and JSON that is not an array of strings", () => {
    const problems = tournamentProblems(
      sql(`
        UPDATE recaps SET paragraphs = 'not json' WHERE recap_id = 31;
        UPDATE recaps SET paragraphs = '[1, 2]' WHERE recap_id = 32;
        UPDATE source_standings SET tie_break_labels = '{"a": 1}' WHERE tournament_id = ${T};
      `),
    );
    expect(problems).toEqual([
      expect.stringContaining(
        "table source_standings, row (tournament_id=3, after_round=1), column tie_break_labels: is not a JSON array of strings",
      ),
      expect.stringContaining('row (recap_id=31), column paragraphs: is not valid JSON: "not json"'),
      expect.stringContaining("row (recap_id=32), column paragraphs: is not a JSON array of strings"),
    ]);
  });

  it("reports a standings row whose values do not match the labels", () => {
    expect(
      tournamentProblems(
        sql(
          `UPDATE source_standing_rows SET tie_break_values = '["1"]' WHERE tournament_id = ${T} AND source_player_number = 3`,
        ),
      ),
    ).toEqual([
      "sample.sqlite: table source_standing_rows, row (tournament_id=3, after_round=1, source_player_number=3), column tie_break_values: " +
        "has 1 values but the standings have 2 tie-break labels (fix: store one value per label of source_standings.tie_break_labels)",
    ]);
  });
});

describe("enumerations", () => {
  it("reports unknown result, bye_kind, recap kind, pairing system and tie-break rules", () => {
    const problems = tournamentProblems(
      unchecked(`
        UPDATE games SET result = 'WhiteWins' WHERE tournament_id = ${T} AND round_number = 1 AND board_number = 1;
        UPDATE games SET bye_kind = 'quarter' WHERE tournament_id = ${T} AND round_number = 2 AND board_number = 3;
        UPDATE recaps SET kind = 'Summary' WHERE recap_id = 32;
        UPDATE tournaments SET pairing_system = 'knockout', tiebreak_rules = 'fide-1999' WHERE tournament_id = ${T};
      `),
    );
    expect(problems).toEqual([
      expect.stringContaining(
        'column pairing_system: holds the text "knockout", expected one of swiss, round-robin',
      ),
      expect.stringContaining(
        'column tiebreak_rules: holds the text "fide-1999", expected one of fide-2023, fide-2026, pre-2023',
      ),
      expect.stringContaining(
        'board_number=1), column result: holds the text "WhiteWins", expected one of Pending, WhiteWin',
      ),
      expect.stringContaining(
        'board_number=3), column bye_kind: holds the text "quarter", expected one of pab, full, half, zero',
      ),
      expect.stringContaining(
        'row (recap_id=32), column kind: holds the text "Summary", expected one of Preview, Round, Final',
      ),
    ]);
  });

  it("reports a bye_kind on a game that is not a bye, and a Bye with two players", () => {
    const problems = tournamentProblems(
      sql(`
        UPDATE games SET bye_kind = 'full' WHERE tournament_id = ${T} AND round_number = 1 AND board_number = 1;
        UPDATE games SET result = 'Bye' WHERE tournament_id = ${T} AND round_number = 1 AND board_number = 2;
      `),
    );
    expect(problems).toEqual([
      expect.stringContaining(
        "board_number=1), column bye_kind: is full but the result is WhiteWin, not Bye",
      ),
      expect.stringContaining("board_number=2), column result: is Bye but a bye row has exactly one player"),
    ]);
  });

  it("reports an unknown tie-break and an empty entry in the tiebreaks list", () => {
    expect(
      tournamentProblems(sql(`UPDATE tournaments SET tiebreaks = 'BH,XYZ' WHERE tournament_id = ${T}`)),
    ).toEqual([expect.stringMatching(/table tournaments, row \(tournament_id=3\), column tiebreaks: .*XYZ/)]);
    expect(
      tournamentProblems(sql(`UPDATE tournaments SET tiebreaks = 'BH,,SB' WHERE tournament_id = ${T}`)),
    ).toEqual([expect.stringContaining('column tiebreaks: has an empty entry in "BH,,SB"')]);
    const store = makeStore(
      sql(`UPDATE tournaments SET tiebreaks = 'DE, BH-C1 ,BH' WHERE tournament_id = ${T}`),
    );
    expect(withStore(store, (s) => s.loadTournament(T).value!.tournament.tiebreaks)).toEqual([
      "DE",
      "BH-C1",
      "BH",
    ]);
  });

  it("reports a recap of kind Round without its round", () => {
    expect(tournamentProblems(sql(`UPDATE recaps SET round_number = NULL WHERE recap_id = 31`))).toEqual([
      expect.stringContaining(
        "row (recap_id=31), column round_number: is NULL but a recap of kind Round needs its round",
      ),
    ]);
  });

  it("never publishes a recap whose draft flag is broken, and reports it", () => {
    const file = makeStore(unchecked(`UPDATE recaps SET is_draft = 2 WHERE recap_id = 32`));
    const { value, problems } = withStore(file, (s) => s.loadTournament(T));
    expect(value).toBeNull();
    expect(problems.map((p) => `${p.where}: ${p.what}`)).toEqual([
      "sample.sqlite: table recaps, row (recap_id=32), column is_draft: holds the integer 2, expected 0 or 1",
    ]);
  });
});

describe("all problems at once", () => {
  it("collects every problem of the tournament, not only the first", () => {
    const problems = tournamentProblems((db) => {
      db.exec(`UPDATE tournaments SET source_url = 'javascript:alert(1)' WHERE tournament_id = ${T}`);
      db.exec(`UPDATE players SET rating = -5 WHERE tournament_id = ${T} AND source_player_number = 1`);
      db.exec(
        `UPDATE rounds SET last_scraped_at = 'yesterday' WHERE tournament_id = ${T} AND round_number = 2`,
      );
      insert(db, "games", game(2, 4, 98, 99));
      db.exec(`UPDATE recaps SET language = 'xx-yy' WHERE recap_id = 31`);
      insert(db, "publication_tags", { tournament_id: T, tag: "live" });
    });
    expect(problems).toHaveLength(7);
    expect(problems).toEqual([
      expect.stringContaining("tournaments, row (tournament_id=3), column source_url"),
      expect.stringContaining("players, row (tournament_id=3, source_player_number=1), column rating"),
      expect.stringContaining("rounds, row (tournament_id=3, round_number=2), column last_scraped_at"),
      expect.stringContaining("board_number=4), column white_player_number: player 98 does not exist"),
      expect.stringContaining("board_number=4), column black_player_number: player 99 does not exist"),
      expect.stringContaining("recaps, row (recap_id=31), column language"),
      expect.stringContaining('publication_tags, row (tournament_id=3, tag="live"), column tag'),
    ]);
  });

  it("still cross-checks a row that has an unrelated bad cell", () => {
    expect(
      tournamentProblems((db) => insert(db, "games", game(2, 4, 99, null, { first_seen_at: "soon" }))),
    ).toEqual([
      expect.stringContaining("board_number=4), column white_player_number: player 99 does not exist"),
      expect.stringContaining('board_number=4), column first_seen_at: is "soon"'),
    ]);
  });

  it("reports bad player numbers without echoes (no 'both player 0', no 'plays twice')", () => {
    const problems = tournamentProblems((db) => {
      insert(db, "games", game(2, 4, -1, -2));
      insert(db, "games", game(2, 5, -3, -4));
    });
    expect(problems).toHaveLength(4);
    for (const p of problems)
      expect(p).toMatch(/column (white|black)_player_number: is -\d, outside the range 1\.\.99999/);
  });

  it("keeps problems of one tournament out of another", () => {
    const file = makeStore((db) => insert(db, "games", game(2, 4, 99, null)));
    withStore(file, (store) => {
      expect(store.loadTournament(T).problems).toHaveLength(1);
      expect(store.loadTournament(IDS.clubOnly)).toMatchObject({ problems: [], value: expect.anything() });
    });
  });
});
