// FIDE C.07 tie-breaks computed from games.
//
// | acronym | name                                  | modifiers   | unplayed rounds: fide-2023 / fide-2026 | pre-2023 (Swiss-Manager's practice)                      |
// |---------|---------------------------------------|-------------|----------------------------------------|----------------------------------------------------------|
// | BH      | Buchholz                              | C1 C2 M1 M2 | own: dummy with own score; cuts take a | own unplayed round (forfeit won or lost, any bye, absent, |
// |         |                                       |             | voluntarily unplayed round first       | withdrawn): virtual opponent; an opponent's unplayed     |
// |         |                                       |             | (C.07 §16.5)                           | rounds count ½ each; cuts drop the lowest values, a      |
// |         |                                       |             |                                        | virtual opponent like any other                          |
// | SB      | Sonneborn-Berger                      | C1 C2 M1 M2 | as BH, value × own result              | as BH, value × own result; an own unplayed round adds ½ ×|
// |         |                                       |             |                                        | the virtual opponent whatever its result (forfeit win or |
// |         |                                       |             |                                        | loss, PAB, full/half/zero bye, absent)                   |
// | FB      | Fore Buchholz (last round as draws)   | C1 C2 M1 M2 | as BH                                  | as BH; a last-round bye or absence stays as it is        |
// | AOB     | Average Buchholz of opponents (2 dp)  | —           | over-the-board opponents only          | same, over their (pre-2023) BH                           |
// | DE      | Direct encounter (within tie group)   | —           | over-the-board games only (Swiss)      | same                                                     |
// | WIN     | Rounds won, played or not             | —           | PAB, full bye, forfeit win count       | same                                                     |
// | WON     | Games won over the board              | —           |                                        | same                                                     |
// | BPG     | Games played with Black               | —           |                                        | same                                                     |
// | BWG     | Games won with Black                  | —           |                                        | same                                                     |
// | GE, REP | Games one elected to play             | —           | played, PAB and forfeit wins           | same                                                     |
// | PS      | Sum of progressive scores             | C1 C2       | face value; cuts drop the first rounds | same (a withdrawn player's later rounds add 0)           |
// | KS      | Koya (points vs opponents >= limit)   | L+n L-n L%  | over-the-board games only; limit 50%   | same                                                     |
// |         |                                       |             | of the maximum score, moved by n half  |                                                          |
// |         |                                       |             | points with KS-L+n / KS-L-n (§14.5)    |                                                          |
// | ARO     | Average rating of opponents           | C1 C2 M1 M2 | over-the-board, rated opponents; cuts  | the cut removes the player's unplayed rounds first (not  |
// |         |                                       |             | drop the lowest-rated opponents        | in the average); only the rest drops the lowest ratings  |
// | TPR     | Tournament performance rating         | —           | as ARO                                 | same                                                     |
// | PTP     | Perfect tournament performance        | —           | as ARO                                 | same                                                     |
// | APRO    | Average TPR of opponents              | —           | as ARO                                 | same                                                     |
// | APPO    | Average PTP of opponents              | —           | as ARO                                 | same                                                     |
//
// Modifiers are written after a dash: "BH-C1" (Cut-1), "BH-C2", "BH-M1" (Median-1), "BH-M2",
// "KS-L+1" / "KS-L-2" (C.07 §14.5: the Koya limit raised or lowered by 1 or 2 half points; a half
// point is half a win's points), "KS-L60" (limit at 60% of the maximum possible score). A TRF-2025
// list writes them with slashes ("KS/L+1", "BH/C1"); src/trf/tiebreak-codes.ts maps them.
//
// Rule sets for unplayed rounds (tournament.tiebreakRules):
// - "fide-2023" (C.07 §16, as the FIDE TEC exercise booklet applies it): a player's own unplayed
//   round counts as a game against a dummy opponent with the player's own final score; an
//   opponent's score counts at face value, except that requested byes and absences after the
//   opponent's last round available to play (played, PAB, forfeit win) count as draws. Cuts first
//   drop a voluntarily unplayed round (forfeit loss, requested bye, absence) when its contribution
//   is not below that of the least significant opponent.
// - "fide-2026" (C.07 effective 1 March 2026): the amendment's full text was not available to us.
//   Assumed: the §16 treatment of unplayed rounds is unchanged from fide-2023, tie-breaks are
//   computed on standard points (1 / ½ / 0 per game, whatever the tournament's scoring), and GE is
//   also accepted under its new name REP.
// - "pre-2023" (the virtual opponent, as Swiss-Manager applies the 2009-2022 rules): an own
//   unplayed round (forfeit win or loss, bye, absence) counts as a game against a virtual
//   opponent with the player's score before that round, plus the opposite result, plus ½ per
//   later round; every unplayed round of an opponent (forfeits, byes, absences, the rounds after
//   a withdrawal) counts ½; cuts drop the lowest values, a virtual opponent like any other. SB
//   adds half the virtual opponent's score for an own unplayed round; ARO cuts remove unplayed
//   rounds first. Every other tie-break is computed as under fide-2023: they count games played
//   over the board only (AOB, DE, WON, BPG, BWG, KS, TPR, PTP, APRO, APPO) or count rounds whose
//   treatment does not depend on a virtual opponent (WIN, GE, PS).
// In round robins forfeits count as played games (C.07 §15), under every rule set. A double loss
// over the board ("0 - 0") is a played game lost by both, under every rule set (as Vega counts it).
//
// A value that is undefined (e.g. ARO without rated opponents) is null and ranks last.
import type { Tournament, TiebreakRuleSet } from "../types.ts";
import { isPlayedOverTheBoard, playerRounds, standardPoints, type RoundEntry } from "../scoring.ts";
import { expectedScore, ratingDifference, roundTo2 } from "./rating-tables.ts";

