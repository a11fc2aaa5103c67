// The route table: every endpoint of the spec once, with its path template, response schema,
// cache class and how to compute its bodies, plus the page routes and static directories of the
// human view. This is the one model of URLs: the files, every host config, the preview, OpenAPI
// and the tests derive from it (emit/rules.ts flattens it into rules).
import type { z } from "zod";
import * as C from "./contracts/index.ts";
import type { Club } from "./domain/types.ts";
import * as club from "./views/club.ts";
import type { TournamentContext } from "./views/context.ts";
import * as pub from "./views/public.ts";

/** Cache classes, from fast-changing to stable; the policy per class is in emit/cache.ts. */
export type CacheClass = "live" | "current" | "list" | "meta" | "asset";

export type ParamName = "slug" | "id" | "round" | "tag" | "language";

/** A query parameter that the static snapshot also serves as a path form. */
export interface QueryForm {
  name: "tag" | "language";
  /** The path form appends `/{segment}/{value}` to the route's path. */
  segment: "tag" | "language";
  /** When the query parameter is absent the route answers as for this value (spec: language=es). */
  default?: string;
  /**
   * A value the snapshot has no file for: "empty" answers from the bare path form
   * `<path>/{segment}` (the list no tag matches), "notFound" is a 404 (an unknown language).
   */
  unknown: "empty" | "notFound";
}

/** The path form of a query form: `<base>/{segment}/{value}`, or `<base>/{segment}` for "". */
export function queryFormPath(base: string, q: QueryForm, value: string): string {
  return `${base}/${q.segment}` + (value ? `/${value}` : "");
}

/** Every URL pattern (with {params}) whose `index.json` answers this route, spec path first. */
export function pathForms(route: { path: string; query?: QueryForm }): string[] {
  const q = route.query;
  if (!q) return [route.path];
  const forms = [route.path, queryFormPath(route.path, q, `{${q.name}}`)];
  if (q.unknown === "empty") forms.push(queryFormPath(route.path, q, ""));
  return forms;
}

export type Params = Partial<Record<ParamName, string>>;
export type Emit = (params: Params, body: unknown) => void;

/** What list routes see once every tournament has been processed. */
export interface ListContext {
  clubs: { club: Club; entries: club.CatalogEntry[] }[];
  publicSummaries: pub.PublicSummary[];
  clubTags: string[];
  globalTags: string[];
}

/** What every tournament route sees besides its tournament. */
export interface SiteContext {
  languages: string[];
}

interface RouteBase {
  /** Endpoint number in the spec (§4). */
  n: number;
  id: string;
  surface: "club" | "public";
  /** The path as the spec writes it. */
  path: string;
  query?: QueryForm;
  schema: z.ZodType;
  cache: CacheClass;
  summary: string;
}

export interface TournamentRoute extends RouteBase {
  scope: "tournament";
  /** Emits every instance of the route for one tournament. */
  render(c: TournamentContext, site: SiteContext, emit: Emit): void;
}

export interface ListRoute extends RouteBase {
  scope: "list";
  render(lists: ListContext, emit: Emit): void;
}

export type Route = TournamentRoute | ListRoute;

const DEFAULT_LANGUAGE = "es";

/** The club catalogs that list this tournament (enabled clubs only). */
function clubSlugs(c: TournamentContext): string[] {
  return c.published.clubs.map((e) => e.slug);
}

function forEachClub(c: TournamentContext, emit: Emit, params: Params, body: unknown): void {
  for (const slug of clubSlugs(c)) emit({ ...params, slug }, body);
}

function idOf(c: TournamentContext): string {
  return c.t.externalId.toString();
}

