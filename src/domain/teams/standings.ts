// Team standings: the primary score (MP or GP), then the event's team tie-breaks in order, each
// breaking only the ties the ones before it left (EDE ranks inside the tied group). Teams still
// tied share the rank and are listed by team number.
import type { PairingSystem, TiebreakPractice, TiebreakRuleSet, Tournament } from "../types.ts";
import { parseTeamTiebreak, type TeamTiebreak } from "./acronyms.ts";
import { directEncounterPlaces } from "./direct-encounter.ts";
import { teamRounds, type TeamRounds } from "./matches.ts";
import { buildTeamContext, teamTiebreakValue, type TeamContext } from "./tiebreaks.ts";
import type { TeamEvent } from "./types.ts";

export interface TeamStandingRow {
  rank: number;
  teamNumber: number;
  name: string;
  matchPoints: number;
  gamePoints: number;
  /** One value per tie-break of the event, in its order (EDE: the place inside the tied group,
   * null when the team was not tied when EDE was reached). */
  tiebreaks: (number | null)[];
  /** Tied with the row before after every tie-break. */
  tiedWithPrevious: boolean;
}

export interface TeamStandings {
  afterRound: number;
  tiebreaks: string[];
  rows: TeamStandingRow[];
}

export interface TeamStandingsOptions {
  rules: TiebreakRuleSet;
  practice: TiebreakPractice | null;
  system: PairingSystem;
}

function parsed(ev: TeamEvent): TeamTiebreak[] {
  return ev.tiebreaks.map((a) => {
    const p = parseTeamTiebreak(a, ev.primary);
    if (typeof p === "string") throw new Error(`invalid team tie-break reached the domain: ${p}`);
    return p;
  });
}

/** Splits each group by one key (higher first), keeping groups in order. */
function splitBy(groups: number[][], key: (group: number[]) => Map<number, number>): number[][] {
  return groups.flatMap((g) => {
    if (g.length < 2) return [g];
    const values = key(g);
    const distinct = [...new Set(g.map((x) => values.get(x)!))].sort((a, b) => b - a);
    return distinct.map((v) => g.filter((x) => values.get(x) === v));
  });
}

/** Team standings after `afterRound` rounds (the tournament's games, the event's records). */
export function teamStandings(
  t: Tournament,
  ev: TeamEvent,
  afterRound: number,
  o: TeamStandingsOptions,
): TeamStandings {
  const rounds = teamRounds(t, ev, afterRound);
  const ctx = buildTeamContext(rounds, ev, o.rules, o.practice);
  return standingsFrom(ctx, rounds, ev, o.system === "round-robin");
}

export function standingsFrom(
  ctx: TeamContext,
  rounds: TeamRounds,
  ev: TeamEvent,
  roundRobin: boolean,
): TeamStandings {
  const numbers = ev.teams.map((x) => x.teamNumber).sort((a, b) => a - b);
  const tbs = parsed(ev);
  const values = new Map<number, (number | null)[]>(numbers.map((n) => [n, tbs.map(() => null)]));
  let groups = splitBy([numbers], () => ctx.score[ev.primary]);
  tbs.forEach((tb, i) => {
    groups = splitBy(groups, (g) => {
      const out = new Map<number, number>();
      if (tb.kind === "EDE") {
        for (const [x, place] of directEncounterPlaces(g, rounds, ev, roundRobin)) {
          values.get(x)![i] = place;
          out.set(x, -place);
        }
      } else for (const x of g) out.set(x, teamTiebreakValue(ctx, x, tb));
      return out;
    });
    if (tb.kind !== "EDE") for (const x of numbers) values.get(x)![i] = teamTiebreakValue(ctx, x, tb);
  });
  const names = new Map(ev.teams.map((x) => [x.teamNumber, x.name]));
  const rows: TeamStandingRow[] = [];
  let rank = 1;
  for (const g of groups) {
    g.forEach((x, j) =>
      rows.push({
        rank,
        teamNumber: x,
        name: names.get(x)!,
        matchPoints: ctx.score.MP.get(x)!,
        gamePoints: ctx.score.GP.get(x)!,
        tiebreaks: values.get(x)!,
        tiedWithPrevious: j > 0,
      }),
    );
    rank += g.length;
  }
  return { afterRound: rounds.rounds, tiebreaks: [...ev.tiebreaks], rows };
}
