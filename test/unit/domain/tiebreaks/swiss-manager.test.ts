// Swiss-Manager's practice under the pre-2023 rules, on a hand-made crosstable with a forfeit,
// a half-point bye and a pairing-allocated bye. Every expected value is worked out below.
import { describe, expect, it } from "vitest";
import { validateTiebreaks } from "../../../../src/domain/tiebreaks/acronyms.ts";
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
    s += `${opp!.padStart(4)} ${colour} ${code}  `;
  }
  return s.trimEnd();
}

function tournament(lines: string[], rules: TiebreakRuleSet): Tournament {
  const text = ["012 Test", "092 Swiss", ...lines].join("\n");
  return trfToTournament(parseTrf(text, "test.trf"), { externalId: 1n, rules, now: "2026-01-01T00:00:00Z" });
}

function values(t: Tournament, acronym: string): Record<number, number | null> {
  const engine = new TiebreakEngine(t, 3);
  return Object.fromEntries(engine.values(acronym, [t.players.map((p) => p.sourcePlayerNumber)]));
}

// Round 1: #1-#2 1-0, #3-#4 forfeit (+/-). Round 2: #3-#1 ½-½, #2-#4 1-0.
// Round 3: #1-#4 1-0, #2 half-point bye (H), #3 pairing-allocated bye (U).
// Scores: #1 2.5, #2 1.5, #3 2.5, #4 0.
//
// Opponents' scores with every unplayed round counted as a draw (½):
//   #1 2.5; #2 0 + 1 + ½ = 1.5; #3 ½ + ½ + ½ = 1.5; #4 ½ + 0 + 0 = 0.5.
// Virtual opponents (score before the round + the opposite result + ½ per later round):
//   #3 round 1 (forfeit win): 0 + 0 + 2 × ½ = 1;   #3 round 3 (PAB): 1.5 + 0 + 0 = 1.5;
//   #4 round 1 (forfeit loss): 0 + 1 + 2 × ½ = 2;  #2 round 3 (bye ½): 1 + ½ + 0 = 1.5.
const CROSSTABLE = [
  player(1, 2000, ["2 w 1", "3 b =", "4 w 1"]),
  player(2, 1900, ["1 b 0", "4 w 1", "0 - H"]),
  player(3, 1800, ["4 w +", "1 w =", "0 - U"]),
  player(4, 1700, ["3 b -", "2 b 0", "1 b 0"]),
];

describe("pre-2023 as Swiss-Manager computes it", () => {
  const t = tournament(CROSSTABLE, "pre-2023");

  it("Buchholz: virtual opponents for own unplayed rounds, opponents' unplayed rounds as draws", () => {
    // #1: 1.5 + 1.5 + 0.5; #2: 2.5 + 0.5 + 1.5 (VO); #3: 1 (VO) + 2.5 + 1.5 (VO); #4: 2 (VO) + 1.5 + 2.5.
    expect(values(t, "BH")).toEqual({ 1: 3.5, 2: 4.5, 3: 5, 4: 6 });
  });

  it("Sonneborn-Berger adds half the virtual opponent's score for an own unplayed round, whatever its result", () => {
    // #1: 1 × 1.5 + ½ × 1.5 + 1 × 0.5 = 2.75.
    // #2: 0 × 2.5 + 1 × 0.5 + ½ × 1.5 (bye) = 1.25.
    // #3: ½ × 1 (forfeit win, not 1 × 1) + ½ × 2.5 + ½ × 1.5 (PAB, not 1 × 1.5) = 2.5.
    // #4: ½ × 2 (forfeit loss, not 0 × 2) + 0 + 0 = 1.
    expect(values(t, "SB")).toEqual({ 1: 2.75, 2: 1.25, 3: 2.5, 4: 1 });
  });

  it("SB-C1 cuts the lowest opponent value, a virtual opponent included", () => {
    // #3: values 1 (VO, adds 0.5), 2.5 (adds 1.25), 1.5 (VO, adds 0.75): the VO of round 1 goes.
    expect(values(t, "SB-C1")[3]).toBe(2);
  });

  it("ARO-C1: with an unplayed round, the plain average of the opponents played", () => {
    // #1 played all three: the cut drops the lowest, 1700 -> (1900 + 1800) / 2 = 1850.
    // #2 played 2000 and 1700, round 3 unplayed: the cut takes the bye -> 1850 (not 2000).
    // #3 played only 2000: the cut takes an unplayed round -> 2000 (not undefined).
    // #4 played 1900 and 2000, round 1 forfeited: the cut takes the forfeit -> 1950 (not 2000).
    expect(values(t, "ARO-C1")).toEqual({ 1: 1850, 2: 1850, 3: 2000, 4: 1950 });
    // Without a cut #1 averages all three: (1900 + 1800 + 1700) / 3 = 1800.
    expect(values(t, "ARO")).toEqual({ 1: 1800, 2: 1850, 3: 2000, 4: 1950 });
  });

  it("ARO-C2 takes the unplayed rounds first, then the lowest ratings", () => {
    // #2: one unplayed round, then 1700 -> 2000. #3: two unplayed rounds -> 2000.
    expect(values(t, "ARO-C2")).toMatchObject({ 2: 2000, 3: 2000 });
  });

  it("differs from fide-2023, where the cut removes played opponents only", () => {
    const f = tournament(CROSSTABLE, "fide-2023");
    expect(values(f, "ARO-C1")).toMatchObject({ 2: 2000, 3: null, 4: 2000 });
  });
});

