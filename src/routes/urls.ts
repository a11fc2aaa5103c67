// The URL model: every endpoint of the spec once, with its path template, query forms and cache
// class, plus the page routes and static directories of the human view. Files, every host
// config, the preview, the edge worker, purge lists and the tests derive their URLs from here.
// It holds no schema and no view, so the host rules load neither zod nor the views; the
// bindings of each endpoint to its response schema and view are in table.ts.

/**
 * Cache classes, from fast-changing to stable; the policy per class is in cache.ts. `archive` is
 * no route's own class: a tournament's answers take it once the tournament is archived
 * (cache.ts, archiveFrom), whatever their route's class.
 */
export type CacheClass = "live" | "current" | "list" | "meta" | "asset" | "archive";

export type ParamName = "slug" | "id" | "round" | "tag" | "language" | "page" | "player" | "team" | "fideId";

/** A query parameter that the static snapshot also serves as a path form. */
export interface QueryForm {
  name: "tag" | "language";
  /** The path form appends `/{segment}/{value}` to the route's path. */
  segment: "tag" | "language";
  /** When the query parameter is absent the route answers as for this value (spec: language=es). */
  default?: string;
  /**
   * A value the snapshot has no file for: "empty" answers from the file of the bare path form
   * `<path>/{segment}/index.json` (the list no tag matches), "notFound" is a 404 (an unknown
   * language). The bare path form itself is not a URL: `<path>/{segment}`, `<path>/{segment}/`
   * and an empty value (`?tag=`, `?tag`) name no value and are a 404 problem on every host
   * (docs/design/lists-and-caching.md).
   */
  unknown: "empty" | "notFound";
}

/** The path form of a query form: `<base>/{segment}/{value}`, or `<base>/{segment}` for "". */
export function queryFormPath(base: string, q: QueryForm, value: string): string {
  return `${base}/${q.segment}` + (value ? `/${value}` : "");
}

/** Every URL pattern (with {params}) whose `index.json` answers this route, spec path first. */
export function pathForms(route: { path: string; query?: QueryForm; paged?: true }): string[] {
  const q = route.query;
  const forms = q ? [route.path, queryFormPath(route.path, q, `{${q.name}}`)] : [route.path];
  // Extension: a long list's numbered pages, `<form>/page/{page}` (routes/pagination.ts).
  return route.paged ? [...forms, ...forms.map(pagePath)] : forms;
}

/** The path form of a list's numbered page: `<form>/page/{page}` (an extension of the spec). */
export function pagePath(form: string): string {
  return `${form}/page/{page}`;
}

/**
 * The files a route writes beyond its path forms, as URL patterns of their directory: the answer
 * to an unknown tag (`<list>/tag/index.json`), reached only through the query form's fallback.
 */
export function fallbackForms(route: { path: string; query?: QueryForm }): string[] {
  const q = route.query;
  return q?.unknown === "empty" ? [queryFormPath(route.path, q, "")] : [];
}

export type Params = Partial<Record<ParamName, string>>;

/** The URL facts of one endpoint. */
export interface Endpoint {
  /** Endpoint number in the spec (section 4); null for an extension. */
  n: number | null;
  /** Beyond the spec's eleven endpoints (issue 22): marked so in the OpenAPI document. */
  extension?: true;
  /** Cross-origin reads allowed; by default only on the club surface (spec §5). The extensions
   * allow them so that the club embed can show a crosstable and player cards. */
  cors?: boolean;
  id: EndpointId;
  surface: "club" | "public";
  /** What one instance belongs to: a tournament, a list, or a player across tournaments (issue 47). */
  scope: "tournament" | "list" | "player";
  /** The path as the spec writes it. */
  path: string;
  query?: QueryForm;
  /**
   * Extension: a list longer than the page size is split into numbered pages, each with the
   * list's schema, served at `<form>/page/{page}` and `?page=` (routes/pagination.ts).
   */
  paged?: true;
  cache: CacheClass;
  summary: string;
}

export type EndpointId =
  | "clubCatalog"
  | "clubTournament"
  | "clubStandings"
  | "clubRound"
  | "clubLive"
  | "publicTournaments"
  | "publicTournament"
  | "publicStandings"
  | "publicRound"
  | "publicLive"
  | "publicRecaps"
  | ExtensionId;

/** Extensions beyond the spec (issue 22). */
export type ExtensionId =
  | "publicRoundStandings"
  | "publicProgression"
  | "publicCrosstable"
  | "publicPlayerCards"
  | "publicSchedule"
  | "publicFidePlayer"
  | TeamExtensionId
  | ClubExtensionId;

