// A player across tournaments (issue 47). Each globally published tournament contributes one entry
// per player with a FIDE ID: the facts the player's resource, page and feeds need from it. The
// ledger keeps the entries per player (ledger/players.ts), so a tick that changes one tournament
// rebuilds its players' files from their other tournaments' entries without reading those.
// A player without a FIDE ID has no entry: they stay inside their event.
import type { RoundOutcome } from "../domain/scoring.ts";
import type { Game } from "../domain/types.ts";
import { scheduleOf } from "../domain/extensions/schedule.ts";
import { toInt64 } from "../contracts/wire.ts";
import type { z } from "zod";
import type { FidePlayerResponse } from "../contracts/extensions.ts";
import type { TournamentContext } from "./context.ts";
import { playerCardViews } from "./extensions.ts";

export type FidePlayerView = z.output<typeof FidePlayerResponse>;

/** One round of a player in one tournament, as the feed and calendar show it. */
export interface FideRound {
  round: number;
  /** The announced date (YYYY-MM-DD) and local time (HH:MM), or null. */
  date: string | null;
  time: string | null;
  board: number | null;
  colour: "white" | "black" | null;
  opponent: string | null;
  outcome: RoundOutcome;
  scoreAfter: number | null;
  /** When the pairing was first seen, and when the round last changed for the player. */
  paired: string;
  updated: string;
}

/** What one tournament holds of one FIDE-rated player. */
export interface FideEntry {
  fideId: string;
  tournamentId: string;
  name: string;
  federation: string | null;
  title: string | null;
  tournament: {
    name: string;
    location: string | null;
    /** The zone its round times are read in (pages/tournament.ts zoneOf). */
    zone: string;
    startDate: string | null;
    endDate: string | null;
    createdAt: string;
  };
  sourcePlayerNumber: number;
  rating: number | null;
  points: number | null;
  rank: number | null;
  performanceRating: number | null;
  ratingChange: number | null;
  rounds: FideRound[];
}

/** When the round last changed for this player: the result's publication, else the pairing's. */
function changedAt(g: Game): string {
  return g.resultChangedAt ?? g.firstSeenAt;
}

/**
 * The entries of a tournament's FIDE-rated players; none unless it is published globally. `zone`
 * is the zone its round times are read in.
 */
export function fideEntries(c: TournamentContext, zone: string): FideEntry[] {
  if (!c.published.globalTags) return [];
  const t = c.t;
  const standing = new Map(c.standings.rows.map((r) => [r.sourcePlayerNumber, r]));
  const schedule = new Map(scheduleOf(t).map((s) => [s.roundNumber, s]));
  const tournament = {
    name: t.name,
    location: t.location,
    zone,
    startDate: t.startDate,
    endDate: t.endDate,
    createdAt: t.createdAt,
  };
  const out: FideEntry[] = [];
  for (const card of playerCardViews(c)) {
    const p = c.players.get(card.sourcePlayerNumber);
    if (!p || p.fideId === null) continue;
    const n = card.sourcePlayerNumber;
    const rounds: FideRound[] = [];
    for (const r of card.rounds) {
      const game = t.rounds
        .find((x) => x.roundNumber === r.round)
        ?.games.find((g) => g.whitePlayerNumber === n || g.blackPlayerNumber === n);
      if (!game) continue;
      const planned = schedule.get(r.round);
      rounds.push({
        round: r.round,
        date: planned?.date ?? null,
        time: planned?.time ?? null,
        board: r.board,
        colour: r.colour,
        opponent: r.opponent?.name ?? null,
        outcome: r.outcome,
        scoreAfter: r.scoreAfter,
        paired: game.firstSeenAt,
        updated: changedAt(game),
      });
    }
    const row = standing.get(n);
    out.push({
      fideId: p.fideId.toString(),
      tournamentId: t.externalId.toString(),
      name: p.name,
      federation: p.federation,
      title: p.title,
      tournament,
      sourcePlayerNumber: n,
      rating: p.rating,
      points: row?.points ?? null,
      rank: row?.rank ?? null,
      performanceRating: card.ratingFigures.performanceRating,
      ratingChange: card.ratingFigures.ratingChange,
      rounds,
    });
  }
  return out;
}

/** Newest first: by the end (else start) date, then the tournament id, both descending. */
export function compareEntries(a: FideEntry, b: FideEntry): number {
  const da = a.tournament.endDate ?? a.tournament.startDate ?? "";
  const db = b.tournament.endDate ?? b.tournament.startDate ?? "";
  if (da !== db) return da < db ? 1 : -1;
  const ia = BigInt(a.tournamentId);
  const ib = BigInt(b.tournamentId);
  return ia === ib ? 0 : ia < ib ? 1 : -1;
}

/** The URL paths a player's resource names (under the snapshot's base path). */
export interface FidePlayerPaths {
  tournament(id: string): string;
  playerCards(id: string): string;
  feed: string;
  calendar: string;
}

/** The player's resource from their entries (at least one), newest tournament first. */
export function fidePlayerView(entries: readonly FideEntry[], paths: FidePlayerPaths): FidePlayerView {
  const sorted = [...entries].sort(compareEntries);
  const last = sorted[0]!;
  return {
    fideId: toInt64(BigInt(last.fideId)),
    name: last.name,
    federation: last.federation,
    title: last.title,
    tournaments: sorted.map((e) => ({
      tournamentId: toInt64(BigInt(e.tournamentId)),
      name: e.tournament.name,
      startDate: e.tournament.startDate,
      endDate: e.tournament.endDate,
      sourcePlayerNumber: e.sourcePlayerNumber,
      rating: e.rating,
      points: e.points,
      rank: e.rank,
      performanceRating: e.performanceRating,
      ratingChange: e.ratingChange,
      tournamentPath: paths.tournament(e.tournamentId),
      playerCardsPath: paths.playerCards(e.tournamentId),
    })),
    feedPath: paths.feed,
    calendarPath: paths.calendar,
  };
}
