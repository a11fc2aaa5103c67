// The verdicts `npm run bench` prints on issue 19's targets (scripts/lib/bench-targets.ts): each
// target met, missed or not measured from the figures, and the disk check that refuses a size.
import { describe, expect, it } from "vitest";
import {
  floorChunk,
  FLOOR_CHUNK_BYTES,
  diskNeeded,
  diskRefusal,
  FLOOR_BYTES_PER_TOURNAMENT,
  wholeFloorNeeded,
  judge,
  median,
  SIZES,
  type SizeFigures,
} from "../../../scripts/lib/bench-targets.ts";

function size(label: string, full: number, tick: number, o: Partial<SizeFigures> = {}): SizeFigures {
  return {
    label,
    tournaments: SIZES[label]!,
    files: 1,
    bytes: 1,
    full: { seconds: full, rssMb: 200 },
    jsonFloor: full,
    firstTick: { seconds: tick * 5, rssMb: 150, written: 10 },
    ticks: [tick * 2, tick, tick / 2].map((seconds) => ({ seconds, rssMb: 120, written: 10 })),
    noChange: { seconds: 0.3, rssMb: 70 },
    startup: 0.25,
    ...o,
  };
}

const verdict = (sizes: SizeFigures[], prefix: string): string | undefined =>
  judge(sizes).find((t) => t.target.startsWith(prefix))?.verdict;

describe("bench targets", () => {
  it("takes the median of the steady ticks, not their mean or the first tick", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 2, 3])).toBe(2.5);
    // A median tick of 1 s against a 100 s build is 1%: within 2% at M, and exactly 1% at L.
    const r = judge([size("M", 100, 1), size("L", 100, 1)]);
    expect(r.find((t) => t.target.includes("2% of the full build at M"))?.verdict).toBe("met");
    expect(r.find((t) => t.target.includes("1% of the full build at L"))?.verdict).toBe("met");
    expect(verdict([size("L", 100, 1.01)], "steady tick ≤ 1%")).toBe("missed");
    expect(verdict([size("M", 100, 1)], "steady tick ≤ 0.5%")).toBe("not measured");
  });

  it("compares the tick at XL with the tick at M, and only says not measured without XL", () => {
    expect(verdict([size("M", 10, 1), size("XL", 500, 1.5)], "steady tick at XL")).toBe("met");
    expect(verdict([size("M", 10, 1), size("XL", 500, 1.6)], "steady tick at XL")).toBe("missed");
    const withL = judge([size("M", 10, 1), size("L", 100, 2)]).find((t) =>
      t.target.startsWith("steady tick at XL"),
    );
    expect(withL?.verdict).toBe("not measured");
    expect(withL?.detail).toContain("L/M is 2.00");
  });

  it("judges the full build against 1.5 × the JSON floor at L only", () => {
    expect(verdict([size("L", 150, 1, { jsonFloor: 100 })], "full build ≤ 1.5")).toBe("met");
    expect(verdict([size("L", 151, 1, { jsonFloor: 100 })], "full build ≤ 1.5")).toBe("missed");
    expect(verdict([size("M", 1000, 1, { jsonFloor: 1 })], "full build ≤ 1.5")).toBe("not measured");
  });

  it("rests no verdict on a floor written in chunks (inflated by the deletions between them)", () => {
    const chunked = judge([size("L", 515, 1, { jsonFloor: 615, floorChunks: 37 })]).find((t) =>
      t.target.startsWith("full build ≤ 1.5"),
    );
    expect(chunked?.verdict).toBe("not measured");
    expect(chunked?.detail).toContain("37 chunks");
    expect(chunked?.detail).toContain("= 0.84");
    expect(chunked?.detail).toContain("--floor-of");
    expect(verdict([size("L", 151, 1, { jsonFloor: 100, floorChunks: 1 })], "full build ≤ 1.5")).toBe(
      "missed",
    );
  });

  it("calls the build linear only when XL was measured, and missed as soon as a size breaks it", () => {
    // M: 10 s for 2,000 = 5 ms per tournament. L at 100 s is 1×; L at 130 s is 1.3× (missed).
    expect(verdict([size("M", 10, 0.1), size("L", 100, 0.1)], "full build linear")).toBe("not measured");
    expect(verdict([size("M", 10, 0.1), size("L", 130, 0.1)], "full build linear")).toBe("missed");
    expect(verdict([size("M", 10, 0.1), size("XL", 600, 0.1)], "full build linear")).toBe("met");
    expect(verdict([size("L", 100, 0.1)], "full build linear")).toBe("not measured");
  });

  it("takes the peak RSS over the full build, every tick (live ones too) and the no-change rebuild", () => {
    expect(verdict([size("M", 10, 0.1)], "peak RSS")).toBe("met");
    const tickHeavy = size("M", 10, 0.1, { firstTick: { seconds: 1, rssMb: 256, written: 1 } });
    expect(verdict([tickHeavy], "peak RSS")).toBe("missed");
    const liveHeavy = size("M", 10, 0.1, { liveTicks: [{ seconds: 1, rssMb: 257, written: 1 }] });
    expect(verdict([liveHeavy], "peak RSS")).toBe("missed");
    expect(judge([liveHeavy]).find((t) => t.target.startsWith("peak RSS"))?.detail).toContain(
      "live ticks 257",
    );
  });

  it("holds the no-change rebuild to start-up + 0.1 s", () => {
    expect(verdict([size("S", 1, 0.1, { noChange: { seconds: 0.35, rssMb: 1 } })], "no-change")).toBe("met");
    expect(verdict([size("S", 1, 0.1, { noChange: { seconds: 0.36, rssMb: 1 } })], "no-change")).toBe(
      "missed",
    );
  });

  it("refuses a size that does not fit the free disk, naming the figure needed", () => {
    const xl = diskNeeded(SIZES.XL!, false);
    expect(xl).toBeGreaterThan(100e9);
    expect(diskRefusal("XL", SIZES.XL!, 30e9, false)).toMatch(
      /needs about \d+\.\d GB free.*30\.0 GB are free.*a file system that compresses/,
    );
    expect(diskRefusal("M", SIZES.M!, 30e9, false)).toBeUndefined();
    // A store already there needs no room of its own.
    expect(diskNeeded(SIZES.L!, true)).toBeLessThan(diskNeeded(SIZES.L!, false));
  });
});

