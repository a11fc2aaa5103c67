// The bytes a render worker posts: UTF-8 exactly as TextEncoder writes it, each in a buffer it owns.
import { describe, expect, it } from "vitest";
import { utf8 } from "../../../src/render/utf8.ts";

const encoder = new TextEncoder();
const texts = {
  "short ASCII": "<p>ok</p>",
  "short two-byte": "Işıl — 1–0",
  "long ASCII": "<td>1</td>".repeat(500),
  "long Latin-1": "<td>Müller ½</td>".repeat(300),
  "long two-byte": '{"name":"Yılmaz — Карпов 🏆"}'.repeat(200),
  "lone surrogates": "a\ud800b\udc00".repeat(400),
  // Past the scratch room a long text is first written into (a third of 1 MiB in UTF-16 units).
  "very long two-byte": "Карпов ½–½ ".repeat(40_000),
  "very long ASCII": "<td>1</td>".repeat(40_000),
};

describe("utf8", () => {
  for (const [label, text] of Object.entries(texts)) {
    it(`writes ${label} as TextEncoder does`, () => {
      expect(Buffer.from(utf8(text)).equals(Buffer.from(encoder.encode(text)))).toBe(true);
    });
  }

  it("gives each text a buffer of its own, so that transferring it detaches nothing else", () => {
    for (const key of ["long Latin-1", "long two-byte", "short ASCII", "very long ASCII"] as const) {
      const text = texts[key];
      const a = utf8(text);
      const b = utf8(text);
      expect(a.byteOffset).toBe(0);
      expect(a.buffer.byteLength).toBe(a.byteLength);
      expect(a.buffer).not.toBe(b.buffer);
    }
  });

  it("keeps each text's bytes when the next long text is written", () => {
    const first = utf8(texts["long Latin-1"]);
    utf8(texts["long two-byte"]);
    expect(Buffer.from(first).equals(Buffer.from(encoder.encode(texts["long Latin-1"])))).toBe(true);
  });
});
