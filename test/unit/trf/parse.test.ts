import { describe, expect, it } from "vitest";
import { BuildError, EXIT } from "../../../src/shared/errors.ts";
import { header, parseTrf } from "../../../src/trf/parse.ts";
import { convertTrf, trfDate } from "../../../src/trf/to-tournament.ts";
import { tiebreaksFromTrfHeader, trfTiebreakCode } from "../../../src/trf/tiebreak-codes.ts";

/** A column-exact 001 record (see the column table in src/trf/parse.ts). */
function rec(f: {
  no: number;
  sex?: string;
  title?: string;
  name: string;
  rating?: string;
  fed?: string;
  id?: string;
  born?: string;
  points: string;
  rank?: string;
  cells: string[];
}): string {
  const head =
    "001 " +
    String(f.no).padStart(4) +
    " " +
    (f.sex ?? " ") +
    (f.title ?? "").padStart(3) +
    " " +
    f.name.padEnd(33) +
    " " +
    (f.rating ?? "").padStart(4) +
    " " +
    (f.fed ?? "").padEnd(3) +
    " " +
    (f.id ?? "").padStart(11) +
    " " +
    (f.born ?? "").padEnd(10) +
    " " +
    f.points.padStart(4) +
    " " +
    (f.rank ?? "").padStart(4) +
    "  ";
  return head + f.cells.map((c) => c.padStart(8)).join("  ");
}

const P1 = rec({
  no: 1,
  sex: "m",
  title: "GM",
  name: "Alpha, Anna",
  rating: "2500",
  fed: "GER",
  id: "12345678",
  born: "1990/01/01",
  points: "1.5",
  rank: "1",
  cells: ["2 w 1", "0000 - H"],
});
const P2 = rec({
  no: 2,
  sex: "w",
  name: "Beta, Berta",
  rating: "2400",
  fed: "FRA",
  points: "0.0",
  rank: "3",
  cells: ["1 b 0", "3 w -"],
});
const P3 = rec({
  no: 3,
  title: "g",
  name: "Gamma, Gerd",
  rating: "0",
  points: "2.0",
  rank: "2",
  cells: ["0000 - U", "2 b +"],
});
const FILE = [
  "012 Test Open",
  "022 Berlin",
  "042 2025/04/29",
  "052 29.05.2025",
  "092 Individual: Swiss-System",
  "XXR 5",
  P1,
  P2,
  P3,
].join("\n");

function errorOf(text: string): BuildError {
  try {
    parseTrf(text, "bad.trf");
  } catch (e) {
    return e as BuildError;
  }
  throw new Error("expected a BuildError");
}

describe("parseTrf", () => {
  it("reads player records by column", () => {
    const f = parseTrf(FILE, "t.trf");
    expect(f.players).toHaveLength(3);
    expect(f.players[0]).toMatchObject({
      startNo: 1,
      sex: "m",
      title: "GM",
      name: "Alpha, Anna",
      rating: 2500,
      federation: "GER",
      fideId: 12345678n,
      points: 1.5,
      rank: 1,
    });
    expect(f.players[0]!.rounds.map((c) => [c.opponent, c.colour, c.code])).toEqual([
      [2, "w", "1"],
      [null, null, "H"],
    ]);
    expect(f.players[2]).toMatchObject({ title: "GM", rating: null, fideId: null });
    expect(f.roundColumns).toBe(2);
    expect(header(f, "012")).toBe("Test Open");
    expect(header(f, "XXR")).toBe("5");
  });

  it("accepts lichess-style byes with a blank opponent", () => {
    const line = rec({ no: 1, name: "someone", points: "1.5", cells: ["U", "2 b ="] });
    const other = rec({ no: 2, name: "other", points: "0.5", cells: ["-", "1 w ="] });
    const f = parseTrf([line, other].join("\n"));
    expect(f.players[0]!.rounds[0]).toMatchObject({ opponent: null, code: "U" });
    expect(f.players[1]!.rounds[0]).toMatchObject({ opponent: null, code: "-" });
  });

  it("skips comments, rulers and records it does not use", () => {
    const f = parseTrf(
      [
        "### comment",
        "1234567890",
        "DDD SSSS template",
        "310   1 Team",
        rec({ no: 1, name: "A", points: "0", cells: ["0000 - Z"] }),
      ].join("\n"),
    );
    expect(f.players).toHaveLength(1);
    expect(f.headers.get("310")).toEqual(["1 Team"]);
  });

  it.each([
    [P1.replace("2 w 1", "2 x 1"), 2, 97, /colour "x"/],
    [P1.replace("    2 w 1", "   A2 w 1"), 2, 92, /opponent "A2"/],
    [P1.replace(" 1.5", " 1.x"), 2, 81, /points/],
    [P1.replace("2500", "25O0"), 2, 49, /rating/],
    [P1.replace("001    1", "001    x"), 2, 5, /start number/],
    [P1.replace("    2 w 1", "    9 w 1"), 2, 92, /opponent 9 has no player record/],
  ])("names line and column of a malformed record (%#)", (bad, line, column, what) => {
    const e = errorOf(["012 x", bad, P2, P3].join("\n"));
    expect(e).toBeInstanceOf(BuildError);
    expect(e.exitCode).toBe(EXIT.trf);
    expect(e.problems[0]!.where).toBe(`bad.trf:${line}:${column}`);
    expect(e.problems[0]!.what).toMatch(what);
  });

  it("keeps an unknown result code instead of failing: the import decides", () => {
    const f = parseTrf(["012 x", P1.replace("2 w 1", "2 w 7"), P2, P3].join("\n"));
    expect(f.players[0]!.rounds[0]).toMatchObject({ opponent: 2, code: null, unknownCode: "7" });
  });

  it("rejects a duplicate start number and a file without players", () => {
    expect(errorOf([P1, P1].join("\n")).problems[0]!.what).toMatch(/already used on line 1/);
    expect(errorOf("012 Only a header").problems[0]!.what).toMatch(/no player records/);
  });
});

