// TRF-2026 team records (310, 320, 240, 330, 362) and the legacy 013, read by column; bad records
// are refused naming the file, line and column, what is wrong and the fix.
import { describe, expect, it } from "vitest";
import { BuildError } from "../../../src/shared/errors.ts";
import { readTeamRecords } from "../../../src/trf/team-records.ts";
import { teamRecord } from "../../support/team-trf.ts";

const TEAMS = [teamRecord(1, "Knights of Ni", [1, 2]), teamRecord(2, "Rooks", [3, 4])];

function problems(lines: string[]): string {
  try {
    readTeamRecords(lines.join("\n"), "t.trf");
  } catch (e) {
    expect(e).toBeInstanceOf(BuildError);
    return (e as BuildError).message;
  }
  throw new Error("no error");
}

describe("TRF team records", () => {
  it("reads teams with their members in board order, byes, forfeited matches and match points", () => {
    const r = readTeamRecords(
      [
        ...TEAMS,
        "320  1.0  2.0       2",
        "240 H   3    1",
        "330 -+   4   1   2",
        "362 TW 3.0   TD 1.0   TL 0.0",
      ].join("\n"),
      "t.trf",
    )!;
    expect(r.teams.map((t) => [t.teamNumber, t.name, t.members])).toEqual([
      [1, "Knights of Ni", [1, 2]],
      [2, "Rooks", [3, 4]],
    ]);
    expect(r.pab).toEqual({ matchPoints: 1, gamePoints: 2 });
    expect(r.byes).toEqual([
      { round: 2, team: 2, kind: "pab" },
      { round: 3, team: 1, kind: "half" },
    ]);
    expect(r.forfeitedMatches).toEqual([{ round: 4, whiteTeam: 1, blackTeam: 2, result: "-+" }]);
    expect(r.matchPoints).toEqual({ win: 3, draw: 1, loss: 0 });
  });

  it("reads the legacy 013 record when there is no 310, numbering the teams in file order", () => {
    const r = readTeamRecords(
      `013 ${"Old Guard".padEnd(32)}    5    6\n013 ${"New Blood".padEnd(32)}    7`,
      "t.trf",
    )!;
    expect(r.teams.map((t) => [t.teamNumber, t.name, t.members])).toEqual([
      [1, "Old Guard", [5, 6]],
      [2, "New Blood", [7]],
    ]);
  });

  it("is null for an individual event", () => {
    expect(readTeamRecords("012 An open\n001    1      Someone", "t.trf")).toBeNull();
  });

  it("refuses a bad bye type, naming line and column and the fix", () => {
    expect(problems([...TEAMS, "240 X   3    1"])).toMatch(
      /t\.trf:3:5: bye type "X" is not F, H or Z \(fix: column 5 holds F, H or Z\)/,
    );
  });

  it("refuses a forfeited match naming a team without a record", () => {
    expect(problems([...TEAMS, "330 +-   1   1   9"])).toMatch(/names team 9, which has no team record/);
  });

  it("refuses a player in two teams", () => {
    expect(problems([...TEAMS, teamRecord(3, "Bishops", [2, 5])])).toMatch(
      /player 2 is a member of team 1 and of team 3/,
    );
  });
});
