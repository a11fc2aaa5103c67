// The team tie-breaks of FIDE C.07 (2023 and 2026 editions), computed as the FIDE TEC's exercise
// booklet (part two) computes them, and Swiss-Manager's printed practice where it departs:
//
// | tie-break         | value                                                                      | paragraph |
// | ----------------- | -------------------------------------------------------------------------- | --------- |
// | MP, GP            | the team's match / game points                                             | §8        |
// | BH:MP, BH:GP      | sum of the opponents' (adjusted) scores; own unplayed match: a dummy       | §9, §16   |
// |                   | opponent with the team's own score (2026: capped, as for players)          |           |
// | EXYSB             | sum of opponent's X score times own Y result against it (E M G SB)         | §10       |
// | cuts (/C1, /M1)   | least significant opponent (lowest score, then lowest contribution);      | §14, §16.5|
// |                   | a voluntarily unplayed match (requested bye, forfeit loss) is cut first    |           |
// | SSSC              | secondary score + BH on the primary score / FN, FN = floor(max primary     | §13.4     |
// |                   | total / max secondary per match), the quotient rounded to one decimal      |           |
// | EDE               | place inside the tied group by the matches among its teams (edde.ts)       | §13.3     |
//
// An opponent's requested byes and absences after its last match available to play count as
// draws (§16.3): its adjusted score. Swiss-Manager (`--practice swiss-manager`) counts an
// opponent's pairing-allocated bye as a drawn match too (the shared Eschlkam event: its 11 BH:MP).
import type { TiebreakPractice, TiebreakRuleSet } from "../types.ts";
import type { TeamModifier, TeamTiebreak } from "./acronyms.ts";
import type { TeamRound, TeamRounds } from "./matches.ts";
import type { PrimaryScore, TeamEvent } from "./types.ts";

export interface TeamContext {
  rounds: TeamRounds;
  event: TeamEvent;
  rules: TiebreakRuleSet;
  practice: TiebreakPractice | null;
  score: Record<PrimaryScore, Map<number, number>>;
  adjusted: Record<PrimaryScore, Map<number, number>>;
}

interface Item {
  value: number;
  contribution: number;
  voluntary: boolean;
}

function isPlayed(r: TeamRound): boolean {
  return r.outcome === "win" || r.outcome === "draw" || r.outcome === "loss";
}

function isAvailable(r: TeamRound): boolean {
  return isPlayed(r) || r.outcome === "pab" || r.outcome === "forfeitWin";
}

function isRequestedByeOrAbsence(r: TeamRound): boolean {
  return ["fullBye", "halfBye", "zeroBye", "absent", "pending"].includes(r.outcome);
}

function isVoluntarilyUnplayed(r: TeamRound): boolean {
  return r.outcome === "forfeitLoss" || isRequestedByeOrAbsence(r);
}

function roundScore(r: TeamRound, s: PrimaryScore): number {
  return s === "MP" ? r.matchPoints : r.gamePoints;
}

/** A drawn match in each score: what §16.3 and Swiss-Manager's PAB put in an adjusted score. */
function drawValue(ctx: Pick<TeamContext, "event" | "rounds">, s: PrimaryScore): number {
  return s === "MP" ? ctx.event.matchPoints.draw : ctx.rounds.boards / 2;
}

export function buildTeamContext(
  rounds: TeamRounds,
  event: TeamEvent,
  rules: TiebreakRuleSet,
  practice: TiebreakPractice | null,
): TeamContext {
  const score = { MP: new Map<number, number>(), GP: new Map<number, number>() };
  const adjusted = { MP: new Map<number, number>(), GP: new Map<number, number>() };
  for (const [team, list] of rounds.byTeam) {
    const lastAvailable = Math.max(0, ...list.filter(isAvailable).map((r) => r.round));
    for (const s of ["MP", "GP"] as const) {
      score[s].set(
        team,
        list.reduce((sum, r) => sum + roundScore(r, s), 0),
      );
      const adj = list.reduce((sum, r) => {
        const asDraw =
          (isRequestedByeOrAbsence(r) && r.round > lastAvailable) ||
          (practice === "swiss-manager" && r.outcome === "pab");
        return sum + (asDraw ? drawValue({ event, rounds }, s) : roundScore(r, s));
      }, 0);
      adjusted[s].set(team, adj);
    }
  }
  return { rounds, event, rules, practice, score, adjusted };
}

