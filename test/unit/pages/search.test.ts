// Issue 47: the search script folds a query exactly as the index folds names (pages/search.ts).
import { describe, expect, it } from "vitest";
import { chunkName, FOLD_JS, foldWords } from "../../../src/pages/search.ts";

const js = new Function(`${FOLD_JS}; return [fold, chunkName];`)() as [
  (s: string) => string[],
  (b: string) => string,
];
const fold = js[0];

describe("folding names into words", () => {
  it("drops case and accents, splits on what is not a letter or digit, the same in the script", () => {
    for (const name of [
      "Lakunza Oyarbide, Juan-Carlos",
      "Nguyễn Ánh Kiệt",
      "Øster Łukasz Straße",
      "Zoë d'Ærø 2026",
    ]) {
      expect(fold(name)).toEqual(foldWords(name));
    }
    expect(foldWords("Nguyễn Ánh Kiệt")).toEqual(["nguyen", "anh", "kiet"]);
    expect(foldWords("Øster Łukasz Straße")).toEqual(["oster", "lukasz", "strasse"]);
    // Other scripts keep their letters; a chunk's file name spells them as code points.
    expect(foldWords("Иванов Пётр")).toEqual(["иванов", "петр"]);
    for (const b of ["", "kar.p1503014", "иванов.p7", "a𝒜.t1"]) expect(js[1](b)).toBe(chunkName(b));
    expect(chunkName("иван.p7")).toMatch(/^[a-z0-9._]+$/);
  });
});