/** Team events' extensions (issue 46), on both surfaces; a tournament without teams has none. */
export type TeamExtensionId =
  | "publicTeamStandings"
  | "publicTeamRoundStandings"
  | "publicTeams"
  | "publicTeamMatches"
  | "publicTeam"
  | "clubTeamStandings"
  | "clubTeamRoundStandings"
  | "clubTeams"
  | "clubTeamMatches"
  | "clubTeam";

/** The same extensions on the club surface: for every tournament a club's catalog lists, global
 * or club-only, per club like the spec's club endpoints (docs/guide/extensions.md). */
export type ClubExtensionId =
  "clubRoundStandings" | "clubProgression" | "clubCrosstable" | "clubPlayerCards" | "clubSchedule";

/** The language a recaps request without `?language=` answers in (spec: es). */
export const DEFAULT_LANGUAGE = "es";

export const ENDPOINTS: readonly Endpoint[] = [
  {
    n: 1,
    id: "clubCatalog",
    surface: "club",
    scope: "list",
    path: "/api/clubs/{slug}/tournaments",
    query: { name: "tag", segment: "tag", unknown: "empty" },
    paged: true,
    cache: "list",
    summary: "A club's catalog of published tournaments",
  },
  {
    n: 2,
    id: "clubTournament",
    surface: "club",
    scope: "tournament",
    path: "/api/clubs/{slug}/tournaments/{id}",
    cache: "current",
    summary: "A tournament with its player directory",
  },
  {
    n: 3,
    id: "clubStandings",
    surface: "club",
    scope: "tournament",
    path: "/api/clubs/{slug}/tournaments/{id}/standings",
    cache: "current",
    summary: "Current standings with tie-breaks",
  },
  {
    n: 4,
    id: "clubRound",
    surface: "club",
    scope: "tournament",
    path: "/api/clubs/{slug}/tournaments/{id}/rounds/{round}",
    cache: "current",
    summary: "A round and its games",
  },
  {
    n: 5,
    id: "clubLive",
    surface: "club",
    scope: "tournament",
    path: "/api/clubs/{slug}/tournaments/{id}/live",
    cache: "live",
    summary: "The newest round with published pairings, players resolved",
  },
  {
    n: 6,
    id: "publicTournaments",
    surface: "public",
    scope: "list",
    path: "/api/public/v1/tournaments",
    query: { name: "tag", segment: "tag", unknown: "empty" },
    paged: true,
    cache: "list",
    summary: "Tournaments the operator has published",
  },
  {
    n: 7,
    id: "publicTournament",
    surface: "public",
    scope: "tournament",
    path: "/api/public/v1/tournaments/{id}",
    cache: "current",
    summary: "A published tournament",
  },
  {
    n: 8,
    id: "publicStandings",
    surface: "public",
    scope: "tournament",
    path: "/api/public/v1/tournaments/{id}/standings",
    cache: "current",
    summary: "Current standings with tie-breaks",
  },
  {
    n: 9,
    id: "publicRound",
    surface: "public",
    scope: "tournament",
    path: "/api/public/v1/tournaments/{id}/rounds/{round}",
    cache: "current",
    summary: "A round with its games and unpaired players",
  },
  {
    n: 10,
    id: "publicLive",
    surface: "public",
    scope: "tournament",
    path: "/api/public/v1/tournaments/{id}/live",
    cache: "live",
    summary: "The newest round with published pairings",
  },
  {
    n: 11,
    id: "publicRecaps",
    surface: "public",
    scope: "tournament",
    path: "/api/public/v1/tournaments/{id}/recaps",
    query: { name: "language", segment: "language", default: DEFAULT_LANGUAGE, unknown: "notFound" },
    cache: "current",
    summary: "Stored recaps in one language (default es)",
  },
  // Extensions (issue 22): global surface only, beside the spec's paths, never changing them.
  {
    n: null,
    extension: true,
    cors: true,
    id: "publicRoundStandings",
    surface: "public",
    scope: "tournament",
    path: "/api/public/v1/tournaments/{id}/standings/rounds/{round}",
    cache: "current",
    summary: "Extension: standings after a complete round",
  },
  {
    n: null,
    extension: true,
    cors: true,
    id: "publicProgression",
    surface: "public",
    scope: "tournament",
    path: "/api/public/v1/tournaments/{id}/progression",
    cache: "current",
    summary: "Extension: every player's rank after each complete round",
  },
  {
    n: null,
    extension: true,
    cors: true,
    id: "publicCrosstable",
    surface: "public",
    scope: "tournament",
    path: "/api/public/v1/tournaments/{id}/crosstable",
    cache: "current",
    summary: "Extension: every player's opponent, colour and result by round",
  },
  {
    n: null,
    extension: true,
    cors: true,
    id: "publicPlayerCards",
    surface: "public",
    scope: "tournament",
    path: "/api/public/v1/tournaments/{id}/players",
    cache: "current",
    summary: "Extension: every player's games, running score, ranks and rating figures",
  },
  {
    n: null,
    extension: true,
    cors: true,
    id: "publicSchedule",
    surface: "public",
    scope: "tournament",
    path: "/api/public/v1/tournaments/{id}/schedule",
    cache: "current",
    summary: "Extension: the announced date and time of each round",
  },
  // A player across every globally published tournament, by FIDE ID (issue 47).
  {
    n: null,
    extension: true,
    cors: true,
    id: "publicFidePlayer",
    surface: "public",
    scope: "player",
    path: "/api/public/v1/players/{fideId}",
    cache: "current",
    summary: "Extension: a player by FIDE ID",
  },
  // The same extensions on the club surface (the spec's club paths stay as they are). Written
  // out, not mapped: a call here would keep this list in the CloudFront function's bundle.
  {
    n: null,
    extension: true,
    id: "clubRoundStandings",
    surface: "club",
    scope: "tournament",
    path: "/api/clubs/{slug}/tournaments/{id}/standings/rounds/{round}",
    cache: "current",
    summary: "Extension: standings after a complete round (club catalog)",
  },
  {
    n: null,
    extension: true,
    id: "clubProgression",
    surface: "club",
    scope: "tournament",
    path: "/api/clubs/{slug}/tournaments/{id}/progression",
    cache: "current",
    summary: "Extension: every player's rank after each complete round (club catalog)",
  },
  {
    n: null,
    extension: true,
    id: "clubCrosstable",
    surface: "club",
    scope: "tournament",
    path: "/api/clubs/{slug}/tournaments/{id}/crosstable",
    cache: "current",
    summary: "Extension: every player's opponent, colour and result by round (club catalog)",
  },
  {
    n: null,
    extension: true,
    id: "clubPlayerCards",
    surface: "club",
    scope: "tournament",
    path: "/api/clubs/{slug}/tournaments/{id}/players",
    cache: "current",
    summary: "Extension: every player's games, running score, ranks and rating figures (club catalog)",
  },
  {
    n: null,
    extension: true,
    id: "clubSchedule",
    surface: "club",
    scope: "tournament",
    path: "/api/clubs/{slug}/tournaments/{id}/schedule",
    cache: "current",
    summary: "Extension: the announced date and time of each round (club catalog)",
  },
  // Team events (issue 46): only for a tournament that is one.
  {
    n: null,
    extension: true,
    cors: true,
    id: "publicTeamStandings",
    surface: "public",
    scope: "tournament",
    path: "/api/public/v1/tournaments/{id}/teams/standings",
    cache: "current",
    summary: "Extension: team standings (team events)",
  },
  {
    n: null,
    extension: true,
    cors: true,
    id: "publicTeamRoundStandings",
    surface: "public",
    scope: "tournament",
    path: "/api/public/v1/tournaments/{id}/teams/standings/rounds/{round}",
    cache: "current",
    summary: "Extension: team standings after a complete round (team events)",
  },
  {
    n: null,
    extension: true,
    cors: true,
    id: "publicTeams",
    surface: "public",
    scope: "tournament",
    path: "/api/public/v1/tournaments/{id}/teams",
    cache: "current",
    summary: "Extension: the teams with their rosters and board results (team events)",
  },
  {
    n: null,
    extension: true,
    cors: true,
    id: "publicTeamMatches",
    surface: "public",
    scope: "tournament",
    path: "/api/public/v1/tournaments/{id}/teams/matches/{round}",
    cache: "current",
    summary: "Extension: the team matches of a round, board by board (team events)",
  },
  {
    n: null,
    extension: true,
    cors: true,
    id: "publicTeam",
    surface: "public",
    scope: "tournament",
    path: "/api/public/v1/tournaments/{id}/teams/{team}",
    cache: "current",
    summary: "Extension: one team: its standing, roster with board results, and matches (team events)",
  },
  {
    n: null,
    extension: true,
    id: "clubTeamStandings",
    surface: "club",
    scope: "tournament",
    path: "/api/clubs/{slug}/tournaments/{id}/teams/standings",
    cache: "current",
    summary: "Extension: team standings (team events) (club catalog)",
  },
  {
    n: null,
    extension: true,
    id: "clubTeamRoundStandings",
    surface: "club",
    scope: "tournament",
    path: "/api/clubs/{slug}/tournaments/{id}/teams/standings/rounds/{round}",
    cache: "current",
    summary: "Extension: team standings after a complete round (team events) (club catalog)",
  },
  {
    n: null,
    extension: true,
    id: "clubTeams",
    surface: "club",
    scope: "tournament",
    path: "/api/clubs/{slug}/tournaments/{id}/teams",
    cache: "current",
    summary: "Extension: the teams with their rosters and board results (team events) (club catalog)",
  },
  {
    n: null,
    extension: true,
    id: "clubTeamMatches",
    surface: "club",
    scope: "tournament",
    path: "/api/clubs/{slug}/tournaments/{id}/teams/matches/{round}",
    cache: "current",
    summary: "Extension: the team matches of a round, board by board (team events) (club catalog)",
  },
  {
    n: null,
    extension: true,
    id: "clubTeam",
    surface: "club",
    scope: "tournament",
    path: "/api/clubs/{slug}/tournaments/{id}/teams/{team}",
    cache: "current",
    summary:
      "Extension: one team: its standing, roster with board results, and matches (team events) (club catalog)",
  },
];

