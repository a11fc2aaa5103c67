// The deploy record keeps the edge facts its objects' headers were sent with (version 2), still
// reads a version-1 record (facts unknown), and headerSuspects names exactly the keys whose
// headers the changed facts touch.
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { headerSuspects } from "../../../src/deploy/plan.ts";
import {
  decodePending,
  decodeRecord,
  encodePending,
  encodeRecord,
  MAX_READ_BYTES,
} from "../../../src/deploy/record.ts";

const H = "a".repeat(64);
const files = new Map([
  ["api/public/v1/tournaments/7/index.json", { sha256: H, bytes: 10 }],
  ["tournaments/7/standings/index.html", { sha256: H, bytes: 11 }],
  ["api/clubs/c/tournaments/7/index.json", { sha256: H, bytes: 12 }],
  ["api/public/v1/tournaments/70/index.json", { sha256: H, bytes: 13 }],
  ["api/public/v1/tournaments/index.json", { sha256: H, bytes: 14 }],
]);

describe("the deploy record", () => {
  it("round-trips the files and the edge facts", () => {
    const facts = { links: { "api/public/v1/tournaments/index.json": '<a>; rel="last"' }, archived: ["7"] };
    const back = decodeRecord(encodeRecord({ metadata: "m", files, facts }))!;
    expect(back.metadata).toBe("m");
    expect(back.facts).toEqual(facts);
    expect([...back.files!]).toEqual([...files]);
  });

  it("reads a version-1 record, whose facts are unknown", () => {
    const v1 = gzipSync(`build-api-deploy 1 m\n${H} 10 api/public/v1/tournaments/7/index.json\n`);
    const back = decodeRecord(v1)!;
    expect(back.facts).toBeUndefined();
    expect(back.files!.get("api/public/v1/tournaments/7/index.json")).toEqual({ sha256: H, bytes: 10 });
  });
});

/** Gzip members, one after another (a valid gzip stream): `n` of `part` expanded, cheaply made. */
function members(head: string, part: Buffer, n: number, tail: string): Buffer {
  const one = gzipSync(part);
  return Buffer.concat([gzipSync(head), ...Array.from({ length: n }, () => one), gzipSync(tail)]);
}

describe("a record or pending mark that expands past the bound (a gzip bomb)", () => {
  const mib = Buffer.alloc(1024 * 1024, "a");
  const past = MAX_READ_BYTES / mib.length + 2;

  it("is unreadable, even when its text is a valid pending mark", () => {
    const keys = '{"format":"build-api-deploy-pending","version":1,"keys":["';
    // Within the bound the same shape reads (the bound is the only reason for the refusal).
    expect(decodePending(members(keys, mib, 2, '"]}'))).toEqual(["a".repeat(2 * mib.length)]);
    expect(decodePending(members(keys, mib, past, '"]}'))).toBeUndefined();
    expect(decodePending(encodePending(["k"]))).toEqual(["k"]);
  });

  it("is unreadable as a record, and 2 GB of zeros is not inflated whole", () => {
    const v2 = `build-api-deploy 2 m\nnull\n${H} 10 `;
    expect(decodeRecord(members(v2, mib, past, "\n"))).toBeUndefined();
    const bomb = members("", Buffer.alloc(1024 * 1024), 2048, "");
    expect(bomb.length).toBeLessThan(4 * 1024 * 1024);
    expect(decodeRecord(bomb)).toBeUndefined();
    expect(decodePending(bomb)).toBeUndefined();
  });
});

describe("headerSuspects", () => {
  const none = { links: {}, archived: [] };
  it("names a tournament's every key when it enters or leaves the archive class, not another's", () => {
    const keys = [...files.keys()];
    const of7 = [
      "api/public/v1/tournaments/7/index.json",
      "tournaments/7/standings/index.html",
      "api/clubs/c/tournaments/7/index.json",
    ];
    expect([...headerSuspects({ links: {}, archived: ["7"] }, none, keys)].sort()).toEqual(of7.sort());
    expect([...headerSuspects(none, { links: {}, archived: ["7"] }, keys)].sort()).toEqual(of7.sort());
    expect(headerSuspects({ links: {}, archived: ["7"] }, { links: {}, archived: ["7"] }, keys).size).toBe(0);
  });

  it("names a key whose Link changed, appeared or went; with no facts before, every linked key", () => {
    const a = { links: { x: "1", y: "2" }, archived: [] };
    const b = { links: { x: "1", y: "3", z: "4" }, archived: [] };
    expect([...headerSuspects(b, a, [])].sort()).toEqual(["y", "z"]);
    expect([...headerSuspects(a, b, [])].sort()).toEqual(["y", "z"]);
    expect([...headerSuspects(a, undefined, [])].sort()).toEqual(["x", "y"]);
  });
});
