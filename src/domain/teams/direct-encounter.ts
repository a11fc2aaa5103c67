// Extended direct encounter for teams, EDE (C.07 §13.3, as the TEC booklet's exercises 42-45 apply
// it): the tied teams are ranked by the matches among them only, first on the primary score; a
// team whose place no missing match could change is placed (a Swiss leaves gaps); when that
// separates nobody, the secondary score is tried. A group that splits is worked again on its
// own, on the score that split it, until nothing separates.
import type { TeamRounds } from "./matches.ts";
import type { PrimaryScore, TeamEvent } from "./types.ts";

interface MiniTable {
  score: Map<number, number>;
  /** Teams of the group each team has not met (a match among them that is missing). */
  missing: Map<number, number>;
}

function miniTable(
  group: readonly number[],
  rounds: TeamRounds,
  s: PrimaryScore,
  roundRobin: boolean,
): MiniTable {
  const inGroup = new Set(group);
  const score = new Map<number, number>();
  const missing = new Map<number, number>();
  for (const team of group) {
    const met = new Set<number>();
    let total = 0;
    for (const r of rounds.byTeam.get(team)!) {
      if (r.opponent === null || !inGroup.has(r.opponent)) continue;
      // In a Swiss, unplayed matches are ignored; with predetermined pairings they count.
      const forfeit = r.outcome === "forfeitWin" || r.outcome === "forfeitLoss";
      if ((forfeit && !roundRobin) || r.outcome === "pending") continue;
      met.add(r.opponent);
      total += s === "MP" ? r.matchPoints : r.gamePoints;
    }
    score.set(team, total);
    missing.set(team, group.length - 1 - met.size);
  }
  return { score, missing };
}

/** Splits a group into ordered subgroups by the mini table, or returns it whole. */
function split(group: readonly number[], t: MiniTable, best: number): number[][] {
  const complete = group.every((x) => t.missing.get(x) === 0);
  if (complete) {
    const values = [...new Set(group.map((x) => t.score.get(x)!))].sort((a, b) => b - a);
    return values.map((v) => group.filter((x) => t.score.get(x) === v));
  }
  // With gaps, a team is placed only when its lowest possible score beats every other's highest.
  const out: number[][] = [];
  let rest = [...group];
  for (;;) {
    const max = (x: number) => t.score.get(x)! + best * t.missing.get(x)!;
    const first = rest.find((x) => rest.every((y) => y === x || t.score.get(x)! > max(y)));
    if (first === undefined || rest.length < 2) break;
    out.push([first]);
    rest = rest.filter((x) => x !== first);
  }
  return rest.length > 0 ? [...out, rest] : out;
}

/** Places inside the group (1 = first; teams EDE cannot separate share a place). */
export function directEncounterPlaces(
  group: readonly number[],
  rounds: TeamRounds,
  ev: TeamEvent,
  roundRobin: boolean,
): Map<number, number> {
  const out = new Map<number, number>();
  const best = (s: PrimaryScore) => (s === "MP" ? ev.matchPoints.win : rounds.boards);
  const secondary: PrimaryScore = ev.primary === "MP" ? "GP" : "MP";
  const place = (teams: readonly number[], from: number, scores: PrimaryScore[]): void => {
    for (const [i, s] of scores.entries()) {
      const parts = split(teams, miniTable(teams, rounds, s, roundRobin), best(s));
      if (parts.length < 2) continue;
      let at = from;
      for (const part of parts) {
        if (part.length === 1) out.set(part[0]!, at);
        else place(part, at, scores.slice(i));
        at += part.length;
      }
      return;
    }
    for (const x of teams) out.set(x, from);
  };
  place(group, 1, [ev.primary, secondary]);
  return out;
}
