// Performance rating and rating change by the FIDE Rating Regulations (B.02): the conversion
// tables of 8.1 (rating-tables.ts), the 400-point rule for expected scores, and the K factor only
// where the store's data decides it. Only games played over the board against a rated opponent
// count; forfeits and byes never do.
import { expectedScore, ratingDifference } from "../tiebreaks/rating-tables.ts";

export interface RatedGame {
  opponentRating: number;
  /** 1, 0.5 or 0. */
  score: number;
}

/** A rating difference beyond 400 counts as 400 for the expected score (B.02 8.3.1). */
export const RATING_DIFFERENCE_CAP = 400;

/** Performance rating: the opponents' average rating (rounded) plus dp of the fractional score. */
export function performanceRating(games: readonly RatedGame[]): number | null {
  if (games.length === 0) return null;
  const average = Math.round(games.reduce((s, g) => s + g.opponentRating, 0) / games.length);
  const score = games.reduce((s, g) => s + g.score, 0);
  return average + ratingDifference(score / games.length);
}

/** The expected score of a player rated `own` over these games, with the 400-point rule. */
export function expectedTotal(own: number, games: readonly RatedGame[]): number {
  const cap = (o: number) => Math.min(Math.max(o, own - RATING_DIFFERENCE_CAP), own + RATING_DIFFERENCE_CAP);
  return Math.round(games.reduce((s, g) => s + expectedScore(own, cap(g.opponentRating)), 0) * 100) / 100;
}

/**
 * The K factor when the rating alone decides it: 10 for a player rated 2400 or more (who has
 * reached 2400, so keeps K 10). Below 2400 it is 40 or 20 by age and the number of rated games,
 * which the store does not keep: null.
 */
export function knownK(rating: number | null): number | null {
  return rating !== null && rating >= 2400 ? 10 : null;
}

/** K · (score − expected), to one decimal (exact: expected scores are in hundredths). */
export function ratingChange(k: number, score: number, expected: number): number {
  return Math.round(k * (score - expected) * 10) / 10;
}
