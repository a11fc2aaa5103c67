// The team tie-breaks of C.07 on a team Swiss worked by hand (docs/design/team-events.md).
//
// Four teams of two boards, three rounds, match points 2 / 1 / 0:
//   A (1: players 1, 2), B (2: 3, 4), C (3: 5, 6), D (4: 7, 8).
//   R1  A-B 1½-½ (board 1: 1-3 1-0, board 2: 2-4 ½)   D-C 1½-½ (7-5 1-0, 8-6 ½)
//   R2  D-A 1-1 (7-1 ½, 8-2 ½)                         B-C 2-0 (3-5 1-0, 4-6 1-0)
//   R3  A pairing-allocated bye (320: 2 MP, 2 GP)      B-D forfeited match, B wins (330 +-)
//       C zero-point bye (240 Z)
// Scores MP / GP: A 5 / 4½, B 4 / 4½, C 0 / ½, D 3 / 2½.
// Adjusted (§16.3): C's zero-point bye comes after its last match available to play: a draw,
//   so C counts 1 MP and 1½ GP in its opponents' tie-breaks; the others at face value.
// Own unplayed matches (§16.4): a dummy opponent with the team's own score.
//   BH:MP  A 4 + 3 + 5 = 12   B 5 + 1 + 4 = 10   C 3 + 4 + 0 = 7    D 1 + 5 + 3 = 9
//   BH:GP  A 4½ + 2½ + 4½ = 11½   B 4½ + 1½ + 4½ = 10½   C 2½ + 4½ + ½ = 7½   D 1½ + 4½ + 2½ = 8½
//   BH:MP/C1 A 12 - 3 = 9; B 10 - 1 = 9; C: the zero bye (0) goes; D: the forfeit loss (a
//     voluntarily unplayed match, 3) is cut before the least significant opponent (1): 6.
//   EMMSB (opponent MP x own MP)  A 4x2 + 3x1 + 5x2 = 21   B 5x0 + 1x2 + 4x2 = 10   D 1x2 + 5x1 + 3x0 = 7
//   EMGSB (opponent MP x own GP)  A 4x1½ + 3x1 + 5x2 = 19  B 5x½ + 1x2 + 4x2 = 12½  D 1x1½ + 5x1 + 0 = 6½
//   EGMSB (opponent GP x own MP)  A 4½x2 + 2½x1 + 4½x2 = 20½   B 0 + 1½x2 + 4½x2 = 12   D 1½x2 + 4½x1 = 7½
//   EGGSB (opponent GP x own GP)  A 4½x1½ + 2½x1 + 4½x2 = 18¼  B 4½x½ + 1½x2 + 4½x2 = 14¼
//   EMMSB/C1  A 21 - 3 (D, the least significant opponent) = 18
//   SSSC  FN = floor(3 rounds x 2 MP / 2 boards) = 3;  A 4½ + 12/3 = 8½;  B 4½ + 10/3 (3.3) = 7.8
import { describe, expect, it } from "vitest";
import { parseTeamTiebreak } from "../../../../src/domain/teams/acronyms.ts";
import { teamRounds } from "../../../../src/domain/teams/matches.ts";
import { teamStandings } from "../../../../src/domain/teams/standings.ts";
import { buildTeamContext, teamTiebreakValue } from "../../../../src/domain/teams/tiebreaks.ts";
import type { TeamEvent } from "../../../../src/domain/teams/types.ts";
import type { TiebreakPractice, TiebreakRuleSet, Tournament } from "../../../../src/domain/types.ts";
import { parseTrf } from "../../../../src/trf/parse.ts";
import { readTeamRecords } from "../../../../src/trf/team-records.ts";
import { trfToTournament } from "../../../../src/trf/to-tournament.ts";
import { playerRecord, teamRecord } from "../../../support/team-trf.ts";