export const ROUTES: readonly Route[] = [
  {
    n: 1,
    id: "clubCatalog",
    surface: "club",
    scope: "list",
    path: "/api/clubs/{slug}/tournaments",
    query: { name: "tag", segment: "tag", unknown: "empty" },
    schema: C.ClubCatalogResponse,
    cache: "list",
    summary: "A club's catalog of published tournaments",
    render(lists, emit) {
      for (const { club: cl, entries } of lists.clubs) {
        emit({ slug: cl.slug }, club.clubCatalog(cl, entries));
        // Path forms for every club tag of the store, plus "" (no tag matches: the empty list).
        for (const tag of ["", ...lists.clubTags]) {
          emit(
            { slug: cl.slug, tag },
            club.clubCatalog(
              cl,
              entries.filter((e) => e.tags.includes(tag)),
            ),
          );
        }
      }
    },
  },
  {
    n: 2,
    id: "clubTournament",
    surface: "club",
    scope: "tournament",
    path: "/api/clubs/{slug}/tournaments/{id}",
    schema: C.TournamentResponse,
    cache: "current",
    summary: "A tournament with its player directory",
    render(c, _site, emit) {
      forEachClub(c, emit, { id: idOf(c) }, club.tournamentDetail(c));
    },
  },
  {
    n: 3,
    id: "clubStandings",
    surface: "club",
    scope: "tournament",
    path: "/api/clubs/{slug}/tournaments/{id}/standings",
    schema: C.CurrentStandingsResponse,
    cache: "current",
    summary: "Current standings with tie-breaks",
    render(c, _site, emit) {
      forEachClub(c, emit, { id: idOf(c) }, club.currentStandings(c));
    },
  },
  {
    n: 4,
    id: "clubRound",
    surface: "club",
    scope: "tournament",
    path: "/api/clubs/{slug}/tournaments/{id}/rounds/{round}",
    schema: C.RoundResponse,
    cache: "current",
    summary: "A round and its games",
    render(c, _site, emit) {
      for (const r of c.pairedRounds) {
        forEachClub(c, emit, { id: idOf(c), round: String(r.roundNumber) }, club.round(r));
      }
    },
  },
  {
    n: 5,
    id: "clubLive",
    surface: "club",
    scope: "tournament",
    path: "/api/clubs/{slug}/tournaments/{id}/live",
    schema: C.LiveRoundResponse,
    cache: "live",
    summary: "The newest round with published pairings, players resolved",
    render(c, _site, emit) {
      if (c.liveRound) forEachClub(c, emit, { id: idOf(c) }, club.liveRound(c, c.liveRound));
    },
  },
  {
    n: 6,
    id: "publicTournaments",
    surface: "public",
    scope: "list",
    path: "/api/public/v1/tournaments",
    query: { name: "tag", segment: "tag", unknown: "empty" },
    schema: C.PublicTournamentList,
    cache: "list",
    summary: "Tournaments the operator has published",
    render(lists, emit) {
      emit({}, lists.publicSummaries);
      for (const tag of ["", ...lists.globalTags]) {
        emit(
          { tag },
          lists.publicSummaries.filter((s) => s.tags.includes(tag)),
        );
      }
    },
  },
  {
    n: 7,
    id: "publicTournament",
    surface: "public",
    scope: "tournament",
    path: "/api/public/v1/tournaments/{id}",
    schema: C.PublicTournamentDetailResponse,
    cache: "current",
    summary: "A published tournament",
    render(c, _site, emit) {
      if (c.published.globalTags) emit({ id: idOf(c) }, pub.publicDetail(c, c.published.globalTags));
    },
  },
  {
    n: 8,
    id: "publicStandings",
    surface: "public",
    scope: "tournament",
    path: "/api/public/v1/tournaments/{id}/standings",
    schema: C.PublicStandingsResponse,
    cache: "current",
    summary: "Current standings with tie-breaks",
    render(c, _site, emit) {
      if (c.published.globalTags) emit({ id: idOf(c) }, pub.publicStandings(c));
    },
  },
  {
    n: 9,
    id: "publicRound",
    surface: "public",
    scope: "tournament",
    path: "/api/public/v1/tournaments/{id}/rounds/{round}",
    schema: C.PublicRoundResponse,
    cache: "current",
    summary: "A round with its games and unpaired players",
    render(c, _site, emit) {
      if (!c.published.globalTags) return;
      for (const r of c.pairedRounds)
        emit({ id: idOf(c), round: String(r.roundNumber) }, pub.publicRound(c, r));
    },
  },
  {
    n: 10,
    id: "publicLive",
    surface: "public",
    scope: "tournament",
    path: "/api/public/v1/tournaments/{id}/live",
    schema: C.PublicRoundResponse,
    cache: "live",
    summary: "The newest round with published pairings",
    render(c, _site, emit) {
      if (c.published.globalTags && c.liveRound) emit({ id: idOf(c) }, pub.publicRound(c, c.liveRound));
    },
  },
  {
    n: 11,
    id: "publicRecaps",
    surface: "public",
    scope: "tournament",
    path: "/api/public/v1/tournaments/{id}/recaps",
    query: { name: "language", segment: "language", default: DEFAULT_LANGUAGE, unknown: "notFound" },
    schema: C.PublicRecapsResponse,
    cache: "current",
    summary: "Stored recaps in one language (default es)",
    render(c, site, emit) {
      if (!c.published.globalTags) return;
      const id = idOf(c);
      emit({ id }, pub.publicRecaps(c, DEFAULT_LANGUAGE));
      const languages = new Set([DEFAULT_LANGUAGE, ...site.languages]);
      for (const language of [...languages].sort()) emit({ id, language }, pub.publicRecaps(c, language));
    },
  },
];

