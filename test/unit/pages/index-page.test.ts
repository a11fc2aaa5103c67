// The index for people, paginated like /api/public/v1/tournaments: which rows each page shows, its
// navigation, its JSON link, the tag filter, and that a list that fits one page is as it was.
import { describe, expect, it } from "vitest";
import { indexPage, indexPages, tagStyle } from "../../../src/pages/index-page.ts";
import { indexSitePath, siteUrls } from "../../../src/pages/links.ts";
import { ROUTES } from "../../../src/routes/table.ts";
import { instanceFile } from "../../../src/routes/urls.ts";
import type { PublicSummary } from "../../../src/views/public.ts";
import { arrayLists, listSummary } from "../../support/lists.ts";
import { localeOf } from "../../../src/i18n/locale.ts";

const EN = localeOf("en");

const summary = listSummary;

/** Seven tournaments, newest first; 1 and 4 are unfinished. At page size 2: a head of 1 and
 * pages 3, 2, 1 (page 1 the oldest). */
const SEVEN: PublicSummary[] = [1, 2, 3, 4, 5, 6, 7].map((id) =>
  summary(id, {
    status: id === 1 ? "Live" : id === 4 ? "Upcoming" : "Complete",
    tags: id % 2 ? ["rapid"] : id === 6 ? ["juniors"] : [],
  }),
);
const TAGS = ["juniors", "rapid"];
const urls = siteUrls("");

const rows = (html: string): number[] => [...html.matchAll(/<tr data-id="(\d+)"/g)].map((m) => Number(m[1]));
const pagesNav = (html: string): [string, string][] => {
  const nav = /<nav aria-label="Pages" class="pager">(.*?)<\/nav>/.exec(html)?.[1];
  return nav ? [...nav.matchAll(/<a href="([^"]+)">([^<]+)<\/a>/g)].map((m) => [m[2]!, m[1]!]) : [];
};
const headLinks = (html: string): string[] =>
  [...html.matchAll(/<link rel="(prev|next)" href="([^"]+)">/g)].map((m) => `${m[1]} ${m[2]}`);
const filterTags = (html: string): string[] =>
  [...html.matchAll(/<a href="#tag-([a-z0-9-]+)">/g)].map((m) => m[1]!);
const files = (list: PublicSummary[], size: number) =>
  new Map(indexPages(EN, list, TAGS, urls, size).map(([f, text]) => [f, text]));

