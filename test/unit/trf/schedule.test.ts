// TRF record 132: round dates, kept only when they are real dates within the tournament's dates.
import { describe, expect, it } from "vitest";
import { parseTrf } from "../../../src/trf/parse.ts";
import { BuildError, EXIT } from "../../../src/shared/errors.ts";
import {
  NO_TIMES,
  parseRoundTimes,
  roundDate,
  roundDateFields,
  scheduleWarnings,
  trfSchedule,
} from "../../../src/trf/schedule.ts";
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

  it("places TRF-2026 fields by column: a blank field leaves its round out, later rounds keep theirs", () => {
    const line = "132" + " ".repeat(88) + "26/11/18" + " ".repeat(12) + "26/11/20";
    expect(roundDateFields(line)).toEqual([
      { round: 1, field: "26/11/18" },
      { round: 3, field: "26/11/20" },
    ]);
    expect(trfSchedule(parseTrf(file([line])), null, null).map((r) => [r.roundNumber, r.date])).toEqual([
      [1, "2026-11-18"],
      [3, "2026-11-20"],
    ]);
  });

  it("reads fields off the columns (older exports, four-digit years) in file order", () => {
    expect(roundDateFields("132 2026/11/18 2026/11/19").map((f) => f.round)).toEqual([1, 2]);
    const f = parseTrf(file(["132" + " ".repeat(88) + "2026/11/18  2026/11/20"]));
    expect(trfSchedule(f, null, null).map((r) => r.roundNumber)).toEqual([1, 2]);
  });
});

describe("--round-time", () => {
  it("gives every dated round the common time, and a round its own", () => {
    const f = parseTrf(file(["132" + " ".repeat(88) + "26/11/18  26/11/19  26/11/20"]));
    expect(trfSchedule(f, null, null, parseRoundTimes("18:30, 3=9:05"))).toEqual([
      { roundNumber: 1, date: "2026-11-18", time: "18:30" },
      { roundNumber: 2, date: "2026-11-19", time: "18:30" },
      { roundNumber: 3, date: "2026-11-20", time: "09:05" },
    ]);
    expect(trfSchedule(f, null, null, parseRoundTimes("2=10:00")).map((r) => r.time)).toEqual([
      null,
      "10:00",
      null,
    ]);
  });

  it("refuses what is not a time or a round, naming it (exit 2)", () => {
    for (const [spec, what] of [
      ["24:00", '"24:00" is not a time'],
      ["18h30", '"18h30" is not a time'],
      ["0=10:00", '"0" is not a round number'],
      ["18:30,19:00", "two times for every round"],
      ["1=10:00,1=11:00", "round 1 is given twice"],
      ["18:30,", "an empty entry"],
    ] as const) {
      let err: unknown;
      try {
        parseRoundTimes(spec);
      } catch (e) {
        err = e;
      }
      expect(err, spec).toBeInstanceOf(BuildError);
      expect((err as BuildError).exitCode, spec).toBe(EXIT.usage);
      expect((err as BuildError).message, spec).toContain(what);
    }
  });
});

describe("record 132 warnings and a one-day event", () => {
  it("names the line of a 132 record whose fields are not round dates", () => {
    const f = parseTrf(
      file(["042 25.02.2011", "052 27.02.2011", "132" + " ".repeat(88) + "11.25.02  11.26.02  11/02/27"]),
      "bunratty.trf",
    );
    const [warning, ...rest] = scheduleWarnings(f, "2011-02-25", "2011-02-27");
    expect(rest).toEqual([]);
    expect(warning).toMatch(/^bunratty\.trf:4: record 132: "11\.25\.02", "11\.26\.02" are not round dates/);
    expect(warning).toMatch(/YY\/MM\/DD/);
    // A readable line gives no warning.
    const good = parseTrf(file(["132" + " ".repeat(88) + "26/11/18  26/11/19"]));
    expect(scheduleWarnings(good, null, null)).toEqual([]);
  });

  it("gives every round of a one-day event (042 = 052) without 132 the --round-time times", () => {
    const f = parseTrf(file(["042 2024/07/31", "052 2024/07/31"]));
    const times = parseRoundTimes("10:00,3=14:30");
    expect(trfSchedule(f, "2024-07-31", "2024-07-31", times, 3)).toEqual([
      { roundNumber: 1, date: "2024-07-31", time: "10:00" },
      { roundNumber: 2, date: "2024-07-31", time: "10:00" },
      { roundNumber: 3, date: "2024-07-31", time: "14:30" },
    ]);
    // Two days without 132: no date to put the times on.
    expect(trfSchedule(f, "2024-07-31", "2024-08-01", times, 3)).toEqual([]);
    // One day but no times given: no schedule is invented.
    expect(trfSchedule(f, "2024-07-31", "2024-07-31", NO_TIMES, 3)).toEqual([]);
  });
});
