// A team event's rows (store version 5: team_events, teams, team_members, team_byes,
// team_forfeited_matches), checked cell by cell and assembled into the domain's TeamEvent. Every
// reference is checked: members are players of the tournament, each in one team; byes and
// forfeited matches name teams of the event and rounds within total_rounds.
import type { Problem } from "../../shared/errors.ts";
import { validateTeamTiebreaks } from "../../domain/teams/acronyms.ts";
import type { ForfeitedMatch, Team, TeamBye, TeamEvent } from "../../domain/teams/types.ts";
import { MAX_PLAYERS, MAX_POINTS, MAX_POINTS_PER_GAME, MAX_ROUND, MAX_TIEBREAK_COLUMNS } from "../limits.ts";
import { MAX_NAME_LENGTH } from "../limits.ts";
import { RowCheck } from "./cells.ts";
import type { SqlCells, SqlRow } from "./cells.ts";

/** The team event's rows of one tournament (store version 5; none for an individual event). */
export interface TeamRows {
  teamEvent: SqlRow[];
  teams: SqlCells[];
  teamMembers: SqlCells[];
  teamByes: SqlCells[];
  teamForfeits: SqlCells[];
}

const TEAM_NUMBER = { min: 1, max: 99_999 };
const BOARD = { min: 1, max: 99 };
const ROUND_NUMBER = { min: 1, max: MAX_ROUND };
const BYE_KINDS = ["pab", "full", "half", "zero"] as const;
const FORFEIT_RESULTS = ["+-", "-+", "--"] as const;

function readTeams(file: string, rows: TeamRows, players: ReadonlySet<number>, problems: Problem[]): Team[] {
  if (rows.teams.length > MAX_PLAYERS) {
    problems.push({
      where: `${file}: table teams`,
      what: `the tournament has more than ${MAX_PLAYERS} teams`,
      fix: "remove the extra rows",
    });
    return [];
  }
  const teams = new Map<number, Team>();
  for (const row of rows.teams) {
    const c = new RowCheck(file, "teams", row, ["tournament_id", "team_number"], problems);
    const teamNumber = c.int32("team_number", TEAM_NUMBER);
    teams.set(teamNumber, {
      teamNumber,
      name: c.text("name"),
      shortName: c.optText("short_name"),
      members: [],
    });
  }
  const memberOf = new Map<number, number>();
  for (const row of rows.teamMembers) {
    const c = new RowCheck(
      file,
      "team_members",
      row,
      ["tournament_id", "team_number", "board_order"],
      problems,
    );
    const teamNumber = c.int32("team_number", TEAM_NUMBER);
    c.int32("board_order", BOARD);
    const player = c.int32("source_player_number", { min: 1 });
    const team = teams.get(teamNumber);
    if (!c.ok) continue;
    if (!team)
      c.report("team_number", `team ${teamNumber} has no teams row`, "add the team or remove the member");
    else if (!players.has(player))
      c.report(
        "source_player_number",
        `player ${player} has no players row`,
        "add the player or remove the member",
      );
    else if (memberOf.has(player))
      c.report(
        "source_player_number",
        `player ${player} is also in team ${memberOf.get(player)}`,
        "keep one team per player",
      );
    else {
      memberOf.set(player, teamNumber);
      team.members.push(player); // ordered by board_order (queries.ts)
    }
  }
  return [...teams.values()];
}

function readByes(file: string, rows: TeamRows, teams: ReadonlySet<number>, problems: Problem[]): TeamBye[] {
  return rows.teamByes.flatMap((row) => {
    const c = new RowCheck(
      file,
      "team_byes",
      row,
      ["tournament_id", "round_number", "team_number"],
      problems,
    );
    const bye = {
      round: c.int32("round_number", ROUND_NUMBER),
      team: c.int32("team_number", TEAM_NUMBER),
      kind: c.choice("kind", BYE_KINDS),
    };
    if (c.ok && !teams.has(bye.team))
      c.report("team_number", `team ${bye.team} has no teams row`, "name a team of the event");
    return c.ok ? [bye] : [];
  });
}

function readForfeits(
  file: string,
  rows: TeamRows,
  teams: ReadonlySet<number>,
  problems: Problem[],
): ForfeitedMatch[] {
  return rows.teamForfeits.flatMap((row) => {
    const c = new RowCheck(
      file,
      "team_forfeited_matches",
      row,
      ["tournament_id", "round_number", "white_team"],
      problems,
    );
    const f: ForfeitedMatch = {
      round: c.int32("round_number", ROUND_NUMBER),
      whiteTeam: c.int32("white_team", TEAM_NUMBER),
      blackTeam: c.int32("black_team", TEAM_NUMBER),
      result: c.choice("result", FORFEIT_RESULTS),
    };
    for (const [column, team] of [
      ["white_team", f.whiteTeam],
      ["black_team", f.blackTeam],
    ] as const) {
      if (c.ok && !teams.has(team))
        c.report(column, `team ${team} has no teams row`, "name a team of the event");
    }
    return c.ok ? [f] : [];
  });
}

/** The tournament's team event, or null when it has no team_events row (an individual event). */
export function readTeamEvent(
  file: string,
  rows: TeamRows,
  players: ReadonlySet<number>,
  totalRounds: number | null,
  problems: Problem[],
): TeamEvent | null {
  const row = rows.teamEvent[0];
  if (row === undefined) return null;
  const c = new RowCheck(file, "team_events", row, ["tournament_id"], problems);
  const primary = c.choice("primary_score", ["MP", "GP"] as const);
  const matchPoints = {
    win: c.real("match_win", MAX_POINTS_PER_GAME),
    draw: c.real("match_draw", MAX_POINTS_PER_GAME),
    loss: c.real("match_loss", MAX_POINTS_PER_GAME),
  };
  const pabMp = c.optReal("pab_match_points", MAX_POINTS_PER_GAME);
  const pabGp = c.optReal("pab_game_points", MAX_POINTS);
  const tiebreaks = c.jsonStrings("team_tiebreaks", MAX_TIEBREAK_COLUMNS, MAX_NAME_LENGTH);
  for (const what of c.ok ? validateTeamTiebreaks(tiebreaks, primary) : []) {
    c.report("team_tiebreaks", what, 'list C.07 team acronyms, e.g. ["BH:MP", "EMGSB/C1"]');
  }
  const teams = readTeams(file, rows, players, problems);
  const numbers = new Set(teams.map((t) => t.teamNumber));
  const byes = readByes(file, rows, numbers, problems);
  const forfeitedMatches = readForfeits(file, rows, numbers, problems);
  const late = [...byes, ...forfeitedMatches].find((x) => totalRounds !== null && x.round > totalRounds);
  if (late) {
    problems.push({
      where: `${file}: team event of tournament row ${String(row["tournament_id"])}`,
      what: `a team bye or forfeited match in round ${late.round}, beyond total_rounds ${totalRounds}`,
      fix: "correct the round number or raise total_rounds",
    });
  }
  const pab = pabMp === null || pabGp === null ? null : { matchPoints: pabMp, gamePoints: pabGp };
  return { teams, matchPoints, pab, byes, forfeitedMatches, primary, tiebreaks };
}
