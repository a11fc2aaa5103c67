// Rating-based tie-breaks: ARO (with cuts and medians), TPR, PTP, and the averages over
// opponents that APRO and APPO take.
import { isPlayedOverTheBoard, standardPoints, type RoundEntry } from "../scoring.ts";
import type { Modifier } from "./acronyms.ts";
import type { Context } from "./context.ts";
import { expectedScore, ratingDifference } from "./rating-tables.ts";
import { followsVega } from "../types.ts";

/** The rating-based tie-breaks (their base acronyms). */
export type RatingBased = "ARO" | "TPR" | "PTP" | "APRO" | "APPO";

/**
 * The rounds a rating-based tie-break reads. In a round robin forfeits count as played games,
 * except under fide-2026, which leaves them out of every rating-based tie-break, and in Vega's
 * ARO (docs/design/tiebreaks.md).
 */
function ratingEntries(ctx: Context, base: RatingBased): Map<number, RoundEntry[]> {
  if (!ctx.roundRobin) return ctx.entries;
  if (ctx.rules === "fide-2026" || (followsVega(ctx.practice) && base === "ARO")) return ctx.scheduled;
  return ctx.entries;
}

export function ratedGames(
  ctx: Context,
  player: number,
  base: RatingBased,
): { rating: number; points: number; opponent: number }[] {
  const out: { rating: number; points: number; opponent: number }[] = [];
  for (const e of ratingEntries(ctx, base).get(player) ?? []) {
    if (!isPlayedOverTheBoard(e.outcome) || e.opponent === null) continue;
    const rating = ctx.ratings.get(e.opponent);
    if (rating === null || rating === undefined) continue;
    out.push({ rating, points: standardPoints(e.outcome), opponent: e.opponent });
  }
  return out;
}

function roundHalfUp(x: number): number {
  return Math.floor(x + 0.5 + 1e-9);
}

export function averageRating(
  ctx: Context,
  player: number,
  modifier: Modifier | null,
  base: RatingBased = "ARO",
): number | null {
  const ratings = ratedGames(ctx, player, base)
    .map((g) => g.rating)
    .sort((a, b) => a - b);
  let low = modifier === "C1" || modifier === "M1" ? 1 : modifier === "C2" || modifier === "M2" ? 2 : 0;
  if (ctx.rules === "pre-2023") {
    // Swiss-Manager: the cut removes the player's unplayed rounds first (they have no rating and
    // are not in the average); only what is left of the cut drops the lowest-rated opponents.
    const unplayed = (ratingEntries(ctx, base).get(player) ?? []).filter(
      (e) => !isPlayedOverTheBoard(e.outcome) || e.opponent === null,
    ).length;
    low = Math.max(0, low - unplayed);
  }
  const high = modifier === "M1" ? 1 : modifier === "M2" ? 2 : 0;
  // Cuts drop the lowest ratings, medians the highest too (the ratings are sorted).
  const from = Math.min(low, ratings.length);
  const to = Math.max(from, ratings.length - high);
  if (to === from) return null;
  let sum = 0;
  for (let i = from; i < to; i++) sum += ratings[i]!;
  return roundHalfUp(sum / (to - from));
}

export function performance(ctx: Context, player: number): number | null {
  const games = ratedGames(ctx, player, "TPR");
  const aro = averageRating(ctx, player, null, "TPR");
  if (aro === null || games.length === 0) return null;
  const p = games.reduce((s, g) => s + g.points, 0) / games.length;
  return aro + ratingDifference(p);
}

export function perfectPerformance(ctx: Context, player: number): number | null {
  const games = ratedGames(ctx, player, "PTP");
  if (games.length === 0) return null;
  const score = games.reduce((s, g) => s + g.points, 0);
  const ratings = games.map((g) => g.rating);
  const lowest = Math.min(...ratings);
  const highest = Math.max(...ratings);
  if (score <= 0) return lowest - 800;
  if (score >= games.length) return highest + 800;
  const expected = (r: number) => ratings.reduce((s, opp) => s + expectedScore(r, opp), 0);
  // The smallest rating whose expected score reaches the actual score (expected is monotone).
  let lo = lowest - 800;
  let hi = highest + 800;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (expected(mid) + 1e-9 >= score) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

export function averageOver(
  ctx: Context,
  player: number,
  of: (opponent: number) => number | null,
  base: "APRO" | "APPO",
): number | null {
  const values: number[] = [];
  for (const g of ratedGames(ctx, player, base)) {
    const v = of(g.opponent);
    if (v !== null) values.push(v);
  }
  if (values.length === 0) return null;
  return roundHalfUp(values.reduce((s, v) => s + v, 0) / values.length);
}
