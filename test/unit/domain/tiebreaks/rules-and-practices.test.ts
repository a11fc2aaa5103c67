// The 2026 rules (the dummy opponent's cap, round-robin forfeits out of rating-based tie-breaks)
// and each program's known practice (Vega, Swiss-Manager), on small crosstables worked by hand
// below. docs/design/tiebreaks.md gives the rule or the evidence behind each expectation.
import { describe, expect, it } from "vitest";
import { computeStandings } from "../../../../src/domain/standings.ts";
import { TiebreakEngine } from "../../../../src/domain/tiebreaks/engine.ts";
import type { TiebreakPractice, TiebreakRuleSet, Tournament } from "../../../../src/domain/types.ts";
import { parseTrf } from "../../../../src/trf/parse.ts";
import { trfToTournament } from "../../../../src/trf/to-tournament.ts";

/** A TRF 001 record: cells are "opp colour code", e.g. "2 w 1", "0 - H". */
function player(no: number, rating: number, cells: string[]): string {
  let s = `001 ${String(no).padStart(4)}      ${`Player ${no}`.padEnd(33)} ${String(rating).padStart(4)}`;
  s = s.padEnd(91);
  for (const c of cells) {
    const [opp, colour, code] = c.split(" ");
    s += `${opp!.padStart(4)} ${colour} ${code}  `;
  }
  return s.trimEnd();
}

interface Setup {
  rules: TiebreakRuleSet;
  practice?: TiebreakPractice;
  system?: "Swiss" | "Round Robin";
  tiebreaks?: string[];
}

function tournament(lines: string[], s: Setup): Tournament {
  const text = ["012 Test", `092 ${s.system ?? "Swiss"}`, ...lines].join("\n");
  return trfToTournament(parseTrf(text, "test.trf"), {
    externalId: 1n,
    rules: s.rules,
    practice: s.practice ?? null,
    tiebreaks: s.tiebreaks ?? [],
    now: "2026-01-01T00:00:00Z",
  });
}

function values(lines: string[], s: Setup, acronym: string): Record<number, number | null> {
  const t = tournament(lines, s);
  const engine = new TiebreakEngine(t, 3);
  return Object.fromEntries(engine.values(acronym, [t.players.map((p) => p.sourcePlayerNumber)]));
}

// Swiss, 4 players, 3 rounds.
// Round 1: #1-#4 forfeit (#1 +, #4 -), #2-#3 1-0.  Round 2: #1-#2 1-0, #3-#4 ½-½.
// Round 3: #1 full-point bye (F), #2-#4 1-0, #3 half-point bye (H).
// Scores: #1 3, #2 2, #3 1, #4 ½.
// Adjusted scores (§16.3: a requested bye or absence after the last round available to play
// counts as a draw; a forfeit loss is not available):
//   #1 1 + 1 + ½ (bye after round 2) = 2½;  #2 2;  #3 0 + ½ + ½ = 1;  #4 0 + ½ + 0 = ½.
// Own unplayed rounds against the dummy opponent:
//   fide-2023: the dummy has the player's own score: #1 3 (round 1) and 3 (round 3).
//   fide-2026: capped: #1 round 1 (forfeit) min(3, #4's adjusted ½) = ½;
//              #1 round 3 (bye) min(3, ½ × 3 rounds) = 1½;
//              #3 round 3 (bye) min(1, 1½) = 1 (unchanged);  #4 round 1 (forfeit loss)
//              min(½, #1's adjusted 2½) = ½ (unchanged: the cap never raises the dummy).
// BH: fide-2023 #1 3 + 2 + 3 = 8,    fide-2026 #1 ½ + 2 + 1½ = 4;
//     #2 1 + 2½ + ½ = 4, #3 2 + ½ + 1 = 3½, #4 ½ + 1 + 2 = 3½ under both.
// SB: every result of #1 is a win (forfeit, over the board, full bye): SB = BH for #1.
// BH-C1 (§16.5: a voluntarily unplayed round, here the full bye, is cut first when it is not
// below the least significant value): fide-2023 #1 3 + 2 = 5, fide-2026 #1 ½ + 2 = 2½.
const SWISS_CAP = [
  player(1, 2000, ["4 - +", "2 w 1", "0 - F"]),
  player(2, 1900, ["3 w 1", "1 b 0", "4 w 1"]),
  player(3, 1800, ["2 b 0", "4 w =", "0 - H"]),
  player(4, 1700, ["1 - -", "3 b =", "2 b 0"]),
];

