// TRF-16 parser (FIDE's Tournament Report File), reading the TRF-2025/2026 header records where
// present. Only player records (001) and the numeric headers are strict: a malformed one throws a
// BuildError naming line and column. Records it does not use (team records 310, comments ###,
// rulers) are kept as headers or skipped.
//
// 001 record columns (1-based): 5-8 start number, 10 sex, 11-13 title, 15-47 name, 49-52 rating,
// 54-56 federation, 58-68 FIDE id, 70-79 birth date, 81-84 points, 86-89 rank, then per round
// from column 92 in steps of 10: opponent (4), colour (1 at +5), result (1 at +7).
import { BuildError, EXIT, type Problem } from "../shared/errors.ts";
import { isTrfResultCode, type TrfResultCode } from "../domain/result-codes.ts";

export { TRF_RESULT_CODES as RESULT_CODES, type TrfResultCode } from "../domain/result-codes.ts";

export interface TrfRoundCell {
  round: number;
  /** Opponent's start number; null for a bye, an absence or a blank opponent field. */
  opponent: number | null;
  colour: "w" | "b" | null;
  /** Result code; null when the cell has none (blank) or an unknown one. */
  code: TrfResultCode | null;
  /** A code that is not a TRF-16 / TRF-2025 result code, as written; else null. */
  unknownCode: string | null;
  /** 1-based column where the cell starts, for messages. */
  column: number;
}

export interface TrfPlayer {
  line: number;
  startNo: number;
  sex: string | null;
  title: string | null;
  name: string;
  rating: number | null;
  federation: string | null;
  fideId: bigint | null;
  birthDate: string | null;
  /** Points as written in the file. */
  points: number | null;
  /** Rank as written in the file; null when blank or 0. */
  rank: number | null;
  rounds: TrfRoundCell[];
}

export interface TrfFile {
  fileName: string;
  /** Header records by code ("012", "XXR", "202" ...), each value trimmed, in file order. */
  headers: Map<string, string[]>;
  /** The first 132 line as written (untrimmed): TRF-2026 gives each round's date a fixed column
   * (92-99 for round 1, 102-109 for round 2 ...), so a blank field keeps the rounds after it in
   * place. Null when the file has no 132 record. */
  roundDatesLine?: string | null;
  /** The line number of that 132 record, for warnings. */
  roundDatesLineNo?: number | null;
  players: TrfPlayer[];
  /** Number of round columns used by the longest player record. */
  roundColumns: number;
}

const FIRST_ROUND_COLUMN = 92;

function slice(line: string, from: number, to: number): string {
  return line.slice(from - 1, to);
}

function fail(fileName: string, line: number, column: number, what: string, fix?: string): never {
  const problem: Problem = { what, where: `${fileName}:${line}:${column}` };
  if (fix) problem.fix = fix;
  throw new BuildError(`Cannot read the TRF file ${fileName}.`, [problem], EXIT.trf);
}

function parseIntField(
  fileName: string,
  lineNo: number,
  line: string,
  from: number,
  to: number,
  label: string,
): number | null {
  const raw = slice(line, from, to).trim();
  if (raw === "") return null;
  if (!/^\d+$/.test(raw)) {
    fail(
      fileName,
      lineNo,
      from,
      `${label} "${raw}" is not a whole number`,
      `columns ${from}-${to} hold the ${label}`,
    );
  }
  return Number(raw);
}

function blankToNull(s: string): string | null {
  const t = s.trim();
  return t === "" ? null : t;
}

