// The human view of the snapshot: HTML pages beside api/, the assets they share and the club
// embed. Pure: each function returns [relPath, text] pairs; render/snapshot.ts writes them.
import { EMBED_JS, EMBED_PATH } from "./embed.ts";
import type { ListContext, SiteContext } from "../routes/table.ts";
import type { TournamentContext } from "../views/context.ts";
import { SITE_CSS, SITE_JS } from "./assets.ts";
import { indexPage, tagStyle } from "./index-page.ts";
import { calendarFile } from "./calendar.ts";
import { snapshotFeed, tournamentFeed } from "./feed-files.ts";
import { extensionPages } from "./extensions.ts";
import { sharedOf, tournamentPages, type PageFile } from "./tournament.ts";
import { ASSET, siteUrls } from "./links.ts";
import { calendarPath } from "../routes/urls.ts";

/** The pages of one tournament (none unless it is published on the global surface). */
export function pagesOfTournament(c: TournamentContext, site: SiteContext): PageFile[] {
  const shared = sharedOf(c, site);
  if (!shared) return [];
  const { s } = shared;
  const files = [...tournamentPages(c, site), ...extensionPages(c, s), tournamentFeed(c, s)];
  if (s.schedule.calendarPath) {
    files.push([
      calendarPath(s.id).slice(1),
      calendarFile({
        id: s.id,
        name: s.detail.name,
        location: s.detail.location,
        stamp: c.t.lastScrapedAt,
        pagePath: s.urls.page.tournament(s.id),
        schedule: s.schedule,
      }),
    ]);
  }
  return files;
}

/** `/` (the index of published tournaments), the shared assets and the embed script. */
export function pagesOfSite(lists: ListContext): PageFile[] {
  const style = tagStyle(lists.publicSummaries, lists.globalTags);
  const urls = siteUrls(lists.basePath ?? "");
  return [
    ["index.html", indexPage(lists.publicSummaries, lists.globalTags, urls)],
    ...(style ? [style] : []),
    [ASSET.css.slice(1), SITE_CSS],
    [ASSET.js.slice(1), SITE_JS],
    [EMBED_PATH, EMBED_JS],
    snapshotFeed(lists.publicSummaries, urls),
  ];
}
