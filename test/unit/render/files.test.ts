// A render worker sends a tournament's files as one buffer (src/render/files.ts): every file comes
// back with exactly the UTF-8 bytes it would have on its own, whatever the buffer's first guess.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { packFiles, unpackFiles } from "../../../src/render/files.ts";

const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);

function roundTrip(files: [string, string | Uint8Array][]): void {
  const packed = packFiles(files);
  const back = unpackFiles(packed);
  expect(back.map(([p]) => p)).toEqual(files.map(([p]) => p));
  back.forEach(([, bytes], i) => {
    const data = files[i]![1];
    expect(Buffer.from(bytes).equals(Buffer.from(typeof data === "string" ? utf8(data) : data))).toBe(true);
    // A view of the one buffer, not a copy.
    expect(bytes.buffer).toBe(packed.bytes.buffer);
  });
}

describe("packFiles", () => {
  it("packs files in order, each a view of one buffer with its own bytes", () => {
    roundTrip([
      ["a/index.json", '{"a":1}'],
      ["b/index.html", "<p>plain</p>"],
      ["empty", ""],
      ["c/index.json", new Uint8Array([1, 2, 3])],
    ]);
    expect(unpackFiles(packFiles([]))).toEqual([]);
  });

  it("grows past its first guess for text that is not ASCII, never splitting a character", () => {
    roundTrip([
      ["ascii", "x".repeat(1000)],
      ["greek", "Ωμέγα ".repeat(500)],
      ["cjk and emoji", "棋士♟️😀".repeat(700)],
      ["lone surrogate", "a\ud800b"],
      ["bytes", utf8("é".repeat(3000))],
    ]);
  });

  it("gives any list of files back byte for byte", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(fc.string(), fc.oneof(fc.string({ unit: "grapheme" }), fc.string({ unit: "binary" }))),
          {
            maxLength: 20,
          },
        ),
        (files) => roundTrip(files),
      ),
      { numRuns: 50 },
    );
  });
});
