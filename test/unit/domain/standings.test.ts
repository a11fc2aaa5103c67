import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  computeStandings,
  currentStandings,
  formatTiebreakValue,
  newestCompleteRound,
  standingsStop,
} from "../../../src/domain/standings.ts";
import type { Tournament } from "../../../src/domain/types.ts";
import { parseTrf } from "../../../src/trf/parse.ts";
import { trfToTournament } from "../../../src/trf/to-tournament.ts";

function player(no: number, rating: number, cells: string[]): string {
  let s = `001 ${String(no).padStart(4)}      ${`Player ${no}`.padEnd(33)} ${String(rating).padStart(4)} GER`;
  s = s.padEnd(91);
  for (const c of cells) {
    const [opp, colour, code] = c.split(" ");
    s += `${opp!.padStart(4)} ${colour} ${code}  `;
  }
  return s.trimEnd();
}

// Four players, two rounds. After round 2: #1 1.5, #3 1, #4 1, #2 0.5; #3 and #4 drew.
function base(tiebreaks: string[]): Tournament {
  const text = [
    "012 Test",
    player(1, 2000, ["2 w 1", "3 b ="]),
    player(2, 1900, ["1 b 0", "4 w ="]),
    player(3, 1800, ["4 w =", "1 w ="]),
    player(4, 1700, ["3 b =", "2 b ="]),
  ].join("\n");
  const t = trfToTournament(parseTrf(text), {
    externalId: 77n,
    tiebreaks,
    rules: "fide-2023",
    now: "2026-01-01T00:00:00Z",
  });
  t.rounds[0]!.lastScrapedAt = "2026-01-02T00:00:00Z";
  t.rounds[1]!.lastScrapedAt = "2026-01-03T00:00:00Z";
  t.lastScrapedAt = "2026-01-04T00:00:00Z";
  return t;
}

describe("formatTiebreakValue", () => {
  it.each([
    [31.5, "31.5"],
    [0, "0"],
    [7.25, "7.25"],
    [12, "12"],
    [0.1 + 0.2, "0.3"],
    [null, ""],
  ])("%s -> %j", (v, text) => {
    expect(formatTiebreakValue(v)).toBe(text);
  });

  it("prints whole and half values as they are, the same text as six decimals give", () => {
    const sixDecimals = (v: number): string => String(Number(v.toFixed(6)));
    for (const v of [-0, 0.5, -7.5, 2 ** 53, 1e21, 1.5e21, -1e21, 1e300, 123456789.5]) {
      expect(formatTiebreakValue(v)).toBe(sixDecimals(v));
    }
    fc.assert(
      fc.property(fc.integer({ min: -1e9, max: 1e9 }), fc.double({ noNaN: true }), (k, x) => {
        expect(formatTiebreakValue(k / 2)).toBe(sixDecimals(k / 2));
        if (Number.isFinite(x)) expect(formatTiebreakValue(x)).toBe(sixDecimals(x));
      }),
    );
  });
});

describe("newestCompleteRound", () => {
  it("is the newest round with games that are all final", () => {
    const t = base([]);
    expect(newestCompleteRound(t)).toBe(2);
    t.rounds[1]!.games[0]!.result = "Pending";
    expect(newestCompleteRound(t)).toBe(1);
    t.rounds[0]!.games[0]!.result = "Unknown";
    expect(newestCompleteRound(t)).toBeNull();
  });

  it("stops before a round with a game that is not final, even when later rounds are", () => {
    const t = base([]);
    t.rounds[0]!.games[0]!.result = "Unknown";
    expect(newestCompleteRound(t)).toBeNull();
    expect(standingsStop(t)).toEqual({ afterRound: 0, round: 1, board: t.rounds[0]!.games[0]!.boardNumber });
  });

  it("names no stop for a pending game, nor when every round is complete", () => {
    const t = base([]);
    expect(standingsStop(t)).toBeNull();
    t.rounds[1]!.games[0]!.result = "Pending";
    expect(standingsStop(t)).toBeNull();
  });

  it("ignores rounds without games", () => {
    const t = base([]);
    t.rounds.push({
      roundNumber: 3,
      firstScrapedAt: "x",
      lastScrapedAt: "x",
      lastSourceChangeAt: null,
      games: [],
    });
    expect(newestCompleteRound(t)).toBe(2);
  });
});

