// Team matches from board games. In a round, a team's fielded members face members of one other
// team: those games are the match, its boards in the order of the first-named ("white") team's
// list, which is the team that has white on the first board. A team without such games that
// round has a bye (TRF 320 / 240), a forfeited match (330), or was absent. Match and game points
// follow C.07 and the TEC booklet: a pairing-allocated bye at the event's PAB values, a requested
// full / half / zero bye as a win / draw / loss with all / half / none of the boards' game points,
// a forfeited match as a win with every board, and no board points of a bye team added again.
import { playerRounds, standardPoints, type RoundEntry, type RoundOutcome } from "../scoring.ts";
import type { Tournament } from "../types.ts";
import type { ForfeitedMatch, Team, TeamByeKind, TeamEvent } from "./types.ts";

/** A team's round reads like a player's: the same outcomes, "absent" and "pending" included. */
export type TeamOutcome = RoundOutcome;

/** One board of a match, seen from the team. */
export interface BoardResult {
  board: number;
  player: number;
  /** The opposing player; null when the board was won or lost against an empty board. */
  opponent: number | null;
  colour: "w" | "b" | null;
  outcome: RoundOutcome;
  /** The board's game points on the 1 / ½ / 0 scale. */
  points: number;
}

/** What a team did in one round. */
export interface TeamRound {
  round: number;
  outcome: TeamOutcome;
  opponent: number | null;
  /** "w": the first-named team of the match (white on board 1). */
  colour: "w" | "b" | null;
  matchPoints: number;
  gamePoints: number;
  opponentGamePoints: number | null;
  /** Empty for byes, absences and forfeited matches. */
  boards: BoardResult[];
}

/** One match of a round, as published: the first-named team and its opponent. */
export interface TeamMatch {
  round: number;
  whiteTeam: number;
  blackTeam: number;
  whiteGamePoints: number;
  blackGamePoints: number;
  /** The white team's rows, by board. */
  boards: BoardResult[];
  /** Set for a match decided without play (TRF 330). */
  forfeit: ForfeitedMatch["result"] | null;
  complete: boolean;
}

const BYE_OUTCOME: Record<TeamByeKind, TeamOutcome> = {
  pab: "pab",
  full: "fullBye",
  half: "halfBye",
  zero: "zeroBye",
};

export interface TeamRounds {
  /** Team number → one entry per round 1..rounds. */
  byTeam: Map<number, TeamRound[]>;
  matches: TeamMatch[];
  /** Boards per match: the most games any match of the event had (4 when none was played yet). */
  boards: number;
  rounds: number;
}

/** Team of each member's start number. */
export function teamOfPlayer(teams: readonly Team[]): Map<number, number> {
  const out = new Map<number, number>();
  for (const t of teams) for (const p of t.members) out.set(p, t.teamNumber);
  return out;
}

interface RawMatch {
  teams: [number, number];
  pairs: { a: RoundEntry & { player: number }; b: RoundEntry & { player: number } }[];
}

/** Games between members of two different teams, grouped by the pair of teams. */
function rawMatches(
  round: number,
  entries: ReadonlyMap<number, RoundEntry[]>,
  teamOf: ReadonlyMap<number, number>,
): Map<string, RawMatch> {
  const out = new Map<string, RawMatch>();
  for (const [player, list] of entries) {
    const e = list[round - 1];
    if (!e || e.opponent === null || player > e.opponent) continue;
    const ta = teamOf.get(player);
    const tb = teamOf.get(e.opponent);
    if (ta === undefined || tb === undefined || ta === tb) continue;
    const other = entries.get(e.opponent)?.[round - 1];
    if (!other) continue;
    const [lo, hi] = ta < tb ? [ta, tb] : [tb, ta];
    const key = `${lo}:${hi}`;
    const m = out.get(key) ?? { teams: [lo, hi] as [number, number], pairs: [] };
    const a = { ...e, player };
    const b = { ...other, player: e.opponent };
    m.pairs.push(ta === lo ? { a, b } : { a: b, b: a });
    out.set(key, m);
  }
  return out;
}