const Z = "0 - Z";
const SWISS = [
  "012 Hand-made team Swiss",
  "092 Team Swiss System",
  "XXR 3",
  playerRecord(1, ["3 w 1", "7 b =", Z]),
  playerRecord(2, ["4 b =", "8 w =", Z]),
  playerRecord(3, ["1 b 0", "5 w 1", Z]),
  playerRecord(4, ["2 w =", "6 b 1", Z]),
  playerRecord(5, ["7 b 0", "3 b 0", Z]),
  playerRecord(6, ["8 w =", "4 w 0", Z]),
  playerRecord(7, ["5 w 1", "1 w =", Z]),
  playerRecord(8, ["6 b =", "2 b =", Z]),
  teamRecord(1, "A", [1, 2]),
  teamRecord(2, "B", [3, 4]),
  teamRecord(3, "C", [5, 6]),
  teamRecord(4, "D", [7, 8]),
  "320  2.0  2.0           1",
  "240 Z   3    3",
  "330 +-   3   2   4",
];

function load(lines: string[], tiebreaks: string[] = []): { t: Tournament; ev: TeamEvent } {
  const text = lines.join("\n");
  const t = trfToTournament(parseTrf(text, "teams.trf"), { externalId: 1n, now: "2026-01-01T00:00:00Z" });
  const rec = readTeamRecords(text, "teams.trf")!;
  return { t, ev: { ...rec, primary: "MP", tiebreaks } };
}

function values(
  acronym: string,
  rules: TiebreakRuleSet = "fide-2023",
  practice: TiebreakPractice | null = null,
  lines = SWISS,
) {
  const { t, ev } = load(lines);
  const ctx = buildTeamContext(teamRounds(t, ev, 3), ev, rules, practice);
  const tb = parseTeamTiebreak(acronym, "MP");
  if (typeof tb === "string") throw new Error(tb);
  return Object.fromEntries(ev.teams.map((x) => [x.name, teamTiebreakValue(ctx, x.teamNumber, tb)]));
}

describe("matches from board games", () => {
  const { t, ev } = load(SWISS);
  const r = teamRounds(t, ev, 3);

  it("pairs the teams whose members met, the first-named team holding white on board 1", () => {
    const round2 = r.matches.filter((m) => m.round === 2);
    expect(round2.map((m) => [m.whiteTeam, m.blackTeam, m.whiteGamePoints, m.blackGamePoints])).toEqual([
      [4, 1, 1, 1],
      [2, 3, 2, 0],
    ]);
    expect(round2[0]!.boards.map((b) => [b.board, b.player, b.opponent, b.colour])).toEqual([
      [1, 7, 1, "w"],
      [2, 8, 2, "b"],
    ]);
  });

  it("scores byes and forfeited matches by their records, not by the players' points", () => {
    const row = (team: number) => r.byTeam.get(team)![2]!;
    expect([row(1).outcome, row(1).matchPoints, row(1).gamePoints]).toEqual(["pab", 2, 2]);
    expect([row(2).outcome, row(2).matchPoints, row(2).gamePoints, row(2).opponent]).toEqual([
      "forfeitWin",
      2,
      2,
      4,
    ]);
    expect([row(4).outcome, row(4).matchPoints, row(4).gamePoints]).toEqual(["forfeitLoss", 0, 0]);
    expect([row(3).outcome, row(3).matchPoints, row(3).gamePoints]).toEqual(["zeroBye", 0, 0]);
    expect(values("MP")).toEqual({ A: 5, B: 4, C: 0, D: 3 });
    expect(values("GP")).toEqual({ A: 4.5, B: 4.5, C: 0.5, D: 2.5 });
  });

  it("gives the match points of record 362", () => {
    const lines = [...SWISS, "362 TW 3.0   TD 1.0   TL 0.0"];
    // A: a win (3), a draw (1) and the 320 bye's 2.
    expect(values("MP", "fide-2023", null, lines)).toEqual({ A: 6, B: 6, C: 0, D: 4 });
  });
});

