// The crosstable and the player cards of a small tournament: opponents, colours, outcomes, the
// running score and rank after each complete round, and what the rating figures count.
import { describe, expect, it } from "vitest";
import { crosstable } from "../../../../src/domain/extensions/crosstable.ts";
import { playerCards } from "../../../../src/domain/extensions/player-card.ts";
import { rankProgression } from "../../../../src/domain/extensions/round-standings.ts";
import { currentStandings } from "../../../../src/domain/standings.ts";
import type { Tournament } from "../../../../src/domain/types.ts";
import { parseTrf } from "../../../../src/trf/parse.ts";
import { trfToTournament } from "../../../../src/trf/to-tournament.ts";

function player(no: number, rating: number, cells: string[]): string {
  let s = `001 ${String(no).padStart(4)}      ${`Player ${no}`.padEnd(33)} ${String(rating).padStart(4)} GER`;
  s = s.padEnd(91);
  for (const c of cells) {
    const [opp, colour, code] = c.split(" ");
    s += `${opp!.padStart(4)} ${colour} ${code}  `;
  }
  return s.trimEnd();
}

// Four players, three rounds; #4 forfeits round 2 to #2; round 3 is still in play on board 1.
function tournament(rated: boolean): Tournament {
  const text = [
    "012 Test",
    player(1, 2450, ["2 w 1", "3 b =", "4 w  "]),
    player(2, 2300, ["1 b 0", "4 w +", "3 b 1"]),
    player(3, 2200, ["4 w =", "1 w =", "2 w 0"]),
    player(4, 2000, ["3 b =", "2 b -", "1 b  "]),
  ].join("\n");
  const t = trfToTournament(parseTrf(text), {
    externalId: 9n,
    tiebreaks: ["BH"],
    rules: "fide-2023",
    now: "2026-01-01T00:00:00Z",
  });
  return { ...t, fideEventId: rated ? 123n : null, ratingCalculation: null };
}

describe("crosstable", () => {
  it("has every player's opponent, colour and outcome by round, rows by rank", () => {
    const t = tournament(true);
    const x = crosstable(t, currentStandings(t).rows);
    expect(x.rounds).toEqual([1, 2, 3]);
    expect(x.startingOrder).toEqual([1, 2, 3, 4]);
    const row2 = x.rows.find((r) => r.player.sourcePlayerNumber === 2)!;
    expect(row2.cells.map((c) => [c.opponent, c.colour, c.outcome, c.points])).toEqual([
      [1, "black", "loss", 0],
      [4, "white", "forfeitWin", 1],
      [3, "black", "win", 1],
    ]);
    const row1 = x.rows.find((r) => r.player.sourcePlayerNumber === 1)!;
    expect(row1.cells[2]).toMatchObject({ opponent: 4, outcome: "pending", points: null });
    // After round 2: #1 1.5, #2 1, #3 1, #4 0.5.
    expect(x.rows.map((r) => r.player.sourcePlayerNumber)[0]).toBe(1);
    expect(x.rows.at(-1)!.player.sourcePlayerNumber).toBe(4);
  });
});

describe("player cards", () => {
  it("run the score and give the rank after each complete round only", () => {
    const t = tournament(true);
    const cards = playerCards(t, rankProgression(t));
    const c1 = cards.find((c) => c.player.sourcePlayerNumber === 1)!;
    expect(c1.rounds.map((r) => r.scoreAfter)).toEqual([1, 1.5, null]);
    expect(c1.rounds.map((r) => r.rankAfter)).toEqual([1, 1, null]);
    expect(c1.rounds.map((r) => r.board)).toEqual([1, expect.any(Number), expect.any(Number)]);
    expect(c1.rounds[0]!.opponentPlayer?.rating).toBe(2300);
  });

  it("count only games played over the board against rated opponents", () => {
    const t = tournament(true);
    const c2 = playerCards(t, rankProgression(t)).find((c) => c.player.sourcePlayerNumber === 2)!;
    // Round 1 lost to 2450, round 2 forfeit (not counted), round 3 beat 2200.
    expect(c2.rating.ratedGames).toBe(2);
    expect(c2.rating.ratedScore).toBe(1);
    expect(c2.rating.averageOpponentRating).toBe(2325);
    expect(c2.rating.performanceRating).toBe(2325);
    // 2300 has no K the store can decide.
    expect(c2.rating.kFactor).toBeNull();
    expect(c2.rating.ratingChange).toBeNull();
    // Against 2450 (difference 150: 0.30) and 2200 (difference 100: 0.64).
    expect(c2.rating.expectedScore).toBe(0.94);
  });

  it("give a rating change when K is known and the event is rated, none when it is not rated", () => {
    const rated = tournament(true);
    const c1 = playerCards(rated, rankProgression(rated)).find((c) => c.player.sourcePlayerNumber === 1)!;
    // 2450: beat 2300 (expected 0.70), drew 2200 (0.81); 1.5 - 1.51 = -0.01, K 10.
    expect(c1.rating.kFactor).toBe(10);
    expect(c1.rating.expectedScore).toBe(1.51);
    expect(c1.rating.ratingChange).toBe(-0.1);
    const unrated = tournament(false);
    const u1 = playerCards(unrated, rankProgression(unrated)).find((c) => c.player.sourcePlayerNumber === 1)!;
    expect(u1.rating.kFactor).toBe(10);
    expect(u1.rating.ratingChange).toBeNull();
  });
});
