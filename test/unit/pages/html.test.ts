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

  it("returns text without those characters as it is, and numbers as their text", () => {
    expect(esc("Magnus Carlsen — Øystein Dannevig, 2½")).toBe("Magnus Carlsen — Øystein Dannevig, 2½");
    expect(esc("")).toBe("");
    expect(esc(2650)).toBe("2650");
    expect(esc(0.5)).toBe("0.5");
  });

  it("gives the same result on repeated calls (no regex state carried between them)", () => {
    const hostile = `"><img src=x onerror='a()'>`;
    expect(esc(hostile)).toBe(esc(hostile));
    expect(esc("plain")).toBe("plain");
    expect(esc(hostile)).toBe("&quot;&gt;&lt;img src=x onerror=&#39;a()&#39;&gt;");
  });
});