type Modifier = "C1" | "C2" | "M1" | "M2" | "L";

const SUPPORTED: Record<string, readonly Modifier[]> = {
  BH: ["C1", "C2", "M1", "M2"],
  SB: ["C1", "C2", "M1", "M2"],
  FB: ["C1", "C2", "M1", "M2"],
  ARO: ["C1", "C2", "M1", "M2"],
  PS: ["C1", "C2"],
  AOB: [],
  DE: [],
  WIN: [],
  WON: [],
  BPG: [],
  BWG: [],
  GE: [],
  REP: [],
  KS: ["L"],
  TPR: [],
  PTP: [],
  APRO: [],
  APPO: [],
};

export interface ParsedTiebreak {
  acronym: string;
  base: string;
  modifier: Modifier | null;
  /** KS-L: the Koya limit, in percent of the maximum possible score (default 50). */
  limit: number | null;
  /** KS-L+n / KS-L-n (C.07 14.5): the limit moved by n half points (a half of a win's points). */
  limitSteps: number | null;
}

const ACRONYM = /^([A-Z]+)(?:-(C1|C2|M1|M2|L(?:([+-]\d{1,2})|(\d{1,3}))))?$/;

export function parseTiebreak(acronym: string): ParsedTiebreak | string {
  const m = ACRONYM.exec(acronym.trim());
  if (!m) return `"${acronym}" is not a tie-break acronym (expected e.g. BH, BH-C1, SB, DE, KS-L+1)`;
  const base = m[1]!;
  const isLimit = m[3] !== undefined || m[4] !== undefined;
  const modifier = (isLimit ? "L" : (m[2] ?? null)) as Modifier | null;
  const limitSteps = m[3] !== undefined ? Number(m[3]) : null;
  const limit = m[4] !== undefined ? Number(m[4]) : null;
  if (limit !== null && (limit < 1 || limit > 100)) {
    return `the limit of "${acronym}" must be a percentage from 1 to 100 (e.g. KS-L60) or half points (e.g. KS-L+1)`;
  }
  const allowed = SUPPORTED[base];
  if (!allowed) {
    return `unknown tie-break "${acronym}"; supported: ${Object.keys(SUPPORTED).join(", ")}`;
  }
  if (modifier && !allowed.includes(modifier)) {
    return allowed.length === 0
      ? `tie-break "${base}" takes no modifier ("${acronym}")`
      : `tie-break "${base}" takes the modifiers ${allowed.join(", ")}, not ${modifier}`;
  }
  return { acronym, base, modifier, limit, limitSteps };
}

/**
 * Parsed forms of the lists validateTiebreaks accepted, by list. The store reader validates each
 * tournament's list once; the engine takes the parsed form from here and never parses it again.
 */
const PARSED_LISTS = new WeakMap<readonly string[], readonly ParsedTiebreak[]>();

/** Problems with a tie-break list, one message per bad entry; empty when the list is valid. A
 * valid list keeps its parsed form (see parsedTiebreaks). */
export function validateTiebreaks(list: readonly string[]): string[] {
  const problems: string[] = [];
  const parsed: ParsedTiebreak[] = [];
  for (const acronym of list) {
    const result = parseTiebreak(acronym);
    if (typeof result === "string") problems.push(result);
    else parsed.push(result);
  }
  if (problems.length === 0) PARSED_LISTS.set(list, parsed);
  return problems;
}