/** The endpoint of an id. */
export function endpoint(id: EndpointId): Endpoint {
  return ENDPOINTS.find((e) => e.id === id)!;
}

/** The OpenAPI document is published beside the API it describes. */
export const OPENAPI_PATH = "/api/public/v1/openapi.json";

/** The URL path of one instance: the spec's path with parameters filled in, plus the query's path form. */
export function instancePath(route: Pick<Endpoint, "id" | "path" | "query">, params: Params): string {
  if (params.page !== undefined && !/^[1-9][0-9]*$/.test(params.page))
    throw new Error(`route ${route.id}: page ${params.page} is not a page number`);
  const path = route.path.replace(/\{(\w+)\}/g, (_, name: ParamName) => {
    const v = params[name];
    if (v === undefined) throw new Error(`route ${route.id}: missing parameter ${name}`);
    return v;
  });
  const q = route.query;
  const value = q ? params[q.name] : undefined;
  const form = q && value !== undefined ? queryFormPath(path, q, value) : path;
  return params.page === undefined ? form : pagePath(form).replace("{page}", params.page);
}

/** The snapshot file that holds an instance: `<url path>/index.json`, relative to the output root. */
export function instanceFile(route: Pick<Endpoint, "id" | "path" | "query">, params: Params): string {
  return `${instancePath(route, params).slice(1)}/index.json`;
}

