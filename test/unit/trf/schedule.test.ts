// TRF record 132: round dates, kept only when they are real dates within the tournament's dates.
import { describe, expect, it } from "vitest";
import { parseTrf } from "../../../src/trf/parse.ts";
import { roundDate, trfSchedule } from "../../../src/trf/schedule.ts";
import { trfToTournament } from "../../../src/trf/to-tournament.ts";

const PLAYER = "001    1      Player One                        2000 GER".padEnd(91) + "   0 - U";

function file(lines: string[]): string {
  return ["012 Test", ...lines, PLAYER].join("\n");
}

describe("record 132", () => {
  it("reads YY/MM/DD (and . or -, four-digit years)", () => {
    expect(roundDate("26/11/18")).toBe("2026-11-18");
    expect(roundDate("2026.11.19")).toBe("2026-11-19");
    expect(roundDate("99-12-31")).toBe("1999-12-31");
    expect(roundDate("26/02/30")).toBeNull();
    expect(roundDate("11.25.02")).toBeNull();
    expect(roundDate("")).toBeNull();
  });

  it("gives each round its date, leaving out dates outside 042..052", () => {
    const f = parseTrf(
      file([
        "042 2026/11/18",
        "052 2026/11/20",
        "132" + " ".repeat(88) + "26/11/18  26/11/19  01/11/20  26/11/20",
      ]),
    );
    expect(trfSchedule(f, "2026-11-18", "2026-11-20")).toEqual([
      { roundNumber: 1, date: "2026-11-18", time: null },
      { roundNumber: 2, date: "2026-11-19", time: null },
      { roundNumber: 4, date: "2026-11-20", time: null },
    ]);
  });

  it("reaches the tournament, within the declared number of rounds", () => {
    const f = parseTrf(file(["XXR 2", "132" + " ".repeat(88) + "26/11/18  26/11/19  26/11/20"]));
    const t = trfToTournament(f, { externalId: 1n, now: "2026-11-01T00:00:00Z" });
    expect(t.schedule.map((r) => r.roundNumber)).toEqual([1, 2]);
  });

  it("is empty without a 132 record", () => {
    expect(trfSchedule(parseTrf(file([])), null, null)).toEqual([]);
  });
});
