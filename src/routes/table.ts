// The route table: each endpoint of urls.ts bound to its response schema and to the view that
// computes its bodies. Rendering, OpenAPI and schema validation read it; hosts read urls.ts only.
import type { z } from "zod";
import * as C from "../contracts/index.ts";
import type { Club } from "../domain/types.ts";
import * as club from "../views/club.ts";
import type { TournamentContext } from "../views/context.ts";
import * as ext from "../views/extensions.ts";
import { teamRoutes } from "./team-routes.ts";
import { finished } from "../views/order.ts";
import { fidePlayerView, type FideEntry } from "../views/fide-players.ts";
import * as pub from "../views/public.ts";
import { hasCalendar } from "../domain/extensions/schedule.ts";
import {
  calendarPath,
  href,
  clubCalendarPath,
  fidePlayerCalendarPath,
  fidePlayerFeedPath,
  DEFAULT_LANGUAGE,
  endpoint,
  ENDPOINTS,
  instancePath,
  type Endpoint,
  type EndpointId,
  type Params,
} from "./urls.ts";

export type Emit = (params: Params, body: unknown) => void;

/**
 * What list routes see once every tournament has been processed: each list instance as the parts
 * to render now, `[page, items]` in page order (page 0 the head, the list's own URL; then the
 * numbered pages from the newest to page 1: routes/pagination.ts). A tick gets only the parts its
 * changes touch; the other pages are kept as they are.
 */
export interface ListContext {
  clubs: Club[];
  catalog(slug: string, tag?: string): Iterable<[number, club.CatalogEntry[]]>;
  global(tag?: string): Iterable<[number, pub.PublicSummary[]]>;
  clubTags: string[];
  globalTags: string[];
  /** The base path the snapshot is served under (routes/urls.ts href); "" or absent: the root. */
  basePath?: string;
  /** The language of the pages, feeds and calendars (build --language); absent: English. The
   * JSON answers never depend on it. */
  language?: string;
}

/** What every tournament route sees besides its tournament. */
export interface SiteContext {
  languages: string[];
  /** The clubs published, when --skip-invalid left some out (undefined: every enabled club). */
  clubSlugs?: string[];
  /** The base path the snapshot is served under (routes/urls.ts href); "" or absent: the root. */
  basePath?: string;
  /** The language of the pages, feeds and calendars (build --language); absent: English. The
   * JSON answers never depend on it. */
  language?: string;
  /** The origin the snapshot is served at (build --origin, "https://host"); absent: unknown, so
   * no page links a webcal: subscription (it needs an absolute URL). */
  origin?: string;
  /** Each club's defaultLanguage, by slug (clubs without one are absent): a club's calendar
   * files speak it. */
  clubLanguages?: Readonly<Record<string, string>>;
  /** Each club's timeZone, by slug (clubs without one are absent): the zone a tournament's pages,
   * feeds and calendars name (pages/tournament.ts zoneOf). */
  clubTimeZones?: Readonly<Record<string, string>>;
}

interface TournamentBinding {
  schema: z.ZodType;
  /** Emits every instance of the route for one tournament. */
  render(c: TournamentContext, site: SiteContext, emit: Emit): void;
}

/** A player across tournaments (issue 47): their FIDE ID and the entries of their tournaments. */
export interface FidePlayer {
  fideId: string;
  entries: readonly FideEntry[];
}

interface PlayerBinding {
  schema: z.ZodType;
  render(p: FidePlayer, site: SiteContext, emit: Emit): void;
}

interface ListBinding {
  schema: z.ZodType;
  render(lists: ListContext, emit: Emit): void;
}

const tournament = (b: TournamentBinding): TournamentBinding & { scope: "tournament" } => ({
  ...b,
  scope: "tournament",
});
const list = (b: ListBinding): ListBinding & { scope: "list" } => ({ ...b, scope: "list" });
const player = (b: PlayerBinding): PlayerBinding & { scope: "player" } => ({ ...b, scope: "player" });

export type TournamentRoute = Endpoint & TournamentBinding & { scope: "tournament" };
export type ListRoute = Endpoint & ListBinding & { scope: "list" };
export type PlayerRoute = Endpoint & PlayerBinding & { scope: "player" };
export type Route = TournamentRoute | ListRoute | PlayerRoute;

/** The club catalogs that list this tournament (enabled clubs only). */
function clubSlugs(c: TournamentContext): string[] {
  return c.published.clubs.map((e) => e.slug);
}

function forEachClub(c: TournamentContext, emit: Emit, params: Params, body: unknown): void {
  for (const slug of clubSlugs(c)) emit({ ...params, slug }, body);
}