describe("convertTrf", () => {
  const { tournament: t, warnings } = convertTrf(parseTrf(FILE, "t.trf"), {
    externalId: 5n,
    tiebreaks: ["BH"],
    now: "2026-01-01T00:00:00Z",
  });

  it("builds one board per game, bye rows for H/F/U, nothing for absences", () => {
    expect(warnings).toEqual([]);
    expect(
      t.rounds[0]!.games.map((g) => [
        g.whitePlayerNumber,
        g.blackPlayerNumber,
        g.result,
        g.byeKind,
        g.resultText,
      ]),
    ).toEqual([
      [1, 2, "WhiteWin", null, "1 - 0"],
      [3, null, "Bye", "pab", "bye"],
    ]);
    expect(
      t.rounds[1]!.games.map((g) => [g.whitePlayerNumber, g.blackPlayerNumber, g.result, g.byeKind]),
    ).toEqual([
      [2, 3, "BlackForfeitWin", null],
      [1, null, "Bye", "half"],
    ]);
  });

  it("takes the tournament's data from the headers", () => {
    expect(t).toMatchObject({
      externalId: 5n,
      name: "Test Open",
      location: "Berlin",
      startDate: "2025-04-29",
      endDate: "2025-05-29",
      totalRounds: 5,
      system: "swiss",
      tiebreaks: ["BH"],
      tiebreakRules: "fide-2023",
    });
  });

  it("warns about a game written on one side only", () => {
    const lone = P2.replace("   3 w -", "0000 - Z");
    const { warnings: w } = convertTrf(parseTrf([P1, lone, P3].join("\n"), "x.trf"), {
      externalId: 1n,
      now: "n",
    });
    expect(w).toHaveLength(1);
    expect(w[0]).toMatch(/round 2: player 3 lists opponent 2/);
  });

  it("reads the date forms TRF files use", () => {
    expect(trfDate("2005/07/28")).toBe("2005-07-28");
    expect(trfDate("28. 07. 2005")).toBe("2005-07-28");
    expect(trfDate("25.02.2011")).toBe("2011-02-25");
    expect(trfDate("2011/02/30")).toBeNull();
    expect(trfDate("May 29, 2020")).toBeNull();
  });
});

describe("TRF-2025 tie-break list (202)", () => {
  it("maps codes to C.07 acronyms", () => {
    expect(trfTiebreakCode("BH/C1")).toBe("BH-C1");
    expect(trfTiebreakCode("bh/c2")).toBe("BH-C2");
    const f = parseTrf(["202 DE,BH/C1,BH", P1.slice(0, 89)].join("\n"));
    expect(tiebreaksFromTrfHeader(f)).toEqual({ tiebreaks: ["DE", "BH-C1", "BH"], warnings: [] });
  });

  it("keeps the Koya limit modifier of C.07 14.5 (KS/L+1, KS/L-2)", () => {
    expect(trfTiebreakCode("KS/L+1")).toBe("KS-L+1");
    const f = parseTrf(["202 KS/L-2,SB", P1.slice(0, 89)].join("\n"));
    expect(tiebreaksFromTrfHeader(f)).toEqual({ tiebreaks: ["KS-L-2", "SB"], warnings: [] });
  });

  it("does not use a list with /P (forfeits as played games), which it does not compute", () => {
    const f = parseTrf(["202 BH/C1/P,SB", P1.slice(0, 89)].join("\n"));
    const r = tiebreaksFromTrfHeader(f);
    expect(r.tiebreaks).toEqual([]);
    expect(r.warnings[0]).toMatch(/202 "BH\/C1\/P,SB".*BH-C1-P/);
  });

  it("does not use a list with a code it cannot map", () => {
    const f = parseTrf(["202 EDET/P,BH", P1.slice(0, 89)].join("\n"));
    const r = tiebreaksFromTrfHeader(f);
    expect(r.tiebreaks).toEqual([]);
    expect(r.warnings[0]).toMatch(/EDET/);
  });
});
