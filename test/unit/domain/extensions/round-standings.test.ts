// Standings after round N: a property over random tournaments (they equal the current standings
// of the same tournament cut at round N), and the rank progression read from those tables.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  cutAtRound,
  rankProgression,
  standingsAfterEachRound,
  standingsAfterRound,
  standingsRounds,
} from "../../../../src/domain/extensions/round-standings.ts";
import { crosstable, lastPairedRound } from "../../../../src/domain/extensions/crosstable.ts";
import { playerCards } from "../../../../src/domain/extensions/player-card.ts";
import { playerRounds } from "../../../../src/domain/scoring.ts";
import { computeStandings, currentStandings } from "../../../../src/domain/standings.ts";
import {
  DEFAULT_SCORING,
  type Game,
  type GameResult,
  type Round,
  type SourceStandings,
  type Tournament,
} from "../../../../src/domain/types.ts";
import { NO_METADATA } from "../../../support/tournament.ts";

const FINAL: GameResult[] = [
  "WhiteWin",
  "Draw",
  "BlackWin",
  "WhiteForfeitWin",
  "BlackForfeitWin",
  "DoubleForfeit",
];
const TIEBREAKS = [[], ["BH"], ["DE", "BH-C1", "SB"], ["WIN", "BPG", "ARO"], ["PS", "KS", "TPR"]];

function game(board: number, w: number | null, b: number | null, result: GameResult): Game {
  return {
    boardNumber: board,
    whitePlayerNumber: w,
    blackPlayerNumber: b,
    result,
    resultText: result,
    rawResult: null,
    byeKind: result === "Bye" ? "pab" : null,
    provisionalPoints: null,
    firstSeenAt: "2026-01-01T00:00:00Z",
    lastSeenAt: "2026-01-01T00:00:00Z",
    resultChangedAt: null,
  };
}

/** A round: the players in a shuffled order paired two by two, the odd one out given a bye. */
function round(n: number, order: number[], results: GameResult[], pending: boolean): Round {
  const games: Game[] = [];
  for (let i = 0; i + 1 < order.length; i += 2) {
    const result = pending && i === 0 ? "Pending" : results[(i / 2) % results.length]!;
    games.push(game(games.length + 1, order[i]!, order[i + 1]!, result));
  }
  if (order.length % 2) games.push(game(games.length + 1, order.at(-1)!, null, "Bye"));
  const at = `2026-01-${String(n + 1).padStart(2, "0")}T20:00:00Z`;
  return { roundNumber: n, firstScrapedAt: at, lastScrapedAt: at, lastSourceChangeAt: at, games };
}

const tournamentArb: fc.Arbitrary<Tournament> = fc
  .record({
    players: fc.integer({ min: 2, max: 9 }),
    rounds: fc.integer({ min: 1, max: 5 }),
    seed: fc.array(fc.integer({ min: 0, max: 1000 }), { minLength: 5, maxLength: 5 }),
    results: fc.array(fc.constantFrom(...FINAL), { minLength: 1, maxLength: 6 }),
    lastPending: fc.boolean(),
    tiebreaks: fc.constantFrom(...TIEBREAKS),
    sourceAfter: fc.subarray([1, 2, 3, 4, 5]),
  })
  .map((g) => {
    const numbers = Array.from({ length: g.players }, (_, i) => i + 1);
    const rounds = Array.from({ length: g.rounds }, (_, i) => {
      const order = [...numbers].sort(
        (a, b) => ((a * 7919 + g.seed[i]!) % 97) - ((b * 7919 + g.seed[i]!) % 97),
      );
      return round(i + 1, order, g.results, g.lastPending && i === g.rounds - 1);
    });
    // Source tables after some rounds, with values the games would not give (they must win).
    const sourceStandings: SourceStandings[] = g.sourceAfter
      .filter((n) => n <= g.rounds)
      .map((n) => ({
        afterRound: n,
        retrievedAt: `2026-02-0${n}T00:00:00Z`,
        tieBreakLabels: ["X"],
        rows: numbers.map((p) => ({
          rank: g.players + 1 - p,
          sourcePlayerNumber: p,
          name: `P${p}`,
          title: null,
          internationalRating: null,
          nationalRating: null,
          gender: null,
          type: null,
          group: null,
          federation: null,
          club: null,
          points: p + n,
          tieBreakValues: [String(p)],
        })),
      }));
    const t: Tournament = {
      externalId: 5n,
      sourceUrl: "https://example.org/",
      name: "Random",
      ...NO_METADATA,
      startDate: null,
      endDate: null,
      totalRounds: g.rounds,
      trackingEnabled: false,
      refreshIntervalSeconds: null,
      nextRefreshAt: null,
      createdAt: "2026-01-01T00:00:00Z",
      lastScrapedAt: "2026-03-01T00:00:00Z",
      lastSourceChangeAt: null,
      system: "swiss",
      tiebreaks: g.tiebreaks,
      tiebreakRules: "fide-2023",
      tiebreakPractice: null,
      scoring: DEFAULT_SCORING,
      players: numbers.map((n) => ({
        sourcePlayerNumber: n,
        startingRank: n,
        fideId: null,
        name: `P${n}`,
        title: null,
        rating: 1500 + ((n * 37) % 400),
        nationalRating: null,
        federation: null,
        club: null,
        gender: null,
        type: null,
        group: null,
      })),
      rounds,
      schedule: [],
      sourceStandings,
      recaps: [],
    };
    return t;
  });