/** The OpenAPI document is published beside the API it describes. */
export const OPENAPI_PATH = "/api/public/v1/openapi.json";

/** The URL path of one instance: the spec's path with parameters filled in, plus the query's path form. */
export function instancePath(route: Route, params: Params): string {
  const path = route.path.replace(/\{(\w+)\}/g, (_, name: ParamName) => {
    const v = params[name];
    if (v === undefined) throw new Error(`route ${route.id}: missing parameter ${name}`);
    return v;
  });
  const q = route.query;
  const value = q ? params[q.name] : undefined;
  return q && value !== undefined ? queryFormPath(path, q, value) : path;
}

/** The snapshot file that holds an instance: `<url path>/index.json`, relative to the output root. */
export function instanceFile(route: Route, params: Params): string {
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
  follows: string;
}

export const PAGE_ROUTES: readonly PageRoute[] = [
  { id: "indexPage", path: "/", follows: "publicTournaments" },
  { id: "tournamentPage", path: "/tournaments/{id}/", follows: "publicTournament" },
  { id: "standingsPage", path: "/tournaments/{id}/standings/", follows: "publicStandings" },
  { id: "roundPage", path: "/tournaments/{id}/rounds/{round}/", follows: "publicRound" },
  { id: "livePage", path: "/tournaments/{id}/live/", follows: "publicLive" },
  { id: "recapsPage", path: "/tournaments/{id}/recaps/{language}/", follows: "publicRecaps" },
];

export function pageCache(page: PageRoute): CacheClass {
  const route = ROUTES.find((r) => r.id === page.follows);
  if (!route) throw new Error(`page ${page.id}: no route ${page.follows}`);
  return route.cache;
}

/** A directory of static files served as they are, by extension. */
export interface StaticDir {
  prefix: string;
  /** Extension → Content-Type; any other file in the directory is not served. */
  types: Record<string, string>;
  /** The embed is loaded by club websites on other origins. */
  cors: boolean;
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
];

/** Paths under this prefix are the API: their errors are problem JSON, elsewhere an HTML page. */
export const API_PREFIX = "/api/";

/** Club endpoints are the only cross-origin surface of the API (spec §5), errors included. */
export const CORS_PREFIX = "/api/clubs/";

export function isApiPath(pathname: string): boolean {
  return pathname === "/api" || pathname.startsWith(API_PREFIX);
}
