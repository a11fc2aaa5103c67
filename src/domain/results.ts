// Result normalization: every raw result text the source publishes becomes a GameResult with a
// display text. A text that is not recognized becomes "Unknown"; it is never guessed.
//
// Display forms (one per outcome, always the same):
//   WhiteWin "1 - 0"      BlackWin "0 - 1"        Draw "½ - ½"
//   WhiteForfeitWin "+ - -"  BlackForfeitWin "- - +"  DoubleForfeit "- - -"
//   Unplayed "unplayed"   Pending ""              Adjourned "adj"       Unknown "?"
//   Double loss over the board: DoubleForfeit "0 - 0" (see result-codes.ts); "0 - 0" is a
//   double loss whichever way it arrives, so an Unplayed game has a text of its own.
// Raw texts are read through the one table of result codes (result-codes.ts), which the TRF
// importer uses too.
//   Bye by kind: pab "bye", full "bye (1)", half "bye (½)", zero "bye (0)"
import type { ByeKind, GameResult } from "./types.ts";
import { aloneByeKind, pairResult, RAW_PAIRS, rawByeCode, type PairResult } from "./result-codes.ts";

export interface NormalizedResult {
  result: GameResult;
  text: string;
  byeKind: ByeKind | null;
}

const TWO_SIDED_TEXT: Record<Exclude<GameResult, "Bye">, string> = {
  Pending: "",
  WhiteWin: "1 - 0",
  Draw: "½ - ½",
  BlackWin: "0 - 1",
  WhiteForfeitWin: "+ - -",
  BlackForfeitWin: "- - +",
  DoubleForfeit: "- - -",
  Unplayed: "unplayed",
  Adjourned: "adj",
  Unknown: "?",
};

const BYE_TEXT: Record<ByeKind, string> = {
  pab: "bye",
  full: "bye (1)",
  half: "bye (½)",
  zero: "bye (0)",
};

export function resultDisplayText(result: GameResult, byeKind: ByeKind | null): string {
  if (result === "Bye") return byeKind ? BYE_TEXT[byeKind] : BYE_TEXT.pab;
  return TWO_SIDED_TEXT[result];
}

/** Pending, Adjourned and Unknown results can still change; everything else is final. */
export function isFinalResult(result: GameResult): boolean {
  return result !== "Pending" && result !== "Adjourned" && result !== "Unknown";
}

// Raw texts without a TRF code: an adjourned game, a game in progress, a game not played.
const NON_TRF_RESULTS: Record<string, "Adjourned" | "Pending" | "Unplayed"> = {
  adj: "Adjourned",
  adjourned: "Adjourned",
  "*": "Pending",
  unplayed: "Unplayed",
  notplayed: "Unplayed",
};

/** A compact two-sided text as a result: through the shared table of TRF codes. */
function twoSidedResult(compactText: string): PairResult | null {
  const codes = RAW_PAIRS[compactText];
  if (codes) return pairResult(codes[0], codes[1]);
  const other = NON_TRF_RESULTS[compactText];
  return other ? { result: other, text: TWO_SIDED_TEXT[other] } : null;
}

function compact(raw: string): string {
  return raw
    .trim()
    .toLowerCase()
    .replace(/\s+/g, "")
    .replace(/1\/2|0[.,]5/g, "½")
    .replace(/:/g, "-");
}

// Whole opponent-cell phrases of a bye row, and what a score-less row of that kind is worth.
const BYE_WORDS: [RegExp, ByeKind][] = [
  [/^(not paired|nicht ausgelost|unpaired|absent|no show)$/, "zero"],
  [/^(half[- ]point bye|halbe?r? punkt)$/, "half"],
  [/^(bye|spielfrei|freilos|exempt|libre|pab|pairing[- ]allocated bye)$/, "pab"],
];

// Score tokens of a bye row (the present player's score), read as TRF codes.
function byeKindFromScore(token: string): ByeKind | null {
  const code = rawByeCode(token);
  return code === null ? null : (aloneByeKind(code) ?? "zero");
}

function bye(kind: ByeKind): NormalizedResult {
  return { result: "Bye", text: BYE_TEXT[kind], byeKind: kind };
}

const UNKNOWN: NormalizedResult = { result: "Unknown", text: TWO_SIDED_TEXT.Unknown, byeKind: null };

function byeFromTwoSided(result: GameResult, whitePresent: boolean): NormalizedResult {
  // A two-sided text on a bye row: the present player's side is what the bye is worth.
  switch (result) {
    case "WhiteWin":
    case "WhiteForfeitWin":
      return bye(whitePresent ? "pab" : "zero");
    case "BlackWin":
    case "BlackForfeitWin":
      return bye(whitePresent ? "zero" : "pab");
    case "Draw":
      return bye("half");
    case "DoubleForfeit":
    case "Unplayed":
      return bye("zero");
    case "Pending":
      return { result: "Pending", text: "", byeKind: null };
    case "Adjourned":
      return { result: "Adjourned", text: TWO_SIDED_TEXT.Adjourned, byeKind: null };
    default:
      return UNKNOWN;
  }
}

function normalizeByeRow(raw: string, whitePresent: boolean): NormalizedResult {
  const text = raw.trim().toLowerCase();
  if (text === "") return { result: "Pending", text: "", byeKind: null };
  const twoSided = twoSidedResult(compact(text));
  if (twoSided && twoSided.result !== "Unknown") return byeFromTwoSided(twoSided.result, whitePresent);
  // A bare score ("1", "½", "+", a TRF code), else "bye 1", "spielfrei", "not paired 0" ...
  const single = byeKindFromScore(compact(text));
  if (single) return bye(single);
  const scoreMatch = /\s(1\/2|0[.,]5|½|[10+\-=])$/.exec(text);
  const words = (scoreMatch ? text.slice(0, scoreMatch.index) : text).trim().replace(/\s+/g, " ");
  const entry = BYE_WORDS.find(([re]) => re.test(words));
  if (!entry) return UNKNOWN;
  if (!scoreMatch) return bye(entry[1]);
  const kind = byeKindFromScore(compact(scoreMatch[1]!));
  return kind ? bye(kind) : UNKNOWN;
}

/** Normalizes a raw result. A row with exactly one player is a bye row. */
export function normalizeGameResult(input: {
  raw: string | null;
  hasWhite: boolean;
  hasBlack: boolean;
}): NormalizedResult {
  const raw = input.raw ?? "";
  if (input.hasWhite !== input.hasBlack) return normalizeByeRow(raw, input.hasWhite);
  if (!input.hasWhite) return UNKNOWN;
  if (raw.trim() === "") return { result: "Pending", text: "", byeKind: null };
  const result = twoSidedResult(compact(raw));
  if (!result) return UNKNOWN;
  return { result: result.result, text: result.text, byeKind: null };
}