describe("fide-2026: the dummy opponent's score is capped (C.07 2026 §16.4)", () => {
  it("caps a forfeit at the scheduled opponent's adjusted score and a bye at a draw per round", () => {
    expect(values(SWISS_CAP, { rules: "fide-2023" }, "BH")).toEqual({ 1: 8, 2: 4, 3: 3.5, 4: 3.5 });
    expect(values(SWISS_CAP, { rules: "fide-2026" }, "BH")).toEqual({ 1: 4, 2: 4, 3: 3.5, 4: 3.5 });
  });

  it("caps the dummy in SB as in BH", () => {
    expect(values(SWISS_CAP, { rules: "fide-2023" }, "SB")[1]).toBe(8);
    expect(values(SWISS_CAP, { rules: "fide-2026" }, "SB")[1]).toBe(4);
  });

  it("cuts the capped bye first with Cut-1", () => {
    expect(values(SWISS_CAP, { rules: "fide-2023" }, "BH-C1")[1]).toBe(5);
    expect(values(SWISS_CAP, { rules: "fide-2026" }, "BH-C1")[1]).toBe(2.5);
  });

  it("leaves the pre-2023 virtual opponent alone", () => {
    // pre-2023, #1: round 1 virtual opponent 0 + (1 - 1) + ½ × 2 later rounds = 1; round 2 #2
    // (every round played: 2); round 3 virtual opponent 2 + (1 - 1) + 0 = 2. BH 1 + 2 + 2 = 5.
    expect(values(SWISS_CAP, { rules: "pre-2023" }, "BH")[1]).toBe(5);
  });
});

// Round robin, 4 players, 3 rounds; ratings #1 2000, #2 1800, #3 1600, #4 1400.
// Round 1: #1-#4 forfeit (#1 +, #4 -), #2-#3 1-0.  Round 2: #1-#3 ½-½, #2-#4 1-0.
// Round 3: #2-#1 1-0, #3-#4 1-0.
// Scores: #1 1½, #2 3, #3 1½, #4 0.
const ROUND_ROBIN = [
  player(1, 2000, ["4 - +", "3 w =", "2 b 0"]),
  player(2, 1800, ["3 w 1", "4 w 1", "1 w 1"]),
  player(3, 1600, ["2 b 0", "1 b =", "4 w 1"]),
  player(4, 1400, ["1 - -", "2 b 0", "3 b 0"]),
];
const RR = { system: "Round Robin" } as const;

describe("fide-2026 round robins: forfeits are out of the rating-based tie-breaks", () => {
  it("ARO: fide-2023 counts the forfeit as a game, fide-2026 does not", () => {
    // fide-2023 (forfeits are played games in a round robin): #1 (1400 + 1600 + 1800) / 3 = 1600,
    // #4 (2000 + 1800 + 1600) / 3 = 1800. fide-2026: #1 (1600 + 1800) / 2 = 1700,
    // #4 (1800 + 1600) / 2 = 1700. #2 and #3 had no forfeit: 5000 / 3 = 1666.7 and
    // 5200 / 3 = 1733.3, rounded to 1667 and 1733.
    expect(values(ROUND_ROBIN, { ...RR, rules: "fide-2023" }, "ARO")).toEqual({
      1: 1600,
      2: 1667,
      3: 1733,
      4: 1800,
    });
    expect(values(ROUND_ROBIN, { ...RR, rules: "fide-2026" }, "ARO")).toEqual({
      1: 1700,
      2: 1667,
      3: 1733,
      4: 1700,
    });
  });

  it("TPR: the forfeit win no longer lifts the score", () => {
    // fide-2023: #1 scores 1 + ½ + 0 of 3, p = 0.50, dp 0: 1600 + 0 = 1600.
    // fide-2026: ½ of 2 against 1600 and 1800, p = 0.25, dp -193: 1700 - 193 = 1507.
    expect(values(ROUND_ROBIN, { ...RR, rules: "fide-2023" }, "TPR")[1]).toBe(1600);
    expect(values(ROUND_ROBIN, { ...RR, rules: "fide-2026" }, "TPR")[1]).toBe(1507);
  });

  it("SB still counts the forfeit as a played game", () => {
    // #1: win against #4 (0) + ½ × #3's 1½ + loss = 0.75 under both rule sets.
    expect(values(ROUND_ROBIN, { ...RR, rules: "fide-2023" }, "SB")[1]).toBe(0.75);
    expect(values(ROUND_ROBIN, { ...RR, rules: "fide-2026" }, "SB")[1]).toBe(0.75);
  });
});