/** Emits the parts of one list instance: the head at the list's own params, page j at `page`. */
function emitParts<T>(
  emit: Emit,
  params: Params,
  parts: Iterable<[number, T[]]>,
  body: (items: T[]) => unknown,
): void {
  for (const [j, items] of parts) emit(j === 0 ? params : { ...params, page: String(j) }, body(items));
}

/** What the global list's pages count as finished: the index pages for people cut the same way. */
export function summaryFinished(s: pub.PublicSummary): boolean {
  return finished(s.status);
}

function idOf(c: TournamentContext): string {
  return c.t.externalId.toString();
}

/** Each endpoint's schema and view; the scope must agree with urls.ts (checked as the table loads). */
const BINDINGS: Record<
  EndpointId,
  | (TournamentBinding & { scope: "tournament" })
  | (ListBinding & { scope: "list" })
  | (PlayerBinding & { scope: "player" })
> = {
  clubCatalog: list({
    schema: C.ClubCatalogResponse,
    render(lists, emit) {
      for (const cl of lists.clubs) {
        const body = (items: club.CatalogEntry[]) => club.clubCatalog(cl, items);
        emitParts(emit, { slug: cl.slug }, lists.catalog(cl.slug), body);
        // Path forms for every club tag of the store, plus "" (no tag matches: the empty list).
        for (const tag of ["", ...lists.clubTags])
          emitParts(emit, { slug: cl.slug, tag }, lists.catalog(cl.slug, tag), body);
      }
    },
  }),
  clubTournament: tournament({
    schema: C.TournamentResponse,
    render(c, _site, emit) {
      forEachClub(c, emit, { id: idOf(c) }, club.tournamentDetail(c));
    },
  }),
  clubStandings: tournament({
    schema: C.CurrentStandingsResponse,
    render(c, _site, emit) {
      forEachClub(c, emit, { id: idOf(c) }, club.currentStandings(c));
    },
  }),
  clubRound: tournament({
    schema: C.RoundResponse,
    render(c, _site, emit) {
      for (const r of c.pairedRounds) {
        forEachClub(c, emit, { id: idOf(c), round: String(r.roundNumber) }, club.round(r));
      }
    },
  }),
  clubLive: tournament({
    schema: C.LiveRoundResponse,
    render(c, _site, emit) {
      if (c.liveRound) forEachClub(c, emit, { id: idOf(c) }, club.liveRound(c, c.liveRound));
    },
  }),
  publicTournaments: list({
    schema: C.PublicTournamentList,
    render(lists, emit) {
      const same = (items: pub.PublicSummary[]) => items;
      emitParts(emit, {}, lists.global(), same);
      for (const tag of ["", ...lists.globalTags]) emitParts(emit, { tag }, lists.global(tag), same);
    },
  }),
  publicTournament: tournament({
    schema: C.PublicTournamentDetailResponse,
    render(c, _site, emit) {
      if (c.published.globalTags) emit({ id: idOf(c) }, pub.publicDetail(c, c.published.globalTags));
    },
  }),
  publicStandings: tournament({
    schema: C.PublicStandingsResponse,
    render(c, _site, emit) {
      if (c.published.globalTags) emit({ id: idOf(c) }, pub.publicStandings(c));
    },
  }),
  publicRound: tournament({
    schema: C.PublicRoundResponse,
    render(c, _site, emit) {
      if (!c.published.globalTags) return;
      for (const r of c.pairedRounds)
        emit({ id: idOf(c), round: String(r.roundNumber) }, pub.publicRound(c, r));
    },
  }),
  publicLive: tournament({
    schema: C.PublicRoundResponse,
    render(c, _site, emit) {
      if (c.published.globalTags && c.liveRound) emit({ id: idOf(c) }, pub.publicRound(c, c.liveRound));
    },
  }),
  publicRecaps: tournament({
    schema: C.PublicRecapsResponse,
    render(c, site, emit) {
      if (!c.published.globalTags) return;
      const id = idOf(c);
      emit({ id }, pub.publicRecaps(c, DEFAULT_LANGUAGE));
      const languages = new Set([DEFAULT_LANGUAGE, ...site.languages]);
      for (const language of [...languages].sort()) emit({ id, language }, pub.publicRecaps(c, language));
    },
  }),
  // Extensions (issue 22): published on the global surface only, like the pages.
  publicRoundStandings: tournament({
    schema: C.RoundStandingsResponse,
    render(c, _site, emit) {
      if (!c.published.globalTags) return;
      for (const v of ext.roundStandingsViews(c)) emit({ id: idOf(c), round: String(v.afterRound) }, v);
    },
  }),
  publicProgression: tournament({
    schema: C.ProgressionResponse,
    render(c, _site, emit) {
      if (c.published.globalTags) emit({ id: idOf(c) }, ext.progressionView(c));
    },
  }),
  publicCrosstable: tournament({
    schema: C.CrosstableResponse,
    render(c, _site, emit) {
      if (c.published.globalTags) emit({ id: idOf(c) }, ext.crosstableView(c));
    },
  }),
  publicPlayerCards: tournament({
    schema: C.PlayerCardsResponse,
    render(c, _site, emit) {
      if (c.published.globalTags) emit({ id: idOf(c) }, ext.playerCardsView(c));
    },
  }),
  publicSchedule: tournament({
    schema: C.ScheduleResponse,
    render(c, site, emit) {
      if (c.published.globalTags) emit({ id: idOf(c) }, ext.scheduleView(c, calendarOf(c, site)));
    },
  }),
  // A player across tournaments (issue 47): only entries of globally published tournaments exist.
  publicFidePlayer: player({
    schema: C.FidePlayerResponse,
    render(p, site, emit) {
      if (p.entries.length > 0)
        emit({ fideId: p.fideId }, fidePlayerView(p.entries, fidePlayerPaths(p.fideId, site)));
    },
  }),
  // The same on the club surface, for every tournament a club lists (club-only ones included):
  // published where the spec's club endpoints publish the tournament, and nowhere else.
  clubRoundStandings: tournament({
    schema: C.RoundStandingsResponse,
    render(c, _site, emit) {
      for (const v of ext.roundStandingsViews(c))
        forEachClub(c, emit, { id: idOf(c), round: String(v.afterRound) }, v);
    },
  }),
  clubProgression: tournament({
    schema: C.ProgressionResponse,
    render(c, _site, emit) {
      if (clubSlugs(c).length > 0) forEachClub(c, emit, { id: idOf(c) }, ext.progressionView(c));
    },
  }),
  clubCrosstable: tournament({
    schema: C.CrosstableResponse,
    render(c, _site, emit) {
      if (clubSlugs(c).length > 0) forEachClub(c, emit, { id: idOf(c) }, ext.crosstableView(c));
    },
  }),
  clubPlayerCards: tournament({
    schema: C.PlayerCardsResponse,
    render(c, _site, emit) {
      if (clubSlugs(c).length > 0) forEachClub(c, emit, { id: idOf(c) }, ext.playerCardsView(c));
    },
  }),
  clubSchedule: tournament({
    schema: C.ScheduleResponse,
    render(c, site, emit) {
      for (const slug of clubSlugs(c))
        emit({ id: idOf(c), slug }, ext.scheduleView(c, clubCalendarOf(c, slug, site)));
    },
  }),
  ...teamRoutes,
};

