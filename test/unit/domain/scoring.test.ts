import { describe, expect, it } from "vitest";
import { playerRounds, pointsAfterRound, roundsUpTo, standardPoints } from "../../../src/domain/scoring.ts";
import {
  DEFAULT_SCORING,
  type ByeKind,
  type Game,
  type GameResult,
  type Player,
  type Scoring,
  type Tournament,
} from "../../../src/domain/types.ts";

const AT = "2026-01-01T00:00:00Z";

function p(n: number): Player {
  return {
    sourcePlayerNumber: n,
    startingRank: n,
    fideId: null,
    name: `P${n}`,
    title: null,
    rating: null,
    nationalRating: null,
    federation: null,
    club: null,
    gender: null,
    type: null,
    group: null,
  };
}

function g(
  board: number,
  w: number | null,
  b: number | null,
  result: GameResult,
  byeKind: ByeKind | null = null,
): Game {
  return {
    boardNumber: board,
    whitePlayerNumber: w,
    blackPlayerNumber: b,
    result,
    resultText: "",
    rawResult: null,
    byeKind,
    provisionalPoints: null,
    firstSeenAt: AT,
    lastSeenAt: AT,
    resultChangedAt: null,
  };
}

function tournament(games: Game[], scoring: Scoring, players = 14): Tournament {
  return {
    players: Array.from({ length: players }, (_, i) => p(i + 1)),
    rounds: [{ roundNumber: 1, firstScrapedAt: AT, lastScrapedAt: AT, lastSourceChangeAt: null, games }],
    scoring,
    tiebreaks: [],
    tiebreakRules: "fide-2023",
    tiebreakPractice: null,
    system: "swiss",
  } as unknown as Tournament;
}

// A scoring where every outcome is worth something different, so each case is visible.
const DISTINCT: Scoring = {
  win: 3,
  draw: 1.5,
  loss: 0.25,
  forfeitWin: 2.5,
  forfeitLoss: -1,
  pairingAllocatedBye: 2,
  fullBye: 1.75,
  halfBye: 0.75,
  zeroBye: 0.1,
};

const ONE_ROUND = [
  g(1, 1, 2, "WhiteWin"),
  g(2, 3, 4, "Draw"),
  g(3, 5, 6, "BlackWin"),
  g(4, 7, 8, "WhiteForfeitWin"),
  g(5, 9, 10, "DoubleForfeit"),
  g(6, 11, null, "Bye", "pab"),
  g(7, 12, null, "Bye", "half"),
  g(8, null, 13, "Bye", "full"),
];

describe("points per round", () => {
  it("scores every outcome by the tournament's scoring; an unpaired player scores the zero bye", () => {
    const points = pointsAfterRound(tournament(ONE_ROUND, DISTINCT), 1);
    expect(Object.fromEntries(points)).toEqual({
      1: 3,
      2: 0.25,
      3: 1.5,
      4: 1.5,
      5: 0.25,
      6: 3,
      7: 2.5,
      8: -1,
      9: -1,
      10: -1,
      11: 2,
      12: 0.75,
      13: 1.75,
      14: 0.1,
    });
  });

  it("uses 1 / ½ / 0 by default", () => {
    const points = pointsAfterRound(tournament(ONE_ROUND, DEFAULT_SCORING), 1);
    expect([1, 2, 3, 7, 8, 11, 12, 13, 14].map((n) => points.get(n))).toEqual([
      1, 0, 0.5, 1, 0, 1, 0.5, 1, 0,
    ]);
  });

  it("records colours, opponents and outcomes from each player's side", () => {
    const rounds = playerRounds(tournament(ONE_ROUND, DEFAULT_SCORING), 1);
    expect(rounds.get(6)![0]).toMatchObject({ outcome: "win", opponent: 5, colour: "b" });
    expect(rounds.get(8)![0]).toMatchObject({ outcome: "forfeitLoss", opponent: 7, colour: "b" });
    expect(rounds.get(13)![0]).toMatchObject({ outcome: "fullBye", opponent: null });
    expect(rounds.get(14)![0]).toMatchObject({ outcome: "absent", opponent: null });
  });

  it("scores a game that is not final as nothing yet", () => {
    const rounds = playerRounds(tournament([g(1, 1, 2, "Pending"), g(2, 3, 4, "Adjourned")], DISTINCT, 4), 1);
    expect(rounds.get(1)![0]).toMatchObject({ outcome: "pending", points: 0 });
    expect(rounds.get(4)![0]).toMatchObject({ outcome: "pending", points: 0 });
  });

  it("counts rounds without games as absences", () => {
    const rounds = playerRounds(tournament(ONE_ROUND, DEFAULT_SCORING), 3);
    expect(rounds.get(1)!.map((e) => e.outcome)).toEqual(["win", "absent", "absent"]);
  });

  it("gives the entries up to an earlier round as the first entries of a later round's", () => {
    // Round 1 as ONE_ROUND; round 2 with a player on two boards (the first counts) and a
    // pending game; round 3 has no games (absences), round 4 one game.
    const t = tournament(ONE_ROUND, DEFAULT_SCORING);
    t.rounds.push(
      {
        ...t.rounds[0]!,
        roundNumber: 2,
        games: [g(1, 2, 1, "Draw"), g(2, 1, 3, "BlackWin"), g(3, 4, 5, "Pending")],
      },
      { ...t.rounds[0]!, roundNumber: 4, games: [g(1, 6, 7, "WhiteWin")] },
    );
    const all = playerRounds(t, 5);
    for (const n of [1, 2, 3, 4, 5]) expect(roundsUpTo(all, n), `round ${n}`).toEqual(playerRounds(t, n));
  });

  it("maps outcomes to standard points", () => {
    expect(
      ["win", "forfeitWin", "pab", "fullBye", "draw", "halfBye", "loss", "zeroBye", "absent"].map((o) =>
        standardPoints(o as never),
      ),
    ).toEqual([1, 1, 1, 1, 0.5, 0.5, 0, 0, 0]);
  });
});
