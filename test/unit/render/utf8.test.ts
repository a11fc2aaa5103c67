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
};

describe("utf8", () => {
  for (const [label, text] of Object.entries(texts)) {
    it(`writes ${label} as TextEncoder does`, () => {
      expect(Buffer.from(utf8(text)).equals(Buffer.from(encoder.encode(text)))).toBe(true);
    });
  }

  it("gives each text a buffer of its own, so that transferring it detaches nothing else", () => {
    for (const text of [texts["long Latin-1"], texts["long two-byte"], texts["short ASCII"]]) {
      const a = utf8(text);
      const b = utf8(text);
      expect(a.byteOffset).toBe(0);
      expect(a.buffer.byteLength).toBe(a.byteLength);
      expect(a.buffer).not.toBe(b.buffer);
    }
  });
});
