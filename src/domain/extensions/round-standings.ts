// Standings after any complete round, not only the newest ("ranking after round N"), and each
// player's rank and points round by round. Each table is what the current standings would be if
// the tournament had stopped after that round: the source's own table for the round when the
// store has it, else computed from the games of rounds 1..N with the tournament's tie-breaks.
import { playerRounds, roundsUpTo, type RoundEntry } from "../scoring.ts";
import { newestCompleteRound, rankedRows, type StandingsOutcome } from "../standings.ts";
import type { SourceStandingRow, Tournament } from "../types.ts";

export interface RoundStandings {
  afterRound: number;
  lastUpdatedAt: string;
  tieBreakLabels: string[];
  rows: SourceStandingRow[];
  origin: "source" | "computed";
}

/** The rounds that have standings: 1..the newest complete round (none when no round is). */
export function standingsRounds(t: Tournament): number[] {
  const newest = newestCompleteRound(t) ?? 0;
  return Array.from({ length: newest }, (_, i) => i + 1);
}

/**
 * The standings after round `n`, which must be a complete round (in standingsRounds). A round the
 * source never paired (no games) keeps the store's retrieval time of the nearest earlier round.
 */
export function standingsAfterRound(
  t: Tournament,
  n: number,
  /** playerRounds(t, m) for some m >= n, when the caller has it (standingsAfterEachRound). */
  entries?: () => ReadonlyMap<number, RoundEntry[]>,
): RoundStandings {
  const source = t.sourceStandings.find((s) => s.afterRound === n);
  if (source) {
    return {
      afterRound: n,
      lastUpdatedAt: source.retrievedAt,
      tieBreakLabels: [...source.tieBreakLabels],
      rows: source.rows.map((r) => ({ ...r, tieBreakValues: [...r.tieBreakValues] })),
      origin: "source",
    };
  }
  const round = t.rounds.find((r) => r.roundNumber === n);
  if (!round) throw new Error(`tournament ${t.externalId}: no round ${n} to give standings after`);
  return {
    afterRound: n,
    lastUpdatedAt: round.lastScrapedAt,
    tieBreakLabels: [...t.tiebreaks],
    rows: rankedRows(t, n, entries && roundsUpTo(entries(), n), false),
    origin: "computed",
  };
}

/**
 * The standings after every complete round (standingsRounds), as standingsAfterRound gives them.
 * The newest complete round is the one the current standings are after: when they were computed
 * (the source has no table for it), `current` (currentStandings(t)) is that table, not computed again.
 */
export function standingsAfterEachRound(
  t: Tournament,
  current: StandingsOutcome,
  /** playerRounds(t, m) for some m >= the newest complete round, when the caller has it. */
  made?: ReadonlyMap<number, RoundEntry[]>,
): RoundStandings[] {
  const rounds = standingsRounds(t);
  // Each computed table reads the entries of its rounds: made once, for the newest, and cut.
  let all = made;
  const entries = (): ReadonlyMap<number, RoundEntry[]> => (all ??= playerRounds(t, rounds.length));
  return rounds.map((n) =>
    n === current.afterRound && current.origin === "computed"
      ? {
          afterRound: n,
          lastUpdatedAt: current.lastUpdatedAt,
          tieBreakLabels: [...current.tieBreakLabels],
          rows: current.rows,
          origin: "computed",
        }
      : standingsAfterRound(t, n, entries),
  );
}

/**
 * The same tournament as it stood when round `n` was the last one played: later rounds and the
 * source's tables after later rounds are dropped. What "current standings cut at round N" means.
 */
export function cutAtRound(t: Tournament, n: number): Tournament {
  return {
    ...t,
    rounds: t.rounds.filter((r) => r.roundNumber <= n),
    sourceStandings: t.sourceStandings.filter((s) => s.afterRound <= n),
  };
}

export interface PlayerProgression {
  sourcePlayerNumber: number;
  name: string;
  /** Rank after each round of `rounds`; null where the source's table does not list the player. */
  ranks: (number | null)[];
  /** Points after each round of `rounds`; null where the table has none for the player. */
  points: (number | null)[];
}

export interface Progression {
  rounds: number[];
  /** Every player of the directory, by player number. */
  players: PlayerProgression[];
}

/** Ranks and points of every player after each complete round, from standingsAfterRound. */
export function rankProgression(t: Tournament, tables?: readonly RoundStandings[]): Progression {
  const rounds = standingsRounds(t);
  const all = tables ?? rounds.map((n) => standingsAfterRound(t, n));
  // Each player number's rank and points per table, filled from the rows (no map per table).
  const byPlayer = new Map<number, { ranks: (number | null)[]; points: (number | null)[] }>();
  for (const p of t.players) {
    if (!byPlayer.has(p.sourcePlayerNumber)) {
      byPlayer.set(p.sourcePlayerNumber, {
        ranks: new Array<number | null>(all.length).fill(null),
        points: new Array<number | null>(all.length).fill(null),
      });
    }
  }
  all.forEach((s, k) => {
    // A player listed twice: the last row counts.
    for (const r of s.rows) {
      const mine = byPlayer.get(r.sourcePlayerNumber);
      if (!mine) continue;
      mine.ranks[k] = r.rank ?? null;
      mine.points[k] = r.points ?? null;
    }
  });
  const taken = new Set<number>();
  return {
    rounds,
    players: t.players.map((p) => {
      const mine = byPlayer.get(p.sourcePlayerNumber)!;
      // A number the directory repeats gets its own copies.
      const first = !taken.has(p.sourcePlayerNumber);
      taken.add(p.sourcePlayerNumber);
      return {
        sourcePlayerNumber: p.sourcePlayerNumber,
        name: p.name,
        ranks: first ? mine.ranks : [...mine.ranks],
        points: first ? mine.points : [...mine.points],
      };
    }),
  };
}