function boardOf(e: RoundEntry & { player: number }, board: number): BoardResult {
  return {
    board,
    player: e.player,
    opponent: e.opponent,
    colour: e.colour,
    outcome: e.outcome,
    points: standardPoints(e.outcome),
  };
}

function matchOutcome(own: number, other: number, complete: boolean): TeamOutcome {
  if (!complete) return "pending";
  return own > other ? "win" : own < other ? "loss" : "draw";
}

function matchPointsOf(outcome: TeamOutcome, ev: TeamEvent, boards: number): [number, number] {
  const mp = ev.matchPoints;
  switch (outcome) {
    case "win":
    case "forfeitWin":
    case "fullBye":
      return [mp.win, outcome === "win" ? 0 : boards];
    case "draw":
      return [mp.draw, 0];
    case "halfBye":
      return [mp.draw, boards / 2];
    case "pab":
      return ev.pab ? [ev.pab.matchPoints, ev.pab.gamePoints] : [mp.win, boards];
    case "loss":
    case "forfeitLoss":
    case "zeroBye":
    case "absent":
      return [mp.loss, 0];
    case "pending":
      return [0, 0];
  }
}

/** A board won or lost against an empty board: the member's unpaired round in a match round. */
function emptyBoardResults(
  team: Team,
  round: number,
  entries: ReadonlyMap<number, RoundEntry[]>,
  taken: Set<number>,
) {
  const out: (RoundEntry & { player: number })[] = [];
  for (const p of team.members) {
    const e = entries.get(p)?.[round - 1];
    if (!e || taken.has(p) || e.opponent !== null) continue;
    if (standardPoints(e.outcome) > 0) out.push({ ...e, player: p });
  }
  return out;
}

function playedRound(
  ev: TeamEvent,
  m: RawMatch,
  round: number,
  entries: ReadonlyMap<number, RoundEntry[]>,
  teams: ReadonlyMap<number, Team>,
): { match: TeamMatch; rows: [number, TeamRound][] } {
  const [lo, hi] = m.teams;
  const rank = (t: number, p: number) => teams.get(t)!.members.indexOf(p);
  const pairs = [...m.pairs].sort((x, y) => rank(lo, x.a.player) - rank(lo, y.a.player));
  const white = pairs[0]!.a.colour === "w" ? lo : hi;
  const side = (t: number) => pairs.map((p) => (t === lo ? p.a : p.b));
  const byWhite = white === lo ? pairs : pairs.map((p) => ({ a: p.b, b: p.a }));
  byWhite.sort((x, y) => rank(white, x.a.player) - rank(white, y.a.player));
  const complete = pairs.every((p) => p.a.outcome !== "pending");
  const rows: [number, TeamRound][] = [];
  const gp = new Map<number, number>();
  const extra = new Map<number, (RoundEntry & { player: number })[]>();
  for (const t of [lo, hi]) {
    const own = side(t);
    const empties = emptyBoardResults(teams.get(t)!, round, entries, new Set(own.map((e) => e.player)));
    extra.set(t, empties);
    gp.set(
      t,
      [...own, ...empties].reduce((s, e) => s + standardPoints(e.outcome), 0),
    );
  }
  for (const t of [lo, hi]) {
    const other = t === lo ? hi : lo;
    const outcome = matchOutcome(gp.get(t)!, gp.get(other)!, complete);
    const own = (t === white ? byWhite.map((p) => p.a) : byWhite.map((p) => p.b)).concat(extra.get(t)!);
    rows.push([
      t,
      {
        round,
        outcome,
        opponent: other,
        colour: t === white ? "w" : "b",
        matchPoints: matchPointsOf(outcome, ev, 0)[0],
        gamePoints: gp.get(t)!,
        opponentGamePoints: gp.get(other)!,
        boards: own.map((e, i) => boardOf(e, i + 1)),
      },
    ]);
  }
  const black = white === lo ? hi : lo;
  const match: TeamMatch = {
    round,
    whiteTeam: white,
    blackTeam: black,
    whiteGamePoints: gp.get(white)!,
    blackGamePoints: gp.get(black)!,
    boards: rows.find(([t]) => t === white)![1].boards,
    forfeit: null,
    complete,
  };
  return { match, rows };
}

