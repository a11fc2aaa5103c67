// The escaped forms the pages print in every row are esc() of the plain ones, made once.
import { describe, expect, it } from "vitest";
import type { GameResult } from "../../../src/domain/types.ts";
import {
  escTable,
  formatPoints,
  pointsHtml,
  RESULT_LABEL,
  RESULT_TITLE,
  RESULT_TITLE_HTML,
  resultLabel,
  resultLabelHtml,
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
  it("is esc(resultLabel()) for every result, a bye's own text included", () => {
    const texts = ["", "bye (½)", `<b onclick="x">&'`, "bye — Карпов"];
    for (const result of Object.keys(RESULT_LABEL) as GameResult[]) {
      for (const text of texts) expect(resultLabelHtml(result, text)).toBe(esc(resultLabel(result, text)));
    }
    expect(resultLabelHtml("WhiteWin", "")).toBe("1&#x2013;0");
    expect(resultLabelHtml("Bye", "<i>")).toBe("&lt;i&gt;");
  });

  it("titles each result as esc() of its plain title", () => {
    for (const result of Object.keys(RESULT_LABEL) as GameResult[]) {
      const title = RESULT_TITLE[result];
      expect(RESULT_TITLE_HTML[result]).toBe(title === undefined ? undefined : esc(title));
    }
  });
});

describe("escTable", () => {
  it("escapes each value under its own key", () => {
    expect(escTable({ a: "1–0", b: "<", c: "½" })).toEqual({ a: "1&#x2013;0", b: "&lt;", c: "½" });
  });
});
