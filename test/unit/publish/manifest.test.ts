// Entry values (the compact form of a file's sha256 and size) and the version marker's generation.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  entryBytes,
  entryValue,
  MARKER_CONTENT,
  MARKER_NAME,
  markerGeneration,
  markerText,
  parseEntryValue,
} from "../../../src/publish/manifest.ts";
import { removeTempDirs, tempDir } from "../../support/temp.ts";

afterAll(removeTempDirs);

describe("entry values", () => {
  it("round-trip a digest and a size up to the largest safe integer", () => {
    const sha = Buffer.alloc(32, 0xab);
    for (const bytes of [0, 1, 120, 9007199254740991]) {
      const v = entryValue(sha, bytes);
      expect(parseEntryValue(v)).toEqual({ sha256: sha.toString("hex"), bytes });
      expect(entryBytes(v)).toBe(bytes);
    }
    expect(entryValue(sha, 5)).not.toBe(entryValue(Buffer.alloc(32, 0xac), 5));
  });
});

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
