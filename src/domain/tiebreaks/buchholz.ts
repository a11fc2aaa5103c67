// The Buchholz family (BH, SB, FB): each round's item (an opponent's adjusted score, or the
// dummy / virtual opponent of an own unplayed round), and the cut and median modifiers.
import { isPlayedOverTheBoard, standardPoints, type RoundEntry } from "../scoring.ts";
import type { Modifier } from "./acronyms.ts";
import { isVoluntarilyUnplayed, type Context, type Item } from "./context.ts";

/** The score of the opponent an own unplayed round is evaluated against. */
function ownUnplayedValue(ctx: Context, player: number, e: RoundEntry, list: RoundEntry[]): number {
  if (ctx.rules === "pre-2023") {
    // Virtual opponent: score before the round + the opposite result + ½ per later round.
    let before = 0;
    for (const x of list) if (x.round < e.round) before += x.points;
    const own = standardPoints(e.outcome) * ctx.winValue;
    return before + (ctx.winValue - own) + ctx.drawValue * (ctx.rounds - e.round);
  }
  // ChessManager's practice: the dummy opponent has the player's adjusted score, the rounds after
  // the last playable one counted as draws (docs/design/tiebreaks.md, "ChessManager").
  if (ctx.practice === "chessmanager") return ctx.adjusted.get(player)!;
  // Dummy opponent with the player's own score (C.07 §16.4).
  const own = ctx.score.get(player)!;
  if (ctx.rules !== "fide-2026") return own;
  // 2026 (§16.4.1 / §16.4.2): the dummy's score is capped, for a forfeit at the scheduled
  // opponent's adjusted score, for a bye or an absence at a draw per round.
  const cap = e.opponent !== null ? (ctx.adjusted.get(e.opponent) ?? 0) : ctx.drawValue * ctx.rounds;
  return Math.min(own, cap);
}

/** Swiss-Manager's practice in a round robin: a forfeit is an unplayed game, and SB evaluates it
 * against a virtual opponent with the player's own score (so a forfeit loss adds nothing). */
function isRoundRobinForfeitForSb(ctx: Context, weighted: boolean): boolean {
  return weighted && ctx.roundRobin && ctx.practice === "swiss-manager";
}

/** Vega's practice in some events (`vega-sb-bye-zero`): an own one-point bye (pairing-allocated or
 * requested: Vega does not tell them apart) adds nothing to SB, while BH counts its dummy opponent. */
function isVegaSbByeZero(ctx: Context, weighted: boolean, e: RoundEntry): boolean {
  return weighted && ctx.practice === "vega-sb-bye-zero" && (e.outcome === "pab" || e.outcome === "fullBye");
}

function buchholzItems(ctx: Context, player: number, weighted: boolean): Item[] {
  const list = ctx.entries.get(player) ?? [];
  const scheduled = isRoundRobinForfeitForSb(ctx, weighted) ? (ctx.scheduled.get(player) ?? []) : null;
  return list.map((e, i) => {
    const asScored = scheduled?.[i];
    if (asScored && (asScored.outcome === "forfeitWin" || asScored.outcome === "forfeitLoss")) {
      const own = ctx.score.get(player)!;
      return { value: own, contribution: own * standardPoints(asScored.outcome), voluntary: false };
    }
    const played = isPlayedOverTheBoard(e.outcome) && e.opponent !== null;
    const value = played ? (ctx.adjusted.get(e.opponent!) ?? 0) : ownUnplayedValue(ctx, player, e, list);
    // Swiss-Manager (pre-2023): an own unplayed round adds half the virtual opponent's score to
    // SB, as a draw would, whatever the forfeit or bye result.
    const fraction = !played && ctx.rules === "pre-2023" ? 0.5 : standardPoints(e.outcome);
    // The bye keeps its value (the cut order is BH's); only its SB contribution is nothing.
    const contribution = isVegaSbByeZero(ctx, weighted, e) ? 0 : weighted ? value * fraction : value;
    return { value, contribution, voluntary: !played && isVoluntarilyUnplayed(e) };
  });
}

function removeLeastSignificant(items: Item[], voluntaryFirst: boolean): void {
  if (items.length === 0) return;
  let least = 0;
  for (let i = 1; i < items.length; i++) {
    const a = items[i]!;
    const b = items[least]!;
    if (a.value < b.value || (a.value === b.value && a.contribution < b.contribution)) least = i;
  }
  let cut = least;
  if (voluntaryFirst) {
    let vol = -1;
    for (let i = 0; i < items.length; i++) {
      if (items[i]!.voluntary && (vol < 0 || items[i]!.contribution < items[vol]!.contribution)) vol = i;
    }
    if (vol >= 0 && items[vol]!.contribution >= items[least]!.contribution) cut = vol;
  }
  items.splice(cut, 1);
}

function removeMostSignificant(items: Item[]): void {
  if (items.length === 0) return;
  let most = 0;
  for (let i = 1; i < items.length; i++) {
    const a = items[i]!;
    const b = items[most]!;
    if (a.value > b.value || (a.value === b.value && a.contribution > b.contribution)) most = i;
  }
  items.splice(most, 1);
}

function applyModifier(items: Item[], modifier: Modifier | null, voluntaryFirst: boolean): Item[] {
  const kept = [...items];
  const low = modifier === "C1" || modifier === "M1" ? 1 : modifier === "C2" || modifier === "M2" ? 2 : 0;
  const high = modifier === "M1" ? 1 : modifier === "M2" ? 2 : 0;
  for (let i = 0; i < low; i++) removeLeastSignificant(kept, voluntaryFirst);
  for (let i = 0; i < high; i++) removeMostSignificant(kept);
  return kept;
}

function sumContributions(items: Item[]): number {
  return items.reduce((s, i) => s + i.contribution, 0);
}

export function buchholz(ctx: Context, player: number, modifier: Modifier | null, weighted: boolean): number {
  const cache = weighted ? ctx.items.weighted : ctx.items.plain;
  let items = cache.get(player);
  if (!items) {
    items = buchholzItems(ctx, player, weighted);
    cache.set(player, items);
  }
  // applyModifier works on a copy: the cached items serve every modifier.
  return sumContributions(
    modifier === null ? items : applyModifier(items, modifier, ctx.rules !== "pre-2023"),
  );
}
