// A team event's rows (store version 5), written with its tournament and replaced whole by a
// re-import whose team records differ: the team rows are few (a team, a member, a bye per row),
// so comparing and rewriting them costs nothing next to the games.
import type { TeamEvent } from "../../domain/teams/types.ts";
import type { SqlValue } from "../read/cells.ts";

type Row = Readonly<Record<string, SqlValue | undefined>>;

/** What this module needs of the StoreWriter (writer.ts calls writeTeamEvent: no import back). */
export interface TeamRowWriter {
  insert(table: TeamTable, row: Row): unknown;
  delete(table: TeamTable, key: Row): unknown;
  select(table: TeamTable, columns: readonly never[], key: Row): Record<string, SqlValue>[];
}

type TeamTable = "team_events" | "teams" | "team_members" | "team_byes" | "team_forfeited_matches";
type Rows = Record<TeamTable, Row[]>;

/** Deleted children first: members, byes and forfeits name teams. */
const TABLES: readonly TeamTable[] = [
  "team_members",
  "team_byes",
  "team_forfeited_matches",
  "teams",
  "team_events",
];

export function teamEventRows(id: number | bigint, ev: TeamEvent): Rows {
  return {
    team_events: [
      {
        tournament_id: id,
        primary_score: ev.primary,
        match_win: ev.matchPoints.win,
        match_draw: ev.matchPoints.draw,
        match_loss: ev.matchPoints.loss,
        pab_match_points: ev.pab?.matchPoints ?? null,
        pab_game_points: ev.pab?.gamePoints ?? null,
        team_tiebreaks: JSON.stringify(ev.tiebreaks),
      },
    ],
    teams: ev.teams.map((t) => ({
      tournament_id: id,
      team_number: t.teamNumber,
      name: t.name,
      short_name: t.shortName,
    })),
    team_members: ev.teams.flatMap((t) =>
      t.members.map((p, i) => ({
        tournament_id: id,
        team_number: t.teamNumber,
        board_order: i + 1,
        source_player_number: p,
      })),
    ),
    team_byes: ev.byes.map((b) => ({
      tournament_id: id,
      round_number: b.round,
      team_number: b.team,
      kind: b.kind,
    })),
    team_forfeited_matches: ev.forfeitedMatches.map((f) => ({
      tournament_id: id,
      round_number: f.round,
      white_team: f.whiteTeam,
      black_team: f.blackTeam,
      result: f.result,
    })),
  };
}

function insertAll(w: TeamRowWriter, table: TeamTable, rows: readonly Row[]): void {
  for (const row of rows) w.insert(table, row);
}

function storedRows(w: TeamRowWriter, table: TeamTable, id: number | bigint, columns: string[]) {
  return w.select(table, columns as never[], { tournament_id: id });
}

export function writeTeamEvent(w: TeamRowWriter, id: number | bigint, ev: TeamEvent): void {
  const rows = teamEventRows(id, ev);
  for (const table of [...TABLES].reverse()) insertAll(w, table, rows[table]);
}

function fingerprint(rows: readonly Record<string, unknown>[]): string {
  return rows
    .map((r) =>
      JSON.stringify(
        Object.keys(r)
          .sort()
          .map((k) => [k, r[k] === null ? null : String(r[k])]),
      ),
    )
    .sort()
    .join("\n");
}

/** Replaces the stored team rows when they differ from the event's; true when they did. A file
 * without team records leaves stored team rows as they are (like the tournament's other columns). */
export function replaceTeamEvent(
  w: TeamRowWriter,
  id: number | bigint,
  ev: TeamEvent | null | undefined,
): boolean {
  if (!ev) return false;
  const wanted = teamEventRows(id, ev);
  const same = TABLES.every((table) => {
    const columns = Object.keys(wanted[table][0] ?? { tournament_id: id });
    const stored = storedRows(w, table, id, columns);
    return fingerprint(stored) === fingerprint(wanted[table] as Record<string, unknown>[]);
  });
  if (same) return false;
  for (const table of TABLES) w.delete(table, { tournament_id: id });
  writeTeamEvent(w, id, ev);
  return true;
}
