// The URLs a page, feed or calendar names, under the snapshot's base path (issue 24.7). Every
// one is made here, from the URL model (routes/urls.ts: the page routes, the endpoints, the
// static directories) through its one helper href(): no page writes a root-absolute URL itself.
// Site paths (base-free) name the files; these URLs are what a browser follows.
import { ROUTES } from "../routes/table.ts";
import {
  calendarPath,
  feedPath,
  playerCalendarPath,
  playerFeedPath,
  href,
  instancePath,
  OPENAPI_PATH,
  pageSitePath,
  SNAPSHOT_FEED_PATH,
  type BasePath,
  type Params,
} from "../routes/urls.ts";

/** Site paths of the files every page refers to (the URL contract: assets under /assets/). */
export const ASSET = {
  css: "/assets/site.css",
  js: "/assets/site.js",
  embed: "/embed/build-api-embed.js",
} as const;

/** The page URLs of a tournament (directories with a trailing slash), as site paths or links. */
export interface PageUrls {
  tournament(id: string): string;
  /** Team events only: team standings and the matches of each round. */
  teams(id: string): string;
  /** Team events only: one team's roster, board results and matches. */
  team(id: string, team: number): string;
  standings(id: string): string;
  round(id: string, n: number): string;
  live(id: string): string;
  recaps(id: string, language: string): string;
  // Extensions (issue 22).
  roundStandings(id: string, n: number): string;
  crosstable(id: string): string;
  crosstableStart(id: string): string;
  /** Every player's card on one page; a player's card is its anchor `#player-{n}`. */
  players(id: string): string;
  player(id: string, n: number): string;
}

/** The page URLs from the page routes, each passed through `to` (a site path's URL). */
function pageUrls(to: (sitePath: string) => string): PageUrls {
  const p = (route: string, params: Params): string => to(pageSitePath(route, params));
  return {
    tournament: (id) => p("tournamentPage", { id }),
    teams: (id) => p("teamsPage", { id }),
    team: (id, team) => p("teamPage", { id, team: String(team) }),
    standings: (id) => p("standingsPage", { id }),
    round: (id, n) => p("roundPage", { id, round: String(n) }),
    live: (id) => p("livePage", { id }),
    recaps: (id, language) => p("recapsPage", { id, language }),
    roundStandings: (id, n) => p("roundStandingsPage", { id, round: String(n) }),
    crosstable: (id) => p("crosstablePage", { id }),
    crosstableStart: (id) => p("crosstableStartPage", { id }),
    players: (id) => p("playersPage", { id }),
    player: (id, n) => `${p("playersPage", { id })}#player-${n}`,
  };
}

/** Site paths of pages: what names their files (`pageFile`), never a link. */
export const pageSitePaths: PageUrls = pageUrls((sitePath) => sitePath);

/**
 * The site path of the index's head (page 0: `/`) or of its numbered page n (`/page/{n}/`), the
 * pages of the global list (routes/pagination.ts).
 */
export function indexSitePath(page: number): string {
  if (!Number.isInteger(page) || page < 0) throw new Error(`index page ${page}: expected 0 or a page number`);
  return page === 0 ? pageSitePath("indexPage", {}) : pageSitePath("indexPagePage", { page: String(page) });
}

/** Every URL the human view links to, under one base path. */
export interface SiteUrls {
  base: BasePath;
  /** The index of published tournaments. */
  home: string;
  /** The index's head (0, the same as home) or its numbered page n (`/page/{n}/`). */
  index(page: number): string;
  page: PageUrls;
  css: string;
  js: string;
  embed: string;
  openapi: string;
  snapshotFeed: string;
  feed(id: string): string;
  calendar(id: string): string;
  /** One player's games: an Atom feed and an iCalendar file (followed tournaments). */
  playerFeed(id: string, player: number): string;
  playerCalendar(id: string, player: number): string;
  /** A calendar's link (one of the above) as a webcal: subscription, which calendar applications
   * open to subscribe; null when the site's origin is not known (build --origin): webcal: needs
   * an absolute URL, and a page cannot make one from a path. */
  webcal(calendarHref: string): string | null;
  /** The JSON answer of an endpoint instance (its path form). */
  json(routeId: string, params: Params): string;
  /** Any other file of the snapshot by its site path (e.g. the tag filter's stylesheet). */
  file(sitePath: string): string;
}

/** The URLs under `base`; `origin` ("https://host", build --origin) makes the webcal: links. */
export function siteUrls(base: BasePath, origin?: string): SiteUrls {
  const to = (sitePath: string): string => href(base, sitePath);
  const webcal = origin ? origin.replace(/^https?:/, "webcal:") : null;
  return {
    base,
    home: to("/"),
    index: (page) => to(indexSitePath(page)),
    page: pageUrls(to),
    css: to(ASSET.css),
    js: to(ASSET.js),
    embed: to(ASSET.embed),
    openapi: to(OPENAPI_PATH),
    snapshotFeed: to(SNAPSHOT_FEED_PATH),
    feed: (id) => to(feedPath(id)),
    calendar: (id) => to(calendarPath(id)),
    playerFeed: (id, n) => to(playerFeedPath(id, n)),
    playerCalendar: (id, n) => to(playerCalendarPath(id, n)),
    webcal: (calendarHref) => (webcal === null ? null : webcal + calendarHref),
    json: (routeId, params) => {
      const r = ROUTES.find((x) => x.id === routeId);
      if (!r) throw new Error(`no route ${routeId}`);
      return to(instancePath(r, params));
    },
    file: to,
  };
}
