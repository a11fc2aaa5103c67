// Issue 13: store strings are text on every page and in the embed's data, never markup. A store
// with hostile names, locations, recaps and source URL is built, and every page is parsed.
import { readFileSync } from "node:fs";
import path from "node:path";
import fg from "fast-glob";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build } from "../../../src/pipeline/build.ts";
import { removeTempDirs, tempDir } from "../../support/temp.ts";
import { BASE, BASE_NOW, baseRows, storeFromRows } from "../../support/stores.ts";
import { attr, elements, parseStrict, text, type Node } from "../../support/dom.ts";

afterAll(removeTempDirs);

const NAME = `<script>alert("t")</script> & Co`;
const LOCATION = `"><img src=x onerror=alert(1)>`;
const PLAYER = `</td></tr><b>Bold</b>&amp; 'quoted'`;
const SOURCE = `https://results.example/t?a="><b>x</b>`;
const HEADLINE = `<iframe src="//evil.example"></iframe>Headline`;
/** Beyond Latin-1: Turkish dotless i, Cyrillic, a character beyond the first plane. */
const WIDE = "Işıl Карпова 🏆";

let pages: Map<string, { html: string; doc: Node; errors: string[] }>;

beforeAll(async () => {
  const dir = tempDir("pages-hostile");
  const rows = baseRows();
  const t = rows.tournaments!.find((r) => r.external_id === BASE.published)!;
  t.name = NAME;
  t.location = LOCATION;
  t.source_url = SOURCE;
  rows.players!.find((p) => p.tournament_id === t.tournament_id && p.source_player_number === 1)!.name =
    PLAYER;
  rows.players!.find((p) => p.tournament_id === t.tournament_id && p.source_player_number === 2)!.name = WIDE;
  rows.recaps!.find((r) => r.tournament_id === t.tournament_id)!.headline = HEADLINE;
  const db = storeFromRows(path.join(dir, "hostile.sqlite"), rows);
  const out = path.join(dir, "dist");
  await build({ db, out, now: BASE_NOW });
  pages = new Map(
    fg.sync("**/*.html", { cwd: out, followSymbolicLinks: true }).map((rel) => {
      const html = readFileSync(path.join(out, rel), "utf8");
      return [rel, { html, ...parseStrict(html) }];
    }),
  );
}, 60_000);

describe("pages of a store with hostile strings", () => {
  it("parse without error and hold no element or script the store wrote", () => {
    expect(pages.size).toBeGreaterThan(3);
    for (const [rel, p] of pages) {
      expect(p.errors, rel).toEqual([]);
      const tags = new Set(elements(p.doc).map((e) => e.tagName));
      for (const bad of ["img", "iframe", "b"]) expect(tags.has(bad), `${rel}: <${bad}>`).toBe(false);
      for (const s of elements(p.doc, (e) => e.tagName === "script"))
        expect(["/assets/site.js", "/assets/search.js"], rel).toContain(attr(s, "src"));
      for (const a of elements(p.doc, (e) => e.tagName === "a"))
        expect(attr(a, "href"), rel).not.toMatch(/^javascript:/i);
    }
  });

  it("show the hostile strings as text", () => {
    const id = String(BASE.published);
    const overview = pages.get(`tournaments/${id}/index.html`)!;
    expect(text(overview.doc)).toContain(NAME);
    expect(text(overview.doc)).toContain(LOCATION);
    expect(text(overview.doc)).toContain(SOURCE);
    const round = pages.get(`tournaments/${id}/rounds/1/index.html`)!;
    expect(text(round.doc)).toContain(PLAYER);
    const recaps = pages.get(`tournaments/${id}/recaps/es/index.html`)!;
    expect(text(recaps.doc)).toContain(HEADLINE);
    expect(text(pages.get("index.html")!.doc)).toContain(NAME);
  });

  it("write characters beyond Latin-1 as references, which read back as the same text", () => {
    const id = String(BASE.published);
    // Every page is one-byte text: cheaper to build and to encode (docs/benchmarks.md, eleventh round).
    for (const [rel, p] of pages) expect(p.html, rel).not.toMatch(/[\u0100-\uffff]/);
    const round = pages.get(`tournaments/${id}/rounds/1/index.html`)!;
    expect(round.html).toContain("I&#x15F;&#x131;l &#x41A;");
    expect(text(round.doc)).toContain(WIDE);
  });
});