describe("Koya with a limit (C.07 14.5: KS-L+n / KS-L-n half points; KS-L<percent>)", () => {
  const t = tournament(CROSSTABLE, "pre-2023");

  it("counts points against opponents at or above 50% by default", () => {
    // Limit 1.5 of 3: #1, #2 and #3 qualify. #1: 1 (vs #2) + ½ (vs #3) = 1.5; #3: ½ (vs #1), the
    // forfeit does not count; #4: 0.
    expect(values(t, "KS")).toEqual({ 1: 1.5, 2: 0, 3: 0.5, 4: 0 });
  });

  it("raises or lowers the limit by half points", () => {
    // KS-L+1: 1.5 + ½ = 2: only #1 and #3 (2.5) qualify. #1: ½ (vs #3); #2 lost to #1: 0;
    // #3: ½ (vs #1); #4 met #1 over the board and lost: 0.
    expect(values(t, "KS-L+1")).toEqual({ 1: 0.5, 2: 0, 3: 0.5, 4: 0 });
    // KS-L-1: 1.5 - ½ = 1: #1, #2, #3 qualify, #4 (0) does not: as KS.
    expect(values(t, "KS-L-1")).toEqual(values(t, "KS"));
    // KS-L-3: 1.5 - 1½ = 0: everyone qualifies. #1: 1 + ½ + 1 (vs #4) = 2.5; #2: 0 + 1 (vs #4) = 1;
    // #3: ½ (the forfeit against #4 is not a game); #4: 0.
    expect(values(t, "KS-L-3")).toEqual({ 1: 2.5, 2: 1, 3: 0.5, 4: 0 });
  });

  it("counts a half point as half a win's points under another scoring", () => {
    // 3 / 1 / 0, half-point bye 1: #1 3 + 1 + 3 = 7; #2 0 + 3 + 1 = 4; #3 3 (forfeit) + 1 + 3 (PAB)
    // = 7; #4 0. Maximum 3 × 3 = 9, 50% = 4.5: #1 and #3 qualify; #1 scored 1 against #3.
    // KS-L-1: 4.5 - 1.5 = 3: #2 (4) qualifies too; #1 adds the 3 of its win against #2 -> 4.
    const s = {
      ...t,
      scoring: { ...t.scoring, win: 3, draw: 1, forfeitWin: 3, pairingAllocatedBye: 3, halfBye: 1 },
    };
    expect(values(s, "KS")).toMatchObject({ 1: 1, 3: 1 });
    expect(values(s, "KS-L-1")).toMatchObject({ 1: 4, 2: 0, 3: 1 });
  });

  it("moves the limit to the given percentage of the maximum score", () => {
    // 60% of 3 = 1.8: only #1 and #3 (2.5) qualify. #1 keeps ½ (vs #3); #2 has lost to #1.
    expect(values(t, "KS-L60")).toEqual({ 1: 0.5, 2: 0, 3: 0.5, 4: 0 });
    // 10% of 3 = 0.3: #4 (0) still does not qualify; as KS.
    expect(values(t, "KS-L10")).toEqual(values(t, "KS"));
  });

  it("is validated: half points with a sign or a percentage from 1 to 100, on KS only", () => {
    expect(validateTiebreaks(["KS-L+1", "KS-L-2", "KS-L60", "KS-L100", "KS-L1"])).toEqual([]);
    expect(validateTiebreaks(["KS-L0"])[0]).toMatch(/percentage from 1 to 100/);
    expect(validateTiebreaks(["KS-L+"])[0]).toMatch(/not a tie-break acronym/);
    expect(validateTiebreaks(["BH-L50"])[0]).toMatch(/BH.*modifiers/);
    expect(validateTiebreaks(["BH-L+1"])[0]).toMatch(/BH.*modifiers/);
  });
});