describe("computed standings", () => {
  it("shares a rank between players equal on points and every tie-break", () => {
    const rows = computeStandings(base([]), 2);
    expect(rows.map((r) => [r.sourcePlayerNumber, r.rank, r.points])).toEqual([
      [1, 1, 1.5],
      [3, 2, 1],
      [4, 2, 1],
      [2, 4, 0.5],
    ]);
  });

  it("ranks by points, then the tie-breaks in order", () => {
    const rows = computeStandings(base(["BH"]), 2);
    expect(rows.map((r) => [r.sourcePlayerNumber, r.rank, r.tieBreakValues])).toEqual([
      [1, 1, ["1.5"]],
      [3, 2, ["2.5"]],
      [4, 3, ["1.5"]],
      [2, 4, ["2.5"]],
    ]);
  });

  it("breaks a tie with direct encounter only inside the tied group", () => {
    const t = base(["DE"]);
    // #3 and #4 drew: still tied, sharing rank 2 and listed by starting rank.
    expect(computeStandings(t, 2).map((r) => [r.sourcePlayerNumber, r.rank, r.tieBreakValues[0]])).toEqual([
      [1, 1, "0"],
      [3, 2, "0.5"],
      [4, 2, "0.5"],
      [2, 4, "0"],
    ]);
  });

  it("serves the computed table with the tournament's labels and player display values", () => {
    const s = currentStandings(base(["BH", "SB"]));
    expect(s).toMatchObject({
      afterRound: 2,
      origin: "computed",
      tieBreakLabels: ["BH", "SB"],
      warnings: [],
    });
    expect(s.lastUpdatedAt).toBe("2026-01-03T00:00:00Z");
    expect(s.rows[0]).toEqual({
      rank: 1,
      sourcePlayerNumber: 1,
      name: "Player 1",
      title: null,
      internationalRating: 2000,
      nationalRating: null,
      gender: null,
      type: null,
      group: null,
      federation: "GER",
      club: null,
      points: 1.5,
      tieBreakValues: ["1.5", "1"],
    });
  });

  it("has no rows before a round is complete", () => {
    const t = base(["BH"]);
    for (const r of t.rounds) r.games[0]!.result = "Pending";
    expect(currentStandings(t)).toEqual({
      afterRound: null,
      lastUpdatedAt: "2026-01-04T00:00:00Z",
      tieBreakLabels: ["BH"],
      rows: [],
      origin: "computed",
      warnings: [],
    });
  });
});

describe("source standings", () => {
  function withSource(afterRound: number, pointsOf1: number): Tournament {
    const t = base(["BH"]);
    const computed = computeStandings(t, afterRound).map(({ tieBreakNumbers: _n, ...r }) => r);
    computed[0]!.points = pointsOf1;
    t.sourceStandings = [
      { afterRound, retrievedAt: "2026-01-05T00:00:00Z", tieBreakLabels: ["TB1"], rows: computed },
    ];
    return t;
  }

  it("serves the source's table for the newest complete round", () => {
    const s = currentStandings(withSource(2, 1.5));
    expect(s).toMatchObject({ afterRound: 2, origin: "source", tieBreakLabels: ["TB1"], warnings: [] });
    expect(s.lastUpdatedAt).toBe("2026-01-05T00:00:00Z");
  });

  it("warns, naming tournament, round and player, when its points differ from the games", () => {
    const s = currentStandings(withSource(2, 2.5));
    expect(s.origin).toBe("source");
    expect(s.warnings).toHaveLength(1);
    expect(s.warnings[0]).toMatch(/tournament 77, round 2: player 1 \(Player 1\).*2\.5.*1\.5 from the games/);
  });

  it("computes when the source's table is for an older round", () => {
    expect(currentStandings(withSource(1, 1)).origin).toBe("computed");
  });
});
