// The one table of result codes. A game's result reaches the project two ways: as the result
// codes of a TRF file (one code per player and round) and as a raw result text in the store
// ("1 - 0", "+ - -", "0-0", "bye ½" ...). Both are reduced to the TRF codes below and read with
// the same two tables, so a result means the same whichever way it arrives.
//
// TRF-16 and TRF-2025 share the individual result codes (TRF-2025 adds records, not codes):
//
// | code  | against an opponent              | without an opponent            |
// |-------|----------------------------------|--------------------------------|
// | 1     | win                              | pairing-allocated bye (1 pt)   |
// | 0     | loss                             | absent (zero)                  |
// | =     | draw                             | half-point bye                 |
// | W L D | win, loss, draw (game not rated) | as 1, 0, =                     |
// | +     | forfeit win                      | pairing-allocated bye          |
// | -     | forfeit loss                     | absent (zero)                  |
// | U     | (not a game code)                | pairing-allocated bye          |
// | F     | (not a game code)                | full-point bye                 |
// | H     | (not a game code)                | half-point bye                 |
// | Z     | (not a game code)                | zero-point bye / absent        |
// | blank | no result yet                    | absent (not paired)            |
//
// Pairs of codes of one game (white's / black's) and their GameResult and display text:
//
// | white / black | GameResult       | text    | note                                          |
// |---------------|------------------|---------|-----------------------------------------------|
// | 1 / 0         | WhiteWin         | 1 - 0   |                                               |
// | 0 / 1         | BlackWin         | 0 - 1   |                                               |
// | = / =         | Draw             | ½ - ½   |                                               |
// | + / -         | WhiteForfeitWin  | + - -   |                                               |
// | - / +         | BlackForfeitWin  | - - +   |                                               |
// | - / -         | DoubleForfeit    | - - -   | not played: a forfeit loss for both           |
// | 0 / 0         | DoubleForfeit    | 0 - 0   | double loss over the board: final, played     |
// | x / blank     | as x / its mirror|         | one side written: the other follows           |
// | blank / blank | Pending          | ""      |                                               |
// | anything else | Unknown          | ?       | contradicting codes (1 / 1, = / 0, H / 1 ...) |
//
// A double loss (both players scored 0 in a game they played, e.g. both penalized) is final.
// The contract's GameResult has no value of its own for it; DoubleForfeit is the honest one
// (neither player scores, no winner), told apart from a double forfeit by its text "0 - 0".
import type { ByeKind, GameResult } from "./types.ts";

export const TRF_RESULT_CODES = ["1", "0", "=", "W", "L", "D", "+", "-", "U", "F", "H", "Z"] as const;
export type TrfResultCode = (typeof TRF_RESULT_CODES)[number];

/** What a code means for a player who has an opponent. */
export type SideOutcome = "win" | "loss" | "draw" | "forfeitWin" | "forfeitLoss";

interface CodeMeaning {
  paired: SideOutcome | null;
  /** The bye kind of a cell without an opponent; null = absent (in no game that round). */
  alone: ByeKind | null;
}

const CODES: Record<TrfResultCode, CodeMeaning> = {
  "1": { paired: "win", alone: "pab" },
  W: { paired: "win", alone: "pab" },
  "0": { paired: "loss", alone: null },
  L: { paired: "loss", alone: null },
  "=": { paired: "draw", alone: "half" },
  D: { paired: "draw", alone: "half" },
  "+": { paired: "forfeitWin", alone: "pab" },
  "-": { paired: "forfeitLoss", alone: null },
  U: { paired: null, alone: "pab" },
  F: { paired: null, alone: "full" },
  H: { paired: null, alone: "half" },
  Z: { paired: null, alone: "zero" },
};

export function isTrfResultCode(code: string): code is TrfResultCode {
  return Object.hasOwn(CODES, code);
}

/** The bye kind of a code written without an opponent; null means absent (or no code). */
export function aloneByeKind(code: TrfResultCode | null): ByeKind | null {
  return code === null ? null : CODES[code].alone;
}

