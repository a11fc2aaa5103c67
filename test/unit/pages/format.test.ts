// The escaped forms the pages print in every row are esc() of the plain ones, made once.
import { describe, expect, it } from "vitest";
import type { GameResult } from "../../../src/domain/types.ts";
import { LANGUAGES, PSEUDO, type Language } from "../../../src/i18n/languages.ts";
import { localeOf } from "../../../src/i18n/locale.ts";
import {
  escTable,
  formatPoints,
  pointsHtml,
  resultLabel,
  resultLabelHtml,
  wordsOf,
} from "../../../src/pages/format.ts";
import { esc } from "../../../src/pages/html.ts";

describe("pointsHtml", () => {
  it("is esc(formatPoints()) for whole, half, negative and other points", () => {
    const points = [null, 0, -0, 0.5, -0.5, 1, 5.5, -1.5, -3, 2.25, -0.25, 1e21, 1e-7, NaN, Infinity];
    for (const p of points) expect(pointsHtml(p)).toBe(esc(formatPoints(p)));
    expect(pointsHtml(-0.5)).toBe("&#x2212;½");
    expect(pointsHtml(-1.5)).toBe("-1½");
  });
});

describe("resultLabelHtml", () => {
  const locales = ([...LANGUAGES, PSEUDO] as Language[]).map((code) => localeOf(code));

  it("is esc(resultLabel()) for every result in every language, a bye's own text included", () => {
    const texts = ["", "bye (½)", `<b onclick="x">&'`, "bye — Карпов"];
    for (const l of locales) {
      for (const result of Object.keys(wordsOf(l).resultLabel) as GameResult[]) {
        for (const text of texts)
          expect(resultLabelHtml(l, result, text)).toBe(esc(resultLabel(l, result, text)));
      }
    }
    const en = localeOf("en");
    expect(resultLabelHtml(en, "WhiteWin", "")).toBe("1&#x2013;0");
    expect(resultLabelHtml(en, "Bye", "<i>")).toBe("&lt;i&gt;");
    expect(resultLabelHtml(localeOf("de"), "Bye", "")).toBe("spielfrei");
  });

  it("titles each result as esc() of its plain title", () => {
    for (const l of locales) {
      const w = wordsOf(l);
      for (const result of Object.keys(w.resultLabel) as GameResult[]) {
        const title = w.resultTitle[result];
        expect(w.resultTitleHtml[result]).toBe(title === undefined ? undefined : esc(title));
      }
    }
  });
});

describe("escTable", () => {
  it("escapes each value under its own key", () => {
    expect(escTable({ a: "1–0", b: "<", c: "½" })).toEqual({ a: "1&#x2013;0", b: "&lt;", c: "½" });
  });
});
