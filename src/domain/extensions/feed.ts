// What a follower of a tournament is told, as events with a fixed key each: the pairings of a
// round were published, every result of a round is in, the final standings stand. The key names
// the event, never the build, so the same event keeps its identity in every snapshot; its instant
// comes from the stored data.
import { newestCompleteRound } from "../standings.ts";
import { isRoundComplete } from "../status.ts";
import type { Tournament } from "../types.ts";

export type FeedEventKind = "pairings" | "results" | "final";

export interface FeedEvent {
  /** Stable: `round-3-pairings`, `round-3-results`, `final`. */
  key: string;
  kind: FeedEventKind;
  round: number;
  /** ISO 8601 UTC, from the data. */
  updated: string;
}

/** A tournament's events, newest first (ties: final, results, pairings; then higher round). */
export function feedEvents(t: Tournament): FeedEvent[] {
  const events: FeedEvent[] = [];
  for (const r of t.rounds) {
    if (r.games.length === 0) continue;
    events.push({
      key: `round-${r.roundNumber}-pairings`,
      kind: "pairings",
      round: r.roundNumber,
      updated: r.firstScrapedAt,
    });
    if (isRoundComplete(r)) {
      events.push({
        key: `round-${r.roundNumber}-results`,
        kind: "results",
        round: r.roundNumber,
        updated: r.lastSourceChangeAt ?? r.lastScrapedAt,
      });
    }
  }
  const last = newestCompleteRound(t);
  if (last !== null && t.totalRounds !== null && last === t.totalRounds) {
    const results = events.find((e) => e.key === `round-${last}-results`)!;
    events.push({ key: "final", kind: "final", round: last, updated: results.updated });
  }
  const order: Record<FeedEventKind, number> = { final: 0, results: 1, pairings: 2 };
  return events.sort(
    (a, b) =>
      (a.updated < b.updated ? 1 : a.updated > b.updated ? -1 : 0) ||
      order[a.kind] - order[b.kind] ||
      b.round - a.round,
  );
}