// A withdrawal and pairing-allocated byes. Round 1: #1-#2 1-0, #3-#4 ½-½. Round 2: #3-#1 0-1,
// #2 PAB (U), #4 absent (Z: withdrawn). Round 3: #2-#3 1-0, #1 PAB, #4 absent.
// Scores: #1 3, #2 2, #3 0.5, #4 0.5. Ratings 2000, 1900, 1800, 1700.
//
// As opponents see them (every unplayed round ½): #1 1 + 1 + ½ = 2.5; #2 0 + ½ + 1 = 1.5;
// #3 ½ + 0 + 0 = 0.5; #4 ½ + ½ + ½ = 1.5.
// Virtual opponents (score before + the opposite result + ½ per later round):
//   #1 round 3 (PAB): 2 + 0 + 0 = 2;   #2 round 2 (PAB): 0 + 0 + ½ = 0.5;
//   #4 round 2 (absent): ½ + 1 + ½ = 2; #4 round 3 (absent): ½ + 1 + 0 = 1.5.
const WITHDRAWAL = [
  player(1, 2000, ["2 w 1", "3 b 1", "0 - U"]),
  player(2, 1900, ["1 b 0", "0 - U", "3 w 1"]),
  player(3, 1800, ["4 w =", "1 w 0", "2 b 0"]),
  player(4, 1700, ["3 b =", "0 - Z", "0 - Z"]),
];

