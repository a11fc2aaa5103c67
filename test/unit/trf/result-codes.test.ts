// Every TRF-16 / TRF-2025 result code through both paths: a TRF file converted by the importer,
// and the raw text of the same result normalized by the store's reader. Both must give the same
// GameResult, display text and bye kind.
import { describe, expect, it } from "vitest";
import { normalizeGameResult } from "../../../src/domain/results.ts";
import { TRF_RESULT_CODES, pairResult, type TrfResultCode } from "../../../src/domain/result-codes.ts";
import { playerRounds } from "../../../src/domain/scoring.ts";
import { newestCompleteRound } from "../../../src/domain/standings.ts";
import { parseTrf } from "../../../src/trf/parse.ts";
import { convertTrf } from "../../../src/trf/to-tournament.ts";

/** A two-player, one-round TRF file with the given codes (opponent 0000 when black is null). */
function trf(white: string, black: string | null): string {
  // 001 record: start number at 5-8, name at 15, points at 81-84, round 1 at 92 / 97 / 99.
  const line = (no: number, opp: string, colour: string, code: string) => {
    const chars = Array<string>(100).fill(" ");
    const put = (col: number, text: string) => [...text].forEach((c, i) => (chars[col - 1 + i] = c));
    put(1, "001");
    put(5, String(no).padStart(4));
    put(15, `P${no}`);
    put(81, " 0.0");
    put(92, opp.padStart(4));
    put(97, colour);
    put(99, code);
    return chars.join("").trimEnd();
  };
  if (black === null) return [line(1, "0000", "-", white), line(2, "0000", "-", "Z")].join("\n");
  return [line(1, "2", "w", white), line(2, "1", "b", black)].join("\n");
}

function viaTrf(white: string, black: string | null) {
  const c = convertTrf(parseTrf(trf(white, black), "t.trf"), { externalId: 1n, now: "n" });
  const g = c.tournament.rounds[0]?.games[0];
  return { game: g ? { result: g.result, text: g.resultText, byeKind: g.byeKind } : null, conversion: c };
}

// [white code, black code, raw text as a results site writes it, result, display text]
const PAIRS: [TrfResultCode, TrfResultCode, string, string, string][] = [
  ["1", "0", "1 - 0", "WhiteWin", "1 - 0"],
  ["0", "1", "0 - 1", "BlackWin", "0 - 1"],
  ["=", "=", "½ - ½", "Draw", "½ - ½"],
  ["W", "L", "1-0", "WhiteWin", "1 - 0"],
  ["L", "W", "0-1", "BlackWin", "0 - 1"],
  ["D", "D", "1/2-1/2", "Draw", "½ - ½"],
  ["+", "-", "+ - -", "WhiteForfeitWin", "+ - -"],
  ["-", "+", "- - +", "BlackForfeitWin", "- - +"],
  ["-", "-", "- - -", "DoubleForfeit", "- - -"],
  ["0", "0", "0 - 0", "DoubleForfeit", "0 - 0"],
];

describe("one table of result codes: TRF and raw text agree", () => {
  it.each(PAIRS)("%s / %s and %j -> %s %j", (w, b, raw, result, text) => {
    const expected = { result, text, byeKind: null };
    expect(viaTrf(w, b).game).toEqual(expected);
    expect(normalizeGameResult({ raw, hasWhite: true, hasBlack: true })).toEqual(expected);
    // The stored raw text of the TRF game reads back as the same result.
    expect(normalizeGameResult({ raw: viaTrf(w, b).game!.text, hasWhite: true, hasBlack: true })).toEqual(
      expected,
    );
  });

  // A code without an opponent: the bye row it becomes, and the same code as a bye row's raw text.
  it.each<[TrfResultCode, string | null, string | null]>([
    ["U", "pab", "bye"],
    ["+", "pab", "bye"],
    ["1", "pab", "bye"],
    ["W", "pab", "bye"],
    ["F", "full", "bye (1)"],
    ["H", "half", "bye (½)"],
    ["=", "half", "bye (½)"],
    ["D", "half", "bye (½)"],
  ])("%s without an opponent -> bye %s", (code, kind, text) => {
    expect(viaTrf(code, null).game).toEqual({ result: "Bye", text, byeKind: kind });
    expect(normalizeGameResult({ raw: code, hasWhite: true, hasBlack: false })).toEqual({
      result: "Bye",
      text,
      byeKind: kind,
    });
  });

  it.each(["Z", "0", "-", "L"])("%s without an opponent is an absence (scores as a zero bye)", (code) => {
    expect(viaTrf(code, null).game).toBeNull();
    const raw = normalizeGameResult({ raw: code, hasWhite: true, hasBlack: false });
    expect(raw).toEqual({ result: "Bye", text: "bye (0)", byeKind: "zero" });
  });

  it("covers every code of the table in a paired or a lone cell", () => {
    const used = new Set([...PAIRS.flatMap(([w, b]) => [w, b]), "U", "F", "H", "Z"]);
    expect([...TRF_RESULT_CODES].filter((c) => !used.has(c))).toEqual([]);
  });

  it.each<[TrfResultCode | null, TrfResultCode | null, string]>([
    ["1", "1", "Unknown"],
    ["=", "0", "Unknown"],
    ["U", "0", "Unknown"],
    ["0", "-", "Unknown"],
    ["1", null, "WhiteWin"],
    [null, "=", "Draw"],
    ["-", null, "Unknown"],
    [null, null, "Pending"],
  ])("pair %s / %s -> %s", (w, b, result) => {
    expect(pairResult(w, b).result).toBe(result);
  });
});

describe("double loss", () => {
  it("is final: the round is complete and both players lost a played game", () => {
    const { conversion } = viaTrf("0", "0");
    const t = conversion.tournament;
    expect(conversion.unknown).toEqual([]);
    expect(newestCompleteRound(t)).toBe(1);
    const entries = playerRounds(t, 1);
    expect(entries.get(1)![0]).toMatchObject({ outcome: "loss", opponent: 2, points: 0 });
    expect(entries.get(2)![0]).toMatchObject({ outcome: "loss", opponent: 1, points: 0 });
  });

  it("read from a raw text is the same game", () => {
    const n = normalizeGameResult({ raw: "0:0", hasWhite: true, hasBlack: true });
    expect(n).toEqual({ result: "DoubleForfeit", text: "0 - 0", byeKind: null });
  });
});

describe("unknown codes", () => {
  it("make the game Unknown and are listed by round, board and players", () => {
    const { game, conversion } = viaTrf("7", "0");
    expect(game).toMatchObject({ result: "Unknown", text: "?" });
    expect(conversion.unknown).toEqual([
      { round: 1, board: 1, players: [1, 2], codes: '"7"/"0"', line: 1, column: 99 },
    ]);
    expect(newestCompleteRound(conversion.tournament)).toBeNull();
  });

  it("list contradicting codes too", () => {
    expect(viaTrf("1", "1").conversion.unknown).toHaveLength(1);
  });
});
