import { describe, expect, it } from "vitest";
import { isFinalResult, normalizeGameResult, resultDisplayText } from "../../../src/domain/results.ts";
import { GAME_RESULTS, type ByeKind, type GameResult } from "../../../src/domain/types.ts";

const game = (raw: string | null) => normalizeGameResult({ raw, hasWhite: true, hasBlack: true });
const byeRow = (raw: string | null, whitePresent = true) =>
  normalizeGameResult({ raw, hasWhite: whitePresent, hasBlack: !whitePresent });

describe("normalizeGameResult: two-player rows", () => {
  it.each<[string | null, GameResult, string]>([
    ["1 - 0", "WhiteWin", "1 - 0"],
    ["0 - 1", "BlackWin", "0 - 1"],
    ["½ - ½", "Draw", "½ - ½"],
    ["+ - -", "WhiteForfeitWin", "+ - -"],
    ["- - +", "BlackForfeitWin", "- - +"],
    ["- - -", "DoubleForfeit", "- - -"],
    ["0 - 0", "DoubleForfeit", "0 - 0"],
    ["0-0", "DoubleForfeit", "0 - 0"],
    ["unplayed", "Unplayed", "unplayed"],
    ["not played", "Unplayed", "unplayed"],
    ["", "Pending", ""],
    [null, "Pending", ""],
    ["   ", "Pending", ""],
    ["1-0", "WhiteWin", "1 - 0"],
    ["0-1", "BlackWin", "0 - 1"],
    ["½-½", "Draw", "½ - ½"],
    ["1/2-1/2", "Draw", "½ - ½"],
    ["0.5-0.5", "Draw", "½ - ½"],
    ["+-", "WhiteForfeitWin", "+ - -"],
    ["-+", "BlackForfeitWin", "- - +"],
    ["--", "DoubleForfeit", "- - -"],
    ["1F-0F", "WhiteForfeitWin", "+ - -"],
    ["0F-1F", "BlackForfeitWin", "- - +"],
    ["1:0", "WhiteWin", "1 - 0"],
    ["adj", "Adjourned", "adj"],
    ["½ - 0", "Unknown", "?"],
    ["2 - 0", "Unknown", "?"],
    ["white wins", "Unknown", "?"],
  ])("%j -> %s", (raw, result, text) => {
    expect(game(raw)).toEqual({ result, text, byeKind: null });
  });
});

describe("normalizeGameResult: bye rows (one player)", () => {
  it.each<[string | null, ByeKind, string]>([
    ["1", "pab", "bye"],
    ["+", "pab", "bye"],
    ["½", "half", "bye (½)"],
    ["1/2", "half", "bye (½)"],
    ["0", "zero", "bye (0)"],
    ["bye", "pab", "bye"],
    ["spielfrei", "pab", "bye"],
    ["Spielfrei 1", "pab", "bye"],
    ["bye ½", "half", "bye (½)"],
    ["not paired", "zero", "bye (0)"],
    ["not paired 0", "zero", "bye (0)"],
    ["F", "full", "bye (1)"],
    ["H", "half", "bye (½)"],
    ["U", "pab", "bye"],
    ["Z", "zero", "bye (0)"],
    ["+ - -", "pab", "bye"],
    ["1 - 0", "pab", "bye"],
  ])("%j -> Bye %s", (raw, byeKind, text) => {
    expect(byeRow(raw)).toEqual({ result: "Bye", text, byeKind });
  });

  it("reads a two-sided text from the present player's side", () => {
    expect(byeRow("1 - 0", false).byeKind).toBe("zero");
    expect(byeRow("0 - 1", false).byeKind).toBe("pab");
    expect(byeRow("- - +", false).byeKind).toBe("pab");
  });

  it("never guesses an unrecognized text", () => {
    expect(byeRow("bye 3").result).toBe("Unknown");
    expect(byeRow("lunch").result).toBe("Unknown");
    expect(normalizeGameResult({ raw: "1 - 0", hasWhite: false, hasBlack: false }).result).toBe("Unknown");
  });

  it("keeps an empty bye row pending", () => {
    expect(byeRow("")).toEqual({ result: "Pending", text: "", byeKind: null });
  });
});

describe("resultDisplayText", () => {
  it.each<[GameResult, ByeKind | null, string]>([
    ["WhiteWin", null, "1 - 0"],
    ["BlackWin", null, "0 - 1"],
    ["Draw", null, "½ - ½"],
    ["WhiteForfeitWin", null, "+ - -"],
    ["BlackForfeitWin", null, "- - +"],
    ["DoubleForfeit", null, "- - -"],
    ["Unplayed", null, "unplayed"],
    ["Pending", null, ""],
    ["Adjourned", null, "adj"],
    ["Unknown", null, "?"],
    ["Bye", "pab", "bye"],
    ["Bye", "full", "bye (1)"],
    ["Bye", "half", "bye (½)"],
    ["Bye", "zero", "bye (0)"],
    ["Bye", null, "bye"],
  ])("%s/%s -> %j", (result, kind, text) => {
    expect(resultDisplayText(result, kind)).toBe(text);
  });

  it("agrees with normalizeGameResult for every display text it produces", () => {
    for (const r of GAME_RESULTS) {
      if (r === "Bye" || r === "Unknown" || r === "Pending") continue;
      expect(game(resultDisplayText(r, null)).result).toBe(r);
    }
  });
});

describe("isFinalResult", () => {
  it.each<[GameResult, boolean]>([
    ["Pending", false],
    ["Adjourned", false],
    ["Unknown", false],
    ["WhiteWin", true],
    ["Draw", true],
    ["BlackWin", true],
    ["Bye", true],
    ["WhiteForfeitWin", true],
    ["BlackForfeitWin", true],
    ["DoubleForfeit", true],
    ["Unplayed", true],
  ])("%s -> %s", (result, final) => {
    expect(isFinalResult(result)).toBe(final);
  });
});