/**
 * The parsed form of a tournament's tie-break list: the one validateTiebreaks kept, else parsed
 * now (and kept). Throws on an invalid list (the store reader refuses those before).
 */
export function parsedTiebreaks(list: readonly string[]): readonly ParsedTiebreak[] {
  const kept = PARSED_LISTS.get(list);
  // Still the same entries (a Tournament is not changed after it is read; this only guards it).
  if (kept && kept.length === list.length && kept.every((p, i) => p.acronym === list[i])) return kept;
  const problems = validateTiebreaks(list);
  if (problems.length > 0) throw new Error(problems.join("; "));
  return PARSED_LISTS.get(list)!;
}

// --- Per-tournament context --------------------------------------------------------------------

interface Context {
  rules: TiebreakRuleSet;
  rounds: number;
  entries: Map<number, RoundEntry[]>;
  ratings: Map<number, number | null>;
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

function isAvailable(e: RoundEntry): boolean {
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
function isVoluntarilyUnplayed(e: RoundEntry): boolean {
  return e.outcome === "forfeitLoss" || isRequestedByeOrAbsence(e);
}

function buildContext(t: Tournament, entries: Map<number, RoundEntry[]>, rounds: number): Context {
  const standard = t.tiebreakRules === "fide-2026";
  const winValue = standard ? 1 : t.scoring.win;
  const drawValue = standard ? 0.5 : t.scoring.draw;
  const pts = (e: RoundEntry) => (standard ? standardPoints(e.outcome) : e.points);
  const score = new Map<number, number>();
  const points = new Map<number, number>();
  const adjusted = new Map<number, number>();
  for (const [player, list] of entries) {
    points.set(
      player,
      list.reduce((s, e) => s + e.points, 0),
    );
    score.set(
      player,
      list.reduce((s, e) => s + pts(e), 0),
    );
    let adj = 0;
    if (t.tiebreakRules === "pre-2023") {
      for (const e of list) adj += isPlayedOverTheBoard(e.outcome) ? pts(e) : drawValue;
    } else {
      let lastAvailable = 0;
      for (const e of list) if (isAvailable(e)) lastAvailable = e.round;
      for (const e of list) {
        adj += isRequestedByeOrAbsence(e) && e.round > lastAvailable ? drawValue : pts(e);
      }
    }
    adjusted.set(player, adj);
  }
  const ratings = new Map<number, number | null>();
  for (const p of t.players) ratings.set(p.sourcePlayerNumber, p.rating && p.rating > 0 ? p.rating : null);
  return {
    rules: t.tiebreakRules,
    rounds,
    entries,
    ratings,
    points,
    score,
    adjusted,
    winValue,
    drawValue,
    items: { plain: new Map(), weighted: new Map() },
  };
}

/** In round robins a forfeit counts as a played game (C.07 §15). */
function roundRobinEntries(entries: Map<number, RoundEntry[]>): Map<number, RoundEntry[]> {
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
function foreEntries(ctx: Context, t: Tournament): Map<number, RoundEntry[]> {
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

// --- Buchholz family -----------------------------------------------------------------------------

interface Item {
  /** The opponent's (or dummy's) score: what "least significant" compares. */
  value: number;
  /** What the round adds to the tie-break. */
  contribution: number;
  voluntary: boolean;
}

function ownUnplayedValue(ctx: Context, player: number, e: RoundEntry, list: RoundEntry[]): number {
  if (ctx.rules !== "pre-2023") return ctx.score.get(player)!;
  // Virtual opponent: score before the round + the opposite result + ½ per later round.
  let before = 0;
  for (const x of list) if (x.round < e.round) before += x.points;
  const own = standardPoints(e.outcome) * ctx.winValue;
  return before + (ctx.winValue - own) + ctx.drawValue * (ctx.rounds - e.round);
}

function buchholzItems(ctx: Context, player: number, weighted: boolean): Item[] {
  const list = ctx.entries.get(player) ?? [];
  return list.map((e) => {
    const played = isPlayedOverTheBoard(e.outcome) && e.opponent !== null;
    const value = played ? (ctx.adjusted.get(e.opponent!) ?? 0) : ownUnplayedValue(ctx, player, e, list);
    // Swiss-Manager (pre-2023): an own unplayed round adds half the virtual opponent's score to
    // SB, as a draw would, whatever the forfeit or bye result.
    const fraction = !played && ctx.rules === "pre-2023" ? 0.5 : standardPoints(e.outcome);
    const contribution = weighted ? value * fraction : value;
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

function buchholz(ctx: Context, player: number, modifier: Modifier | null, weighted: boolean): number {
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

// --- Rating-based -------------------------------------------------------------------------------

function ratedGames(ctx: Context, player: number): { rating: number; points: number; opponent: number }[] {
  const out: { rating: number; points: number; opponent: number }[] = [];
  for (const e of ctx.entries.get(player) ?? []) {
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

function averageRating(ctx: Context, player: number, modifier: Modifier | null): number | null {
  const ratings = ratedGames(ctx, player)
    .map((g) => g.rating)
    .sort((a, b) => a - b);
  let low = modifier === "C1" || modifier === "M1" ? 1 : modifier === "C2" || modifier === "M2" ? 2 : 0;
  if (ctx.rules === "pre-2023") {
    // Swiss-Manager: the cut removes the player's unplayed rounds first (they have no rating and
    // are not in the average); only what is left of the cut drops the lowest-rated opponents.
    const unplayed = (ctx.entries.get(player) ?? []).filter(
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

function performance(ctx: Context, player: number): number | null {
  const games = ratedGames(ctx, player);
  const aro = averageRating(ctx, player, null);
  if (aro === null || games.length === 0) return null;
  const p = games.reduce((s, g) => s + g.points, 0) / games.length;
  return aro + ratingDifference(p);
}

function perfectPerformance(ctx: Context, player: number): number | null {
  const games = ratedGames(ctx, player);
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

function averageOver(ctx: Context, player: number, of: (opponent: number) => number | null): number | null {
  const values: number[] = [];
  for (const g of ratedGames(ctx, player)) {
    const v = of(g.opponent);
    if (v !== null) values.push(v);
  }
  if (values.length === 0) return null;
  return roundHalfUp(values.reduce((s, v) => s + v, 0) / values.length);
}

/**
 * The Koya limit: 50% of the maximum possible score (rounds × a win's points), moved by n half
 * points with KS-L+n / KS-L-n (C.07 14.5; a half point is half a win's points), or set to a
 * percentage of the maximum with KS-L<percent>.
 */
function koyaLimit(ctx: Context, tb: ParsedTiebreak): number {
  const maximum = ctx.rounds * ctx.winValue;
  if (tb.limitSteps !== null) return maximum / 2 + (tb.limitSteps * ctx.winValue) / 2;
  return (maximum * (tb.limit ?? 50)) / 100;
}

// --- The engine ---------------------------------------------------------------------------------

/** Computes tie-break values for one tournament after one round; caches what tie-breaks share. */
export class TiebreakEngine {
  private readonly ctx: Context;
  private readonly t: Tournament;
  private readonly cache = new Map<string, Map<number, number | null>>();
  /** Tie-breaks asked for by acronym (tests, tools), parsed once per engine. The tournament's own
   * list comes parsed (parsedTiebreaks) and is passed as ParsedTiebreak. */
  private readonly parsed = new Map<string, ParsedTiebreak>();
  private foreCtx: Context | null = null;

  constructor(t: Tournament, afterRound: number) {
    this.t = t;
    let entries = playerRounds(t, afterRound);
    if (t.system === "round-robin") entries = roundRobinEntries(entries);
    this.ctx = buildContext(t, entries, afterRound);
  }

  /** A player's points by the tournament's scoring. */
  points(player: number): number {
    return this.ctx.points.get(player) ?? 0;
  }

  /** The tie-break points of a player (standard points under fide-2026, else the scoring's). */
  score(player: number): number {
    return this.ctx.score.get(player) ?? 0;
  }

  /**
   * Values of one tie-break for the given players. `groups` are the players still tied when the
   * tie-break applies (only DE depends on them); every player of `groups` gets a value.
   */
  values(
    tiebreak: string | ParsedTiebreak,
    groups: readonly (readonly number[])[],
  ): ReadonlyMap<number, number | null> {
    const parsed = typeof tiebreak === "string" ? this.parse(tiebreak) : tiebreak;
    if (parsed.base === "DE") return this.directEncounter(groups);
    const all = this.perPlayer(parsed);
    // Groups that hold every player (the standings' case): the computed values as they are.
    let asked = 0;
    for (const g of groups) asked += g.length;
    if (asked === all.size) return all;
    const out = new Map<number, number | null>();
    for (const g of groups) for (const p of g) out.set(p, all.get(p) ?? null);
    return out;
  }

  private parse(acronym: string): ParsedTiebreak {
    let parsed = this.parsed.get(acronym);
    if (!parsed) {
      const result = parseTiebreak(acronym);
      if (typeof result === "string") throw new Error(result);
      parsed = result;
      this.parsed.set(acronym, parsed);
    }
    return parsed;
  }

  private perPlayer(tb: ParsedTiebreak): Map<number, number | null> {
    const cached = this.cache.get(tb.acronym);
    if (cached) return cached;
    const out = new Map<number, number | null>();
    for (const player of this.ctx.entries.keys()) out.set(player, this.compute(tb, player));
    this.cache.set(tb.acronym, out);
    return out;
  }

  private compute(tb: ParsedTiebreak, player: number): number | null {
    const ctx = this.ctx;
    const list = ctx.entries.get(player) ?? [];
    const overTheBoard = () => list.filter((e) => isPlayedOverTheBoard(e.outcome) && e.opponent !== null);
    switch (tb.base) {
      case "BH":
        return buchholz(ctx, player, tb.modifier, false);
      case "SB":
        return buchholz(ctx, player, tb.modifier, true);
      case "FB":
        return buchholz(this.fore(), player, tb.modifier, false);
      case "AOB": {
        const otb = overTheBoard();
        if (otb.length === 0) return null;
        const bh = this.perPlayer(this.parse("BH"));
        const sum = otb.reduce((s, e) => s + (bh.get(e.opponent!) ?? 0), 0);
        return roundTo2(sum / otb.length);
      }
      case "WIN":
        return list.filter((e) => standardPoints(e.outcome) === 1).length;
      case "WON":
        return overTheBoard().filter((e) => e.outcome === "win").length;
      case "BPG":
        return overTheBoard().filter((e) => e.colour === "b").length;
      case "BWG":
        return overTheBoard().filter((e) => e.colour === "b" && e.outcome === "win").length;
      case "GE":
      case "REP":
        return list.filter(isAvailable).length;
      case "PS": {
        const cut = tb.modifier === "C1" ? 1 : tb.modifier === "C2" ? 2 : 0;
        let running = 0;
        let total = 0;
        list.forEach((e, i) => {
          running += ctx.rules === "fide-2026" ? standardPoints(e.outcome) : e.points;
          if (i >= cut) total += running;
        });
        return total;
      }
      case "KS": {
        const threshold = koyaLimit(ctx, tb);
        return overTheBoard()
          .filter((e) => (ctx.score.get(e.opponent!) ?? 0) >= threshold)
          .reduce((s, e) => s + (ctx.rules === "fide-2026" ? standardPoints(e.outcome) : e.points), 0);
      }
      case "ARO":
        return averageRating(ctx, player, tb.modifier);
      case "TPR":
        return performance(ctx, player);
      case "PTP":
        return perfectPerformance(ctx, player);
      case "APRO": {
        const tpr = this.perPlayer(this.parse("TPR"));
        return averageOver(ctx, player, (o) => tpr.get(o) ?? null);
      }
      case "APPO": {
        const ptp = this.perPlayer(this.parse("PTP"));
        return averageOver(ctx, player, (o) => ptp.get(o) ?? null);
      }
      default:
        throw new Error(`tie-break ${tb.acronym} has no implementation`);
    }
  }

  private fore(): Context {
    if (!this.foreCtx) this.foreCtx = buildContext(this.t, foreEntries(this.ctx, this.t), this.ctx.rounds);
    return this.foreCtx;
  }

  /**
   * Direct encounter inside each tied group: the points scored in the games between the group's
   * players. Only when every pair of the group has met is the result a ranking (as Swiss-Manager
   * prints it); otherwise every player of the group gets 0 and the tie stays. A player alone gets 0.
   */
  private directEncounter(groups: readonly (readonly number[])[]): Map<number, number | null> {
    const out = new Map<number, number | null>();
    const ctx = this.ctx;
    for (const group of groups) {
      // Every pair must have met: a group larger than the rounds played + 1 cannot have.
      if (group.length < 2 || group.length - 1 > ctx.rounds) {
        for (const p of group) out.set(p, 0);
        continue;
      }
      const members = new Set(group);
      const points = new Map<number, number>();
      const met = new Set<string>();
      for (const p of group) {
        let sum = 0;
        for (const e of ctx.entries.get(p) ?? []) {
          if (!isPlayedOverTheBoard(e.outcome) || e.opponent === null || !members.has(e.opponent)) continue;
          sum += ctx.rules === "fide-2026" ? standardPoints(e.outcome) : e.points;
          met.add(p < e.opponent ? `${p}-${e.opponent}` : `${e.opponent}-${p}`);
        }
        points.set(p, sum);
      }
      const pairs = (group.length * (group.length - 1)) / 2;
      const complete = group.length > 1 && met.size === pairs;
      for (const p of group) out.set(p, complete ? points.get(p)! : 0);
    }
    return out;
  }
}