describe("index pages", () => {
  it("publish one index.html, the one page of the whole list, when the list fits the page size", () => {
    for (const size of [7, 8, 1000]) {
      const out = files(SEVEN, size);
      const style = tagStyle(SEVEN, TAGS)!;
      expect([...out.keys()]).toEqual(["index.html", style[0]]);
      const html = out.get("index.html")!;
      expect(html).toBe(indexPage(EN, SEVEN, TAGS, urls, style[0]));
      expect(rows(html)).toEqual([1, 2, 3, 4, 5, 6, 7]);
      expect(html).not.toContain('aria-label="Pages"');
      expect(headLinks(html)).toEqual([]);
      expect(html).toContain("<caption>Published tournaments, newest first</caption>");
      expect(html).toContain('<a href="/api/public/v1/tournaments">This list as JSON</a>');
    }
  });

  it("show on page n exactly the tournaments of the JSON list's page n", () => {
    for (const size of [1, 2, 3, 6]) {
      const lists = arrayLists({ publicSummaries: SEVEN, globalTags: TAGS, pageSize: size });
      const json = new Map<string, number[]>();
      const route = ROUTES.find((r) => r.id === "publicTournaments")!;
      if (route.scope !== "list") throw new Error("publicTournaments is a list");
      route.render(lists, (params, body) => {
        if (params.tag === undefined)
          json.set(
            params.page ?? "0",
            (body as PublicSummary[]).map((s) => Number(s.id)),
          );
      });
      const out = files(SEVEN, size);
      const html = [...out.keys()].filter((f) => f.endsWith(".html"));
      expect(html).toHaveLength(json.size);
      for (const [page, ids] of json) {
        const file = page === "0" ? "index.html" : `page/${page}/index.html`;
        expect(rows(out.get(file)!), `${file} at size ${size}`).toEqual(ids);
      }
      // Every published tournament exactly once over all pages.
      expect(html.flatMap((f) => rows(out.get(f)!)).sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
    }
  });

  it("link the head, newer, older and oldest pages as the JSON list's Link headers do", () => {
    const out = files(SEVEN, 2);
    expect([...out.keys()].filter((f) => f.endsWith(".html"))).toEqual([
      "index.html",
      "page/1/index.html",
      "page/2/index.html",
      "page/3/index.html",
    ]);
    const head = out.get("index.html")!;
    expect(rows(head)).toEqual([1]);
    expect(pagesNav(head)).toEqual([
      ["Older", "/page/3/"],
      ["Oldest", "/page/1/"],
    ]);
    expect(headLinks(head)).toEqual(["next /page/3/"]);
    // The newest numbered page: its unfinished tournament (4) spilled out of the one-item head.
    const p3 = out.get("page/3/index.html")!;
    expect(rows(p3)).toEqual([4, 2]);
    expect(pagesNav(p3)).toEqual([
      ["Newest", "/"],
      ["Newer", "/"],
      ["Older", "/page/2/"],
      ["Oldest", "/page/1/"],
    ]);
    expect(headLinks(p3)).toEqual(["prev /", "next /page/2/"]);
    const p2 = out.get("page/2/index.html")!;
    expect(rows(p2)).toEqual([3, 5]);
    expect(pagesNav(p2)).toEqual([
      ["Newest", "/"],
      ["Newer", "/page/3/"],
      ["Older", "/page/1/"],
      ["Oldest", "/page/1/"],
    ]);
    const p1 = out.get("page/1/index.html")!;
    expect(rows(p1)).toEqual([6, 7]);
    expect(pagesNav(p1)).toEqual([
      ["Newest", "/"],
      ["Newer", "/page/2/"],
    ]);
    expect(headLinks(p1)).toEqual(["prev /page/2/"]);
  });

  it("name their part in the caption and title, and link their own JSON page", () => {
    const out = files(SEVEN, 2);
    const head = out.get("index.html")!;
    expect(head).toContain("<title>Chess tournaments</title>");
    expect(head).toMatch(/<caption>[^<]*\(1 of 7\)<\/caption>/);
    expect(head).toContain('<a href="/api/public/v1/tournaments">This list as JSON</a>');
    const p2 = out.get("page/2/index.html")!;
    expect(p2).toContain("<title>Chess tournaments, page 2</title>");
    expect(p2).toContain(
      "<caption>Published tournaments, page 2 (page 1 holds the oldest), newest first</caption>",
    );
    expect(p2).toContain('<a href="/api/public/v1/tournaments/page/2">This page as JSON</a>');
    expect(
      instanceFile(
        ROUTES.find((r) => r.id === "publicTournaments")!,
        { page: "2" },
      ),
    ).toBe("api/public/v1/tournaments/page/2/index.json");
  });

  it("keep the numbered pages' bytes when a new unfinished tournament joins the head", () => {
    const before = files(SEVEN, 2);
    const after = files([summary(0, { status: "Live", tags: ["rapid"] }), ...SEVEN], 2);
    expect(after.get("index.html")).not.toBe(before.get("index.html"));
    expect(rows(after.get("index.html")!)).toEqual([0, 1]);
    for (const n of [1, 2, 3])
      expect(after.get(`page/${n}/index.html`)).toBe(before.get(`page/${n}/index.html`));
  });

  it("link one tag stylesheet from every page and list the tags of each page's own rows", () => {
    const out = files(SEVEN, 2);
    const style = tagStyle(SEVEN, TAGS)!;
    expect(out.get(style[0])).toBe(style[1]);
    expect(style[1]).toContain("#tag-juniors:target");
    expect(style[1]).toContain("#tag-rapid:target");
    for (const [file, html] of out) {
      if (!file.endsWith(".html")) continue;
      expect(html, file).toContain(`<link rel="stylesheet" href="/${style[0]}">`);
    }
    expect(filterTags(out.get("index.html")!)).toEqual(["rapid"]);
    expect(filterTags(out.get("page/3/index.html")!)).toEqual([]);
    expect(out.get("page/3/index.html")).not.toContain('aria-label="Filter by tag"');
    expect(filterTags(out.get("page/1/index.html")!)).toEqual(["juniors", "rapid"]);
    expect(out.get("page/1/index.html")).toContain('<span id="tag-juniors" class="anchor"></span>');
  });

  it("carry the base path in every page link", () => {
    const out = new Map(indexPages(EN, SEVEN, TAGS, siteUrls("/chess"), 2));
    expect(pagesNav(out.get("page/2/index.html")!)).toEqual([
      ["Newest", "/chess/"],
      ["Newer", "/chess/page/3/"],
      ["Older", "/chess/page/1/"],
      ["Oldest", "/chess/page/1/"],
    ]);
    expect(out.get("page/2/index.html")).toContain('href="/chess/api/public/v1/tournaments/page/2"');
  });
});

describe("indexSitePath", () => {
  it("is / for the head and /page/{n}/ for a numbered page; nothing else is a page", () => {
    expect(indexSitePath(0)).toBe("/");
    expect(indexSitePath(1)).toBe("/page/1/");
    expect(indexSitePath(12)).toBe("/page/12/");
    expect(siteUrls("/chess").index(3)).toBe("/chess/page/3/");
    for (const bad of [-1, 1.5, Number.NaN]) expect(() => indexSitePath(bad)).toThrow();
  });
});
