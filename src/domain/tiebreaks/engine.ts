// FIDE C.07 tie-breaks computed from games, by rule set and, where a program departs from the
// written rules, by that program's known practice. docs/design/tiebreaks.md gives the evidence.
//
// | acronym | name                                | modifiers   | fide-2023 (C.07 2023/2024)               | fide-2026: what the 2026 text changes        | pre-2023 (Swiss-Manager's practice)             |
// |---------|-------------------------------------|-------------|------------------------------------------|----------------------------------------------|-------------------------------------------------|
// | BH      | Buchholz                            | C1 C2 M1 M2 | own unplayed round: dummy opponent with  | the dummy's score is capped (§16.4): a       | own unplayed round (forfeit, any bye, absent):  |
// |         |                                     |             | the player's own score (§16.4); an       | forfeit at the scheduled opponent's adjusted | virtual opponent; an opponent's unplayed rounds |
// |         |                                     |             | opponent's requested byes / absences     | score (§16.4.1), a bye or absence at a draw  | count ½ each; cuts drop the lowest values, a    |
// |         |                                     |             | after the last round available count ½   | per round (§16.4.2); standard points          | virtual opponent like any other                 |
// |         |                                     |             | (§16.3); cuts take a voluntarily         |                                              |                                                 |
// |         |                                     |             | unplayed round first (§16.5)             |                                              |                                                 |
// | SB      | Sonneborn-Berger                    | C1 C2 M1 M2 | as BH, value × own result                | as BH (the capped dummy), standard points    | as BH; an own unplayed round adds ½ × the       |
// |         |                                     |             |                                          |                                              | virtual opponent whatever its result            |
// | FB      | Fore Buchholz (last round as draws) | C1 C2 M1 M2 | as BH                                    | as BH                                        | as BH; a last-round bye or absence stays        |
// | AOB     | Average Buchholz of opponents (2dp) | —           | over-the-board opponents only            | over their (capped) BH                       | same, over their (pre-2023) BH                  |
// | DE      | Direct encounter (within tie group) | —           | over-the-board games only (Swiss)        | standard points                              | same                                            |
// | WIN     | Rounds won, played or not           | —           | PAB, full bye, forfeit win count         | same                                         | same                                            |
// | WON     | Games won over the board            | —           |                                          | same                                         | same                                            |
// | BPG     | Games played with Black             | —           |                                          | same                                         | same                                            |
// | BWG     | Games won with Black                | —           |                                          | same                                         | same                                            |
// | GE, REP | Games / rounds one elected to play  | —           | played, PAB and forfeit wins             | REP is the 2026 name of GE                   | same                                            |
// | PS      | Sum of progressive scores           | C1 C2       | face value; cuts drop the first rounds   | standard points                              | same (a withdrawn player's later rounds add 0)  |
// | KS      | Koya (points vs opponents >= limit) | L+n L-n L%  | over-the-board games only; limit 50% of  | standard points                              | same                                            |
// |         |                                     |             | the maximum, moved by n half points      |                                              |                                                 |
// |         |                                     |             | with KS-L+n / KS-L-n (§14.5)             |                                              |                                                 |
// | ARO     | Average rating of opponents         | C1 C2 M1 M2 | over-the-board, rated opponents; cuts    | round robins: forfeits are left out (they    | the cut removes the player's unplayed rounds    |
// |         |                                     |             | drop the lowest-rated opponents          | count as played games in the other rule sets)| first; the rest drops the lowest ratings        |
// | TPR     | Tournament performance rating       | —           | as ARO                                   | as ARO                                       | same                                            |
// | PTP     | Perfect tournament performance      | —           | as ARO                                   | as ARO                                       | same                                            |
// | APRO    | Average TPR of opponents            | —           | as ARO                                   | as ARO                                       | same                                            |
// | APPO    | Average PTP of opponents            | —           | as ARO                                   | as ARO                                       | same                                            |
//
// Paragraphs: §14.5, §16.3, §16.4 and §16.5 are those of the 2023/2024 text, where each rule is
// stated. The 2026 paragraphs (§16.4.1 forfeits, §16.4.2 byes and absences) are as the FIDE TEC's
// reference implementation names them; the published 2026 text itself was not available to us
// (docs/design/tiebreaks.md says what each 2026 rule rests on). "Standard points" (2026): every
// tie-break counts 1 / ½ / 0 per round, whatever the tournament's scoring.
//
// Practices (tournament.tiebreakPractice; null = the written rules). Each departure is pinned by
// a hand-worked crosstable in test/unit/domain/tiebreaks/rules-and-practices.test.ts:
// | practice      | tie-break | departure from the written rules                                         |
// |---------------|-----------|--------------------------------------------------------------------------|
// | vega          | BH family | a forfeit loss counts as a round available to play when an opponent's    |
// |               |           | score is adjusted (§16.3), so earlier byes / absences keep face value     |
// | vega          | ARO       | round robins: forfeited games are left out (not counted as played)       |
// | vega          | DE        | printed as the position inside the tied group (1 = first), lower first   |
// | vega-de-score | DE        | Vega otherwise, DE printed as the points among the tied players          |
// | vega-sb-bye-  | SB family | Vega otherwise, an own one-point bye (F, U) adds nothing to SB; BH still |
// |   zero        |           | counts its dummy opponent                                                |
// | swiss-manager | SB        | round robins: a forfeit is an unplayed game, evaluated against a virtual |
// |               |           | opponent with the player's own score (a forfeit loss adds 0)             |
// | swiss-manager | WON       | round robins: forfeit wins are left out                                  |
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
// - "fide-2026" (C.07 effective 1 March 2026): fide-2023 with the 2026 changes of the table: the
//   dummy opponent's cap, standard points, round-robin forfeits out of the rating-based
//   tie-breaks, REP.
// - "pre-2023" (the virtual opponent, as Swiss-Manager applies the 2009-2022 rules): an own
//   unplayed round (forfeit win or loss, bye, absence) counts as a game against a virtual
//   opponent with the player's score before that round, plus the opposite result, plus ½ per
//   later round; every unplayed round of an opponent (forfeits, byes, absences, the rounds after
//   a withdrawal) counts ½; cuts drop the lowest values, a virtual opponent like any other. SB
//   adds half the virtual opponent's score for an own unplayed round; ARO cuts remove unplayed
//   rounds first. Every other tie-break is computed as under fide-2023: they count games played
//   over the board only (AOB, DE, WON, BPG, BWG, KS, TPR, PTP, APRO, APPO) or count rounds whose
//   treatment does not depend on a virtual opponent (WIN, GE, PS).
// In round robins forfeits count as played games (C.07 §15) under every rule set, except where
// the table says otherwise. A double loss over the board ("0 - 0") is a played game lost by both,
// under every rule set (as Vega counts it).
//
// A value that is undefined (e.g. ARO without rated opponents) is null and ranks last.
import { printsDeAsPosition, type Tournament } from "../types.ts";
import { isPlayedOverTheBoard, playerRounds, standardPoints, type RoundEntry } from "../scoring.ts";
import { parseTiebreak, type ParsedTiebreak } from "./acronyms.ts";
import { buchholz } from "./buchholz.ts";
import { buildContext, foreEntries, isAvailable, roundRobinEntries, type Context } from "./context.ts";
import { koyaLimit } from "./koya.ts";
import { roundTo2 } from "./rating-tables.ts";
import { averageOver, averageRating, perfectPerformance, performance } from "./rating.ts";