/**
 * A page of the human view: `<path>index.html`. Every page URL ends with a slash; the same URL
 * without it redirects there. A page follows the cache class of the JSON it shows.
 */
export interface PageRoute {
  id: string;
  path: string;
  /** The API route whose data the page shows: its cache class is the page's. */
  follows: EndpointId;
  /**
   * Extension: the numbered pages (`{page}`) of the page route `pageOf`, its head, split as the
   * list it shows (routes/pagination.ts). Both carry a paged list's Link header (page-links.ts).
   */
  pageOf?: string;
}

export const PAGE_ROUTES: readonly PageRoute[] = [
  { id: "indexPage", path: "/", follows: "publicTournaments" },
  // Extension: the index's numbered pages, the same cut as the global list's (routes/pagination.ts).
  { id: "indexPagePage", path: "/page/{page}/", follows: "publicTournaments", pageOf: "indexPage" },
  { id: "tournamentPage", path: "/tournaments/{id}/", follows: "publicTournament" },
  { id: "standingsPage", path: "/tournaments/{id}/standings/", follows: "publicStandings" },
  { id: "roundPage", path: "/tournaments/{id}/rounds/{round}/", follows: "publicRound" },
  { id: "livePage", path: "/tournaments/{id}/live/", follows: "publicLive" },
  { id: "recapsPage", path: "/tournaments/{id}/recaps/{language}/", follows: "publicRecaps" },
  // Extensions (issue 22).
  {
    id: "roundStandingsPage",
    path: "/tournaments/{id}/standings/rounds/{round}/",
    follows: "publicRoundStandings",
  },
  { id: "crosstablePage", path: "/tournaments/{id}/crosstable/", follows: "publicCrosstable" },
  {
    id: "crosstableStartPage",
    path: "/tournaments/{id}/crosstable/starting-rank/",
    follows: "publicCrosstable",
  },
  // One page with every player's card (an anchor per player), not a page per player: see
  // docs/guide/extensions.md, "Player cards at scale".
  { id: "playersPage", path: "/tournaments/{id}/players/", follows: "publicPlayerCards" },
  // Team events (issue 46): team standings and every round's matches, board by board.
  { id: "teamsPage", path: "/tournaments/{id}/teams/", follows: "publicTeamStandings" },
  // A page per team (its roster, board results and matches): the team's own resource.
  { id: "teamPage", path: "/tournaments/{id}/teams/{team}/", follows: "publicTeam" },
  // A player across tournaments, by FIDE ID (issue 47).
  { id: "fidePlayerPage", path: "/players/{fideId}/", follows: "publicFidePlayer" },
];

