// What every tie-break of one tournament after one round shares: each player's round entries,
// scores and adjusted scores, ratings, and which rounds count as available to play.
import type { Player, Tournament, TiebreakPractice, TiebreakRuleSet } from "../types.ts";
import { followsVega } from "../types.ts";
import { isPlayedOverTheBoard, standardPoints, type RoundEntry } from "../scoring.ts";

/** One round of a Buchholz-type tie-break (buchholz.ts builds them; the context caches them). */
export interface Item {
  /** The opponent's (or dummy's) score: what "least significant" compares. */
  value: number;
  /** What the round adds to the tie-break. */
  contribution: number;
  voluntary: boolean;
}

export interface Context {
  rules: TiebreakRuleSet;
  /** The program whose known practice is followed; null: the written rules. */
  practice: TiebreakPractice | null;
  roundRobin: boolean;
  rounds: number;
  /** The rounds as tie-breaks see them: in a round robin, forfeits count as played games. */
  entries: Map<number, RoundEntry[]>;
  /** The rounds as scored, forfeits still forfeits (the same lists as `entries` in a Swiss). */
  scheduled: Map<number, RoundEntry[]>;
  /** Shared by every context of the tournament: read only. */
  ratings: ReadonlyMap<number, number | null>;
  /** Points by the tournament's scoring. */
  points: Map<number, number>;
  /** Points used by tie-breaks (standard points under fide-2026). */
  score: Map<number, number>;
  /** An opponent's score as it counts in others' Buchholz-type tie-breaks. */
  adjusted: Map<number, number>;
  winValue: number;
  drawValue: number;
  /** Buchholz items per player, unweighted (BH) and weighted (SB): shared by their modifiers. */
  items: { plain: Map<number, Item[]>; weighted: Map<number, Item[]> };
}

export function isAvailable(e: RoundEntry): boolean {
  return isPlayedOverTheBoard(e.outcome) || e.outcome === "pab" || e.outcome === "forfeitWin";
}

/** Requested byes and absences: the rounds whose value is adjusted after a withdrawal. */
function isRequestedByeOrAbsence(e: RoundEntry): boolean {
  return (
    e.outcome === "fullBye" ||
    e.outcome === "halfBye" ||
    e.outcome === "zeroBye" ||
    e.outcome === "absent" ||
    e.outcome === "pending"
  );
}

/** Voluntarily unplayed rounds, cut first under the 2023 rules (C.07 §16.5). */
export function isVoluntarilyUnplayed(e: RoundEntry): boolean {
  return e.outcome === "forfeitLoss" || isRequestedByeOrAbsence(e);
}

/** Each player's rating as tie-breaks read it (null: unrated), by directory: the same for every
 * round's context, so made once per tournament. */
const RATINGS = new WeakMap<readonly Player[], ReadonlyMap<number, number | null>>();

function ratingsOf(players: readonly Player[]): ReadonlyMap<number, number | null> {
  let ratings = RATINGS.get(players);
  if (!ratings) {
    const made = new Map<number, number | null>();
    for (const p of players) made.set(p.sourcePlayerNumber, p.rating && p.rating > 0 ? p.rating : null);
    RATINGS.set(players, (ratings = made));
  }
  return ratings;
}

export function buildContext(
  t: Tournament,
  entries: Map<number, RoundEntry[]>,
  rounds: number,
  scheduled: Map<number, RoundEntry[]> = entries,
): Context {
  const standard = t.tiebreakRules === "fide-2026";
  const pre2023 = t.tiebreakRules === "pre-2023";
  const winValue = standard ? 1 : t.scoring.win;
  const drawValue = standard ? 0.5 : t.scoring.draw;
  const score = new Map<number, number>();
  const points = new Map<number, number>();
  const adjusted = new Map<number, number>();
  const vega = followsVega(t.tiebreakPractice);
  for (const [player, list] of entries) {
    // One pass per list: sums in round order, as the reductions were.
    let sumPoints = 0;
    let sumScore = 0;
    let lastAvailable = 0;
    for (const e of list) {
      sumPoints += e.points;
      sumScore += standard ? standardPoints(e.outcome) : e.points;
      // The last round available to play (C.07 §16.3: requested byes and absences after it count
      // as draws when an opponent's score is adjusted). Vega's practice counts a forfeit loss as
      // available too (docs/design/tiebreaks.md, "Vega").
      if (isAvailable(e) || (vega && e.outcome === "forfeitLoss")) lastAvailable = e.round;
    }
    points.set(player, sumPoints);
    score.set(player, sumScore);
    let adj = 0;
    if (pre2023) {
      for (const e of list) {
        adj += isPlayedOverTheBoard(e.outcome)
          ? standard
            ? standardPoints(e.outcome)
            : e.points
          : drawValue;
      }
    } else {
      for (const e of list) {
        adj +=
          isRequestedByeOrAbsence(e) && e.round > lastAvailable
            ? drawValue
            : standard
              ? standardPoints(e.outcome)
              : e.points;
      }
    }
    adjusted.set(player, adj);
  }
  return {
    rules: t.tiebreakRules,
    practice: t.tiebreakPractice,
    roundRobin: t.system === "round-robin",
    rounds,
    entries,
    scheduled,
    ratings: ratingsOf(t.players),
    points,
    score,
    adjusted,
    winValue,
    drawValue,
    items: { plain: new Map(), weighted: new Map() },
  };
}

/** In round robins a forfeit counts as a played game (C.07 §15). */
export function roundRobinEntries(entries: Map<number, RoundEntry[]>): Map<number, RoundEntry[]> {
  const out = new Map<number, RoundEntry[]>();
  for (const [player, list] of entries) {
    out.set(
      player,
      list.map((e) => {
        if (e.opponent === null) return e;
        if (e.outcome === "forfeitWin") return { ...e, outcome: "win" };
        if (e.outcome === "forfeitLoss") return { ...e, outcome: "loss" };
        return e;
      }),
    );
  }
  return out;
}

/** Fore Buchholz: every paired game of the last round counts as a draw; byes stay as they are. */
export function foreEntries(ctx: Context, t: Tournament): Map<number, RoundEntry[]> {
  const out = new Map<number, RoundEntry[]>();
  for (const [player, list] of ctx.entries) {
    out.set(
      player,
      list.map((e) =>
        e.round === ctx.rounds && e.opponent !== null ? { ...e, outcome: "draw", points: t.scoring.draw } : e,
      ),
    );
  }
  return out;
}
