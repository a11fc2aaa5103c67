// TRF-2026 team records, read from the file's text by fixed columns (1-based), as FIDE's TRF-2026
// team sample, Sharly-Chess and the FIDE Tie-Break Server lay them out:
//   310 team: 5-7 number, 9-40 name, 42-46 short name, 48-53 strength, 55-60 MP, 62-67 GP,
//       69-71 rank, then the members' start numbers (" PPPP" from column 73) in board order;
//   320 pairing-allocated bye: 5-8 MP, 10-13 GP, then per round (15-17, 19-21, ...) the team;
//   240 bye: 5 type (F, H, Z), 7-9 round, then the teams (" TTTT" from column 10);
//   330 forfeited match: 5-6 "+-", "-+" or "--", 8-10 round, 12-14 white team, 16-18 black team;
//   352 board colours of the first-named team ("WBWB"); 362 match points ("TW 2.0 TD 1.0 TL 0.0");
//   013 (TRF-16, legacy): 5-36 team name, then the members' start numbers (" PPPP" from column 37).
// The published MP, GP and rank of 310 records are kept to check the computed ones against.
import { BuildError, EXIT } from "../shared/errors.ts";
import {
  DEFAULT_MATCH_POINTS,
  type ForfeitedMatch,
  type MatchPointScoring,
  type Team,
  type TeamBye,
} from "../domain/teams/types.ts";

export interface DeclaredTeam {
  teamNumber: number;
  matchPoints: number | null;
  gamePoints: number | null;
  rank: number | null;
  line: number;
}

export interface TrfTeamRecords {
  teams: Team[];
  declared: DeclaredTeam[];
  matchPoints: MatchPointScoring;
  pab: { matchPoints: number; gamePoints: number } | null;
  byes: TeamBye[];
  forfeitedMatches: ForfeitedMatch[];
  /** The first-named team's colour on each board ("W"/"B"), from 352; null when not given. */
  boardColours: string | null;
}

class Reader {
  readonly fileName: string;
  readonly lineNo: number;
  readonly line: string;

  constructor(fileName: string, lineNo: number, line: string) {
    this.fileName = fileName;
    this.lineNo = lineNo;
    this.line = line;
  }

  fail(column: number, what: string, fix: string): never {
    throw new BuildError(
      `Cannot read the team records of the TRF file ${this.fileName}.`,
      [{ what, where: `${this.fileName}:${this.lineNo}:${column}`, fix }],
      EXIT.trf,
    );
  }

  text(from: number, to: number): string {
    return this.line.slice(from - 1, to).trim();
  }

  number(from: number, to: number, label: string, required: boolean): number | null {
    const raw = this.text(from, to);
    if (raw === "") {
      if (required)
        this.fail(
          from,
          `record ${this.line.slice(0, 3)} has no ${label}`,
          `columns ${from}-${to} hold the ${label}`,
        );
      return null;
    }
    if (!/^-?\d+(\.\d+)?$/.test(raw)) {
      this.fail(from, `${label} "${raw}" is not a number`, `columns ${from}-${to} hold the ${label}`);
    }
    return Number(raw);
  }

  /** Whole numbers separated by blanks from a column on (start numbers, team numbers). */
  numbers(from: number, label: string): number[] {
    const rest = this.line.slice(from - 1);
    const out: number[] = [];
    for (const m of rest.matchAll(/\S+/g)) {
      if (!/^\d+$/.test(m[0])) {
        this.fail(from + m.index, `${label} "${m[0]}" is not a whole number`, `write one ${label} per field`);
      }
      out.push(Number(m[0]));
    }
    return out;
  }
}

function team310(r: Reader): { team: Team; declared: DeclaredTeam } {
  const teamNumber = r.number(5, 7, "team number", true)!;
  const name = r.text(9, 40);
  if (name === "") r.fail(9, `team ${teamNumber} has no name`, "columns 9-40 hold the team name");
  const team = {
    teamNumber,
    name,
    shortName: r.text(42, 46) || null,
    members: r.numbers(72, "start number"),
  };
  const declared = {
    teamNumber,
    matchPoints: r.number(55, 60, "match points", false),
    gamePoints: r.number(62, 67, "game points", false),
    rank: r.number(69, 71, "rank", false) || null,
    line: r.lineNo,
  };
  return { team, declared };
}

function pab320(r: Reader, out: TrfTeamRecords): void {
  out.pab = {
    matchPoints: r.number(5, 8, "PAB match points", true)!,
    gamePoints: r.number(10, 13, "PAB game points", true)!,
  };
  for (let round = 1, col = 15; col <= r.line.length; round++, col += 4) {
    const team = r.number(col, col + 2, `round ${round} team`, false);
    if (team !== null) out.byes.push({ round, team, kind: "pab" });
  }
}

const BYE_KINDS = { F: "full", H: "half", Z: "zero" } as const;
const RECORD_OF = { pab: "320", full: "240 F", half: "240 H", zero: "240 Z" } as const;

