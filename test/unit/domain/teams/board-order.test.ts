// Swiss-Manager's individual ranking of a team event (src/domain/teams/board-order.ts), each step
// on hand-made entries, then the whole order on a team Swiss worked by hand.
//
// Four teams of two boards, two rounds; teams A [1, 2, 3], B [5, 4, 6], C [7, 8], D [9, 10]
// (the team list: board 1, 2, 3; B lists 5 first, whatever board it played); a member not
// fielded has "0000 - Z".
//   R1  A-B: 1-4 1-0, 2-5 1-0 (3 not fielded)     C-D: 7-9 1-0, 8-10 ½
//   R2  A-C: 1-7 ½, 3-8 1-0 (2 not fielded)       B-D: 4-9 0-1, 6-10 1-0 (5 not fielded)
// Points / rounds lined up / share / board:
//   1: 1½ / 2 / 75%  / 1    7: 1½ / 2 / 75% / 1    2: 1 / 1 / 100% / 2    3: 1 / 1 / 100% / 3
//   6: 1 / 1 / 100% / 3     9: 1 / 2 / 50% / 1     8: ½ / 2 / 25% / 2     10: ½ / 2 / 25% / 2
//   4: 0 / 2 / 0% / 2       5: 0 / 1 / 0% / 1
// BH (fide-2023; an own unplayed round a dummy with the player's score; 3's and 6's round 1
// comes before a round they played, so it counts at face value in their opponents' BH):
//   1: 4 (0) + 7 (1½) = 1½    7: 9 (1) + 1 (1½) = 2½    3: 8 (½) + dummy 1 = 1½    6: 10 (½) + dummy 1 = 1½
//   8: 10 (½) + 3 (1) = 1½    10: 8 (½) + 6 (1) = 1½    9: 7 (1½) + 4 (0) = 1½
//   2: 5 (0, and ½ for its round 2, not fielded after its last round played: ½) + dummy 1 = 1½
//   4: 1 (1½) + 9 (1) = 2½    5: 2 (1, and ½ for its round 2 likewise: 1½) + dummy 0 = 1½
// Order: on 1½ 7 before 1 (same share and board: BH); on 1 the share puts 9 last, the board
// 2 before 3 and 6, and 3 before 6 by the starting rank (equal on BH and SB); on ½ 8 before 10 by
// the starting rank; on 0 the board puts 5 before 4 (same share), where BH would put 4 first.
//   7, 1, 2, 3, 6, 9, 8, 10, 5, 4 — every rank distinct. The written order (points, BH, SB)
// puts 4 before 5 and shares ranks.
import { describe, expect, it } from "vitest";
import type { RoundEntry, RoundOutcome } from "../../../../src/domain/scoring.ts";
import { computeStandings } from "../../../../src/domain/standings.ts";
import {
  boardOrderKeys,
  boardsOf,
  compareBoardOrder,
  linedUp,
  shareOfPoints,
} from "../../../../src/domain/teams/board-order.ts";
import type { TeamEvent } from "../../../../src/domain/teams/types.ts";
import type { TiebreakPractice, Tournament } from "../../../../src/domain/types.ts";
import { parseTrf } from "../../../../src/trf/parse.ts";
import { readTeamRecords } from "../../../../src/trf/team-records.ts";
import { trfToTournament } from "../../../../src/trf/to-tournament.ts";
import { playerRecord, teamRecord } from "../../../support/team-trf.ts";

const Z = "0 - Z";
const LINES = [
  "012 Hand-made team Swiss",
  "092 Team Swiss System",
  "XXR 2",
  playerRecord(1, ["4 w 1", "7 w ="]),
  playerRecord(2, ["5 b 1", Z]),
  playerRecord(3, [Z, "8 b 1"]),
  playerRecord(4, ["1 b 0", "9 w 0"]),
  playerRecord(5, ["2 w 0", Z]),
  playerRecord(6, [Z, "10 b 1"]),
  playerRecord(7, ["9 w 1", "1 b ="]),
  playerRecord(8, ["10 b =", "3 w 0"]),
  playerRecord(9, ["7 b 0", "4 b 1"]),
  playerRecord(10, ["8 w =", "6 w 0"]),
  teamRecord(1, "A", [1, 2, 3]),
  teamRecord(2, "B", [5, 4, 6]),
  teamRecord(3, "C", [7, 8]),
  teamRecord(4, "D", [9, 10]),
];

