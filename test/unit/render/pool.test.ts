// --jobs never starts more render threads than there are cores, and says when it capped.
import { describe, expect, it } from "vitest";
import { workerCount } from "../../../src/render/pool.ts";

describe("workerCount", () => {
  it("defaults to the cores and caps a larger request there", () => {
    expect(workerCount(undefined, 2)).toEqual({ requested: 2, used: 2, capped: false });
    expect(workerCount(64, 2)).toEqual({ requested: 64, used: 2, capped: true });
    expect(workerCount(1, 8)).toEqual({ requested: 1, used: 1, capped: false });
    expect(workerCount(3, 8)).toEqual({ requested: 3, used: 3, capped: false });
  });
});
