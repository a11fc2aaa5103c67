import { describe, expect, it } from "vitest";
import { parsedTiebreaks, validateTiebreaks } from "../../../../src/domain/tiebreaks/acronyms.ts";
import { TiebreakEngine } from "../../../../src/domain/tiebreaks/engine.ts";
import type { TiebreakRuleSet, Tournament } from "../../../../src/domain/types.ts";
import { parseTrf } from "../../../../src/trf/parse.ts";
import { trfToTournament } from "../../../../src/trf/to-tournament.ts";

/** A TRF 001 record: cells are "opp colour code", e.g. "2 w 1", "0 - H". */
function player(no: number, rating: number, cells: string[]): string {
  let s = `001 ${String(no).padStart(4)}      ${`Player ${no}`.padEnd(33)} ${String(rating).padStart(4)}`;
  s = s.padEnd(91);
  for (const c of cells) {
    const [opp, colour, code] = c.split(" ");
    s += `  ${opp!.padStart(4)} ${colour} ${code}`.slice(2) + "  ";
  }
  return s.trimEnd();
}

function tournament(lines: string[], rules: TiebreakRuleSet, system = "Swiss"): Tournament {
  const text = [`012 Test`, `092 ${system}`, ...lines].join("\n");
  return trfToTournament(parseTrf(text, "test.trf"), { externalId: 1n, rules, now: "2026-01-01T00:00:00Z" });
}

// Four players, three rounds: #2 takes a half-point bye in round 2, #4 withdraws after round 1,
// #1 gets the pairing-allocated bye in round 3. Scores: #1 3, #2 1.5, #3 0.5, #4 0.5.
const SMALL = [
  player(1, 2000, ["2 w 1", "3 w 1", "0 - U"]),
  player(2, 1900, ["1 b 0", "0 - H", "3 b 1"]),
  player(3, 1800, ["4 w =", "1 b 0", "2 w 0"]),
  player(4, 1700, ["3 b =", "0 - Z", "0 - Z"]),
];

function values(t: Tournament, acronym: string): Record<number, number | null> {
  const engine = new TiebreakEngine(t, 3);
  const all = [t.players.map((p) => p.sourcePlayerNumber)];
  return Object.fromEntries(engine.values(acronym, all));
}

describe("a tie-break list is parsed once", () => {
  it("keeps the parsed form of a list validateTiebreaks accepted, for the engine", () => {
    const list = ["DE", "BH-C1", "KS-L+1"];
    expect(validateTiebreaks(list)).toEqual([]);
    const parsed = parsedTiebreaks(list);
    expect(parsed.map((p) => [p.base, p.modifier, p.limitSteps])).toEqual([
      ["DE", null, null],
      ["BH", "C1", null],
      ["KS", "L", 1],
    ]);
    // The same objects every time: nothing is parsed again.
    expect(parsedTiebreaks(list)).toBe(parsed);
  });

  it("parses a list it has not seen, and refuses an invalid one", () => {
    expect(parsedTiebreaks(["SB"]).map((p) => p.base)).toEqual(["SB"]);
    expect(() => parsedTiebreaks(["BH", "XYZ"])).toThrow(/unknown tie-break "XYZ"/);
  });

  it("follows a list that was changed after it was validated", () => {
    const list = ["BH"];
    validateTiebreaks(list);
    list[0] = "SB";
    expect(parsedTiebreaks(list).map((p) => p.base)).toEqual(["SB"]);
  });
});

describe("validateTiebreaks", () => {
  it("accepts every supported acronym and modifier", () => {
    expect(
      validateTiebreaks(["BH", "BH-C1", "BH-C2", "BH-M1", "BH-M2", "SB-C1", "DE", "KS", "ARO-C1", "PS-C1"]),
    ).toEqual([]);
    expect(
      validateTiebreaks(["WIN", "WON", "BPG", "BWG", "GE", "REP", "AOB", "FB", "TPR", "PTP", "APRO", "APPO"]),
    ).toEqual([]);
  });

  it("rejects unknown acronyms and modifiers a tie-break does not take, one message each", () => {
    const problems = validateTiebreaks(["BH", "XYZ", "DE-C1", "PS-M1", "bh c1"]);
    expect(problems).toHaveLength(4);
    expect(problems[0]).toMatch(/unknown tie-break "XYZ"/);
    expect(problems[1]).toMatch(/DE.*no modifier/);
    expect(problems[2]).toMatch(/PS.*C1, C2/);
  });

  it("refuses to compute an unknown tie-break", () => {
    const t = tournament(SMALL, "fide-2023");
    expect(() => new TiebreakEngine(t, 3).values("XYZ", [[1]])).toThrow(/unknown tie-break/);
  });
});

