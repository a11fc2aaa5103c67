// File entries: a file's sha256 and size as the ledger's rows hold them.
import { describe, expect, it } from "vitest";
import { entryHex, entryIs } from "../../../src/ledger/file-entry.ts";

describe("file entries", () => {
  it("match only the same digest and the same size, up to the largest safe integer", () => {
    const sha = Buffer.alloc(32, 0xab);
    for (const bytes of [0, 1, 120, 9007199254740991]) {
      const e = { sha256: sha, bytes };
      expect(entryIs(e, Buffer.alloc(32, 0xab), bytes)).toBe(true);
      expect(entryIs(e, sha, bytes + 1)).toBe(false);
      expect(entryIs(e, Buffer.alloc(32, 0xac), bytes)).toBe(false);
      expect(entryHex(e)).toEqual({ sha256: "ab".repeat(32), bytes });
    }
  });

  it("give the hex of exactly the digest's bytes when it is a view into a larger buffer", () => {
    const pool = Buffer.alloc(96, 0x11);
    pool.fill(0x22, 32, 64);
    expect(entryHex({ sha256: pool.subarray(32, 64), bytes: 3 })).toEqual({
      sha256: "22".repeat(32),
      bytes: 3,
    });
  });
});
