// Extensions for team events (issue 46): team standings (current and after each round), the
// teams with their rosters and board results, and the matches of each round. Published only for
// a tournament that is a team event; marked as extensions in OpenAPI like every extension.
import { z } from "zod";
import { colour, roundOutcome } from "./extensions.ts";
import { contracts, double, int32, int64 } from "./wire.ts";

/** How a round went for a team (domain/teams/matches.ts TeamOutcome). */
export const teamOutcome = z.enum([
  "win",
  "draw",
  "loss",
  "forfeitWin",
  "forfeitLoss",
  "pab",
  "fullBye",
  "halfBye",
  "zeroBye",
  "absent",
  "pending",
]);

export const TeamStandingRow = z
  .strictObject({
    rank: int32,
    teamNumber: int32,
    name: z.string(),
    matchPoints: double,
    gamePoints: double,
    tieBreakValues: z.array(z.string()),
    tiedWithPrevious: z.boolean(),
  })
  .register(contracts, {
    id: "TeamStandingRow",
    description: "Extension: one team of a team standings table.",
  });

export const TeamStandingsResponse = z
  .strictObject({
    tournamentId: int64,
    afterRound: int32.nullable(),
    primaryScore: z.enum(["MP", "GP"]),
    tieBreakLabels: z.array(z.string()),
    rows: z.array(TeamStandingRow),
  })
  .register(contracts, {
    id: "TeamStandingsResponse",
    description:
      "Extension: team standings after round afterRound (null: no complete round yet), ranked by " +
      "the primary score (match or game points) and the event's team tie-breaks (FIDE C.07).",
  });

export const TeamBoard = z
  .strictObject({
    board: int32,
    sourcePlayerNumber: int32,
    name: z.string(),
    opponent: int32.nullable(),
    colour: colour.nullable(),
    outcome: roundOutcome,
    points: double,
  })
  .register(contracts, {
    id: "TeamBoard",
    description: "Extension: one board of a team match, from the team's side.",
  });

export const TeamRound = z
  .strictObject({
    round: int32,
    outcome: teamOutcome,
    opponentTeam: int32.nullable(),
    colour: colour.nullable(),
    matchPoints: double,
    gamePoints: double,
    opponentGamePoints: double.nullable(),
    boards: z.array(TeamBoard),
  })
  .register(contracts, {
    id: "TeamRound",
    description: "Extension: one round of a team: its match, bye or forfeit.",
  });

export const TeamMember = z
  .strictObject({ boardOrder: int32, sourcePlayerNumber: int32, name: z.string(), rating: int32.nullable() })
  .register(contracts, { id: "TeamMember", description: "Extension: a member of a team, in board order." });

export const TeamResponse = z
  .strictObject({
    teamNumber: int32,
    name: z.string(),
    shortName: z.string().nullable(),
    members: z.array(TeamMember),
    rounds: z.array(TeamRound),
  })
  .register(contracts, { id: "TeamResponse", description: "Extension: a team, its roster and its rounds." });

export const TeamsResponse = z
  .strictObject({ tournamentId: int64, teams: z.array(TeamResponse) })
  .register(contracts, {
    id: "TeamsResponse",
    description: "Extension: every team of a team event with its roster (board order) and board results.",
  });

export const TeamMatch = z
  .strictObject({
    whiteTeam: int32,
    blackTeam: int32,
    whiteGamePoints: double,
    blackGamePoints: double,
    forfeit: z.enum(["+-", "-+", "--"]).nullable(),
    complete: z.boolean(),
    boards: z.array(TeamBoard),
  })
  .register(contracts, {
    id: "TeamMatch",
    description:
      "Extension: a match; boards from the first-named (white) team's side, empty for a forfeited match.",
  });

export const TeamMatchesResponse = z
  .strictObject({ tournamentId: int64, round: int32, matches: z.array(TeamMatch) })
  .register(contracts, {
    id: "TeamMatchesResponse",
    description: "Extension: the team matches of one round.",
  });

export const TeamMemberRound = z
  .strictObject({
    round: int32,
    board: int32,
    opponent: int32.nullable(),
    colour: colour.nullable(),
    outcome: roundOutcome,
    points: double,
  })
  .register(contracts, {
    id: "TeamMemberRound",
    description: "Extension: a member's board in one round of the team's match, from the member's side.",
  });

export const TeamRosterMember = z
  .strictObject({
    boardOrder: int32,
    sourcePlayerNumber: int32,
    name: z.string(),
    rating: int32.nullable(),
    points: double,
    rounds: z.array(TeamMemberRound),
  })
  .register(contracts, {
    id: "TeamRosterMember",
    description: "Extension: a member of a team, in board order, with the boards played round by round.",
  });

export const TeamDetailResponse = z
  .strictObject({
    tournamentId: int64,
    teamNumber: int32,
    name: z.string(),
    shortName: z.string().nullable(),
    afterRound: int32.nullable(),
    primaryScore: z.enum(["MP", "GP"]),
    tieBreakLabels: z.array(z.string()),
    standing: TeamStandingRow.nullable(),
    members: z.array(TeamRosterMember),
    rounds: z.array(TeamRound),
  })
  .register(contracts, {
    id: "TeamDetailResponse",
    description:
      "Extension: one team of a team event: its row of the team standings after round afterRound " +
      "(null: no complete round yet), its roster in board order with each member's boards, and " +
      "its matches, byes and forfeits round by round.",
  });
