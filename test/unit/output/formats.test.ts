// The schemas' string formats: ajv-formats' full checks, memoized without changing an answer.
import formats from "ajv-formats/dist/formats.js";
import { describe, expect, it } from "vitest";
import { FORMATS, MEMO_SIZE, memoized } from "../../../src/output/formats.ts";

const full = formats.fullFormats as unknown as Record<string, { validate: (s: string) => boolean }>;

describe("memoized", () => {
  it("checks each distinct string once and answers as the check does", () => {
    const calls: string[] = [];
    const check = memoized((s) => {
      calls.push(s);
      return s.startsWith("ok");
    });
    expect([check("ok1"), check("bad"), check("ok1"), check("bad")]).toEqual([true, false, true, false]);
    expect(calls).toEqual(["ok1", "bad"]);
  });

  it(`remembers at most ${MEMO_SIZE} strings, then starts afresh`, () => {
    let calls = 0;
    const check = memoized(() => (calls++, true));
    for (let i = 0; i <= MEMO_SIZE; i++) check(String(i));
    expect(calls).toBe(MEMO_SIZE + 1);
    check(String(MEMO_SIZE)); // the newest is kept
    expect(calls).toBe(MEMO_SIZE + 1);
    check("0"); // the oldest was forgotten
    expect(calls).toBe(MEMO_SIZE + 2);
  });
});

describe("FORMATS", () => {
  const cases: Record<"date" | "date-time", string[]> = {
    date: ["2024-02-29", "2023-02-29", "2026-13-01", "2026-11-31", "2026-11-30", "26-11-30", ""],
    "date-time": [
      "2026-11-22T12:00:00Z",
      "2026-11-22T24:00:00Z",
      "2026-11-22T12:00:60Z",
      "2016-12-31T23:59:60Z",
      "2026-02-30T12:00:00Z",
      "2026-11-22T12:00:00+01:00",
      "2026-11-22 12:00:00Z",
      "2026-11-22T12:00:00",
    ],
  };
  for (const name of ["date", "date-time"] as const) {
    it(`${name} answers as ajv-formats' full check, twice over`, () => {
      for (const s of [...cases[name], ...cases[name]])
        expect(FORMATS[name].validate(s), s).toBe(full[name]!.validate(s));
      // The cases hold both answers, so the comparison means something.
      expect(new Set(cases[name].map((s) => full[name]!.validate(s)))).toEqual(new Set([true, false]));
    });
  }
});