/** The dummy opponent's score for an own unplayed match (§16.4; 2026: capped as for players). */
function dummyValue(ctx: TeamContext, team: number, r: TeamRound, s: PrimaryScore): number {
  const own = ctx.score[s].get(team)!;
  if (ctx.rules !== "fide-2026") return own;
  const cap = r.opponent !== null ? ctx.adjusted[s].get(r.opponent)! : drawValue(ctx, s) * ctx.rounds.rounds;
  return Math.min(own, cap);
}

function items(
  ctx: TeamContext,
  team: number,
  opponentScore: PrimaryScore,
  ownScore: PrimaryScore | null,
): Item[] {
  return ctx.rounds.byTeam.get(team)!.map((r) => {
    const played = isPlayed(r) && r.opponent !== null;
    const value = played
      ? ctx.adjusted[opponentScore].get(r.opponent!)!
      : dummyValue(ctx, team, r, opponentScore);
    const contribution = ownScore === null ? value : value * roundScore(r, ownScore);
    return { value, contribution, voluntary: !played && isVoluntarilyUnplayed(r) };
  });
}

function leastSignificant(list: Item[]): number {
  let least = 0;
  list.forEach((a, i) => {
    const b = list[least]!;
    if (a.value < b.value || (a.value === b.value && a.contribution < b.contribution)) least = i;
  });
  // A voluntarily unplayed match is cut first where that lowers the value more (§16.5).
  let vol = -1;
  list.forEach((a, i) => {
    if (a.voluntary && (vol < 0 || a.contribution < list[vol]!.contribution)) vol = i;
  });
  return vol >= 0 && list[vol]!.contribution >= list[least]!.contribution ? vol : least;
}

function mostSignificant(list: Item[]): number {
  let most = 0;
  list.forEach((a, i) => {
    const b = list[most]!;
    if (a.value > b.value || (a.value === b.value && a.contribution > b.contribution)) most = i;
  });
  return most;
}

function cut(list: Item[], modifier: TeamModifier | null): Item[] {
  const kept = [...list];
  const low = modifier === null ? 0 : Number(modifier[1]);
  const high = modifier === "M1" || modifier === "M2" ? low : 0;
  for (let i = 0; i < low && kept.length > 0; i++) kept.splice(leastSignificant(kept), 1);
  for (let i = 0; i < high && kept.length > 0; i++) kept.splice(mostSignificant(kept), 1);
  return kept;
}

const sum = (list: Item[]) => list.reduce((s, i) => s + i.contribution, 0);

/** SSSC's normalisation factor (§13.4.2): the maximum primary total over the maximum secondary
 * score of one match, rounded down. */
export function normalisationFactor(ctx: TeamContext): number {
  const win = ctx.event.matchPoints.win;
  const { boards, rounds } = ctx.rounds;
  const f = ctx.event.primary === "MP" ? (rounds * win) / boards : (rounds * boards) / win;
  return Math.max(1, Math.floor(f));
}

/** One tie-break's value for a team (EDE is ranked by the standings, not valued here). */
export function teamTiebreakValue(ctx: TeamContext, team: number, tb: TeamTiebreak): number {
  const primary = ctx.event.primary;
  switch (tb.kind) {
    case "MP":
    case "GP":
      return ctx.score[tb.kind].get(team)!;
    case "BH":
      return sum(cut(items(ctx, team, tb.opponentScore!, null), tb.modifier));
    case "ESB":
      return sum(cut(items(ctx, team, tb.opponentScore!, tb.ownScore!), tb.modifier));
    case "SSSC": {
      const secondary = primary === "MP" ? "GP" : "MP";
      const opposition = sum(items(ctx, team, primary, null)) / normalisationFactor(ctx);
      return ctx.score[secondary].get(team)! + Math.round(opposition * 10) / 10;
    }
    case "EDE":
      return 0;
  }
}
