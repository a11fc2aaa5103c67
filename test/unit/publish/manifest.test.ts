// The version marker's generation.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { MARKER_CONTENT, MARKER_NAME, markerGeneration, markerText } from "../../../src/publish/manifest.ts";
import { removeTempDirs, tempDir } from "../../support/temp.ts";

afterAll(removeTempDirs);

describe("the marker's generation", () => {
  it("is read back from a marker written for it, and absent in the previous format's marker", () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, MARKER_NAME), markerText(42));
    expect(markerGeneration(dir)).toBe(42);
    writeFileSync(path.join(dir, MARKER_NAME), MARKER_CONTENT);
    expect(markerGeneration(dir)).toBeUndefined();
    expect(markerGeneration(path.join(dir, "missing"))).toBeUndefined();
  });
});