/** Whether a page route's files may be split into a head and numbered pages (pageOf). */
export function isPagedPage(id: string): boolean {
  return PAGE_ROUTES.some((p) => p.pageOf !== undefined && (p.id === id || p.pageOf === id));
}

export function pageCache(page: PageRoute): CacheClass {
  return endpoint(page.follows).cache;
}

/** A directory of static files served as they are, by extension. */
export interface StaticDir {
  prefix: string;
  /** Extension → Content-Type; any other file in the directory is not served. */
  types: Record<string, string>;
  /** The embed is loaded by club websites on other origins. */
  cors: boolean;
  /** Cache class; "asset" when absent. Files of a tournament follow its JSON ("current"). */
  cache?: CacheClass;
}

export const STATIC_DIRS: readonly StaticDir[] = [
  {
    prefix: "/assets/",
    types: {
      css: "text/css; charset=utf-8",
      js: "text/javascript; charset=utf-8",
      svg: "image/svg+xml",
      png: "image/png",
      woff2: "font/woff2",
    },
    cors: false,
  },
  { prefix: "/embed/", types: { js: "text/javascript; charset=utf-8" }, cors: true },
  // Extensions (issue 22): a tournament's iCalendar file, written with its other files. Calendar
  // applications subscribe from anywhere, so cross-origin reads are allowed.
  {
    prefix: "/calendar/",
    types: { ics: "text/calendar; charset=utf-8" },
    cors: true,
    cache: "current",
  },
  // Atom feeds (issue 22): per tournament, written with its files, and one for the snapshot.
  {
    prefix: "/feeds/",
    // No charset parameter: the XML declaration says UTF-8 (RFC 7303), and Netlify sends
    // exactly this type for .atom files, so every host agrees.
    types: { atom: "application/atom+xml" },
    cors: true,
    cache: "current",
  },
  // The static search index (issue 47): a root naming its chunks, each chunk fetched on demand.
  // Netlify sends .json files with the charset parameter; the other hosts send the rule's type.
  { prefix: "/search/", types: { json: "application/json; charset=utf-8" }, cors: false, cache: "list" },
];

/** The URL path of a tournament's iCalendar file (a file of /calendar/). */
export function calendarPath(id: string): string {
  return `/calendar/${id}.ics`;
}

/** The URL path of a club's iCalendar file of a tournament it lists (a file of /calendar/): the
 * calendar of a club-only tournament, which has no global one. */
export function clubCalendarPath(slug: string, id: string): string {
  return `/calendar/clubs/${slug}/${id}.ics`;
}

/** The URL path of a tournament's Atom feed (a file of /feeds/). */
export function feedPath(id: string): string {
  return `/feeds/${id}.atom`;
}

/** The URL path of one player's Atom feed of their games in a tournament (a file of /feeds/). */
export function playerFeedPath(id: string, player: number): string {
  return `/feeds/${id}/players/${player}.atom`;
}

/** The URL path of one player's iCalendar file of their games (a file of /calendar/). */
export function playerCalendarPath(id: string, player: number): string {
  return `/calendar/${id}/players/${player}.ics`;
}

/** The Atom feed of one player's games in every published tournament, by FIDE ID. */
export function fidePlayerFeedPath(fideId: string): string {
  return `/feeds/players/${fideId}.atom`;
}

