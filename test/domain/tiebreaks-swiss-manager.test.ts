// Swiss-Manager's practice under the pre-2023 rules, on a hand-made crosstable with a forfeit,
// a half-point bye and a pairing-allocated bye. Every expected value is worked out below.
import { describe, expect, it } from "vitest";
import { TiebreakEngine, validateTiebreaks } from "../../src/domain/tiebreaks.ts";
import type { TiebreakRuleSet, Tournament } from "../../src/domain/types.ts";
import { parseTrf } from "../../src/trf/parse.ts";
import { trfToTournament } from "../../src/trf/to-tournament.ts";

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

describe("Koya with a limit (KS-L<percent>)", () => {
  const t = tournament(CROSSTABLE, "pre-2023");

  it("counts points against opponents at or above 50% by default", () => {
    // Limit 1.5 of 3: #1, #2 and #3 qualify. #1: 1 (vs #2) + ½ (vs #3) = 1.5; #3: ½ (vs #1), the
    // forfeit does not count; #4: 0.
    expect(values(t, "KS")).toEqual({ 1: 1.5, 2: 0, 3: 0.5, 4: 0 });
  });

  it("moves the limit to the given percentage of the maximum score", () => {
    // 60% of 3 = 1.8: only #1 and #3 (2.5) qualify. #1 keeps ½ (vs #3); #2 has lost to #1.
    expect(values(t, "KS-L60")).toEqual({ 1: 0.5, 2: 0, 3: 0.5, 4: 0 });
    // 10% of 3 = 0.3: #4 (0) still does not qualify; as KS.
    expect(values(t, "KS-L10")).toEqual(values(t, "KS"));
  });

  it("is validated: a percentage from 1 to 100, on KS only", () => {
    expect(validateTiebreaks(["KS-L60", "KS-L100", "KS-L1"])).toEqual([]);
    expect(validateTiebreaks(["KS-L0"])[0]).toMatch(/percentage from 1 to 100/);
    expect(validateTiebreaks(["BH-L50"])[0]).toMatch(/BH.*modifiers/);
  });
});