function parsePlayer(fileName: string, lineNo: number, line: string): TrfPlayer {
  const startNo = parseIntField(fileName, lineNo, line, 5, 8, "start number");
  if (startNo === null || startNo <= 0) {
    fail(fileName, lineNo, 5, "a player record needs a positive start number", "columns 5-8");
  }
  const name = slice(line, 15, 47).trim();
  if (name === "") fail(fileName, lineNo, 15, "the player's name is empty", "columns 15-47 hold the name");
  const rating = parseIntField(fileName, lineNo, line, 49, 52, "rating");
  const fideRaw = slice(line, 58, 68).trim();
  if (fideRaw !== "" && !/^\d+$/.test(fideRaw)) {
    fail(fileName, lineNo, 58, `FIDE id "${fideRaw}" is not a number`, "columns 58-68 hold the FIDE id");
  }
  const pointsRaw = slice(line, 81, 84).trim().replace(",", ".");
  if (pointsRaw !== "" && !/^\d+(\.\d+)?$/.test(pointsRaw)) {
    fail(
      fileName,
      lineNo,
      81,
      `points "${pointsRaw}" are not a number`,
      "columns 81-84 hold the points, e.g. 4.5",
    );
  }
  const rank = parseIntField(fileName, lineNo, line, 86, 89, "rank");

  const rounds: TrfRoundCell[] = [];
  for (let r = 1; ; r++) {
    const col = FIRST_ROUND_COLUMN + (r - 1) * 10;
    if (line.length < col || line.slice(col - 1).trim() === "") break;
    const oppRaw = slice(line, col, col + 3).trim();
    if (oppRaw !== "" && !/^\d+$/.test(oppRaw)) {
      fail(
        fileName,
        lineNo,
        col,
        `round ${r}: opponent "${oppRaw}" is not a start number`,
        `columns ${col}-${col + 3}`,
      );
    }
    const colourRaw = slice(line, col + 5, col + 5).toLowerCase();
    if (!["w", "b", "-", " ", ""].includes(colourRaw)) {
      fail(fileName, lineNo, col + 5, `round ${r}: colour "${colourRaw}" is not w, b or -`);
    }
    // An unknown result code is kept: the game becomes Unknown and the import says where.
    const codeRaw = slice(line, col + 7, col + 7).toUpperCase();
    const known = isTrfResultCode(codeRaw);
    const opponent = oppRaw === "" || Number(oppRaw) === 0 ? null : Number(oppRaw);
    rounds.push({
      round: r,
      opponent,
      colour: colourRaw === "w" || colourRaw === "b" ? colourRaw : null,
      code: known ? codeRaw : null,
      unknownCode: codeRaw.trim() === "" || known ? null : codeRaw,
      column: col,
    });
  }

  return {
    line: lineNo,
    startNo,
    sex: blankToNull(slice(line, 10, 10)),
    title: normalizeTitle(slice(line, 11, 13)),
    name,
    rating: rating === null || rating === 0 ? null : rating,
    federation: blankToNull(slice(line, 54, 56)),
    fideId: fideRaw === "" || /^0+$/.test(fideRaw) ? null : BigInt(fideRaw),
    birthDate: blankToNull(slice(line, 70, 79)),
    points: pointsRaw === "" ? null : Number(pointsRaw),
    rank: rank === null || rank === 0 ? null : rank,
    rounds,
  };
}

// Older exports write titles as one or two lowercase letters.
const SHORT_TITLES: Record<string, string> = {
  g: "GM",
  m: "IM",
  f: "FM",
  c: "CM",
  wg: "WGM",
  wm: "WIM",
  wf: "WFM",
  wc: "WCM",
};

function normalizeTitle(raw: string): string | null {
  const t = raw.trim();
  if (t === "") return null;
  return SHORT_TITLES[t] ?? t.toUpperCase();
}

/** Parses TRF text. Throws a BuildError (exit code EXIT.trf) naming line and column. */
export function parseTrf(text: string, fileName = "<trf>"): TrfFile {
  const headers = new Map<string, string[]>();
  const players: TrfPlayer[] = [];
  const byNumber = new Map<number, TrfPlayer>();
  let roundDatesLine: string | null = null;
  let roundDatesLineNo: number | null = null;
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n|\r/);
  lines.forEach((line, i) => {
    const lineNo = i + 1;
    if (line.trim() === "") return;
    const code = line.slice(0, 3);
    if (code === "001") {
      const p = parsePlayer(fileName, lineNo, line);
      const dup = byNumber.get(p.startNo);
      if (dup) fail(fileName, lineNo, 5, `start number ${p.startNo} is already used on line ${dup.line}`);
      byNumber.set(p.startNo, p);
      players.push(p);
      return;
    }
    if (!/^(\d{3}|XX[A-Z])$/.test(code)) return; // comments, rulers, templates
    const value = line.slice(4).trim();
    if (code === "132" && roundDatesLine === null && value !== "") {
      roundDatesLine = line;
      roundDatesLineNo = lineNo;
    }
    headers.set(code, [...(headers.get(code) ?? []), value]);
    if ((code === "XXR" || code === "062" || code === "142") && value !== "" && !/^\d+$/.test(value)) {
      fail(fileName, lineNo, 5, `record ${code} must hold a whole number, not "${value}"`);
    }
  });
  if (players.length === 0) {
    fail(fileName, 1, 1, "the file has no player records (001)", "is this a TRF file?");
  }
  for (const p of players) {
    for (const c of p.rounds) {
      if (c.opponent !== null && !byNumber.has(c.opponent)) {
        fail(fileName, p.line, c.column, `round ${c.round}: opponent ${c.opponent} has no player record`);
      }
    }
  }
  players.sort((a, b) => a.startNo - b.startNo);
  return {
    fileName,
    headers,
    roundDatesLine,
    roundDatesLineNo,
    players,
    roundColumns: Math.max(0, ...players.map((p) => p.rounds.length)),
  };
}

/** The first value of a header record, or null. */
export function header(f: TrfFile, code: string): string | null {
  const v = f.headers.get(code)?.[0];
  return v === undefined || v === "" ? null : v;
}