describe("Buchholz and Sonneborn-Berger under fide-2023 (dummy opponent)", () => {
  const t = tournament(SMALL, "fide-2023");

  it("counts own unplayed rounds at the player's own score and a withdrawn opponent's rounds as draws", () => {
    // #4's two absences come after its last round available to play: ½ each for opponents, so
    // #4 counts 1.5; #2's half-point bye comes before a game: face value, 1.5. #1 3, #3 0.5.
    // #1: 1.5 (#2) + 0.5 (#3) + 3 (PAB: dummy with #1's own 3) = 5.
    // #2: 3 (#1) + 1.5 (bye: dummy with its own 1.5) + 0.5 (#3) = 5.
    // #3: 1.5 (#4) + 3 (#1) + 1.5 (#2) = 6.   #4: 0.5 (#3) + 0.5 + 0.5 (dummies) = 1.5.
    expect(values(t, "BH")).toEqual({ 1: 5, 2: 5, 3: 6, 4: 1.5 });
  });

  it("cuts a voluntarily unplayed round first, a pairing-allocated bye never first", () => {
    // #1: 1.5, 0.5, 3 (PAB, not voluntary): the lowest, #3's 0.5, goes -> 4.5.
    // #2: 3, 1.5 (half-point bye, voluntary), 0.5: the bye goes (1.5 >= 0.5) -> 3.5.
    expect(values(t, "BH-C1")).toMatchObject({ 1: 4.5, 2: 3.5 });
  });

  it("weights each value by the result", () => {
    // #1: 1 × 1.5 + 1 × 0.5 + 1 × 3 (PAB, a win against the dummy) = 5.
    // #2: 0 × 3 + ½ × 1.5 (bye) + 1 × 0.5 = 1.25.   #3: ½ × 1.5 + 0 + 0 = 0.75.
    expect(values(t, "SB")).toMatchObject({ 1: 5, 2: 1.25, 3: 0.75 });
  });

  it("applies Median-1 as one cut at each end", () => {
    // #3: values 1.5 (#4), 3 (#1), 1.5 (#2): drop 1.5 and 3.
    expect(values(t, "BH-M1")[3]).toBe(1.5);
  });
});

describe("Buchholz under pre-2023 (virtual opponent)", () => {
  const t = tournament(SMALL, "pre-2023");

  it("uses the virtual opponent and counts every unplayed round of an opponent as a draw", () => {
    // As opponents see them: #1 1 + 1 + ½ = 2.5, #2 0 + ½ + 1 = 1.5, #3 0.5, #4 ½ × 3 = 1.5.
    // Virtual opponents (score before + the opposite result + ½ per later round): #1 round 3
    // (PAB) 2 + 0 + 0 = 2; #2 round 2 (½ bye) 0 + ½ + ½ = 1; #4 round 2 ½ + 1 + ½ = 2, round 3
    // ½ + 1 + 0 = 1.5.
    // #1: 1.5 + 0.5 + 2 = 4; #2: 2.5 + 1 + 0.5 = 4; #3: 1.5 + 2.5 + 1.5 = 5.5; #4: 0.5 + 2 + 1.5 = 4.
    expect(values(t, "BH")).toEqual({ 1: 4, 2: 4, 3: 5.5, 4: 4 });
  });

  it("cuts the lowest value, whatever the round", () => {
    // #2: 2.5, 1 (the bye's virtual opponent), 0.5: the 0.5 goes -> 3.5.
    expect(values(t, "BH-C1")[2]).toBe(3.5);
  });
});

describe("fide-2026", () => {
  it("computes on standard points whatever the scoring", () => {
    const t = tournament(SMALL, "fide-2026");
    const threeForWin = {
      ...t,
      scoring: { ...t.scoring, win: 3, draw: 1, pairingAllocatedBye: 3, halfBye: 1 },
    };
    // The values of 1/½/0, although points are 3/1/0. Standard scores: #1 3, #2 1½, #3 ½, #4 ½;
    // adjusted: #1 3, #2 1½, #3 ½, #4 ½ + ½ + ½ (absences after its last game) = 1½.
    // #1's PAB meets the 2026 dummy, capped at ½ × 3 rounds = 1½ (fide-2023: its own 3):
    // #1 1½ + ½ + 1½ = 3½; #2 3 + dummy min(1½, 1½) + ½ = 5; #3 1½ + 3 + 1½ = 6;
    // #4 ½ + two dummies min(½, 1½) = 1½.
    expect(values(threeForWin, "BH")).toEqual({ 1: 3.5, 2: 5, 3: 6, 4: 1.5 });
    const fide2023 = { ...threeForWin, tiebreakRules: "fide-2023" as const };
    // With 3 / 1 / 0: #2 has 4, #3 1 and #1 9 (its own dummy round).
    expect(values(fide2023, "BH")[1]).toBe(14);
  });
});