function event(practice: TiebreakPractice | null): Tournament {
  const text = LINES.join("\n");
  const t = trfToTournament(parseTrf(text, "teams.trf"), { externalId: 1n, now: "2026-01-01T00:00:00Z" });
  const team: TeamEvent = { ...readTeamRecords(text, "teams.trf")!, primary: "MP", tiebreaks: [] };
  return { ...t, team, tiebreaks: ["BH", "SB"], tiebreakRules: "fide-2023", tiebreakPractice: practice };
}

const entry = (round: number, outcome: RoundOutcome, points: number): RoundEntry => ({
  round,
  outcome,
  opponent: null,
  colour: null,
  points,
});

describe("the steps of Swiss-Manager's individual order of a team event", () => {
  it("counts a round lined up when the player had a board or the team's pairing-allocated bye", () => {
    const lined = (o: RoundOutcome) => linedUp(entry(1, o, 0));
    for (const o of [
      "win",
      "draw",
      "loss",
      "forfeitWin",
      "forfeitLoss",
      "pab",
      "fullBye",
      "halfBye",
    ] as const)
      expect([o, lined(o)]).toEqual([o, true]);
    for (const o of ["zeroBye", "absent", "pending"] as const) expect([o, lined(o)]).toEqual([o, false]);
  });

  it("shares the points over the rounds lined up: a team bye's U counts, a round not fielded does not", () => {
    // Won, not fielded, the team's bye (U: 1 point), lost: 2 points over 3 rounds.
    const list = [entry(1, "win", 1), entry(2, "zeroBye", 0), entry(3, "pab", 1), entry(4, "loss", 0)];
    expect(shareOfPoints(list)).toBeCloseTo(2 / 3, 12);
    expect(shareOfPoints([entry(1, "absent", 0), entry(2, "zeroBye", 0)])).toBeNull();
  });

  it("reads the board as the place in the team's list", () => {
    const { team } = event("swiss-manager");
    expect([...boardsOf(team!)]).toEqual([
      [1, 1],
      [2, 2],
      [3, 3],
      [5, 1],
      [4, 2],
      [6, 3],
      [7, 1],
      [8, 2],
      [9, 1],
      [10, 2],
    ]);
  });

  it("puts the higher share first, then the lower board; no share goes last", () => {
    expect(compareBoardOrder({ share: 1, board: 3 }, { share: 0.75, board: 1 })).toBeLessThan(0);
    expect(compareBoardOrder({ share: 0.5, board: 2 }, { share: 0.5, board: 1 })).toBeGreaterThan(0);
    expect(compareBoardOrder({ share: null, board: 1 }, { share: 0, board: 4 })).toBeGreaterThan(0);
    expect(compareBoardOrder({ share: 0.5, board: 2 }, { share: 0.5, board: 2 })).toBe(0);
  });

  it("gives every player of the event its keys", () => {
    const t = event("swiss-manager");
    const keys = boardOrderKeys(t.team!, new Map([[9, [entry(1, "loss", 0), entry(2, "win", 1)]]]));
    expect(keys.get(9)).toEqual({ share: 0.5, board: 1 });
  });
});

describe("the individual standings of a team event under --practice swiss-manager", () => {
  it("rank by points, share, board, the first tie-break and the starting rank, every rank distinct", () => {
    const rows = computeStandings(event("swiss-manager"), 2);
    expect(rows.map((r) => [r.sourcePlayerNumber, r.rank, r.points, r.tieBreakValues[0]])).toEqual([
      [7, 1, 1.5, "2.5"],
      [1, 2, 1.5, "1.5"],
      [2, 3, 1, "1.5"],
      [3, 4, 1, "1.5"],
      [6, 5, 1, "1.5"],
      [9, 6, 1, "1.5"],
      [8, 7, 0.5, "1.5"],
      [10, 8, 0.5, "1.5"],
      [5, 9, 0, "1.5"],
      [4, 10, 0, "2.5"],
    ]);
  });

  it("leaves the written order (points, BH, SB, shared ranks) to an event without the practice", () => {
    const rows = computeStandings(event(null), 2);
    // 3 and 6 are equal on points, BH and SB: one rank, as the written order prints it.
    const rank = new Map(rows.map((r) => [r.sourcePlayerNumber, r.rank]));
    expect(rank.get(3)).toBe(rank.get(6));
    expect(rows.map((r) => r.sourcePlayerNumber).slice(-2)).toEqual([4, 5]);
  });
});