function unplayedRound(
  ev: TeamEvent,
  round: number,
  outcome: TeamOutcome,
  boards: number,
  against: { opponent: number; colour: "w" | "b"; opponentGamePoints: number } | null = null,
): TeamRound {
  const [matchPoints, gamePoints] = matchPointsOf(outcome, ev, boards);
  return {
    round,
    outcome,
    opponent: against?.opponent ?? null,
    colour: against?.colour ?? null,
    matchPoints,
    gamePoints,
    opponentGamePoints: against?.opponentGamePoints ?? null,
    boards: [],
  };
}

function forfeitOutcomes(f: ForfeitedMatch): [TeamOutcome, TeamOutcome] {
  if (f.result === "+-") return ["forfeitWin", "forfeitLoss"];
  if (f.result === "-+") return ["forfeitLoss", "forfeitWin"];
  return ["forfeitLoss", "forfeitLoss"];
}

/** Every team's rounds 1..rounds and every match, from the games and the event's records. */
export function teamRounds(t: Tournament, ev: TeamEvent, rounds: number): TeamRounds {
  const entries = playerRounds(t, rounds);
  const teamOf = teamOfPlayer(ev.teams);
  const teams = new Map(ev.teams.map((x) => [x.teamNumber, x]));
  const perRound = Array.from({ length: rounds }, (_, i) => rawMatches(i + 1, entries, teamOf));
  const boards = Math.max(0, ...perRound.flatMap((r) => [...r.values()].map((m) => m.pairs.length))) || 4;
  const byTeam = new Map<number, TeamRound[]>(ev.teams.map((x) => [x.teamNumber, []]));
  const matches: TeamMatch[] = [];
  for (let r = 1; r <= rounds; r++) {
    const done = new Map<number, TeamRound>();
    for (const m of perRound[r - 1]!.values()) {
      const { match, rows } = playedRound(ev, m, r, entries, teams);
      matches.push(match);
      for (const [team, row] of rows) done.set(team, row);
    }
    for (const f of ev.forfeitedMatches.filter((x) => x.round === r)) {
      const [w, b] = forfeitOutcomes(f);
      const gp = (o: TeamOutcome) => matchPointsOf(o, ev, boards)[1];
      const asWhite = { opponent: f.blackTeam, colour: "w" as const, opponentGamePoints: gp(b) };
      const asBlack = { opponent: f.whiteTeam, colour: "b" as const, opponentGamePoints: gp(w) };
      done.set(f.whiteTeam, unplayedRound(ev, r, w, boards, asWhite));
      done.set(f.blackTeam, unplayedRound(ev, r, b, boards, asBlack));
      matches.push({
        round: r,
        whiteTeam: f.whiteTeam,
        blackTeam: f.blackTeam,
        whiteGamePoints: done.get(f.whiteTeam)!.gamePoints,
        blackGamePoints: done.get(f.blackTeam)!.gamePoints,
        boards: [],
        forfeit: f.result,
        complete: true,
      });
    }
    for (const bye of ev.byes.filter((x) => x.round === r)) {
      if (!done.has(bye.team)) done.set(bye.team, unplayedRound(ev, r, BYE_OUTCOME[bye.kind], boards));
    }
    for (const team of ev.teams) {
      const row = done.get(team.teamNumber) ?? unplayedRound(ev, r, "absent", boards);
      byTeam.get(team.teamNumber)!.push(row);
    }
  }
  matches.sort(
    (a, b) => a.round - b.round || Math.min(a.whiteTeam, a.blackTeam) - Math.min(b.whiteTeam, b.blackTeam),
  );
  return { byTeam, matches, boards, rounds };
}