describe("direct encounter", () => {
  const t = tournament(SMALL, "fide-2023");

  it("sums the points between tied players who all met", () => {
    // #1 beat #2 in round 1: 1 and 0. #3 and #4 drew in round 1: ½ each.
    const engine = new TiebreakEngine(t, 3);
    expect(
      Object.fromEntries(
        engine.values("DE", [
          [1, 2],
          [3, 4],
        ]),
      ),
    ).toEqual({ 1: 1, 2: 0, 3: 0.5, 4: 0.5 });
  });

  it("gives 0 to every player of a group that did not all meet, and to a player alone", () => {
    // #4 met neither #1 nor #2.
    const engine = new TiebreakEngine(t, 3);
    expect(Object.fromEntries(engine.values("DE", [[1, 2, 4], [3]]))).toEqual({ 1: 0, 2: 0, 4: 0, 3: 0 });
  });
});

describe("other tie-breaks", () => {
  const t = tournament(SMALL, "fide-2023");

  it("WIN counts unplayed wins, WON only games won over the board", () => {
    // #1: two wins and a PAB -> WIN 3, WON 2. #2: one win (the half-point bye is not a win).
    expect(values(t, "WIN")).toEqual({ 1: 3, 2: 1, 3: 0, 4: 0 });
    expect(values(t, "WON")).toEqual({ 1: 2, 2: 1, 3: 0, 4: 0 });
  });

  it("BPG and BWG count games with Black", () => {
    // Black: #2 in rounds 1 and 3 (won round 3), #3 in round 2, #4 in round 1; #1 never.
    expect(values(t, "BPG")).toEqual({ 1: 0, 2: 2, 3: 1, 4: 1 });
    expect(values(t, "BWG")).toEqual({ 1: 0, 2: 1, 3: 0, 4: 0 });
  });

  it("GE counts rounds the player was available to play", () => {
    // Played, PAB or forfeit win: #1 2 games + PAB = 3; #2 rounds 1 and 3 (not the requested
    // bye) = 2; #3 3 games; #4 round 1 only.
    expect(values(t, "GE")).toEqual({ 1: 3, 2: 2, 3: 3, 4: 1 });
  });

  it("PS sums running scores; PS-C1 drops the first", () => {
    // #1: 1 + 2 + 3 = 6, without round 1: 5. #2: 0 + ½ + 1.5 = 2, without round 1 still 2.
    expect(values(t, "PS")).toMatchObject({ 1: 6, 2: 2 });
    expect(values(t, "PS-C1")).toMatchObject({ 1: 5, 2: 2 });
  });

  it("ARO averages the ratings of opponents met over the board, rounding halves up", () => {
    // #1: (1900 + 1800) / 2 = 1850; #2: (2000 + 1800) / 2 = 1900; #3: (1700 + 2000 + 1900) / 3 =
    // 1866.7 -> 1867; #4: 1800. ARO-C1: #1 drops 1800 -> 1900; #4 has one opponent: none left.
    expect(values(t, "ARO")).toEqual({ 1: 1850, 2: 1900, 3: 1867, 4: 1800 });
    expect(values(t, "ARO-C1")).toMatchObject({ 1: 1900, 4: null });
  });

  it("TPR adds the rating difference of the score over the board", () => {
    // #1 won both games: p = 1 -> +800.
    expect(values(t, "TPR")[1]).toBe(2650);
    // #3: 0.5 of 3 -> p 0.17 -> -273.
    expect(values(t, "TPR")[3]).toBe(1867 - 273);
  });
});

describe("round robins", () => {
  const lines = [
    player(1, 1500, ["2 w +", "3 b 1", "0 - Z"]),
    player(2, 1500, ["1 b -", "0 - Z", "3 w 0"]),
    player(3, 1500, ["0 - Z", "1 w 0", "2 b 1"]),
  ];

  it("count a forfeit as a game against the scheduled opponent", () => {
    const rr = tournament(lines, "fide-2023", "Round Robin");
    // #1: forfeit win over #2 (0 points) and a win over #3 (1 point).
    expect(new TiebreakEngine(rr, 3).values("SB", [[1]]).get(1)).toBe(1);
  });

  it("unlike a Swiss, where the forfeit is a round against the dummy opponent", () => {
    const swiss = tournament(lines, "fide-2023");
    // #1 scores 2: forfeit round 2 x 1, win over #3 1 x 1, absence 2 x 0.
    expect(new TiebreakEngine(swiss, 3).values("SB", [[1]]).get(1)).toBe(3);
  });
});
