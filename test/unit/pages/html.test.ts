// esc() is the one escape point of every page: what a store string may carry must come out inert.
import { describe, expect, it } from "vitest";
import { esc } from "../../../src/pages/html.ts";

describe("esc", () => {
  it("escapes the five characters that end text or a double-quoted attribute", () => {
    expect(esc(`<script>alert("x" & 'y')</script>`)).toBe(
      "&lt;script&gt;alert(&quot;x&quot; &amp; &#39;y&#39;)&lt;/script&gt;",
    );
  });

  it("escapes an ampersand once, including one that already starts an entity", () => {
    expect(esc("&amp; &&")).toBe("&amp;amp; &amp;&amp;");
  });

  it("returns Latin-1 text without those characters as it is, and numbers as their text", () => {
    expect(esc("Øystein Dannevig, 2½ · Müller")).toBe("Øystein Dannevig, 2½ · Müller");
    expect(esc("")).toBe("");
    expect(esc(2650)).toBe("2650");
    expect(esc(0.5)).toBe("0.5");
  });

  it("writes every character beyond Latin-1 as a numeric reference, so that pages stay one-byte text", () => {
    expect(esc("Işıl Çelik — 1–0 <b>")).toBe("I&#x15F;&#x131;l Çelik &#x2014; 1&#x2013;0 &lt;b&gt;");
    // A character beyond the first plane is one reference, not two halves.
    expect(esc("🏆 & co")).toBe("&#x1F3C6; &amp; co");
    // A lone surrogate is no character: its reference is U+FFFD's, what UTF-8 would carry.
    expect(esc("a\ud800b\udc00")).toBe("a&#xFFFD;b&#xFFFD;");
    expect(esc("Карпов")).toBe("&#x41A;&#x430;&#x440;&#x43F;&#x43E;&#x432;");
  });

  it("escapes a long text (a recap) as it escapes its pieces", () => {
    const pieces = ["Işıl <b>", "Карпов & co ", "🏆 ", "a\ud800b", "\udc00 — 1–0 ", "Müller ½ "];
    const long = pieces.join("").repeat(40);
    expect(long.length).toBeGreaterThan(1000);
    expect(esc(long)).toBe(pieces.map(esc).join("").repeat(40));
    expect(esc(long)).not.toMatch(/[\u0100-\uffff]/);
  });

  it("gives the same result on repeated calls (no regex state carried between them)", () => {
    const hostile = `"><img src=x onerror='a()'>`;
    expect(esc(hostile)).toBe(esc(hostile));
    expect(esc("plain")).toBe("plain");
    expect(esc(hostile)).toBe("&quot;&gt;&lt;img src=x onerror=&#39;a()&#39;&gt;");
  });
});