describe("the JSON floor's chunk", () => {
  it("writes the whole floor when the disk holds it with 2 GB to spare, else deletes every 0.5 GB", () => {
    expect(floorChunk(10e9, 3.7e9)).toBe(Infinity);
    expect(floorChunk(5.7e9, 3.7e9)).toBe(Infinity);
    expect(floorChunk(5.6e9, 3.7e9)).toBe(FLOOR_CHUNK_BYTES);
    expect(floorChunk(1e9, 18e9)).toBe(FLOOR_CHUNK_BYTES);
  });

  it("says how much disk a whole JSON floor needs: the snapshot's, plus the floor and 2 GB to spare", () => {
    const extra = (n: number): number => wholeFloorNeeded(n, true) - diskNeeded(n, true);
    // At L the floor is about 18 GB of files (issue 19's L snapshot: 18.3 GB), every file written
    // whatever --floor-sample says (it samples only JSON.stringify).
    expect(20_000 * FLOOR_BYTES_PER_TOURNAMENT).toBeCloseTo(18.4e9, -8);
    expect(extra(20_000)).toBeGreaterThan(20_000 * FLOOR_BYTES_PER_TOURNAMENT + 2e9 - FLOOR_CHUNK_BYTES);
    expect(extra(20_000)).toBeLessThan(1.1 * (20_000 * FLOOR_BYTES_PER_TOURNAMENT + 2e9));
  });
});
