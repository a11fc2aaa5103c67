// FIDE B.02 figures of the player card: performance rating, expected score with the 400-point
// rule, the K factor the store can decide, and the rating change.
import { describe, expect, it } from "vitest";
import {
  expectedTotal,
  knownK,
  performanceRating,
  ratingChange,
} from "../../../../src/domain/extensions/rating.ts";

describe("performance rating", () => {
  it("is the opponents' average plus dp of the fractional score (8.1.1)", () => {
    // Average 2400, score 1.5 / 2 = 0.75 -> dp 193.
    expect(
      performanceRating([
        { opponentRating: 2500, score: 0.5 },
        { opponentRating: 2300, score: 1 },
      ]),
    ).toBe(2593);
    // 0 / 1 -> dp -800; 0.5 -> 0.
    expect(performanceRating([{ opponentRating: 1800, score: 0 }])).toBe(1000);
    expect(
      performanceRating([
        { opponentRating: 1801, score: 0.5 },
        { opponentRating: 1800, score: 0 },
      ]),
    ).toBe(1801 - 193);
  });

  it("is absent without a rated game", () => {
    expect(performanceRating([])).toBeNull();
  });
});

describe("expected score and rating change", () => {
  it("sums table 8.1.2 per game", () => {
    // 2400 against 2500 (difference 100: 0.36) and 2300 (0.64).
    const games = [
      { opponentRating: 2500, score: 0.5 },
      { opponentRating: 2300, score: 1 },
    ];
    expect(expectedTotal(2400, games)).toBe(1);
    expect(ratingChange(10, 1.5, 1)).toBe(5);
  });

  it("counts a difference beyond 400 as 400", () => {
    // 2000 against 2600: 0.08 as for a difference of 400, not the 0.02 of 600.
    expect(expectedTotal(2000, [{ opponentRating: 2600, score: 0 }])).toBe(0.08);
    expect(expectedTotal(2600, [{ opponentRating: 2000, score: 1 }])).toBe(0.92);
  });

  it("rounds the change to one decimal", () => {
    expect(ratingChange(10, 3, 2.37)).toBe(6.3);
    expect(ratingChange(10, 0, 0.64)).toBe(-6.4);
  });
});

describe("K factor", () => {
  it("is 10 from 2400 on and unknown below (age and game count are not stored)", () => {
    expect(knownK(2400)).toBe(10);
    expect(knownK(2710)).toBe(10);
    expect(knownK(2399)).toBeNull();
    expect(knownK(null)).toBeNull();
  });
});