/** The iCalendar file of one player's games in every published tournament, by FIDE ID. */
export function fidePlayerCalendarPath(fideId: string): string {
  return `/calendar/players/${fideId}.ics`;
}

/** The search index's root file (its chunks are `/search/w-{from}.json`, pages/search.ts). */
export const SEARCH_ROOT_PATH = "/search/root.json";

/** The Atom feed of the whole snapshot: each published tournament's newest event. */
export const SNAPSHOT_FEED_PATH = "/feeds/all.atom";

/** Paths under this prefix are the API: their errors are problem JSON, elsewhere an HTML page. */
export const API_PREFIX = "/api/";

/** Club endpoints are the only cross-origin surface of the API (spec §5), errors included. */
export const CORS_PREFIX = "/api/clubs/";

export function isApiPath(pathname: string): boolean {
  return pathname === "/api" || pathname.startsWith(API_PREFIX);
}

/**
 * The base path the snapshot is served under (issue 24.7: GitHub project pages, a bucket prefix,
 * a club site's folder): "" for the host's root, else `/seg[/seg...]` without a trailing slash.
 * Every URL the output names is `href(base, sitePath)`; the snapshot's files never move (its
 * directory is what the host serves at the base). The decisions are in docs/guide/subpath.md.
 */
export type BasePath = string;

/** One segment of a base path: letters, digits and `-._~`, never `.`/`..` nor starting with a dot. */
const BASE_SEGMENT = /^[A-Za-z0-9_~-][A-Za-z0-9._~-]*$/;
/** Longer base paths are refused: nothing real needs them, and nginx map keys stay short. */
export const BASE_PATH_MAX = 100;

/**
 * Reads `--base-path`: `/chess/`, `/chess`, `/a/b/` give `/chess`, `/a/b`; `/` and "" give "" (the
 * root). Anything else throws an Error saying what is wrong: a relative path, `//`, `.` or `..`,
 * characters a URL would escape or a host config would read as syntax (`%`, `?`, `#`, `$`, quotes,
 * spaces, `*`, `:`), or a length over BASE_PATH_MAX.
 */
export function parseBasePath(raw: string): BasePath {
  if (raw === "" || raw === "/") return "";
  if (!raw.startsWith("/")) throw new Error(`"${raw}" does not start with "/" (e.g. /chess/)`);
  if (raw.length > BASE_PATH_MAX) throw new Error(`longer than ${BASE_PATH_MAX} characters`);
  const trimmed = raw.endsWith("/") ? raw.slice(0, -1) : raw;
  for (const seg of trimmed.slice(1).split("/")) {
    if (seg === "") throw new Error(`"${raw}" has an empty segment ("//")`);
    if (seg === "." || seg === "..") throw new Error(`"${raw}" has a "${seg}" segment`);
    if (!BASE_SEGMENT.test(seg))
      throw new Error(
        `segment "${seg}" of "${raw}" may hold only letters, digits and - . _ ~ (and not start with a dot)`,
      );
  }
  return trimmed;
}

/**
 * The one maker of the URLs the output names (pages, assets, feeds, calendars, Link headers, the
 * OpenAPI server): a site path (root-absolute, as the URL model writes it) under the base path.
 */
export function href(base: BasePath, sitePath: string): string {
  if (!sitePath.startsWith("/")) throw new Error(`href: ${sitePath} is not a root-absolute site path`);
  return base + sitePath;
}

/**
 * Each page route's template split once: text and parameter names alternate
 * (`/tournaments/{id}/` is ["/tournaments/", "id", "/"]). Pages name a page per player row, so a
 * route lookup and a regular expression per link were a tenth of the page rendering. Made on first
 * use: the edge bundles (each host's runtime/ under src/hosting/hosts/) import this module and never name a page.
 */
let pageTemplates: Map<string, readonly string[]> | undefined;

/** A page's site path (base-free, as its file is named): its route's template with params filled. */
export function pageSitePath(id: string, params: Params): string {
  pageTemplates ??= new Map(PAGE_ROUTES.map((r) => [r.id, r.path.split(/\{(\w+)\}/)]));
  const parts = pageTemplates.get(id);
  if (!parts) throw new Error(`no page route ${id}`);
  let path = parts[0]!;
  for (let i = 1; i < parts.length; i += 2) {
    const name = parts[i] as ParamName;
    const v = params[name];
    if (v === undefined) throw new Error(`page ${id}: missing parameter ${name}`);
    path += v + parts[i + 1]!;
  }
  return path;
}