describe("C.07 team tie-breaks", () => {
  it("BH on match points and on game points, with the dummy opponent and the adjusted score", () => {
    expect(values("BH:MP")).toEqual({ A: 12, B: 10, C: 7, D: 9 });
    expect(values("BH:GP")).toEqual({ A: 11.5, B: 10.5, C: 7.5, D: 8.5 });
  });

  it("BH cut 1 cuts a voluntarily unplayed match first", () => {
    expect(values("BH:MP/C1")).toEqual({ A: 9, B: 9, C: 7, D: 6 });
  });

  it("the extended Sonneborn-Berger family", () => {
    expect(values("EMMSB")).toMatchObject({ A: 21, B: 10, C: 0, D: 7 });
    expect(values("EMGSB")).toMatchObject({ A: 19, B: 12.5, D: 6.5 });
    expect(values("EGMSB")).toMatchObject({ A: 20.5, B: 12, D: 7.5 });
    expect(values("EGGSB")).toMatchObject({ A: 18.25, B: 14.25 });
    expect(values("EMMSB/C1")).toMatchObject({ A: 18 });
  });

  it("SSSC: the secondary score plus BH on the primary score over the normalisation factor", () => {
    expect(values("SSSC")).toMatchObject({ A: 8.5, B: 7.8 });
  });

  it("fide-2026 caps the dummy opponent: a bye at a draw per round, a forfeit at the opponent's score", () => {
    // A's bye: min(5, 1 x 3 rounds) = 3, so 4 + 3 + 3 = 10; B's forfeit win: min(4, D's 3) = 3.
    expect(values("BH:MP", "fide-2026")).toMatchObject({ A: 10, B: 9 });
  });

  it("Swiss-Manager counts an opponent's pairing-allocated bye as a drawn match", () => {
    // A counts 5 - 2 + 1 = 4 in its opponents' BH: B 4 + 1 + 4 = 9, D 1 + 4 + 3 = 8.
    expect(values("BH:MP", "fide-2023", "swiss-manager")).toEqual({ A: 12, B: 9, C: 7, D: 8 });
  });

  it("EDE: the matches among the tied teams, on the primary score, then the secondary", () => {
    // X, Y, Z all on 2 MP, each beat one of the others: the mini table is 2 MP each, so the game
    // points among them decide: X 2 + ½ = 2½, Y 0 + 2 = 2, Z 1½ + 0 = 1½.
    const lines = [
      "012 Three teams",
      "XXR 3",
      playerRecord(1, ["3 w 1", Z, "5 b 0"]),
      playerRecord(2, ["4 b 1", Z, "6 w ="]),
      playerRecord(3, ["1 b 0", "5 w 1", Z]),
      playerRecord(4, ["2 w 0", "6 b 1", Z]),
      playerRecord(5, [Z, "3 b 0", "1 w 1"]),
      playerRecord(6, [Z, "4 w 0", "2 b ="]),
      teamRecord(1, "X", [1, 2]),
      teamRecord(2, "Y", [3, 4]),
      teamRecord(3, "Z", [5, 6]),
      "240 Z   1    3",
      "240 Z   2    1",
      "240 Z   3    2",
    ];
    const { t, ev } = load(lines, ["EDE"]);
    const s = teamStandings(t, ev, 3, { rules: "fide-2023", practice: null, system: "round-robin" });
    expect(s.rows.map((r) => [r.name, r.rank, r.matchPoints, r.tiebreaks[0]])).toEqual([
      ["X", 1, 2, 1],
      ["Y", 2, 2, 2],
      ["Z", 3, 2, 3],
    ]);
  });

  it("ranks by the primary score and the tie-breaks in order; teams still tied share the rank", () => {
    const { t, ev } = load(SWISS, ["BH:MP/C1"]);
    const s = teamStandings(t, ev, 3, { rules: "fide-2023", practice: null, system: "swiss" });
    expect(s.rows.map((r) => [r.name, r.rank, r.tiedWithPrevious])).toEqual([
      ["A", 1, false],
      ["B", 2, false],
      ["D", 3, false],
      ["C", 4, false],
    ]);
    const tied = teamStandings(t, { ...ev, primary: "GP", tiebreaks: [] }, 3, {
      rules: "fide-2023",
      practice: null,
      system: "swiss",
    });
    expect(tied.rows.slice(0, 2).map((r) => [r.name, r.rank, r.tiedWithPrevious])).toEqual([
      ["A", 1, false],
      ["B", 1, true],
    ]);
  });

  it("refuses an acronym that is not a team tie-break, saying which are", () => {
    expect(parseTeamTiebreak("BH:XP", "MP")).toMatch(/"BH:XP" is not a team tie-break: use MP, GP, BH:MP/);
    expect(parseTeamTiebreak("SSSC/C1", "MP")).toMatch(/SSSC takes no modifier/);
  });
});
