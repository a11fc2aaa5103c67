// `/`: the published tournaments, from the same summaries as /api/public/v1/tournaments. The tag
// filter works without JavaScript: each tag link targets an anchor, and a rule generated per
// tag hides the rows without that tag while its anchor is the :target. Those rules are a
// stylesheet of their own (tagStyle), named by its content, so that the pages' strict
// Content-Security-Policy (style-src 'self') needs no inline style.
import { createHash } from "node:crypto";
import type { PublicSummary } from "../views/public.ts";
import { formatDates, statusBadge } from "./format.ts";
import { esc, layout, scrollTable } from "./html.ts";
import type { SiteUrls } from "./links.ts";

/** The tags that get a filter: the store's tag pattern keeps tags to [a-z0-9-], others get none. */
function filterTags(summaries: PublicSummary[], tags: string[]): string[] {
  return tags.filter((t) => /^[a-z0-9-]+$/.test(t) && summaries.some((s) => s.tags.includes(t)));
}

/**
 * The filter rules as a stylesheet `[relPath, text]`, or null without tags. Its name carries a
 * hash of its bytes: a page never meets another build's rules, whatever the caches hold.
 */
export function tagStyle(summaries: PublicSummary[], tags: string[]): [string, string] | null {
  const used = filterTags(summaries, tags);
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

export function indexPage(summaries: PublicSummary[], tags: string[], urls: SiteUrls): string {
  const used = filterTags(summaries, tags);
  const anchors = used.map((t) => `<span id="tag-${esc(t)}" class="anchor"></span>`).join("");
  const style = tagStyle(summaries, tags);
  const filter = used.length
    ? `<nav aria-label="Filter by tag" class="filter"><ul><li><a href="#all">All</a></li>${used
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
        `</th><td>${statusBadge(s.status)}</td><td>${esc(formatDates(s.startDate, s.endDate))}</td>` +
        `<td>${esc(round)}</td><td>${s.playerCount}</td>` +
        `<td>${s.tags.map((t) => `<span class="tag">${esc(t)}</span>`).join(" ")}</td></tr>`
      );
    })
    .join("\n");
  const table = summaries.length
    ? scrollTable(
        "Published tournaments",
        `<table class="index"><caption>Published tournaments, newest first</caption><thead><tr>` +
          `<th scope="col">Tournament</th><th scope="col">Status</th><th scope="col">Dates</th>` +
          `<th scope="col">Round</th><th scope="col">Players</th><th scope="col">Tags</th>` +
          `</tr></thead><tbody>\n${rows}\n</tbody></table>`,
      )
    : "<p>No tournament is published yet.</p>";
  return layout({
    urls,
    title: "Chess tournaments",
    head:
      (style ? `<link rel="stylesheet" href="${esc(urls.file(`/${style[0]}`))}">\n` : "") +
      `<link rel="alternate" type="application/atom+xml" title="All tournaments" href="${esc(urls.snapshotFeed)}">\n`,
    body: `<h1>Chess tournaments</h1>\n<span id="all" class="anchor"></span>${anchors}\n${filter}\n${table}`,
    links: [
      ["This list as JSON", urls.json("publicTournaments", {})],
      ["OpenAPI", urls.openapi],
      ["Follow (Atom feed)", urls.snapshotFeed],
    ],
  });
}
