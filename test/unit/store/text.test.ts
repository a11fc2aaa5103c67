// Issue 12: what store text may hold (formats.ts), invalid UTF-8 (utf8.ts), device names
// (patterns.ts), and the limits documented in schema/store.sql (limits.ts).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { groupDigits as count } from "../../../src/shared/errors.ts";
import { safeRelativePath } from "../../../src/publish/safe-path.ts";
import { unsafeCharacter } from "../../../src/store/formats.ts";
import * as limits from "../../../src/store/limits.ts";
import { isValidSegment, segmentProblem } from "../../../src/shared/segments.ts";
import { invalidUtf8Offset } from "../../../src/store/read/invalid-utf8.ts";

describe("unsafeCharacter", () => {
  it("accepts ordinary text in any script, emoji and the joiners U+200C and U+200D", () => {
    for (const ok of [
      "Magnus Carlsen",
      "Ding Liren 丁立人",
      "محمدرضا",
      "Mohammad\u200cReza",
      "क्‍ष",
      "👩\u200d👩\u200d👧",
      "Ünal, Ömer",
      "\ufffd",
    ]) {
      expect(unsafeCharacter(ok, false), ok).toBeNull();
    }
  });

  it("refuses bidirectional controls and other Cf characters, naming the code point", () => {
    expect(unsafeCharacter("a\u202eb", false)).toBe(
      "the bidirectional control U+202E, which reorders text on screen",
    );
    for (const c of [
      "\u202a",
      "\u202b",
      "\u202c",
      "\u202d",
      "\u2066",
      "\u2067",
      "\u2068",
      "\u2069",
      "\u200e",
      "\u200f",
      "\u061c",
    ]) {
      expect(unsafeCharacter(`x${c}`, true), c).toMatch(/^the bidirectional control U\+/);
    }
    for (const c of ["\u200b", "\u00ad", "\ufeff", "\u2060", "\u{e0041}"]) {
      expect(unsafeCharacter(`x${c}`, true), c).toMatch(/^the invisible format character U\+/);
    }
    expect(unsafeCharacter("x\u{e0041}", true)).toBe("the invisible format character U+E0041");
  });

  it("refuses C0 and C1 controls; line breaks and tabs only in one-line text", () => {
    expect(unsafeCharacter("a\u0000", true)).toBe("the control character U+0000");
    expect(unsafeCharacter("a\u0085", true)).toBe("the control character U+0085");
    expect(unsafeCharacter("a\u007f", true)).toBe("the control character U+007F");
    expect(unsafeCharacter("line\r\nline\tcol", true)).toBeNull();
    expect(unsafeCharacter("a\nb", false)).toBe("a tab or line break (U+000A), not allowed in one-line text");
    expect(unsafeCharacter("a\tb", false)).toMatch(/tab or line break \(U\+0009\)/);
    expect(unsafeCharacter("a\u2028b", true)).toMatch(/tab or line break \(U\+2028\)/);
  });

  it("refuses a lone surrogate (only a JSON escape can make one) but not a pair", () => {
    expect(unsafeCharacter(JSON.parse('"a\\ud800b"') as string, true)).toBe(
      "the lone surrogate U+D800 (not a Unicode character)",
    );
    expect(unsafeCharacter(JSON.parse('"\\ud83d\\ude00"') as string, false)).toBeNull();
  });
});

describe("invalidUtf8Offset", () => {
  const bytes = (...b: number[]) => Uint8Array.from(b);
  it("finds the first byte that is not UTF-8", () => {
    expect(invalidUtf8Offset(new TextEncoder().encode("Ünal ♞ 😀"))).toBe(-1);
    expect(invalidUtf8Offset(bytes(0x41, 0x6e, 0xff, 0x61))).toBe(2);
    // A stored U+FFFD (EF BF BD) is valid; the bad byte after it is found.
    expect(invalidUtf8Offset(bytes(0xef, 0xbf, 0xbd, 0x20, 0xc3))).toBe(4);
    expect(invalidUtf8Offset(bytes(0xc0, 0xaf))).toBe(0); // overlong "/"
    expect(invalidUtf8Offset(bytes(0x61, 0xed, 0xa0, 0x80))).toBe(1); // an encoded surrogate
  });

  it("accepts a character cut short at the end of a prefix, not of a whole value", () => {
    expect(invalidUtf8Offset(bytes(0x61, 0xe2, 0x99), true)).toBe(-1);
    expect(invalidUtf8Offset(bytes(0x61, 0xe2, 0x99), false)).toBe(1);
  });
});

describe("path segments from the store follow the rules of safe-path", () => {
  it("refuses Windows device names as tag, slug and language, in any case", () => {
    for (const name of ["con", "prn", "aux", "nul", "com1", "com9", "lpt0", "lpt9"]) {
      expect(() => safeRelativePath(`api/${name}/index.json`)).toThrow(/reserved name/);
      expect(segmentProblem("tag", name)?.what).toContain("device name");
      expect(isValidSegment("slug", name)).toBe(false);
    }
    for (const name of ["con", "aux", "nul", "prn"]) expect(isValidSegment("language", name)).toBe(false);
    expect(isValidSegment("language", "cos")).toBe(true);
    expect(isValidSegment("tag", "console")).toBe(true);
    expect(isValidSegment("tag", "com10")).toBe(true);
  });

  it("every valid segment is a safe output path segment", () => {
    for (const v of ["a", "0", "u18-open", "en-GB", "a".repeat(64), "com10", "lpt"]) {
      expect(() => safeRelativePath(`api/${v}/index.json`), v).not.toThrow();
    }
  });
});

describe("limits", () => {
  const sql = readFileSync(new URL("../../../schema/store.sql", import.meta.url), "utf8");
  it("are the ones schema/store.sql documents", () => {
    const documented: [string, number][] = [
      ["players", limits.MAX_PLAYERS],
      ["rows in rounds", limits.MAX_ROUNDS],
      ["games rows\n--                    ", limits.MAX_GAMES],
      ["boards per round", limits.MAX_BOARDS_PER_ROUND],
      ["board numbers 1..", limits.MAX_BOARD],
      ["source_standing_rows", limits.MAX_STANDING_ROWS],
      ["recaps", limits.MAX_RECAPS],
      ["tags", limits.MAX_TAGS_PER_TOURNAMENT],
      ["enabled clubs", limits.MAX_CLUBS],
      ["distinct tags", limits.MAX_DISTINCT_TAGS],
      ["published recaps", limits.MAX_LANGUAGES],
      ["player numbers and ranks 1..", limits.MAX_PLAYER_NUMBER],
      ["ratings 0..", limits.MAX_RATING],
      ["one-line values", limits.MAX_NAME_LENGTH],
      ["recap headline", limits.MAX_HEADLINE_LENGTH],
      ["URLs", limits.MAX_URL_LENGTH],
      ["one paragraph", limits.MAX_TEXT_LENGTH],
      ["JSON column", limits.MAX_JSON_LENGTH],
      ["tie-break columns", limits.MAX_TIEBREAK_COLUMNS],
      ["recap paragraphs\n--                    ", limits.MAX_PARAGRAPHS],
    ];
    for (const [words, value] of documented) {
      const sep = words.endsWith("..") || words.endsWith(" ") ? "" : " ";
      expect(sql, words).toContain(`${words}${sep}${count(value)}`);
    }
    expect(count(1_000_000)).toBe("1,000,000");
  });
});
