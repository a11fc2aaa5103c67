// `/`: the published tournaments, from the same summaries as /api/public/v1/tournaments, cut into
// the same pages (`/page/{n}/` beside page n of the JSON list), so a tick rewrites `/` alone
// while finished tournaments stay finished. The tag filter works without JavaScript: each tag
// link targets an anchor, and a rule generated per tag hides the rows without that tag while its
// anchor is the :target. Those rules are a stylesheet of their own (tagStyle), named by its
// content, so that the pages' strict Content-Security-Policy (style-src 'self') needs no inline
// style.
import { createHash } from "node:crypto";
import { pageNeighbours, paginate, type PageRel } from "../routes/pagination.ts";
import { summaryFinished } from "../routes/table.ts";
import type { PublicSummary } from "../views/public.ts";
import type { Locale } from "../i18n/locale.ts";
import { statusBadge } from "./format.ts";
import { searchForm } from "./search.ts";
import { esc, layout, scrollTable } from "./html.ts";
import { indexSitePath, type SiteUrls } from "./links.ts";
import { heads, pageFile, type PageFile } from "./tournament.ts";

/** Tags the store's tag pattern keeps to [a-z0-9-] get a filter; others get none. */
export function filterable(tag: string): boolean {
  return /^[a-z0-9-]+$/.test(tag);
}

/** The tags that get a filter on a page showing `summaries`. */
function filterTags(summaries: PublicSummary[], tags: string[]): string[] {
  return tags.filter((t) => filterable(t) && summaries.some((s) => s.tags.includes(t)));
}

/**
 * The filter rules as a stylesheet `[relPath, text]`, or null without tags. Its name carries a
 * hash of its bytes: a page never meets another build's rules, whatever the caches hold.
 */
export function tagStyle(summaries: PublicSummary[], tags: string[]): [string, string] | null {
  return tagStyleOf(filterTags(summaries, tags));
}

/** The stylesheet of the tags `used` by the whole list (filterable, in the list's tag order). */
export function tagStyleOf(used: string[]): [string, string] | null {
  if (used.length === 0) return null;
  const text =
    used
      .map(
        (t) =>
          `#tag-${t}:target~.scroll tbody tr:not([data-tags~="${t}"]){display:none}` +
          `#tag-${t}:target~.filter a[href="#tag-${t}"]{background:var(--accent);color:var(--on-accent)}`,
      )
      .join("\n") + "\n";
  const hash = createHash("sha256").update(text).digest("hex").slice(0, 12);
  return [`assets/tags-${hash}.css`, text];
}

/** Which part of the index a page shows. */
export interface IndexPart {
  /** 0: the head (`/`); n: numbered page n (`/page/{n}/`), page 1 the oldest. */
  page: number;
  /** The numbered pages the list has; 0 when it fits one page (the head is then the whole list). */
  pages: number;
  /** The published tournaments of the whole list. */
  total: number;
}

/** Links between the parts of a split index: the JSON list's links (pageNeighbours), but for a
 * page's link to itself. */
function partLinks(
  l: Locale,
  part: IndexPart,
  urls: SiteUrls,
): { rel: PageRel; label: string; href: string }[] {
  if (part.pages === 0) return [];
  return pageNeighbours(part.page, part.pages)
    .filter(({ page }) => page !== part.page)
    .map(({ rel, page }) => ({ rel, label: l.t(`index.${rel}`), href: urls.index(page) }));
}

/**
 * What the table's caption says the page holds. A numbered page names neither the total nor the
 * number of pages: its bytes stay the same while the list grows.
 */
function caption(l: Locale, part: IndexPart, shown: number): string {
  if (part.pages === 0) return l.t("index.captionAll");
  if (part.page === 0) return l.t("index.captionHead", { shown, total: part.total });
  return l.t("index.captionPage", { page: part.page });
}

/**
 * One page of the index: `summaries` are the part's own (all of them when the list fits one
 * page), `style` the site path of the tag filter's stylesheet (tagStyle of the whole list, so
 * every page links the same file), or null.
 */