/** The URLs a player's resource names, under the base path. */
function fidePlayerPaths(fideId: string, site: SiteContext): Parameters<typeof fidePlayerView>[1] {
  const base = site.basePath ?? "";
  const json = (id: EndpointId, params: Params): string => href(base, instancePath(endpoint(id), params));
  return {
    tournament: (id) => json("publicTournament", { id }),
    playerCards: (id) => json("publicPlayerCards", { id }),
    feed: href(base, fidePlayerFeedPath(fideId)),
    calendar: href(base, fidePlayerCalendarPath(fideId)),
  };
}

/** The URL path of the tournament's iCalendar file; null when no round has a date (a calendar
 * must hold at least one event). */
export function calendarOf(c: TournamentContext, site: SiteContext): string | null {
  // A URL the schedule's JSON carries: under the base path, like every URL a response names.
  return hasCalendar(c.t) ? href(site.basePath ?? "", calendarPath(idOf(c))) : null;
}

/** The club's iCalendar file of the tournament (a club-only tournament has no global one);
 * null when no round has a date. */
export function clubCalendarOf(c: TournamentContext, slug: string, site: SiteContext): string | null {
  return hasCalendar(c.t) ? href(site.basePath ?? "", clubCalendarPath(slug, idOf(c))) : null;
}

export const ROUTES: readonly Route[] = ENDPOINTS.map((e) => {
  const b = BINDINGS[e.id];
  if (b.scope !== e.scope)
    throw new Error(`route ${e.id}: bound as ${b.scope}, declared ${e.scope} in urls.ts`);
  return { ...e, ...b } as Route;
});