// Swiss, 4 players, 3 rounds.
// Round 1: #1-#4 1-0, #2-#3 1-0.  Round 2: #1-#2 ½-½, #3 pairing-allocated bye (U), #4 absent (Z).
// Round 3: #1-#3 1-0, #2-#4 forfeit (#2 +, #4 -).
// Scores: #1 2½, #2 2½, #3 1, #4 0.
// #4's adjusted score: written rules, the last round available to play is round 1 (a forfeit
// loss is not available), so round 2's absence counts ½: 0 + ½ + 0 = ½. Vega counts the forfeit
// loss of round 3 as available: the absence comes before it and stays 0: adjusted 0.
// #1's BH: #4 + #2 (2½, every round available) + #3 (1) = ½ + 2½ + 1 = 4 written, 3½ Vega.
const VEGA_AVAILABLE = [
  player(1, 2000, ["4 w 1", "2 b =", "3 w 1"]),
  player(2, 1900, ["3 w 1", "1 w =", "4 - +"]),
  player(3, 1800, ["2 b 0", "0 - U", "1 b 0"]),
  player(4, 1700, ["1 b 0", "0 - Z", "2 - -"]),
];

describe("Vega's practice", () => {
  it("counts a forfeit loss as a round available to play when it adjusts an opponent's score", () => {
    expect(values(VEGA_AVAILABLE, { rules: "fide-2023" }, "BH")[1]).toBe(4);
    expect(values(VEGA_AVAILABLE, { rules: "fide-2023", practice: "vega" }, "BH")[1]).toBe(3.5);
    // #4's own BH does not depend on it: #1 2½ + dummy 0 + dummy 0 = 2½ either way.
    expect(values(VEGA_AVAILABLE, { rules: "fide-2023", practice: "vega" }, "BH")[4]).toBe(2.5);
  });

  it("leaves a round robin's forfeits out of ARO only", () => {
    // ARO #1: (1600 + 1800) / 2 = 1700 (written: 1600, above); TPR keeps the forfeit: 1600.
    const vega = { ...RR, rules: "fide-2023", practice: "vega" } as const;
    expect(values(ROUND_ROBIN, vega, "ARO")[1]).toBe(1700);
    expect(values(ROUND_ROBIN, vega, "TPR")[1]).toBe(1600);
  });

  // Round robin, 4 players: round 1 #1-#2 1-0, #3-#4 ½-½; round 2 #3-#1 1-0, #2-#4 1-0;
  // round 3 #1-#4 1-0, #2-#3 1-0. Scores #1 2, #2 2, #3 1½, #4 ½: #1 and #2 are tied and met.
  // DE written: the points between them, #1 1, #2 0. Vega prints the position inside the group:
  // #1 1, #2 2 (lower first); #3 and #4 are alone: 0.
  const DE_GROUP = [
    player(1, 2000, ["2 w 1", "3 b 0", "4 w 1"]),
    player(2, 1900, ["1 b 0", "4 w 1", "3 w 1"]),
    player(3, 1800, ["4 w =", "1 w 1", "2 b 0"]),
    player(4, 1700, ["3 b =", "2 b 0", "1 b 0"]),
  ];

  it("prints DE as the position inside the tied group, and ranks the lower position first", () => {
    const written = computeStandings(
      tournament(DE_GROUP, { ...RR, rules: "fide-2023", tiebreaks: ["DE"] }),
      3,
    );
    const vega = computeStandings(
      tournament(DE_GROUP, { ...RR, rules: "fide-2023", practice: "vega", tiebreaks: ["DE"] }),
      3,
    );
    expect(written.map((r) => [r.sourcePlayerNumber, r.rank, r.tieBreakValues[0]])).toEqual([
      [1, 1, "1"],
      [2, 2, "0"],
      [3, 3, "0"],
      [4, 4, "0"],
    ]);
    expect(vega.map((r) => [r.sourcePlayerNumber, r.rank, r.tieBreakValues[0]])).toEqual([
      [1, 1, "1"],
      [2, 2, "2"],
      [3, 3, "0"],
      [4, 4, "0"],
    ]);
  });
});

