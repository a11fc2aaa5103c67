// The crosstable: every player's opponent, colour and result in every round that has pairings,
// from the same per-round entries the standings are computed from (scoring.ts). Rows are in the
// order of the current standings (players a source table does not list come last, by starting
// rank); the starting-rank order is given beside it.
import { playerRounds, type RoundEntry, type RoundOutcome } from "../scoring.ts";
import type { Player, SourceStandingRow, Tournament } from "../types.ts";

export interface CrossCell {
  round: number;
  opponent: number | null;
  colour: "white" | "black" | null;
  outcome: RoundOutcome;
  /** Points by the tournament's scoring; null while the game is not final. */
  points: number | null;
}

export interface CrossRow {
  player: Player;
  /** Rank and points in the current standings; null when they do not list the player. */
  rank: number | null;
  points: number | null;
  cells: CrossCell[];
}

export interface Crosstable {
  /** 1..the newest round with pairings. */
  rounds: number[];
  /** By rank. */
  rows: CrossRow[];
  /** Player numbers by starting rank (else player number). */
  startingOrder: number[];
}

/** The newest round that has at least one game; 0 when none has. */
export function lastPairedRound(t: Tournament): number {
  return t.rounds.reduce((m, r) => (r.games.length > 0 ? Math.max(m, r.roundNumber) : m), 0);
}

export function cellOf(e: RoundEntry): CrossCell {
  return {
    round: e.round,
    opponent: e.opponent,
    colour: e.colour === "w" ? "white" : e.colour === "b" ? "black" : null,
    outcome: e.outcome,
    points: e.outcome === "pending" ? null : e.points,
  };
}

function byStartingRank(a: Player, b: Player): number {
  return (
    (a.startingRank ?? a.sourcePlayerNumber) - (b.startingRank ?? b.sourcePlayerNumber) ||
    a.sourcePlayerNumber - b.sourcePlayerNumber
  );
}

export function crosstable(
  t: Tournament,
  standings: readonly SourceStandingRow[],
  /** playerRounds(t, lastPairedRound(t)), when the caller has it. */
  all?: ReadonlyMap<number, RoundEntry[]>,
): Crosstable {
  const last = lastPairedRound(t);
  const entries = all ?? playerRounds(t, last);
  const listed = new Map(standings.map((r, i) => [r.sourcePlayerNumber, { row: r, i }]));
  const starting = [...t.players].sort(byStartingRank);
  const ranked = [...starting].sort((a, b) => {
    const x = listed.get(a.sourcePlayerNumber);
    const y = listed.get(b.sourcePlayerNumber);
    if (x && y) return x.i - y.i;
    return x ? -1 : y ? 1 : 0;
  });
  return {
    rounds: Array.from({ length: last }, (_, i) => i + 1),
    rows: ranked.map((p) => {
      const s = listed.get(p.sourcePlayerNumber)?.row;
      return {
        player: p,
        rank: s?.rank ?? null,
        points: s?.points ?? null,
        cells: (entries.get(p.sourcePlayerNumber) ?? []).map(cellOf),
      };
    }),
    startingOrder: starting.map((p) => p.sourcePlayerNumber),
  };
}
