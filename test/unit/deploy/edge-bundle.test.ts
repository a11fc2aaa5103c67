// The committed edge bundles (src/deploy/edge/bundled.ts) are what scripts/gen-edge.ts makes from
// the current sources: run `npm run gen-edge` when this fails.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { BUNDLED_PATH, renderBundled } from "../../../scripts/gen-edge.ts";

describe("edge bundles", () => {
  it("are up to date with src/deploy/edge and the rule list", async () => {
    expect(readFileSync(BUNDLED_PATH, "utf8")).toBe(await renderBundled());
  });
});
