// A problem in a store row carries the row as data (Problem.row) beside its text (`where`), so a
// reader (the render's --skip-invalid, which leaves out a club whose row is bad) never parses
// the text back.
import { describe, expect, it } from "vitest";
import type { Problem } from "../../../src/shared/errors.ts";
import { RowCheck, rowRef, rowWhere } from "../../../src/store/read/cells.ts";

describe("a problem's row", () => {
  it("is the table and key the text names", () => {
    const sink: Problem[] = [];
    const check = new RowCheck("s.sqlite", "clubs", { club_id: 7n, slug: "Bad Slug" }, ["club_id"], sink);
    check.report("slug", "is not a slug", "use lower-case letters");
    expect(sink).toEqual([
      {
        where: "s.sqlite: table clubs, row (club_id=7), column slug",
        what: "is not a slug",
        fix: "use lower-case letters",
        row: { table: "clubs", key: [["club_id", "7"]] },
      },
    ]);
  });

  it("formats a key of several columns as before", () => {
    const ref = rowRef("games", [
      ["tournament_id", 3n],
      ["round_number", 5n],
    ]);
    expect(rowWhere("sample.sqlite", ref)).toBe(
      "sample.sqlite: table games, row (tournament_id=3, round_number=5)",
    );
  });
});
