// TRF-2026 record 222 (encoded time control) in words, following the record's grammar.
import { describe, expect, it } from "vitest";
import { parseTrf } from "../../../src/trf/parse.ts";
import { timeControlText } from "../../../src/trf/time-control.ts";
import { trfToTournament } from "../../../src/trf/to-tournament.ts";

describe("record 222", () => {
  it("puts each period form in words", () => {
    expect(timeControlText("5400+30")).toBe("90 min + 30 s per move");
    expect(timeControlText("40/6000+30:900+30")).toBe(
      "40 moves in 100 min + 30 s per move, then 15 min + 30 s per move",
    );
    expect(timeControlText("600")).toBe("10 min");
    expect(timeControlText("7200")).toBe("2 h");
    expect(timeControlText("45+2")).toBe("45 s + 2 s per move");
    expect(timeControlText("W300-B240")).toBe("White 5 min; Black 4 min");
  });

  it("gives null for what does not follow the grammar", () => {
    for (const code of ["90 min + 30 sec", "W300", "5400+", "", "40/"])
      expect(timeControlText(code), code).toBeNull();
  });

  const PLAYER = "001    1      Player One                        2000 GER".padEnd(91) + "   0 - U";
  const tc = (lines: string[]) =>
    trfToTournament(parseTrf(["012 Test", ...lines, PLAYER].join("\n")), {
      externalId: 1n,
      now: "2026-11-01T00:00:00Z",
    }).timeControl;

  it("is the time control when the file has no 122; 122's own words win", () => {
    expect(tc(["222 5400+30"])).toBe("90 min + 30 s per move");
    expect(tc(["122 90'+30\"", "222 5400+30"])).toBe("90'+30\"");
    expect(tc(["222 G/90 d5"])).toBe("G/90 d5");
    expect(tc([])).toBeNull();
  });
});