export function indexPage(
  l: Locale,
  summaries: PublicSummary[],
  tags: string[],
  urls: SiteUrls,
  style: string | null,
  part: IndexPart = { page: 0, pages: 0, total: summaries.length },
): string {
  const used = filterTags(summaries, tags);
  const anchors = used.map((t) => `<span id="tag-${esc(t)}" class="anchor"></span>`).join("");
  const filter = used.length
    ? `<nav aria-label="${esc(l.t("index.filter"))}" class="filter"><ul><li><a href="#all">${esc(l.t("index.all"))}</a></li>${used
        .map((t) => `<li><a href="#tag-${esc(t)}">${esc(t)}</a></li>`)
        .join("")}</ul></nav>`
    : "";
  const rows = summaries
    .map((s) => {
      const id = String(s.id);
      const round =
        s.currentRound === null ? "–" : `${s.currentRound}${s.totalRounds ? ` / ${s.totalRounds}` : ""}`;
      return (
        `<tr data-id="${esc(id)}" data-tags="${esc(s.tags.join(" "))}">` +
        `<th scope="row"><a href="${esc(urls.page.tournament(id))}">${esc(s.name)}</a>` +
        (s.location ? `<span class="meta">${esc(s.location)}</span>` : "") +
        `</th><td>${statusBadge(l, s.status)}</td><td>${esc(l.dates(s.startDate, s.endDate))}</td>` +
        `<td>${esc(round)}</td><td>${s.playerCount}</td>` +
        `<td>${s.tags.map((t) => `<span class="tag">${esc(t)}</span>`).join(" ")}</td></tr>`
      );
    })
    .join("\n");
  const table = summaries.length
    ? scrollTable(
        l.t("index.label"),
        `<table class="index"><caption>${esc(caption(l, part, summaries.length))}</caption><thead><tr>` +
          heads(l, [
            "index.tournament",
            "index.status",
            "index.dates",
            "index.round",
            "index.players",
            "index.tags",
          ]) +
          `</tr></thead><tbody>\n${rows}\n</tbody></table>`,
      )
    : `<p>${esc(l.t("index.empty"))}</p>`;
  const links = partLinks(l, part, urls);
  const nav = links.length
    ? `\n<nav aria-label="${esc(l.t("index.pages"))}" class="pager"><ul>${links
        .map((l) => `<li><a href="${esc(l.href)}">${esc(l.label)}</a></li>`)
        .join("")}</ul></nav>`
    : "";
  const title = part.page === 0 ? l.t("index.title") : l.t("index.titlePage", { page: part.page });
  return layout({
    l,
    urls,
    title,
    head:
      (style ? `<link rel="stylesheet" href="${esc(urls.file(`/${style}`))}">\n` : "") +
      links
        .filter((l) => l.rel === "prev" || l.rel === "next")
        .map((l) => `<link rel="${l.rel}" href="${esc(l.href)}">\n`)
        .join("") +
      `<link rel="alternate" type="application/atom+xml" title="${esc(l.t("index.feedTitle"))}" href="${esc(urls.snapshotFeed)}">\n`,
    // The search (issue 47) on the head only: without the script the form stays hidden.
    body: `<h1>${esc(title)}</h1>\n${part.page === 0 ? searchForm(l, urls) : ""}<span id="all" class="anchor"></span>${anchors}\n${filter}\n${table}${nav}`,
    links: [
      [
        l.t(part.page === 0 ? "link.jsonList" : "link.json"),
        urls.json("publicTournaments", part.page === 0 ? {} : { page: String(part.page) }),
      ],
      [l.t("link.openapi"), urls.openapi],
      [l.t("link.feed"), urls.snapshotFeed],
    ],
  });
}

/**
 * The index's files: `index.html` (the head) and `page/{n}/index.html`, cut by paginate() with
 * the global list's order, page size and finished test, so page n shows exactly the tournaments
 * of the JSON list's page n; the tag filter's stylesheet, computed from the whole list, comes
 * with them.
 */
export function indexPages(
  l: Locale,
  summaries: PublicSummary[],
  tags: string[],
  urls: SiteUrls,
  pageSize: number,
): PageFile[] {
  const style = tagStyle(summaries, tags);
  const { head, pages } = paginate(summaries, pageSize, summaryFinished);
  const styleName = style?.[0] ?? null;
  const part = (page: number, items: PublicSummary[]): PageFile =>
    indexPart(l, items, tags, urls, styleName, { page, pages: pages.length, total: summaries.length });
  return [part(0, head), ...pages.map((p, i) => part(i + 1, p)), ...(style ? [style] : [])];
}

/** One file of the index: the head (`index.html`) or a numbered page, showing `summaries`. */
export function indexPart(
  l: Locale,
  summaries: PublicSummary[],
  tags: string[],
  urls: SiteUrls,
  style: string | null,
  part: IndexPart,
): PageFile {
  const file = part.page === 0 ? "index.html" : pageFile(indexSitePath(part.page));
  return [file, indexPage(l, summaries, tags, urls, style, part)];
}
