// The Link headers of split files, from their names alone: every file of a paged JSON list and
// every part of a split index page gets first, prev, next and last, under the base path; a list
// or an index that fits one page gets none; the index parts' headers name the pages their own
// navigation links.
import { describe, expect, it } from "vitest";
import { indexPages } from "../../../src/pages/index-page.ts";
import { siteUrls } from "../../../src/pages/links.ts";
import { pageLinksOf } from "../../../src/routes/page-links.ts";
import type { PublicSummary } from "../../../src/views/public.ts";
import { listSummary } from "../../support/lists.ts";
import { localeOf } from "../../../src/i18n/locale.ts";

const LIST = "api/public/v1/tournaments";
const INDEX = ["index.html", "page/1/index.html", "page/2/index.html", "page/3/index.html"];

/** A Link header as rel → URL pairs. */
const rels = (link: string | undefined): [string, string][] =>
  (link ?? "").split(", ").flatMap((l) => {
    const m = /^<([^>]+)>; rel="(\w+)"$/.exec(l);
    return m ? [[m[2]!, m[1]!] as [string, string]] : [];
  });

describe("pageLinksOf", () => {
  it("links every file of a paged JSON list, its tag forms and club catalogs, by the list's URLs", () => {
    const links = pageLinksOf([
      `${LIST}/index.json`,
      `${LIST}/page/1/index.json`,
      `${LIST}/page/2/index.json`,
      `${LIST}/tag/rapid/index.json`,
      `${LIST}/tag/rapid/page/1/index.json`,
      "api/clubs/hobsons-bay/tournaments/index.json",
      "api/clubs/hobsons-bay/tournaments/page/1/index.json",
    ]);
    expect(links[`${LIST}/index.json`]).toBe(
      `</${LIST}>; rel="first", </${LIST}/page/2>; rel="next", </${LIST}/page/1>; rel="last"`,
    );
    expect(links[`${LIST}/page/2/index.json`]).toBe(
      `</${LIST}>; rel="first", </${LIST}>; rel="prev", </${LIST}/page/1>; rel="next", </${LIST}/page/1>; rel="last"`,
    );
    expect(links[`${LIST}/page/1/index.json`]).toBe(
      `</${LIST}>; rel="first", </${LIST}/page/2>; rel="prev", </${LIST}/page/1>; rel="last"`,
    );
    expect(rels(links[`${LIST}/tag/rapid/page/1/index.json`])).toEqual([
      ["first", `/${LIST}/tag/rapid`],
      ["prev", `/${LIST}/tag/rapid`],
      ["last", `/${LIST}/tag/rapid/page/1`],
    ]);
    expect(rels(links["api/clubs/hobsons-bay/tournaments/index.json"])).toEqual([
      ["first", "/api/clubs/hobsons-bay/tournaments"],
      ["next", "/api/clubs/hobsons-bay/tournaments/page/1"],
      ["last", "/api/clubs/hobsons-bay/tournaments/page/1"],
    ]);
    expect(Object.keys(links)).toHaveLength(7);
  });

  it("links every part of a split index page by its slash URLs: `/` and `/page/{n}/`", () => {
    const links = pageLinksOf(INDEX);
    expect(links["index.html"]).toBe('</>; rel="first", </page/3/>; rel="next", </page/1/>; rel="last"');
    expect(links["page/3/index.html"]).toBe(
      '</>; rel="first", </>; rel="prev", </page/2/>; rel="next", </page/1/>; rel="last"',
    );
    expect(links["page/2/index.html"]).toBe(
      '</>; rel="first", </page/3/>; rel="prev", </page/1/>; rel="next", </page/1/>; rel="last"',
    );
    expect(links["page/1/index.html"]).toBe(
      '</>; rel="first", </page/2/>; rel="prev", </page/1/>; rel="last"',
    );
    expect(Object.keys(links).sort()).toEqual([...INDEX].sort());
  });

  it("puts every URL under the base path, as the pages link them", () => {
    const links = pageLinksOf([...INDEX, `${LIST}/index.json`, `${LIST}/page/1/index.json`], "/chess");
    expect(links["index.html"]).toBe(
      '</chess/>; rel="first", </chess/page/3/>; rel="next", </chess/page/1/>; rel="last"',
    );
    expect(links["page/1/index.html"]).toBe(
      '</chess/>; rel="first", </chess/page/2/>; rel="prev", </chess/page/1/>; rel="last"',
    );
    expect(links[`${LIST}/page/1/index.json`]).toBe(
      `</chess/${LIST}>; rel="first", </chess/${LIST}>; rel="prev", </chess/${LIST}/page/1>; rel="last"`,
    );
  });

  it("sends none for a list or an index that fits one page, nor for any other file", () => {
    expect(
      pageLinksOf([
        "index.html",
        `${LIST}/index.json`,
        `${LIST}/tag/rapid/index.json`,
        `${LIST}/tag/index.json`,
        `${LIST}/42/index.json`,
        "tournaments/42/index.html",
        "feeds/all.atom",
        "assets/site.css",
      ]),
    ).toEqual({});
    // Files that only look like parts: a page under another page, a page 0, a file by another name.
    expect(
      pageLinksOf([
        "index.html",
        "tournaments/page/1/index.html",
        "page/0/index.html",
        "page/1/index.htm",
        "page/01/index.html",
      ]),
    ).toEqual({});
  });

  it("names in each index part's header the pages its navigation and <link rel> name (one model)", () => {
    const LABELS: Record<string, string> = { Newest: "first", Newer: "prev", Older: "next", Oldest: "last" };
    const seven: PublicSummary[] = [1, 2, 3, 4, 5, 6, 7].map((id) =>
      listSummary(id, { status: id === 1 ? "Live" : "Complete" }),
    );
    for (const base of ["", "/chess"] as const) {
      const parts = indexPages(localeOf("en"), seven, [], siteUrls(base), 2).filter(([f]) =>
        f.endsWith(".html"),
      );
      expect(parts.map(([f]) => f).sort()).toEqual([...INDEX].sort());
      const links = pageLinksOf(
        parts.map(([f]) => f),
        base,
      );
      for (const [file, html] of parts) {
        const self = file === "index.html" ? `${base}/` : `${base}/${file.replace(/index\.html$/, "")}`;
        const header = rels(links[file]).filter(([, url]) => url !== self);
        const nav = /<nav aria-label="Pages" class="pager">(.*?)<\/nav>/.exec(html)![1]!;
        const shown = [...nav.matchAll(/<a href="([^"]+)">([^<]+)<\/a>/g)].map((m) => [
          LABELS[m[2]!]!,
          m[1]!,
        ]);
        expect(header, `${base} ${file}`).toEqual(shown);
        const head = [...html.matchAll(/<link rel="(prev|next)" href="([^"]+)">/g)].map((m) => [
          m[1]!,
          m[2]!,
        ]);
        expect(
          header.filter(([rel]) => rel === "prev" || rel === "next"),
          `${base} ${file}`,
        ).toEqual(head);
      }
    }
  });
});
