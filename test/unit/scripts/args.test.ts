// The scripts' usage text: each script's opening comment.
import { describe, expect, it } from "vitest";
import { usageOf } from "../../../scripts/lib/args.ts";

describe("usageOf", () => {
  it("is the opening // comment without the slashes, stopping at the first other line", () => {
    const source = [
      '/// <reference lib="dom" />',
      "// `node scripts/x.ts --dir DIR`",
      "//",
      "// Does x.",
      'import fs from "node:fs";',
      "// not usage",
    ].join("\n");
    expect(usageOf(source)).toBe("`node scripts/x.ts --dir DIR`\n\nDoes x.");
  });

  it("is empty for a source without an opening comment", () => {
    expect(usageOf('import fs from "node:fs";\n// later')).toBe("");
  });
});
