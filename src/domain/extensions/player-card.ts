// One player's tournament: the games round by round with the opponents' ratings, the running
// score and the rank after each complete round, and the FIDE performance rating and rating change
// where the ratings (and K) are known.
import {
  isPlayedOverTheBoard,
  playerRounds,
  roundsUpTo,
  standardPoints,
  type RoundEntry,
} from "../scoring.ts";
import type { Game, Player, Tournament } from "../types.ts";
import { cellOf, lastPairedRound, type CrossCell } from "./crosstable.ts";
import { expectedTotal, knownK, performanceRating, ratingChange, type RatedGame } from "./rating.ts";
import type { Progression } from "./round-standings.ts";

export interface CardRound extends CrossCell {
  /** The board the player sat at; null when no board names them (absent). */
  board: number | null;
  game: Game | null;
  opponentPlayer: Player | null;
  /** Points after this round; null from the first game that is not final on. */
  scoreAfter: number | null;
  /** Rank after this round when it is complete and the table lists the player, else null. */
  rankAfter: number | null;
}

export interface RatingSummary {
  /** Games played over the board against a rated opponent. */
  ratedGames: number;
  /** The player's score in them (1 / ½ / 0). */
  ratedScore: number;
  averageOpponentRating: number | null;
  performanceRating: number | null;
  /** Null when the player has no rating or no rated game. */
  expectedScore: number | null;
  /** The K factor when the store's data decides it (see rating.ts), else null. */
  kFactor: number | null;
  /** K · (score − expected) when the event is rated and K is known, else null. */
  ratingChange: number | null;
}

export interface PlayerCard {
  player: Player;
  rounds: CardRound[];
  rating: RatingSummary;
}

/** An event is rated when the store names a FIDE event id or a rating calculation. */
export function isRatedEvent(t: Tournament): boolean {
  return t.fideEventId !== null || t.ratingCalculation !== null;
}

/** The cards of every player at once (one pass over the games). */
export function playerCards(
  t: Tournament,
  progression: Progression,
  /** playerRounds(t, m) for some m >= lastPairedRound(t), when the caller has it. */
  all?: ReadonlyMap<number, RoundEntry[]>,
): PlayerCard[] {
  const last = lastPairedRound(t);
  const entries = all ? roundsUpTo(all, last) : playerRounds(t, last);
  const players = new Map(t.players.map((p) => [p.sourcePlayerNumber, p]));
  // Each player's board by round number (the first board that names them counts).
  const boards = new Map<number, Map<number, Game>>();
  for (const r of t.rounds) {
    let board = boards.get(r.roundNumber);
    if (!board) boards.set(r.roundNumber, (board = new Map()));
    for (const g of r.games) {
      const w = g.whitePlayerNumber;
      const b = g.blackPlayerNumber;
      if (w !== null && !board.has(w)) board.set(w, g);
      if (b !== null && !board.has(b)) board.set(b, g);
    }
  }
  const progress = new Map(progression.players.map((p) => [p.sourcePlayerNumber, p]));
  return t.players.map((player) => {
    const mine = entries.get(player.sourcePlayerNumber) ?? [];
    const ranks = progress.get(player.sourcePlayerNumber)?.ranks ?? [];
    let running: number | null = 0;
    const rated: RatedGame[] = [];
    const rounds = mine.map((e): CardRound => {
      const cell = cellOf(e);
      running = running === null || cell.points === null ? null : running + cell.points;
      const opponent = e.opponent === null ? null : (players.get(e.opponent) ?? null);
      if (isPlayedOverTheBoard(e.outcome) && opponent?.rating != null) {
        rated.push({ opponentRating: opponent.rating, score: standardPoints(e.outcome) });
      }
      const at = progression.rounds.indexOf(e.round);
      const game = boards.get(e.round)?.get(player.sourcePlayerNumber) ?? null;
      return {
        ...cell,
        board: game?.boardNumber ?? null,
        game,
        opponentPlayer: opponent,
        scoreAfter: running,
        rankAfter: at >= 0 ? (ranks[at] ?? null) : null,
      };
    });
    return { player, rounds, rating: ratingSummary(t, player, rated) };
  });
}

function ratingSummary(t: Tournament, player: Player, rated: RatedGame[]): RatingSummary {
  const score = rated.reduce((s, g) => s + g.score, 0);
  const expected = player.rating !== null && rated.length > 0 ? expectedTotal(player.rating, rated) : null;
  const k = knownK(player.rating);
  return {
    ratedGames: rated.length,
    ratedScore: score,
    averageOpponentRating: rated.length
      ? Math.round(rated.reduce((s, g) => s + g.opponentRating, 0) / rated.length)
      : null,
    performanceRating: performanceRating(rated),
    expectedScore: expected,
    kFactor: k,
    ratingChange:
      expected !== null && k !== null && isRatedEvent(t) ? ratingChange(k, score, expected) : null,
  };
}
