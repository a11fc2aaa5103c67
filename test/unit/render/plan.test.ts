// The planner's reasons: each one, from what the ledger recorded and what the build sees now.
import { describe, expect, it } from "vitest";
import { listReasons, tournamentReason, type PlanContext } from "../../../src/render/plan.ts";

const tick: PlanContext = { rebuild: false, live: true, base: "b1", previousBase: "b1", now: 100 };
const window = { fp: "fp1", from: 50, until: 150 };

describe("why a tournament is rendered", () => {
  it("names --rebuild and a first build before anything the ledger says", () => {
    expect(tournamentReason({ ...tick, rebuild: true }, window, "fp1")).toBe("rebuild");
    expect(tournamentReason({ ...tick, live: false }, null, "fp1")).toBe("first-build");
  });

  it("names a tournament the live snapshot lacks as new", () => {
    expect(tournamentReason(tick, null, "fp1")).toBe("new");
  });

  it("puts a changed fingerprint down to the rows, or to the program when the common part changed", () => {
    expect(tournamentReason(tick, window, "fp2")).toBe("rows-changed");
    expect(tournamentReason({ ...tick, base: "b2" }, window, "fp2")).toBe("program-changed");
    // Unknown common part (another store file): the rows.
    expect(tournamentReason({ ...tick, previousBase: undefined }, window, "fp2")).toBe("rows-changed");
  });

  it("names a window the build instant left, on either side", () => {
    expect(tournamentReason({ ...tick, now: 150 }, window, "fp1")).toBe("window-passed");
    expect(tournamentReason({ ...tick, now: 49 }, window, "fp1")).toBe("window-passed");
  });

  it("names an unchanged tournament rendered again as one whose files could not be kept", () => {
    expect(tournamentReason(tick, window, "fp1")).toBe("files-missing");
  });
});

describe("why the lists are rendered", () => {
  it("renders every list on a rebuild, a first build and a changed program", () => {
    expect(listReasons({ ...tick, rebuild: true }, { fp: "l" }, "l", [])).toEqual([
      { list: "*", reason: "rebuild" },
    ]);
    expect(listReasons({ ...tick, live: false }, null, "l", [])).toEqual([
      { list: "*", reason: "first-build" },
    ]);
    expect(listReasons(tick, null, "l", [])).toEqual([{ list: "*", reason: "first-build" }]);
    expect(listReasons(tick, { fp: "l" }, "m", ["p"])).toEqual([{ list: "*", reason: "program-changed" }]);
  });

  it("names each list whose members changed on a tick, and none when none did", () => {
    expect(listReasons(tick, { fp: "l" }, "l", ["p", "c/club"])).toEqual([
      { list: "c/club", reason: "rows-changed" },
      { list: "p", reason: "rows-changed" },
    ]);
    expect(listReasons(tick, { fp: "l" }, "l", [])).toEqual([]);
  });
});
