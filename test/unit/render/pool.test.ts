// --jobs never starts more render threads than there are cores, and says when it capped; the
// default leaves a core to the main thread and starts no more workers than the memory budget holds.
import { describe, expect, it } from "vitest";
import { MAIN_RSS_MIB, MEMORY_BUDGET_MIB, WORKER_RSS_MIB, workerCount } from "../../../src/render/pool.ts";

describe("workerCount", () => {
  it("caps an explicit --jobs at the cores; --jobs 1 renders on the main thread", () => {
    expect(workerCount(64, 2)).toEqual({
      requested: 64,
      used: 2,
      capped: true,
      workers: 2,
      memoryCapped: false,
    });
    expect(workerCount(1, 8)).toEqual({
      requested: 1,
      used: 1,
      capped: false,
      workers: 0,
      memoryCapped: false,
    });
    expect(workerCount(3, 8)).toEqual({
      requested: 3,
      used: 3,
      capped: false,
      workers: 3,
      memoryCapped: false,
    });
  });

  it("defaults to one worker on 2 cores: the main thread keeps a core for writing", () => {
    expect(workerCount(undefined, 2)).toEqual({
      requested: 2,
      used: 1,
      capped: false,
      workers: 1,
      memoryCapped: false,
    });
  });

  it("renders on the main thread by default on one core", () => {
    expect(workerCount(undefined, 1)).toMatchObject({ used: 1, workers: 0 });
  });

  it("starts by default only the workers that fit in the memory budget, and says so", () => {
    const fit = Math.floor((MEMORY_BUDGET_MIB - MAIN_RSS_MIB) / WORKER_RSS_MIB);
    expect(fit).toBeGreaterThanOrEqual(1);
    expect(workerCount(undefined, 16)).toEqual({
      requested: 16,
      used: fit,
      capped: false,
      workers: fit,
      memoryCapped: true,
    });
    // A larger budget lets the cores decide again.
    expect(workerCount(undefined, 4, 10_000)).toMatchObject({ workers: 3, memoryCapped: false });
    // An explicit request is the operator's: only the cores cap it.
    expect(workerCount(8, 16).workers).toBe(8);
  });
});
