// Points per player per round, from the games and the tournament's Scoring. Each player gets one
// RoundEntry per round: what happened to them in that round, seen from their side. Tie-breaks
// and standings work on these entries only.
import type { ByeKind, Game, Scoring, Tournament } from "./types.ts";
import { isFinalResult } from "./results.ts";
import { isDoubleLoss } from "./result-codes.ts";

export type RoundOutcome =
  /** Over-the-board results. */
  | "win"
  | "draw"
  | "loss"
  /** Forfeits. A double forfeit and an Unplayed game are a forfeit loss for both (a double loss
   * over the board is a "loss" for both). */
  | "forfeitWin"
  | "forfeitLoss"
  /** Bye rows, by bye kind. */
  | "pab"
  | "fullBye"
  | "halfBye"
  | "zeroBye"
  /** Not in any game of the round (unpaired, absent, withdrawn): scores like a zero bye (TRF Z). */
  | "absent"
  /** In a game whose result is not final yet: scores nothing until it is. */
  | "pending";

export interface RoundEntry {
  round: number;
  outcome: RoundOutcome;
  /** The paired opponent (over the board or forfeit), else null. */
  opponent: number | null;
  colour: "w" | "b" | null;
  /** Points by the tournament's scoring. */
  points: number;
}

const BYE_OUTCOME: Record<ByeKind, RoundOutcome> = {
  pab: "pab",
  full: "fullBye",
  half: "halfBye",
  zero: "zeroBye",
};

/** Points an outcome is worth under a scoring. */
export function outcomePoints(outcome: RoundOutcome, s: Scoring): number {
  switch (outcome) {
    case "win":
      return s.win;
    case "draw":
      return s.draw;
    case "loss":
      return s.loss;
    case "forfeitWin":
      return s.forfeitWin;
    case "forfeitLoss":
      return s.forfeitLoss;
    case "pab":
      return s.pairingAllocatedBye;
    case "fullBye":
      return s.fullBye;
    case "halfBye":
      return s.halfBye;
    case "zeroBye":
    case "absent":
      return s.zeroBye;
    case "pending":
      return 0;
  }
}

/** The game outcome on the 1 / ½ / 0 scale (FIDE's "standard points"). */
export function standardPoints(outcome: RoundOutcome): number {
  switch (outcome) {
    case "win":
    case "forfeitWin":
    case "pab":
    case "fullBye":
      return 1;
    case "draw":
    case "halfBye":
      return 0.5;
    default:
      return 0;
  }
}

export function isPlayedOverTheBoard(outcome: RoundOutcome): boolean {
  return outcome === "win" || outcome === "draw" || outcome === "loss";
}

type Pair = readonly [RoundOutcome, RoundOutcome];
// Shared tuples: no allocation per game.
const PENDING_PAIR: Pair = ["pending", "pending"];
const WHITE_WINS: Pair = ["win", "loss"];
const BLACK_WINS: Pair = ["loss", "win"];
const DRAWN: Pair = ["draw", "draw"];
const WHITE_FORFEIT_WIN: Pair = ["forfeitWin", "forfeitLoss"];
const BLACK_FORFEIT_WIN: Pair = ["forfeitLoss", "forfeitWin"];
const BOTH_LOST: Pair = ["loss", "loss"];
const BOTH_FORFEITED: Pair = ["forfeitLoss", "forfeitLoss"];

/** Outcomes of the white and the black player of a two-player game. */
function twoPlayerOutcomes(g: Game): Pair {
  if (!isFinalResult(g.result)) return PENDING_PAIR;
  switch (g.result) {
    case "WhiteWin":
      return WHITE_WINS;
    case "BlackWin":
      return BLACK_WINS;
    case "Draw":
      return DRAWN;
    case "WhiteForfeitWin":
      return WHITE_FORFEIT_WIN;
    case "BlackForfeitWin":
      return BLACK_FORFEIT_WIN;
    case "DoubleForfeit":
      // A double loss over the board ("0 - 0") was played: a loss for both, as Vega counts it.
      return isDoubleLoss(g) ? BOTH_LOST : BOTH_FORFEITED;
    default:
      // Unplayed, and a Bye result on a two-player row (not meaningful).
      return BOTH_FORFEITED;
  }
}

/**
 * One entry per player and round 1..afterRound. A player in no game of a round is "absent".
 * When a player appears on several boards of a round (bad data) the first board counts.
 */
export function playerRounds(t: Tournament, afterRound: number): Map<number, RoundEntry[]> {
  // Per player (by index): the entry of each round a board has filled (the first board counts).
  const index = new Map<number, number>();
  const lists: (RoundEntry | undefined)[][] = [];
  for (const p of t.players) {
    if (index.has(p.sourcePlayerNumber)) continue;
    index.set(p.sourcePlayerNumber, lists.length);
    lists.push(new Array<RoundEntry | undefined>(afterRound));
  }
  const put = (player: number, e: RoundEntry) => {
    const i = index.get(player);
    if (i === undefined) return;
    const list = lists[i]!;
    if (list[e.round - 1] === undefined) list[e.round - 1] = e;
  };
  for (const round of t.rounds) {
    const r = round.roundNumber;
    if (r < 1 || r > afterRound) continue;
    for (const g of round.games) {
      const w = g.whitePlayerNumber;
      const b = g.blackPlayerNumber;
      if (w !== null && b !== null) {
        const [ow, ob] = twoPlayerOutcomes(g);
        put(w, { round: r, outcome: ow, opponent: b, colour: "w", points: outcomePoints(ow, t.scoring) });
        put(b, { round: r, outcome: ob, opponent: w, colour: "b", points: outcomePoints(ob, t.scoring) });
      } else if (w !== null || b !== null) {
        const player = (w ?? b)!;
        const outcome: RoundOutcome =
          g.result === "Bye"
            ? BYE_OUTCOME[g.byeKind ?? "pab"]
            : isFinalResult(g.result)
              ? "absent"
              : "pending";
        put(player, {
          round: r,
          outcome,
          opponent: null,
          colour: null,
          points: outcomePoints(outcome, t.scoring),
        });
      }
    }
  }
  // A round no board filled: absent.
  const out = new Map<number, RoundEntry[]>();
  for (const [player, i] of index) {
    const list = lists[i]!;
    for (let r = 0; r < afterRound; r++) {
      if (list[r] === undefined) {
        list[r] = {
          round: r + 1,
          outcome: "absent",
          opponent: null,
          colour: null,
          points: t.scoring.zeroBye,
        };
      }
    }
    out.set(player, list as RoundEntry[]);
  }
  return out;
}

/**
 * playerRounds(t, n) from playerRounds(t, m) for n <= m: a round's entry does not depend on the
 * round asked for, so the lists for n are the first n entries of each (the entries are shared).
 */
export function roundsUpTo(all: ReadonlyMap<number, RoundEntry[]>, n: number): Map<number, RoundEntry[]> {
  const out = new Map<number, RoundEntry[]>();
  for (const [player, list] of all) out.set(player, list.length > n ? list.slice(0, n) : list);
  return out;
}

/** Total points per player after a round. */
export function pointsAfterRound(t: Tournament, afterRound: number): Map<number, number> {
  const totals = new Map<number, number>();
  for (const [player, entries] of playerRounds(t, afterRound)) {
    totals.set(
      player,
      entries.reduce((sum, e) => sum + e.points, 0),
    );
  }
  return totals;
}