describe("pre-2023 with a withdrawal and pairing-allocated byes", () => {
  const t = tournament(WITHDRAWAL, "pre-2023");

  it("BH: a virtual opponent for each round after the withdrawal; the withdrawn rounds are ½ for opponents", () => {
    // #1: 1.5 (#2) + 0.5 (#3) + 2 (VO) = 4.   #2: 2.5 (#1) + 0.5 (VO) + 0.5 (#3) = 3.5.
    // #3: 1.5 (#4, not its 0.5 at face value) + 2.5 + 1.5 = 5.5.   #4: 0.5 (#3) + 2 + 1.5 (VOs) = 4.
    expect(values(t, "BH")).toEqual({ 1: 4, 2: 3.5, 3: 5.5, 4: 4 });
  });

  it("BH-C1 drops the lowest value, a virtual opponent or a played one alike", () => {
    // #1 drops #3's 0.5 -> 3.5; #2 drops a 0.5 -> 3; #3 drops 1.5 -> 4; #4 drops #3's 0.5 -> 3.5.
    expect(values(t, "BH-C1")).toEqual({ 1: 3.5, 2: 3, 3: 4, 4: 3.5 });
  });

  it("SB: the withdrawn player's absences add half their virtual opponents, as Swiss-Manager does", () => {
    // #1: 1 × 1.5 + 1 × 0.5 + ½ × 2 (PAB) = 3.   #2: 0 × 2.5 + ½ × 0.5 (PAB) + 1 × 0.5 = 0.75.
    // #3: ½ × 1.5 + 0 + 0 = 0.75.   #4: ½ × 0.5 + ½ × 2 + ½ × 1.5 = 2.
    expect(values(t, "SB")).toEqual({ 1: 3, 2: 0.75, 3: 0.75, 4: 2 });
  });

  it("FB: the last round's game as a draw, its byes and absences as they are", () => {
    // Round 3 #2-#3 becomes ½-½: #2 0 + 1 + ½ = 1.5, #3 ½ + 0 + ½ = 1 at face value.
    // As opponents see them: #1 2.5, #2 0 + ½ + ½ = 1, #3 ½ + 0 + ½ = 1, #4 1.5.
    // Virtual opponents as above: #1 round 3: 2; #2 round 2: 0.5; #4: 2 and 1.5.
    // #1: 1 + 1 + 2 = 4; #2: 2.5 + 0.5 + 1 = 4; #3: 1.5 + 2.5 + 1 = 5; #4: 1 + 2 + 1.5 = 4.5.
    expect(values(t, "FB")).toEqual({ 1: 4, 2: 4, 3: 5, 4: 4.5 });
  });

  it("PS and WIN count the rounds at face value", () => {
    // PS: #1 1 + 2 + 3 = 6; #2 0 + 1 + 2 = 3; #3 and #4 ½ + ½ + ½ = 1.5.
    expect(values(t, "PS")).toEqual({ 1: 6, 2: 3, 3: 1.5, 4: 1.5 });
    // WIN: #1 two wins and a PAB = 3; #2 a PAB and a win = 2.
    expect(values(t, "WIN")).toEqual({ 1: 3, 2: 2, 3: 0, 4: 0 });
  });

  it("ARO-C1: the cut takes a bye or an absence before any opponent played", () => {
    // #1 met 1900 and 1800, PAB in round 3 -> 1850. #2 met 2000 and 1800 -> 1900.
    // #3 met all three (1700, 2000, 1900): the lowest goes -> 1950. #4 met only 1800 -> 1800.
    expect(values(t, "ARO-C1")).toEqual({ 1: 1850, 2: 1900, 3: 1950, 4: 1800 });
  });
});

// A double loss over the board (both scored 0: "0"/"0") is a played game. Round 1: #1-#2 0-0,
// #3-#4 1-0. Round 2: #1-#3 ½-½, #2-#4 1-0. Scores: #1 0.5, #2 1, #3 1.5, #4 0.
const DOUBLE_LOSS = [
  player(1, 2000, ["2 w 0", "3 w ="]),
  player(2, 1900, ["1 b 0", "4 w 1"]),
  player(3, 1800, ["4 w 1", "1 b ="]),
  player(4, 1700, ["3 b 0", "2 b 0"]),
];

describe("a double loss counts as a played game (as Vega counts it)", () => {
  for (const rules of ["pre-2023", "fide-2023"] as const) {
    it(`under ${rules}: the real opponent, at face value on both sides`, () => {
      const t = tournament(DOUBLE_LOSS, rules);
      const at2 = (acronym: string) => {
        const engine = new TiebreakEngine(t, 2);
        return Object.fromEntries(engine.values(acronym, [[1, 2, 3, 4]]));
      };
      // #1: #2 (1) + #3 (1.5) = 2.5. A virtual opponent would be 0 + 1 + ½ = 1.5 (pre-2023), a
      // dummy 0.5 (fide-2023).
      // #2: #1 at face value 0.5 (not 1, as a forfeit loss would count under pre-2023) + #4 0 = 0.5.
      expect(at2("BH")).toMatchObject({ 1: 2.5, 2: 0.5 });
      // SB #1: 0 × 1 + ½ × 1.5 = 0.75 (no half of a virtual opponent for the double loss).
      expect(at2("SB")[1]).toBe(0.75);
      // Played, not won: GE 2, WON 0; ARO over both opponents: (1900 + 1800) / 2 = 1850.
      expect(at2("GE")[1]).toBe(2);
      expect(at2("WON")[1]).toBe(0);
      expect(at2("ARO")[1]).toBe(1850);
    });
  }
});