describe("Swiss-Manager's practice in round robins: forfeits are unplayed games", () => {
  it("SB evaluates a forfeit against a virtual opponent with the player's own score", () => {
    // #1: forfeit win, virtual opponent 1½ × 1 = 1½; + ½ × #3's 1½ = ¾; + loss 0: 2¼
    // (written: 0.75, the forfeit win counts as a win against #4's 0).
    // #4: forfeit loss, 0 × ½ = 0; losses to #2 and #3: 0 (written: 0 as well).
    const sm = { ...RR, rules: "fide-2023", practice: "swiss-manager" } as const;
    expect(values(ROUND_ROBIN, sm, "SB")).toMatchObject({ 1: 2.25, 4: 0 });
  });

  it("WON leaves the forfeit win out", () => {
    // #1 won only by forfeit: written 1 (a played game in a round robin), Swiss-Manager 0.
    expect(values(ROUND_ROBIN, { ...RR, rules: "fide-2023" }, "WON")).toEqual({ 1: 1, 2: 3, 3: 1, 4: 0 });
    expect(values(ROUND_ROBIN, { ...RR, rules: "fide-2023", practice: "swiss-manager" }, "WON")).toEqual({
      1: 0,
      2: 3,
      3: 1,
      4: 0,
    });
  });

  it("changes nothing in a Swiss", () => {
    expect(values(SWISS_CAP, { rules: "fide-2023", practice: "swiss-manager" }, "SB")).toEqual(
      values(SWISS_CAP, { rules: "fide-2023" }, "SB"),
    );
  });
});

// ChessManager: an own unplayed round is a dummy opponent at the player's adjusted score (the
// rounds after the last playable one counted as draws), withdrawn players included.
// Swiss, 4 players, 3 rounds; #4 withdraws after round 1 (zero-point byes in rounds 2 and 3).
// Round 1: #1-#2 1-0, #3-#4 1-0.  Round 2: #1-#3 ½-½, #2 pairing-allocated bye.
// Round 3: #2-#3 0-1, #1 pairing-allocated bye.
// Scores: #1 2½, #2 1, #3 2½, #4 0. Adjusted: #4 0 + ½ + ½ = 1 (its byes after round 1).
// BH #4: #3 (2½) + two dummy opponents: the written rules 0 + 0 (its own score) = 2½;
//        ChessManager 1 + 1 (its adjusted score) = 4½.
// BH #1: #2 1 + #3 2½ + its bye's dummy 2½ (own score and adjusted score agree) = 6 both ways;
// #2: #1 2½ + its bye's dummy 1 + #3 2½ = 6; #3: #4 1 (adjusted) + #1 2½ + #2 1 = 4½.
const WITHDRAWN = [
  player(1, 2000, ["2 w 1", "3 w =", "0 - U"]),
  player(2, 1900, ["1 b 0", "0 - U", "3 w 0"]),
  player(3, 1800, ["4 w 1", "1 b =", "2 b 1"]),
  player(4, 1700, ["3 b 0", "0 - Z", "0 - Z"]),
];

describe("ChessManager: the dummy opponent at the player's adjusted score", () => {
  it("raises a withdrawn player's dummy opponents to the draws of its adjusted score", () => {
    expect(values(WITHDRAWN, { rules: "fide-2023" }, "BH")).toEqual({ 1: 6, 2: 6, 3: 4.5, 4: 2.5 });
    expect(values(WITHDRAWN, { rules: "fide-2023", practice: "chessmanager" }, "BH")).toEqual({
      1: 6,
      2: 6,
      3: 4.5,
      4: 4.5,
    });
  });
});

describe("Vega's DE read as a score (vega-de-score): Vega's practice otherwise", () => {
  // The round robin of the DE test above: #1 and #2 tied on 2, #1 won their game. Some Vega
  // events print DE as the points among the tied players (#1 1, #2 0), others as the position
  // (vega): the reading is chosen explicitly, the rest of Vega's practice stays.
  const DE_GROUP = [
    player(1, 2000, ["2 w 1", "3 b 0", "4 w 1"]),
    player(2, 1900, ["1 b 0", "4 w 1", "3 w 1"]),
    player(3, 1800, ["4 w =", "1 w 1", "2 b 0"]),
    player(4, 1700, ["3 b =", "2 b 0", "1 b 0"]),
  ];
  const RR_DE = { ...RR, rules: "fide-2023" as const, tiebreaks: ["DE"] };

  it("prints DE as points, a higher value ranking first", () => {
    const rows = computeStandings(tournament(DE_GROUP, { ...RR_DE, practice: "vega-de-score" }), 3);
    expect(rows.map((r) => [r.sourcePlayerNumber, r.rank, r.tieBreakValues[0]])).toEqual([
      [1, 1, "1"],
      [2, 2, "0"],
      [3, 3, "0"],
      [4, 4, "0"],
    ]);
  });

  it("keeps Vega's other departures: a round robin's ARO leaves forfeits out", () => {
    const both = (practice: "vega" | "vega-de-score") =>
      values(ROUND_ROBIN, { ...RR, rules: "fide-2023", practice }, "ARO")[1];
    expect(both("vega-de-score")).toBe(both("vega"));
    expect(both("vega-de-score")).toBe(1700);
  });
});

