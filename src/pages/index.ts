// The human view of the snapshot: HTML pages beside api/, the assets they share and the club
// embed. Pure: each function returns [relPath, text] pairs; render/snapshot.ts writes them.
import { EMBED_JS, EMBED_PATH } from "./embed.ts";
import { clubCalendarOf, type SiteContext } from "../routes/table.ts";
import { playerCardsView, scheduleView } from "../views/extensions.ts";
import type { TournamentContext } from "../views/context.ts";
import { SITE_CSS, SITE_JS } from "./assets.ts";
import { SEARCH_JS, SEARCH_JS_PATH } from "./search.ts";
import { calendarFile } from "./calendar.ts";
import { tournamentFeed } from "./feed-files.ts";
import { extensionPages } from "./extensions.ts";
import { playerFeedFiles } from "./player-feeds.ts";
import { teamPages } from "./teams.ts";
import { sharedOf, tournamentPages, zoneOf, type PageFile } from "./tournament.ts";
import { languageOf } from "../i18n/languages.ts";
import { localeOf } from "../i18n/locale.ts";
import { ASSET, siteUrls } from "./links.ts";
import { calendarPath, clubCalendarPath } from "../routes/urls.ts";

/** The pages of one tournament: none unless it is published on the global surface, but for the
 * iCalendar file of each club that lists it (club-only tournaments included). */
export function pagesOfTournament(c: TournamentContext, site: SiteContext): PageFile[] {
  const clubs = clubCalendars(c, site);
  const shared = sharedOf(c, site);
  if (!shared) return clubs;
  const { s } = shared;
  const cards = playerCardsView(c);
  const files = [
    ...tournamentPages(c, site),
    ...extensionPages(c, s, cards),
    ...teamPages(c, s),
    tournamentFeed(c, s),
    ...playerFeedFiles(c, s, cards),
  ];
  if (s.schedule.calendarPath) {
    files.push([
      calendarPath(s.id).slice(1),
      calendarFile({
        l: s.l,
        id: s.id,
        name: s.detail.name,
        location: s.detail.location,
        stamp: c.t.lastScrapedAt,
        pagePath: s.urls.page.tournament(s.id),
        schedule: s.schedule,
      }),
    ]);
  }
  return [...files, ...clubs];
}

/** `/calendar/clubs/{slug}/{id}.ics` for each club listing the tournament, from the club
 * surface's schedule (the same rounds as the global one). */
function clubCalendars(c: TournamentContext, site: SiteContext): PageFile[] {
  const id = c.t.externalId.toString();
  const urls = siteUrls(site.basePath ?? "", site.origin);
  return c.published.clubs.flatMap(({ slug }): PageFile[] => {
    const schedule = scheduleView(c, clubCalendarOf(c, slug, site));
    if (!schedule.calendarPath) return [];
    const file = calendarFile({
      // The club's language; a club without one gets the global pages' language.
      l: localeOf(languageOf(site.clubLanguages?.[slug] ?? site.language), zoneOf(c, site, slug)),
      id,
      name: c.t.name,
      location: c.t.location,
      stamp: c.t.lastScrapedAt,
      pagePath: c.published.globalTags ? urls.page.tournament(id) : null,
      schedule,
    });
    // The file by its site path; the schedule's calendarPath is the URL under the base path.
    return [[clubCalendarPath(slug, id).slice(1), file]];
  });
}

/** The shared assets and the embed script: the same in every snapshot of one program. The index
 * pages and the snapshot feed are the global list's (render/lists.ts). */
export function siteAssets(): PageFile[] {
  return [
    [ASSET.css.slice(1), SITE_CSS],
    [ASSET.js.slice(1), SITE_JS],
    [SEARCH_JS_PATH.slice(1), SEARCH_JS],
    [EMBED_PATH, EMBED_JS],
  ];
}
