// Everything the views of one tournament share, computed once per tournament.
import { lastPairedRound } from "../domain/extensions/crosstable.ts";
import { playerRounds, type RoundEntry } from "../domain/scoring.ts";
import { currentStandings, type StandingsOutcome } from "../domain/standings.ts";
import {
  deriveStatus,
  isRoundComplete,
  newestPairedRound,
  playerFeedsOpen,
  statusWindow,
  type StatusInput,
  type StatusOptions,
} from "../domain/status.ts";
import type { Player, PublishedTournament, Round, Tournament, TournamentStatus } from "../domain/types.ts";

export interface TournamentContext {
  published: PublishedTournament;
  t: Tournament;
  status: TournamentStatus;
  /** Whether each player has a feed and a calendar of their own (domain/status.ts playerFeedsOpen). */
  playerFeeds: boolean;
  /** The instants [from, until) around the build instant with this same status. */
  statusWindow: { from: number; until: number };
  /** Rounds with published pairings (at least one game), ascending. */
  pairedRounds: Round[];
  /** The newest round with published pairings. */
  liveRound: Round | null;
  standings: StandingsOutcome;
  players: Map<number, Player>;
  /**
   * Each player's round entries up to the last paired round, made once: the standings, the tables
   * after each round, the crosstable and the cards read them (read only).
   */
  entries: ReadonlyMap<number, RoundEntry[]>;
}

export function tournamentContext(
  published: PublishedTournament,
  now: number,
  statusOptions: StatusOptions,
): TournamentContext {
  const t = published.tournament;
  const entries = playerRounds(t, lastPairedRound(t));
  const pairedRounds = t.rounds.filter((r) => r.games.length > 0);
  const liveRound = newestPairedRound(pairedRounds);
  const input: StatusInput = {
    trackingEnabled: t.trackingEnabled,
    nextRefreshAt: t.nextRefreshAt,
    startDate: t.startDate,
    endDate: t.endDate,
    totalRounds: t.totalRounds,
    newestRound: liveRound && {
      roundNumber: liveRound.roundNumber,
      complete: isRoundComplete(liveRound),
      changedAt: liveRound.lastSourceChangeAt ?? liveRound.firstScrapedAt,
    },
  };
  const status = deriveStatus(input, now, statusOptions);
  return {
    published,
    t,
    status,
    playerFeeds: playerFeedsOpen(input, status, now),
    statusWindow: statusWindow(input, now, statusOptions),
    pairedRounds,
    liveRound,
    standings: currentStandings(t, entries),
    players: new Map(t.players.map((p) => [p.sourcePlayerNumber, p])),
    entries,
  };
}

/** The directory entry of a player named by a game; null for an unassigned side. */
export function playerOf(c: TournamentContext, n: number | null): Player | null {
  if (n === null) return null;
  const p = c.players.get(n);
  // The store reader rejects games that name unknown players, so this is a bug if it happens.
  if (!p) throw new Error(`player ${n} missing from tournament ${c.t.externalId}`);
  return p;
}

/**
 * A view made once per tournament context and key, then handed out again: answers that are the
 * same object are serialized and validated once (render/tournament.ts). The caller must not change
 * what it gets.
 */
export function perContext<K, V>(
  make: (c: TournamentContext, key: K) => V,
): (c: TournamentContext, key: K) => V {
  const made = new WeakMap<TournamentContext, Map<K, V>>();
  return (c, key) => {
    let views = made.get(c);
    if (!views) made.set(c, (views = new Map()));
    let v = views.get(key);
    if (v === undefined) views.set(key, (v = make(c, key)));
    return v;
  };
}
