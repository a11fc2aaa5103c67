// Domain → team extension responses (contracts/teams.ts), for a tournament that is a team event:
// computed once per context and shared by the public and club routes. A tournament without a team
// event has none of these views (teamViews returns null) and none of the team files.
import type { z } from "zod";
import type {
  TeamBoard,
  TeamDetailResponse,
  TeamMatchesResponse,
  TeamsResponse,
  TeamStandingsResponse,
} from "../contracts/teams.ts";
import { toInt64 } from "../contracts/wire.ts";
import { teamRounds, type BoardResult, type TeamRounds } from "../domain/teams/matches.ts";
import { standingsFrom, type TeamStandings } from "../domain/teams/standings.ts";
import { buildTeamContext } from "../domain/teams/tiebreaks.ts";
import { formatTiebreakValue, newestCompleteRound } from "../domain/standings.ts";
import type { TeamEvent } from "../domain/teams/types.ts";
import type { TournamentContext } from "./context.ts";

type Out<S extends z.ZodType> = z.output<S>;
export type TeamStandingsView = Out<typeof TeamStandingsResponse>;
export type TeamsView = Out<typeof TeamsResponse>;
export type TeamMatchesView = Out<typeof TeamMatchesResponse>;
export type TeamDetailView = Out<typeof TeamDetailResponse>;

export interface TeamViews {
  /** After the newest complete round. */
  standings: TeamStandingsView;
  /** After each complete round 1..n. */
  afterEachRound: TeamStandingsView[];
  teams: TeamsView;
  /** One per paired round. */
  matches: TeamMatchesView[];
  /** One per team, in the teams' order. */
  perTeam: TeamDetailView[];
}

const memo = new WeakMap<TournamentContext, TeamViews | null>();

function standingsAfter(c: TournamentContext, ev: TeamEvent, round: number): TeamStandings {
  const rounds = teamRounds(c.t, ev, round);
  const ctx = buildTeamContext(rounds, ev, c.t.tiebreakRules, c.t.tiebreakPractice);
  return standingsFrom(ctx, rounds, ev, c.t.system === "round-robin");
}

function standingsView(c: TournamentContext, ev: TeamEvent, s: TeamStandings | null): TeamStandingsView {
  return {
    tournamentId: toInt64(c.t.externalId),
    afterRound: s?.afterRound ?? null,
    primaryScore: ev.primary,
    tieBreakLabels: [...ev.tiebreaks],
    rows: (s?.rows ?? []).map((r) => ({
      rank: r.rank,
      teamNumber: r.teamNumber,
      name: r.name,
      matchPoints: r.matchPoints,
      gamePoints: r.gamePoints,
      tieBreakValues: r.tiebreaks.map(formatTiebreakValue),
      tiedWithPrevious: r.tiedWithPrevious,
    })),
  };
}

function boardView(c: TournamentContext, b: BoardResult): Out<typeof TeamBoard> {
  return {
    board: b.board,
    sourcePlayerNumber: b.player,
    name: c.players.get(b.player)?.name ?? "",
    opponent: b.opponent,
    colour: b.colour === "w" ? "white" : b.colour === "b" ? "black" : null,
    outcome: b.outcome,
    points: b.points,
  };
}

function teamsView(c: TournamentContext, ev: TeamEvent, rounds: TeamRounds): TeamsView {
  return {
    tournamentId: toInt64(c.t.externalId),
    teams: ev.teams.map((team) => ({
      teamNumber: team.teamNumber,
      name: team.name,
      shortName: team.shortName,
      members: team.members.map((p, i) => ({
        boardOrder: i + 1,
        sourcePlayerNumber: p,
        name: c.players.get(p)?.name ?? "",
        rating: c.players.get(p)?.rating ?? null,
      })),
      rounds: (rounds.byTeam.get(team.teamNumber) ?? []).map((r) => ({
        round: r.round,
        outcome: r.outcome,
        opponentTeam: r.opponent,
        colour: r.colour === "w" ? "white" : r.colour === "b" ? "black" : null,
        matchPoints: r.matchPoints,
        gamePoints: r.gamePoints,
        opponentGamePoints: r.opponentGamePoints,
        boards: r.boards.map((b) => boardView(c, b)),
      })),
    })),
  };
}

function matchesViews(c: TournamentContext, rounds: TeamRounds): TeamMatchesView[] {
  return c.pairedRounds.map((round) => ({
    tournamentId: toInt64(c.t.externalId),
    round: round.roundNumber,
    matches: rounds.matches
      .filter((m) => m.round === round.roundNumber)
      .map((m) => ({
        whiteTeam: m.whiteTeam,
        blackTeam: m.blackTeam,
        whiteGamePoints: m.whiteGamePoints,
        blackGamePoints: m.blackGamePoints,
        forfeit: m.forfeit,
        complete: m.complete,
        boards: m.boards.map((b) => boardView(c, b)),
      })),
  }));
}

/** One team: its standings row, its roster with each member's boards by round, its rounds. */
function teamDetail(standings: TeamStandingsView, team: TeamsView["teams"][number]): TeamDetailView {
  const boards = new Map<number, TeamDetailView["members"][number]["rounds"]>();
  for (const r of team.rounds)
    for (const b of r.boards) {
      const { board, opponent, colour, outcome, points } = b;
      const list = boards.get(b.sourcePlayerNumber) ?? [];
      list.push({ round: r.round, board, opponent, colour, outcome, points });
      boards.set(b.sourcePlayerNumber, list);
    }
  return {
    tournamentId: standings.tournamentId,
    teamNumber: team.teamNumber,
    name: team.name,
    shortName: team.shortName,
    afterRound: standings.afterRound,
    primaryScore: standings.primaryScore,
    tieBreakLabels: standings.tieBreakLabels,
    standing: standings.rows.find((r) => r.teamNumber === team.teamNumber) ?? null,
    members: team.members.map((m) => {
      const rounds = boards.get(m.sourcePlayerNumber) ?? [];
      return { ...m, points: rounds.reduce((n, b) => n + b.points, 0), rounds };
    }),
    rounds: team.rounds,
  };
}

/** The team views of a tournament; null when it is not a team event. */
export function teamViews(c: TournamentContext): TeamViews | null {
  if (memo.has(c)) return memo.get(c)!;
  const ev = c.t.team ?? null;
  let views: TeamViews | null = null;
  if (ev) {
    const last = c.pairedRounds.at(-1)?.roundNumber ?? 0;
    const complete = newestCompleteRound(c.t);
    const afterEachRound = Array.from({ length: complete ?? 0 }, (_, i) =>
      standingsView(c, ev, standingsAfter(c, ev, i + 1)),
    );
    const rounds = teamRounds(c.t, ev, last);
    const standings = afterEachRound.at(-1) ?? standingsView(c, ev, null);
    const teams = teamsView(c, ev, rounds);
    views = {
      standings,
      afterEachRound,
      teams,
      matches: matchesViews(c, rounds),
      perTeam: teams.teams.map((team) => teamDetail(standings, team)),
    };
  }
  memo.set(c, views);
  return views;
}
