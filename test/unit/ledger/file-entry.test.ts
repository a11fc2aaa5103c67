// Entry values: the compact form of a file's sha256 and size in the ledger's rows.
import { describe, expect, it } from "vitest";
import { entryBytes, entryValue, parseEntryValue } from "../../../src/ledger/file-entry.ts";

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