describe("standings after round N", () => {
  it("equal the current standings of the same tournament cut at round N", () => {
    fc.assert(
      fc.property(tournamentArb, (t) => {
        for (const n of standingsRounds(t)) {
          const { warnings: _w, ...current } = currentStandings(cutAtRound(t, n));
          expect(standingsAfterRound(t, n)).toEqual(current);
        }
      }),
      { numRuns: 200 },
    );
  });

  it("exist for exactly the complete rounds: not for a round still in play", () => {
    fc.assert(
      fc.property(tournamentArb, (t) => {
        const last = t.rounds.at(-1)!;
        const inPlay = last.games.some((g) => g.result === "Pending");
        expect(standingsRounds(t)).toEqual(
          Array.from({ length: inPlay ? t.rounds.length - 1 : t.rounds.length }, (_, i) => i + 1),
        );
      }),
    );
  });

  it("after the newest complete round are the current standings", () => {
    fc.assert(
      fc.property(tournamentArb, (t) => {
        const rounds = standingsRounds(t);
        fc.pre(rounds.length > 0);
        const { warnings: _w, ...current } = currentStandings(t);
        expect(standingsAfterRound(t, rounds.at(-1)!)).toEqual(current);
      }),
    );
  });
});

describe("standings after each round", () => {
  it("are standingsAfterRound for every complete round, the newest taken from the current standings", () => {
    fc.assert(
      fc.property(tournamentArb, (t) => {
        const tables = standingsAfterEachRound(t, currentStandings(t));
        expect(tables).toEqual(standingsRounds(t).map((n) => standingsAfterRound(t, n)));
      }),
      { numRuns: 200 },
    );
  });
});

// The same tournaments under every rule set, practice and pairing system, with more tie-breaks.
const variedArb: fc.Arbitrary<Tournament> = fc
  .record({
    t: tournamentArb,
    tiebreaks: fc.constantFrom(
      ...TIEBREAKS,
      ["BH-M1", "SB-C1", "FB", "AOB"],
      ["DE", "WON", "BWG", "GE", "PS-C1", "KS-L+1"],
      ["ARO-C1", "PTP", "APRO", "APPO"],
    ),
    rules: fc.constantFrom("fide-2023" as const, "fide-2026" as const, "pre-2023" as const),
    practice: fc.constantFrom(null, "vega" as const, "swiss-manager" as const),
    system: fc.constantFrom("swiss" as const, "round-robin" as const),
  })
  .map(({ t, tiebreaks, rules, practice, system }) => ({
    ...t,
    tiebreaks,
    tiebreakRules: rules,
    tiebreakPractice: practice,
    system,
  }));

describe("tables from shared round entries", () => {
  it("equal each round's standings computed on its own, under every tie-break system", () => {
    fc.assert(
      fc.property(variedArb, (t) => {
        const entries = playerRounds(t, lastPairedRound(t));
        const tables = standingsAfterEachRound(t, currentStandings(t), entries);
        expect(tables.map((s) => s.afterRound)).toEqual(standingsRounds(t));
        for (const s of tables) {
          const n = s.afterRound;
          if (s.origin === "source") continue;
          const alone = computeStandings(cutAtRound(t, n), n).map(({ tieBreakNumbers: _n, ...row }) => row);
          expect(s.rows).toEqual(alone);
        }
        expect(tables).toEqual(standingsRounds(t).map((n) => standingsAfterRound(t, n)));
        // The cards read the same entries as they would make.
        const progression = rankProgression(t, tables);
        expect(playerCards(t, progression, entries)).toEqual(playerCards(t, progression));
        // So do the current standings and the crosstable (views/context.ts shares them).
        const current = currentStandings(t, entries);
        expect(current).toEqual(currentStandings(t));
        expect(crosstable(t, current.rows, entries)).toEqual(crosstable(t, current.rows));
      }),
      { numRuns: 300 },
    );
  });
});

describe("rank progression", () => {
  it("reads each player's rank and points off the table after each round", () => {
    fc.assert(
      fc.property(tournamentArb, (t) => {
        const p = rankProgression(t);
        expect(p.rounds).toEqual(standingsRounds(t));
        expect(p.players.map((x) => x.sourcePlayerNumber)).toEqual(
          t.players.map((x) => x.sourcePlayerNumber),
        );
        p.rounds.forEach((n, i) => {
          const table = standingsAfterRound(t, n);
          for (const row of table.rows) {
            const mine = p.players.find((x) => x.sourcePlayerNumber === row.sourcePlayerNumber)!;
            expect(mine.ranks[i]).toBe(row.rank);
            expect(mine.points[i]).toBe(row.points);
          }
        });
      }),
    );
  });
});