function bye240(r: Reader, out: TrfTeamRecords): void {
  const type = r.text(5, 5) as keyof typeof BYE_KINDS;
  if (!(type in BYE_KINDS)) r.fail(5, `bye type "${type}" is not F, H or Z`, "column 5 holds F, H or Z");
  const round = r.number(7, 9, "round", true)!;
  for (const team of r.numbers(10, "team number")) out.byes.push({ round, team, kind: BYE_KINDS[type] });
}

function forfeit330(r: Reader): ForfeitedMatch {
  const result = r.text(5, 6);
  if (result !== "+-" && result !== "-+" && result !== "--") {
    r.fail(5, `forfeited match result "${result}" is not +-, -+ or --`, "columns 5-6 hold +-, -+ or --");
  }
  return {
    result,
    round: r.number(8, 10, "round", true)!,
    whiteTeam: r.number(12, 14, "white team", true)!,
    blackTeam: r.number(16, 18, "black team", true)!,
  };
}

function matchPoints362(r: Reader): MatchPointScoring {
  const value = (key: string, fallback: number) => {
    const m = new RegExp(`\\b${key}\\s+(-?\\d+(?:\\.\\d+)?)`).exec(r.line);
    return m ? Number(m[1]) : fallback;
  };
  const out = {
    win: value("TW", DEFAULT_MATCH_POINTS.win),
    draw: value("TD", DEFAULT_MATCH_POINTS.draw),
    loss: value("TL", DEFAULT_MATCH_POINTS.loss),
  };
  if (!/\bT[WDL]\s/.test(r.line))
    r.fail(5, "record 362 gives no team match points", 'write "TW 2.0   TD 1.0   TL 0.0"');
  return out;
}

/** The team records of a TRF file's text; null when it has none (an individual event). */
export function readTeamRecords(text: string, fileName: string): TrfTeamRecords | null {
  const out: TrfTeamRecords = {
    teams: [],
    declared: [],
    matchPoints: DEFAULT_MATCH_POINTS,
    pab: null,
    byes: [],
    forfeitedMatches: [],
    boardColours: null,
  };
  const legacy: Reader[] = [];
  text
    .replace(/^\uFEFF/, "")
    .split(/\r?\n|\r/)
    .forEach((line, i) => {
      const r = new Reader(fileName, i + 1, line);
      const code = line.slice(0, 3);
      if (code === "310") {
        const { team, declared } = team310(r);
        out.teams.push(team);
        out.declared.push(declared);
      } else if (code === "013") legacy.push(r);
      else if (code === "320") pab320(r, out);
      else if (code === "240") bye240(r, out);
      else if (code === "330") out.forfeitedMatches.push(forfeit330(r));
      else if (code === "362") out.matchPoints = matchPoints362(r);
      else if (code === "352") out.boardColours = r.text(5, line.length) || null;
    });
  // A file with 310 records numbers its teams; 013 records are used only when there is no 310.
  if (out.teams.length === 0) {
    legacy.forEach((r, i) =>
      out.teams.push({
        teamNumber: i + 1,
        name: r.text(5, 36),
        shortName: null,
        members: r.numbers(37, "start number"),
      }),
    );
  }
  if (out.teams.length === 0) return null;
  checkTeams(out, fileName);
  return out;
}

function checkTeams(out: TrfTeamRecords, fileName: string): void {
  const seenTeam = new Set<number>();
  const seenMember = new Map<number, number>();
  const problems: string[] = [];
  for (const t of out.teams) {
    if (seenTeam.has(t.teamNumber)) problems.push(`team number ${t.teamNumber} is used twice`);
    seenTeam.add(t.teamNumber);
    for (const p of t.members) {
      const other = seenMember.get(p);
      if (other !== undefined)
        problems.push(`player ${p} is a member of team ${other} and of team ${t.teamNumber}`);
      seenMember.set(p, t.teamNumber);
    }
  }
  const byeOf = new Map<string, TeamBye>();
  for (const b of out.byes) {
    const key = `${b.round}:${b.team}`;
    const other = byeOf.get(key);
    if (other)
      problems.push(
        `team ${b.team} has two byes in round ${b.round} (${RECORD_OF[other.kind]} and ${RECORD_OF[b.kind]})`,
      );
    byeOf.set(key, b);
  }
  for (const f of out.forfeitedMatches) {
    for (const team of [f.whiteTeam, f.blackTeam]) {
      if (byeOf.has(`${f.round}:${team}`))
        problems.push(`team ${team} has a bye and a forfeited match in round ${f.round}`);
    }
  }
  const refs = [
    ...out.byes.map((b) => b.team),
    ...out.forfeitedMatches.flatMap((f) => [f.whiteTeam, f.blackTeam]),
  ];
  for (const team of refs)
    if (!seenTeam.has(team))
      problems.push(`a bye or forfeited match names team ${team}, which has no team record`);
  if (problems.length > 0) {
    throw new BuildError(
      `Cannot read the team records of the TRF file ${fileName}.`,
      problems.map((what) => ({
        what,
        where: fileName,
        fix: "give each team one record per round (320, 240 or 330) and each player one team (310 / 013)",
      })),
      EXIT.trf,
    );
  }
}
