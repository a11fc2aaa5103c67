// The row groups the reader judges from ordered rows (groups.ts): never fewer or smaller than the
// groups SQLite's GROUP BY forms, so a count or duplicate query may be skipped when they find none.
import { describe, expect, it } from "vitest";
import { longestRun, mayRepeat } from "../../../src/store/read/groups.ts";

describe("longestRun", () => {
  it("counts the largest run of equal cells", () => {
    expect(longestRun([], 0)).toBe(0);
    expect(longestRun([[1n], [1n], [2n], [2n], [2n], [3n]], 0)).toBe(3);
  });

  it("takes an integer and a real of the same value as one group, as SQL does", () => {
    expect(longestRun([[1n], [1], [1n]], 0)).toBe(3);
  });

  it("keeps text apart from a number, and takes NULLs and BLOBs each as one group", () => {
    expect(longestRun([[1n], ["1"]], 0)).toBe(1);
    expect(longestRun([[null], [null]], 0)).toBe(2);
    expect(longestRun([[new Uint8Array([1])], [new Uint8Array([2])]], 0)).toBe(2);
  });
});

describe("mayRepeat", () => {
  it("finds neighbours that share both cells, whatever the integer's type", () => {
    expect(
      mayRepeat(
        [
          [1n, 1n],
          [1n, 2n],
          [2n, 1n],
        ],
        0,
        1,
      ),
    ).toBe(false);
    expect(
      mayRepeat(
        [
          [1n, 1n],
          [1n, 2n],
          [1, 2n],
        ],
        0,
        1,
      ),
    ).toBe(true);
    expect(
      mayRepeat(
        [
          [1n, null],
          [1n, null],
        ],
        0,
        1,
      ),
    ).toBe(true);
  });
});
