// Waiting for a quiet disk (scripts/lib/settle.ts): which counters are read, how a device is
// found, and when the readings count as quiet.
import { describe, expect, it } from "vitest";
import { diskActivity, majorMinor, quietFor } from "../../../scripts/lib/settle.ts";

describe("a quiet disk", () => {
  it("counts writes (field 5) and discards (field 12) of a block device's stat line", () => {
    const line =
      "11874163  1365652 151886946  3500578  5513778 26878468 605120568 34343231        0  5427908 41779205 19189900      126 430407184  3640625   731083   294769\n";
    expect(diskActivity(line)).toBe(5513778 + 19189900);
    // A kernel before discards were counted (11 fields): writes only.
    expect(diskActivity("1 2 3 4 5 6 7 8 0 10 11")).toBe(5);
    expect(diskActivity("not a stat line")).toBeUndefined();
    expect(diskActivity("1 2 3")).toBeUndefined();
  });

  it("decodes Linux's major and minor numbers from st_dev", () => {
    expect(majorMinor(253 * 256)).toEqual([253, 0]); // /dev/vda
    expect(majorMinor(8 * 256 + 17)).toEqual([8, 17]); // /dev/sdb1
    // A minor above 255 lives in the upper bits: makedev(259, 300).
    const dev = (259 << 8) | (300 & 0xff) | ((300 & ~0xff) << 12);
    expect(majorMinor(dev)).toEqual([259, 300]);
  });

  it("is quiet after `polls` intervals with no change, not before, and a change starts over", () => {
    expect(quietFor([5, 5, 5], 2)).toBe(true);
    expect(quietFor([5, 5], 2)).toBe(false);
    expect(quietFor([4, 5, 5], 2)).toBe(false);
    expect(quietFor([5, 5, 5, 6], 2)).toBe(false);
    expect(quietFor([5, 5, 5, 6, 6, 6], 2)).toBe(true);
  });
});