/** Points of a code on the 1 / ½ / 0 scale, for checks of a file's own totals. */
export function standardCodePoints(code: TrfResultCode | null, paired: boolean): number {
  if (code === null) return 0;
  const m = CODES[code];
  if (paired) {
    if (m.paired === "win" || m.paired === "forfeitWin") return 1;
    return m.paired === "draw" ? 0.5 : 0;
  }
  return m.alone === "pab" || m.alone === "full" ? 1 : m.alone === "half" ? 0.5 : 0;
}

export const DOUBLE_LOSS_TEXT = "0 - 0";

export interface PairResult {
  result: GameResult;
  text: string;
}

const PAIRS: Record<string, PairResult> = {
  "win/loss": { result: "WhiteWin", text: "1 - 0" },
  "loss/win": { result: "BlackWin", text: "0 - 1" },
  "draw/draw": { result: "Draw", text: "½ - ½" },
  "forfeitWin/forfeitLoss": { result: "WhiteForfeitWin", text: "+ - -" },
  "forfeitLoss/forfeitWin": { result: "BlackForfeitWin", text: "- - +" },
  "forfeitLoss/forfeitLoss": { result: "DoubleForfeit", text: "- - -" },
  "loss/loss": { result: "DoubleForfeit", text: DOUBLE_LOSS_TEXT },
};

const MIRROR: Record<SideOutcome, SideOutcome> = {
  win: "loss",
  loss: "win",
  draw: "draw",
  forfeitWin: "forfeitLoss",
  forfeitLoss: "forfeitWin",
};

export const UNKNOWN_RESULT: PairResult = { result: "Unknown", text: "?" };
export const PENDING_RESULT: PairResult = { result: "Pending", text: "" };

/**
 * The result of a game from white's and black's codes (null = no code written). Contradicting
 * codes, and codes that are not game codes (U F H Z), give Unknown.
 */
export function pairResult(white: TrfResultCode | null, black: TrfResultCode | null): PairResult {
  if (white === null && black === null) return PENDING_RESULT;
  const w = white === null ? null : CODES[white].paired;
  const b = black === null ? null : CODES[black].paired;
  if ((white !== null && w === null) || (black !== null && b === null)) return UNKNOWN_RESULT;
  // One side only written: the other side follows (a lone "-" does not say the other won).
  const ws = w ?? (b === "forfeitLoss" ? null : MIRROR[b!]);
  const bs = b ?? (w === "forfeitLoss" ? null : MIRROR[w!]);
  if (ws === null || bs === null) return UNKNOWN_RESULT;
  return PAIRS[`${ws}/${bs}`] ?? UNKNOWN_RESULT;
}

/** Is this game a double loss over the board (final, counted as played)? */
export function isDoubleLoss(g: { result: GameResult; resultText: string }): boolean {
  return g.result === "DoubleForfeit" && g.resultText === DOUBLE_LOSS_TEXT;
}

// --- Raw result texts ---------------------------------------------------------------------------

/**
 * Compact two-sided raw texts (spaces removed, halves written "½", ":" read as "-") as the TRF
 * codes of white and black. Texts without a TRF equivalent (adjourned, "*") are not here.
 */
export const RAW_PAIRS: Record<string, [TrfResultCode, TrfResultCode]> = {
  "1-0": ["1", "0"],
  "0-1": ["0", "1"],
  "½-½": ["=", "="],
  "=-=": ["=", "="],
  "0-0": ["0", "0"],
  "+-": ["+", "-"],
  "+--": ["+", "-"],
  "1f-0f": ["+", "-"],
  "1f-0": ["+", "-"],
  "1-0f": ["+", "-"],
  "-+": ["-", "+"],
  "--+": ["-", "+"],
  "0f-1f": ["-", "+"],
  "0-1f": ["-", "+"],
  "0f-1": ["-", "+"],
  "--": ["-", "-"],
  "---": ["-", "-"],
  "0f-0f": ["-", "-"],
};

/** A single score token of a bye row ("1", "½", "+", a TRF code) as a TRF code. */
export function rawByeCode(token: string): TrfResultCode | null {
  switch (token) {
    case "1":
    case "+":
    case "u":
    case "w":
      return "U";
    case "f":
      return "F";
    case "½":
    case "=":
    case "h":
    case "d":
      return "H";
    case "0":
    case "-":
    case "z":
    case "l":
      return "Z";
    default:
      return null;
  }
}
