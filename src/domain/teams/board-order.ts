// Swiss-Manager's individual ranking of a team event (`--practice swiss-manager`), which is not an
// order by points and the event's tie-breaks: points, then the share of points over the rounds the
// player was lined up, then the place in the team list (board), then the event's first individual
// tie-break, then the starting rank. docs/design/team-events.md gives the evidence (all 47 ranks
// of the shared Eschlkam event) and what it leaves open.
import type { RoundEntry } from "../scoring.ts";
import type { TeamEvent } from "./types.ts";

/** What the order reads of a player beyond points and tie-breaks. */
export interface BoardOrderKey {
  /** Points over the rounds lined up; null: never lined up (ranks after every share). */
  share: number | null;
  /** 1-based place in the team's list; players of no team after every board. */
  board: number;
}

/**
 * Whether the player was lined up in the round: a board of the match, played or not, and a team
 * bye's pairing-allocated bye (Swiss-Manager's `U`), which it counts. A round the player was not
 * fielded (a zero-point bye or no game at all) is not counted.
 */
export function linedUp(e: RoundEntry): boolean {
  return e.outcome !== "zeroBye" && e.outcome !== "absent" && e.outcome !== "pending";
}

/** Points over the rounds lined up (null when none). */
export function shareOfPoints(entries: readonly RoundEntry[]): number | null {
  let rounds = 0;
  let points = 0;
  for (const e of entries) {
    if (!linedUp(e)) continue;
    rounds++;
    points += e.points;
  }
  return rounds === 0 ? null : points / rounds;
}

/** Each team member's place in the team list, 1-based, by start number. */
export function boardsOf(team: TeamEvent): Map<number, number> {
  const boards = new Map<number, number>();
  for (const t of team.teams) t.members.forEach((player, i) => boards.set(player, i + 1));
  return boards;
}

/** The order's keys of every player whose entries are given. */
export function boardOrderKeys(
  team: TeamEvent,
  entries: ReadonlyMap<number, readonly RoundEntry[]>,
): Map<number, BoardOrderKey> {
  const boards = boardsOf(team);
  const keys = new Map<number, BoardOrderKey>();
  for (const [player, list] of entries) {
    keys.set(player, { share: shareOfPoints(list), board: boards.get(player) ?? Number.POSITIVE_INFINITY });
  }
  return keys;
}

/** Share higher first (none last), then board lower first; 0 when both are equal. */
export function compareBoardOrder(a: BoardOrderKey, b: BoardOrderKey): number {
  if (a.share !== b.share) {
    if (a.share === null) return 1;
    if (b.share === null) return -1;
    if (Math.abs(a.share - b.share) > 1e-9) return b.share - a.share;
  }
  if (a.board !== b.board) return a.board < b.board ? -1 : 1;
  return 0;
}

/** Whether the tournament's individual standings follow this order. */
export function followsBoardOrder(
  team: TeamEvent | null | undefined,
  practice: string | null,
): team is TeamEvent {
  return team !== null && team !== undefined && practice === "swiss-manager";
}
