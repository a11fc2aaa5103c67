// The scoring system written in the file (TRF-2025 record 162, the XXS line) becomes the
// tournament's scoring, in the domain and in the store.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { BuildError, EXIT } from "../../../src/shared/errors.ts";
import { computeStandings } from "../../../src/domain/standings.ts";
import { createStore } from "../../../src/store/write/init.ts";
import { importTrf } from "../../../src/trf/import.ts";
import { parseTrf } from "../../../src/trf/parse.ts";
import { scoringFromTrf } from "../../../src/trf/scoring.ts";
import { convertTrf } from "../../../src/trf/to-tournament.ts";
import { tempDir, removeTempDirs } from "../../support/temp.ts";

const work = tempDir("trf-scoring");
afterAll(removeTempDirs);

/** A 001 record, column-exact: cells are "opp colour code". */
function rec(no: number, points: string, cells: string[]): string {
  const chars = Array<string>(92 + cells.length * 10).fill(" ");
  const put = (col: number, text: string) => [...text].forEach((c, i) => (chars[col - 1 + i] = c));
  put(1, "001");
  put(5, String(no).padStart(4));
  put(15, `Player ${no}`);
  put(81, points.padStart(4));
  cells.forEach((c, r) => {
    const [opp, colour, code] = c.split(" ");
    put(92 + r * 10, opp!.padStart(4));
    put(97 + r * 10, colour!);
    put(99 + r * 10, code!);
  });
  return chars.join("").trimEnd();
}

// #1 beats #2, draws #3; #2 gets a PAB in round 2; #3 a half-point bye in round 1.
// With 3 / 1 / 0 and byes at their defaults (PAB = W, HPB = D): #1 3 + 1 = 4, #2 0 + 3 = 3,
// #3 1 + 1 = 2.
const GAMES = [
  rec(1, "4.0", ["2 w 1", "3 b ="]),
  rec(2, "3.0", ["1 b 0", "0000 - U"]),
  rec(3, "2.0", ["0000 - H", "1 w ="]),
];

function scoring(headers: string[], warnings: string[] = []) {
  return scoringFromTrf(parseTrf([...headers, ...GAMES].join("\n"), "s.trf"), warnings);
}

describe("scoring from the file", () => {
  it("reads record 162, completing forfeits and byes from win / draw / loss", () => {
    expect(scoring(["162 W 3 D 1 L 0"])).toEqual({
      win: 3,
      draw: 1,
      loss: 0,
      forfeitWin: 3,
      forfeitLoss: 0,
      pairingAllocatedBye: 3,
      fullBye: 3,
      halfBye: 1,
      zeroBye: 0,
    });
  });

  it("reads the XXS line with CODE=VALUE pairs and explicit byes and forfeits", () => {
    expect(scoring(["XXS WW=2 BW=2 WD=1 BD=1 FW=1.5 PAB=1 HPB=0.5 ZPB=0 FL=-1"])).toEqual({
      win: 2,
      draw: 1,
      loss: 0,
      forfeitWin: 1.5,
      forfeitLoss: -1,
      pairingAllocatedBye: 1,
      fullBye: 2,
      halfBye: 0.5,
      zeroBye: 0,
    });
  });

  it("reads TRF-2026's one-letter codes: A sets absences and forfeit losses, P the PAB, X is not stored", () => {
    const warnings: string[] = [];
    expect(scoring(["162  W 3.0    D 1.0    L 0.0    A -1.0   P 2.0    X 1.0"], warnings)).toEqual({
      win: 3,
      draw: 1,
      loss: 0,
      forfeitWin: 3,
      forfeitLoss: -1,
      pairingAllocatedBye: 2,
      fullBye: 3,
      halfBye: 1,
      zeroBye: -1,
    });
    expect(warnings).toEqual([
      'record 162 "W 3.0    D 1.0    L 0.0    A -1.0   P 2.0    X 1.0": X (1 points for an unknown result) is not stored',
    ]);
  });

  it("is null without either record (the default 1 / ½ / 0 applies)", () => {
    expect(scoring(["012 x"])).toBeNull();
  });

  it("prefers 162 when both are written, and says so when they disagree", () => {
    const warnings: string[] = [];
    expect(scoring(["162 W 3 D 1 L 0", "XXS W=1 D=0.5"], warnings)?.win).toBe(3);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/disagree on win, draw.*162 is used/);
  });

  it.each([
    ["162 W 3 Q 1", /"Q" is not a scoring code/],
    ["XXS WW=1 BW=0.5", /depend on the colour/],
    ["162 W three", /"three" for W are not a number/],
    ["162 W 3 D", /"D" has no value/],
  ])("refuses %j with exit 9, naming the record", (line, what) => {
    let error: unknown;
    try {
      scoring([line]);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(BuildError);
    const e = error as BuildError;
    expect(e.exitCode).toBe(EXIT.trf);
    expect(e.problems[0]!.what).toMatch(what);
    expect(e.problems[0]!.where).toContain(line.slice(0, 3));
  });

  it("scores the standings: 3-1-0 points, tie-breaks in the same unit", () => {
    const f = parseTrf(["162 W 3 D 1 L 0", ...GAMES].join("\n"), "s.trf");
    const t = convertTrf(f, { externalId: 1n, now: "n", scoring: scoringFromTrf(f, [])!, tiebreaks: ["SB"] });
    const rows = computeStandings(t.tournament, 2);
    expect(rows.map((r) => [r.sourcePlayerNumber, r.points])).toEqual([
      [1, 4],
      [2, 3],
      [3, 2],
    ]);
    // fide-2023 SB of #1: 1 × 3 (#2's score) + ½ × 2 (#3's score) = 4.
    expect(rows[0]!.tieBreakValues).toEqual(["4"]);
    // fide-2026: tie-breaks on standard points: #2 1, #3 1 -> 1 × 1 + ½ × 1 = 1.5.
    const t26 = { ...t.tournament, tiebreakRules: "fide-2026" as const };
    expect(computeStandings(t26, 2)[0]!.tieBreakValues).toEqual(["1.5"]);
  });

  it("is written to the store by import-trf, and the file's 3-1-0 totals check out", () => {
    const file = join(work, "three.trf");
    writeFileSync(file, ["012 Three points", "162 W 3 D 1 L 0", ...GAMES].join("\n"));
    const db = join(work, "three.sqlite");
    createStore(db);
    const report = importTrf({
      file,
      db,
      externalId: 7n,
      now: "2026-11-22T12:00:00Z",
      sourceUrl: "https://example.org/three",
    });
    expect(report.scoring.win).toBe(3);
    expect(report.mismatches).toEqual([]);
    const d = new Database(db, { readonly: true });
    const row = d
      .prepare("SELECT points_win, points_draw, points_pairing_bye, points_half_bye FROM tournaments")
      .get();
    d.close();
    expect(row).toEqual({ points_win: 3, points_draw: 1, points_pairing_bye: 3, points_half_bye: 1 });
  });
});