// Vega's SB in some events (vega-sb-bye-zero): an own one-point bye adds nothing to SB, while BH
// still counts its dummy opponent (the player's own score, C.07 §16.4). Other Vega events count
// it in both (hbcc-2025-cup-juniors: #27's SB 8 includes its bye), hence a reading of its own.
// Swiss, 5 players, 3 rounds, a pairing-allocated bye (U) each round, every game played.
// Round 1: #1-#2 1-0, #3-#4 ½-½, #5 bye.  Round 2: #1-#5 1-0, #2-#3 1-0, #4 bye.
// Round 3: #1-#3 ½-½, #4-#5 0-1, #2 bye.
// Scores (= adjusted scores, nobody is absent): #1 2½, #2 2, #3 1, #4 1½, #5 2.
// BH (both readings): #1 2 + 2 + 1 = 5; #2 2½ + 1 + dummy 2 = 5½; #3 1½ + 2 + 2½ = 6;
//                     #4 1 + dummy 1½ + 2 = 4½; #5 dummy 2 + 2½ + 1½ = 6.
// SB, vega: #1 2 + 2 + ½ = 4½; #2 0 + 1 + 2 = 3; #3 ¾ + 0 + 1¼ = 2; #4 ½ + 1½ + 0 = 2;
//           #5 2 + 0 + 1½ = 3½.
// SB, vega-sb-bye-zero: the bye's 2, 1½ and 2 go: #2 1, #4 ½, #5 1½; #1 and #3 unchanged.
// SB-C1 (our reading: the cut order stays BH's, the bye keeping its dummy's value): #5 cuts #4
// (1½, the lowest value): vega 2 + 0 = 2, vega-sb-bye-zero 0 + 0 = 0.
const BYE_EACH_ROUND = [
  player(1, 2000, ["2 w 1", "5 w 1", "3 b ="]),
  player(2, 1900, ["1 b 0", "3 w 1", "0 - U"]),
  player(3, 1800, ["4 w =", "2 b 0", "1 w ="]),
  player(4, 1700, ["3 b =", "0 - U", "5 w 0"]),
  player(5, 1600, ["0 - U", "1 b 0", "4 b 1"]),
];

describe("Vega's SB giving a one-point bye nothing (vega-sb-bye-zero)", () => {
  const vega = { rules: "fide-2023" as const, practice: "vega" as const };
  const zero = { rules: "fide-2023" as const, practice: "vega-sb-bye-zero" as const };

  it("adds nothing to SB for a pairing-allocated bye, while BH counts it", () => {
    expect(values(BYE_EACH_ROUND, vega, "SB")).toEqual({ 1: 4.5, 2: 3, 3: 2, 4: 2, 5: 3.5 });
    expect(values(BYE_EACH_ROUND, zero, "SB")).toEqual({ 1: 4.5, 2: 1, 3: 2, 4: 0.5, 5: 1.5 });
    const bh = { 1: 5, 2: 5.5, 3: 6, 4: 4.5, 5: 6 };
    expect(values(BYE_EACH_ROUND, vega, "BH")).toEqual(bh);
    expect(values(BYE_EACH_ROUND, zero, "BH")).toEqual(bh);
  });

  it("cuts SB-C1 in BH's order, the bye keeping its dummy's value", () => {
    expect(values(BYE_EACH_ROUND, vega, "SB-C1")[5]).toBe(2);
    expect(values(BYE_EACH_ROUND, zero, "SB-C1")[5]).toBe(0);
  });

  it("gives a requested full-point bye nothing too, and keeps a forfeit win's dummy", () => {
    // SWISS_CAP's #1 (fide-2023): forfeit win 3 + #2 2 + full bye 3 = 8; without the bye 5.
    expect(values(SWISS_CAP, vega, "SB")[1]).toBe(8);
    expect(values(SWISS_CAP, zero, "SB")[1]).toBe(5);
    expect(values(SWISS_CAP, zero, "BH")[1]).toBe(8);
  });

  it("keeps Vega's DE as the position inside the tied group", () => {
    const t = tournament(BYE_EACH_ROUND, zero);
    expect(new TiebreakEngine(t, 3).lowerIsBetter("DE")).toBe(true);
  });
});