/** Computes tie-break values for one tournament after one round; caches what tie-breaks share. */
export class TiebreakEngine {
  private readonly ctx: Context;
  private readonly t: Tournament;
  private readonly cache = new Map<string, Map<number, number | null>>();
  /** Tie-breaks asked for by acronym (tests, tools), parsed once per engine. The tournament's own
   * list comes parsed (parsedTiebreaks) and is passed as ParsedTiebreak. */
  private readonly parsed = new Map<string, ParsedTiebreak>();
  private foreCtx: Context | null = null;

  /** `scheduled`: playerRounds(t, afterRound), when the caller has it already. */
  constructor(t: Tournament, afterRound: number, scheduled = playerRounds(t, afterRound)) {
    this.t = t;
    const entries = t.system === "round-robin" ? roundRobinEntries(scheduled) : scheduled;
    this.ctx = buildContext(t, entries, afterRound, scheduled);
  }

  /** Each player's rounds as scored (forfeits still forfeits). */
  scheduled(): ReadonlyMap<number, readonly RoundEntry[]> {
    return this.ctx.scheduled;
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
   * Whether a lower value of the tie-break ranks first: only Vega's DE, printed as the position
   * inside the tied group (1 = first).
   */
  lowerIsBetter(tiebreak: string | ParsedTiebreak): boolean {
    const parsed = typeof tiebreak === "string" ? this.parse(tiebreak) : tiebreak;
    return parsed.base === "DE" && printsDeAsPosition(this.ctx.practice);
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
    if (this.dependsOnGroups(parsed)) return this.directEncounter(groups);
    const all = this.perPlayer(parsed);
    // Groups that hold every player (the standings' case): the computed values as they are.
    let asked = 0;
    for (const g of groups) asked += g.length;
    if (asked === all.size) return all;
    const out = new Map<number, number | null>();
    for (const g of groups) for (const p of g) out.set(p, all.get(p) ?? null);
    return out;
  }

  /** Whether the values depend on the groups still tied (DE): else valuesOfAll gives them. */
  dependsOnGroups(tiebreak: ParsedTiebreak): boolean {
    return tiebreak.base === "DE";
  }

  /** Values of a tie-break that does not depend on the groups (dependsOnGroups false), for every
   * player: values(tiebreak, groups) for groups that hold them all, without the groups. */
  valuesOfAll(tiebreak: ParsedTiebreak): ReadonlyMap<number, number | null> {
    if (this.dependsOnGroups(tiebreak)) throw new Error(`${tiebreak.acronym} needs the tied groups`);
    return this.perPlayer(tiebreak);
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
    switch (tb.base) {
      case "BH":
        return buchholz(ctx, player, tb.modifier, false);
      case "SB":
        return buchholz(ctx, player, tb.modifier, true);
      case "FB":
        return buchholz(this.fore(), player, tb.modifier, false);
      case "AOB": {
        const otb = overTheBoard(list);
        if (otb.length === 0) return null;
        const bh = this.perPlayer(this.parse("BH"));
        const sum = otb.reduce((s, e) => s + (bh.get(e.opponent!) ?? 0), 0);
        return roundTo2(sum / otb.length);
      }
      case "WIN":
        return list.filter((e) => standardPoints(e.outcome) === 1).length;
      case "WON": {
        // Swiss-Manager leaves a round robin's forfeit wins out of WON (docs/design/tiebreaks.md).
        const rounds = ctx.roundRobin && ctx.practice === "swiss-manager" ? ctx.scheduled.get(player)! : list;
        return rounds.filter((e) => e.outcome === "win" && e.opponent !== null).length;
      }
      case "BPG":
        return overTheBoard(list).filter((e) => e.colour === "b").length;
      case "BWG":
        return overTheBoard(list).filter((e) => e.colour === "b" && e.outcome === "win").length;
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
        return overTheBoard(list)
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
        return averageOver(ctx, player, (o) => tpr.get(o) ?? null, "APRO");
      }
      case "APPO": {
        const ptp = this.perPlayer(this.parse("PTP"));
        return averageOver(ctx, player, (o) => ptp.get(o) ?? null, "APPO");
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
      for (const p of group) {
        if (!complete) out.set(p, 0);
        else if (printsDeAsPosition(ctx.practice)) out.set(p, positionInGroup(points, p));
        else out.set(p, points.get(p)!);
      }
    }
    return out;
  }
}

/** The rounds played over the board against an opponent (a function, not a closure made for
 * every player and tie-break). */
function overTheBoard(list: readonly RoundEntry[]): RoundEntry[] {
  return list.filter((e) => isPlayedOverTheBoard(e.outcome) && e.opponent !== null);
}

/** Vega's DE: 1 + the number of the group's players with more points between them (ties share). */
function positionInGroup(points: ReadonlyMap<number, number>, player: number): number {
  const own = points.get(player)!;
  let above = 0;
  for (const v of points.values()) if (v > own + 1e-9) above++;
  return above + 1;
}
