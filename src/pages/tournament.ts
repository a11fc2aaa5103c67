// The pages of one published tournament, rendered from the very view objects its JSON endpoints
// are made of (views/public.ts, views/club.ts): never a second computation of the same values.
import type { z } from "zod";
import type {
  CurrentStandingsResponse,
  PublicPlayerResponse,
  PublicRecapsResponse,
  PublicRoundResponse,
  PublicTournamentDetailResponse,
} from "../contracts/index.ts";
import { CACHE_LIFETIMES } from "../routes/cache.ts";
import { calendarOf, ROUTES, type Route, type SiteContext } from "../routes/table.ts";
import { currentStandings } from "../views/club.ts";
import type { TournamentContext } from "../views/context.ts";
import { roundStandingsViews, scheduleView, type ScheduleView } from "../views/extensions.ts";
import { publicDetail, publicRecaps, publicRound } from "../views/public.ts";
import type { MessageKey } from "../i18n/catalog.ts";
import { languageOf } from "../i18n/languages.ts";
import { localeOf, type Locale } from "../i18n/locale.ts";
import {
  formatInstant,
  languageName,
  pointsHtml,
  resultLabelHtml,
  statusBadge,
  tiebreakTitle,
  titleBadge,
  wordsOf,
} from "./format.ts";
import { esc, layout, scrollTable } from "./html.ts";
import { pageSitePaths, siteUrls, type SiteUrls } from "./links.ts";

type Out<S extends z.ZodType> = z.output<S>;
type Detail = Out<typeof PublicTournamentDetailResponse>;
type RoundView = Out<typeof PublicRoundResponse>;
export type PageFile = [relPath: string, html: string];

function route(id: string): Route {
  const r = ROUTES.find((x) => x.id === id);
  if (!r) throw new Error(`no route ${id}`);
  return r;
}

/** The recap languages of the JSON surface: the route's default plus every stored language. */
export function recapLanguages(site: SiteContext): string[] {
  const fallback = route("publicRecaps").query?.default;
  return [...new Set([...(fallback ? [fallback] : []), ...site.languages])].sort();
}

/** How often the live page asks for /live: the browser-cache lifetime of the live class. */
export const LIVE_REFRESH_SECONDS = CACHE_LIFETIMES.live.maxAge;

/** The file that serves a page, by its site path (pageSitePaths: never a link under a base path). */
export function pageFile(url: string): string {
  return `${url.slice(1)}index.html`;
}

function safeHttpUrl(url: string): string | null {
  return /^https?:\/\/[^\s"'<>]+$/i.test(url) ? url : null;
}

export interface Shared {
  /** The reader's language (build --language), times in the tournament's zone (zoneOf). */
  l: Locale;
  id: string;
  detail: Detail;
  languages: string[];
  recapCounts: Map<string, number>;
  /** The rounds that have standings of their own (extension pages). */
  standingsRounds: number[];
  /** The announced schedule (extension), as its JSON holds it. */
  schedule: ScheduleView;
  /** Every URL the pages name, under the base path (pages/links.ts). */
  urls: SiteUrls;
  /** Whether each player has a feed and a calendar of their games (a followed tournament). */
  playerFeeds: boolean;
  /** A team event: its pages have a Teams tab (pages/teams.ts). */
  teamEvent: boolean;
}

/**
 * Each tournament's name links, by player number: every page names a player by a link to their
 * card: the players page once per game, the standings, crosstable and round tables once a row. Keyed on the name and title too, which
 * a source table may spell otherwise than the directory.
 */
const nameLinks = new WeakMap<Shared, Map<number, { name: string; title: string | null; html: string }>>();

export function nameLink(s: Shared, n: number, name: string, title: string | null): string {
  let links = nameLinks.get(s);
  if (links === undefined) nameLinks.set(s, (links = new Map()));
  const known = links.get(n);
  if (known !== undefined && known.name === name && known.title === title) return known.html;
  const html = `${titleBadge(s.l, title)}<a class="name" href="${esc(s.urls.page.player(s.id, n))}">${esc(name)}</a>`;
  links.set(n, { name, title, html });
  return html;
}

/** The languages in which the tournament has recaps, in the order of the surface's languages. */
function recapLanguagesOf(s: Shared): string[] {
  return s.languages.filter((l) => (s.recapCounts.get(l) ?? 0) > 0);
}

export type Tab = "overview" | "standings" | "teams" | "crosstable" | "players" | "live" | "round" | "recaps";

export function header(s: Shared, tab: Tab, current?: string): string {
  const { l, detail: d } = s;
  const links: [Tab, string, string][] = [
    ["overview", l.t("tab.overview"), s.urls.page.tournament(s.id)],
    ["standings", l.t("tab.standings"), s.urls.page.standings(s.id)],
    ["crosstable", l.t("tab.crosstable"), s.urls.page.crosstable(s.id)],
    ["players", l.t("tab.players"), s.urls.page.players(s.id)],
  ];
  if (s.teamEvent) links.splice(2, 0, ["teams", l.t("tab.teams"), s.urls.page.teams(s.id)]);
  if (d.currentRound !== null)
    links.push(["live", l.t("tab.round", { n: d.currentRound }), s.urls.page.live(s.id)]);
  const withRecaps = recapLanguagesOf(s);
  if (withRecaps.length > 0)
    links.push(["recaps", l.t("tab.recaps"), s.urls.page.recaps(s.id, withRecaps[0]!)]);
  const nav = links
    .map(([t, label, href]) => {
      // The tab of this very page is the current page; the tab of its section (standings after a
      // round, recaps in another language) is current as a section only.
      const mark = t !== tab ? "" : current === undefined || current === href ? "page" : "true";
      return `<li><a href="${esc(href)}"${mark ? ` aria-current="${mark}"` : ""}>${esc(label)}</a></li>`;
    })
    .join("");
  // The status depends on the build instant: only the pages that are about it show it, so a
  // round, standings or recaps page changes only when its own data does.
  const badge = tab === "overview" || tab === "live" ? `${statusBadge(l, d.status)} ` : "";
  const where = [l.dates(d.startDate, d.endDate), d.location ?? ""].filter(Boolean).map(esc).join(" · ");
  return (
    `<hgroup class="tournament"><h1>${esc(d.name)}</h1>` +
    `<p>${badge}${where ? `<span>${where}</span>` : ""}</p></hgroup>\n` +
    `<nav aria-label="${esc(l.t("nav.tournament"))}" class="tabs"><ul>${nav}</ul></nav>`
  );
}

export function jsonLink(s: Shared, routeId: string, params: Record<string, string>): [string, string] {
  return [s.l.t("link.json"), s.urls.json(routeId, params)];
}

export function crumbs(s: Shared, label?: string, href?: string): [string, string][] {
  const c: [string, string][] = [
    [s.l.t("crumb.tournaments"), s.urls.home],
    [s.detail.name, s.urls.page.tournament(s.id)],
  ];
  if (label && href) c.push([label, href]);
  return c;
}

/** A page's title: what it shows, then the tournament. */
export function titled(s: Shared, page: string): string {
  return s.l.t("layout.titled", { page, tournament: s.detail.name });
}

function overviewPage(s: Shared): string {
  const { l, detail: d } = s;
  const facts: [string, string][] = [
    [l.t("overview.status"), statusBadge(l, d.status)],
    [l.t("overview.dates"), esc(l.dates(d.startDate, d.endDate) || l.t("overview.notAnnounced"))],
  ];
  if (d.location) facts.push([l.t("overview.location"), esc(d.location)]);
  facts.push(
    [
      l.t("overview.rounds"),
      esc(
        d.currentRound === null
          ? l.t("overview.notPaired")
          : l.t("overview.roundOf", { n: d.currentRound, total: d.totalRounds ?? "?" }),
      ),
    ],
    [l.t("overview.players"), esc(d.playerCount)],
  );
  if (d.tags.length)
    facts.push([l.t("overview.tags"), d.tags.map((t) => `<span class="tag">${esc(t)}</span>`).join(" ")]);
  facts.push([l.t("overview.lastUpdate"), formatInstant(l, d.lastScrapedAt)]);
  const source = safeHttpUrl(d.sourceUrl);
  facts.push([
    l.t("overview.source"),
    source ? `<a href="${esc(source)}" rel="external">${esc(source)}</a>` : esc(d.sourceUrl),
  ]);

  const rounds = d.availableRounds.length
    ? `<ul class="rounds">${d.availableRounds
        .map(
          (n) =>
            `<li><a href="${esc(s.urls.page.round(s.id, n))}">${esc(l.t("round.title", { n }))}</a></li>`,
        )
        .join("")}</ul>`
    : `<p>${esc(l.t("overview.noRound"))}</p>`;
  const withRecaps = recapLanguagesOf(s);
  const recaps = withRecaps.length
    ? `<ul>${withRecaps
        .map((code) => {
          // Each language by its own name (it is a link to text in that language, lang-tagged).
          const n = s.recapCounts.get(code) ?? 0;
          return (
            `<li><a href="${esc(s.urls.page.recaps(s.id, code))}" hreflang="${esc(code)}" lang="${esc(code)}">${esc(languageName(code))}</a>: ` +
            `${esc(l.plural("overview.recapCount", n))}</li>`
          );
        })
        .join("")}</ul>`
    : `<p>${esc(l.t("overview.noRecaps"))}</p>`;
  const body =
    header(s, "overview") +
    `\n<section aria-labelledby="facts"><h2 id="facts">${esc(l.t("overview.about"))}</h2><dl class="facts">${facts
      .map(([k, v]) => `<dt>${esc(k)}</dt><dd>${v}</dd>`)
      .join("")}</dl></section>\n` +
    `<section aria-labelledby="rounds"><h2 id="rounds">${esc(l.t("overview.rounds"))}</h2>${rounds}</section>\n` +
    scheduleSection(s) +
    `<section aria-labelledby="recaps"><h2 id="recaps">${esc(l.t("overview.recaps"))}</h2>${recaps}</section>`;
  return layout({
    l,
    urls: s.urls,
    title: d.name,
    body,
    crumbs: crumbs(s),
    links: [jsonLink(s, "publicTournament", { id: s.id }), [l.t("link.feed"), s.urls.feed(s.id)]],
    head: `<link rel="alternate" type="application/atom+xml" title="${esc(d.name)}" href="${esc(s.urls.feed(s.id))}">\n`,
  });
}

/** A round's start time in a <time> element: the instant, and the time with its zone named. */
function startTime(l: Locale, date: string, time: string): string {
  const at = l.start(date, time);
  return `<time datetime="${esc(at.iso)}">${esc(at.text)}</time>`;
}

/** The announced schedule (extension), with the calendar file to subscribe to. */
function scheduleSection(s: Shared): string {
  const { l, schedule: sc } = s;
  if (sc.rounds.length === 0) return "";
  const paired = esc(l.t("schedule.paired"));
  const rows = sc.rounds
    .map(
      (r) =>
        `<tr data-round="${r.roundNumber}"><th scope="row">${r.roundNumber}</th>` +
        `<td class="date">${r.date === null ? esc(l.t("overview.notAnnounced")) : `<time datetime="${esc(r.date)}">${esc(l.day(r.date))}</time>`}</td>` +
        `<td class="time">${r.time && r.date ? startTime(l, r.date, r.time) : ""}</td>` +
        `<td>${r.paired ? `<a href="${esc(s.urls.page.round(s.id, r.roundNumber))}">${paired}</a>` : ""}</td></tr>`,
    )
    .join("");
  const webcal = s.urls.webcal(s.urls.calendar(s.id));
  const calendar = sc.calendarPath
    ? `<p><a href="${esc(s.urls.calendar(s.id))}" type="text/calendar">${esc(l.t("schedule.calendar"))}</a>` +
      (webcal ? ` · <a href="${esc(webcal)}">${esc(l.t("schedule.subscribe"))}</a>` : "") +
      `</p>`
    : "";
  const caption = l.t("schedule.caption");
  const col = (key: "schedule.round" | "schedule.date" | "schedule.time" | "schedule.pairings") =>
    `<th scope="col">${esc(l.t(key))}</th>`;
  return (
    `<section aria-labelledby="schedule"><h2 id="schedule">${esc(l.t("schedule.heading"))}</h2>` +
    scrollTable(
      caption,
      `<table class="schedule"><caption>${esc(caption)}</caption><thead><tr>` +
        col("schedule.round") +
        col("schedule.date") +
        col("schedule.time") +
        col("schedule.pairings") +
        `</tr></thead><tbody>${rows}</tbody></table>`,
    ) +
    `${calendar}</section>\n`
  );
}

/** A header cell per key, escaped. */
export function heads(l: Locale, keys: readonly MessageKey[]): string {
  return keys.map((k) => `<th scope="col">${esc(l.t(k))}</th>`).join("");
}

function standingsPage(s: Shared, st: Out<typeof CurrentStandingsResponse>): string {
  const l = s.l;
  const labels = st.tieBreakLabels;
  const head =
    `<tr>${heads(l, ["col.rank", "col.player", "col.fed", "col.rating", "col.points"])}` +
    labels
      .map((x) => `<th scope="col"><abbr title="${esc(tiebreakTitle(l, x))}">${esc(x)}</abbr></th>`)
      .join("") +
    "</tr>";
  let rows = "";
  for (const r of st.rows) {
    rows +=
      (rows === "" ? "" : "\n") +
      `<tr data-player="${r.sourcePlayerNumber}"><td>${r.rank}</td>` +
      `<th scope="row">${nameLink(s, r.sourcePlayerNumber, r.name, r.title)}</th>` +
      `<td>${esc(r.federation ?? "")}</td><td>${r.internationalRating ?? ""}</td>` +
      `<td class="pts" data-points="${r.points ?? ""}">${pointsHtml(r.points)}</td>`;
    for (const v of r.tieBreakValues) rows += `<td>${esc(l.decimal(v))}</td>`;
    rows += "</tr>";
  }
  const caption =
    st.afterRound === null ? l.t("standings.none") : l.t("standings.after", { n: st.afterRound });
  const table =
    st.rows.length === 0
      ? `<p>${esc(caption)}.</p>`
      : scrollTable(
          caption,
          `<table class="standings"><caption>${esc(caption)}</caption><thead>${head}</thead><tbody>\n${rows}\n</tbody></table>`,
        );
  const after = s.standingsRounds.length
    ? `<nav aria-label="${esc(l.t("standings.eachRound"))}" class="pager"><ul>${s.standingsRounds
        .map(
          (n) =>
            `<li><a href="${esc(s.urls.page.roundStandings(s.id, n))}">${esc(l.t("standings.afterShort", { n }))}</a></li>`,
        )
        .join("")}</ul></nav>`
    : "";
  const legend = labels.length
    ? `<section aria-labelledby="tiebreaks"><h2 id="tiebreaks">${esc(l.t("standings.tiebreaks"))}</h2><dl class="legend">${labels
        .map((x) => `<dt>${esc(x)}</dt><dd>${esc(tiebreakTitle(l, x))}</dd>`)
        .join("")}</dl></section>`
    : "";
  return layout({
    l,
    urls: s.urls,
    title: titled(s, l.t("standings.title")),
    body: `${header(s, "standings")}\n${after}\n${table}\n<p class="updated">${updated(l, st.lastUpdatedAt)}</p>\n${legend}`,
    crumbs: crumbs(s, l.t("standings.title"), s.urls.page.standings(s.id)),
    links: [jsonLink(s, "publicStandings", { id: s.id })],
  });
}

/** "Updated {time}", escaped, the time in a <time> element (a NUL marks its place: no catalog
 * text holds one). */
export function updated(l: Locale, iso: string): string {
  return esc(l.t("updated", { time: "\u0000" })).replace("\u0000", formatInstant(l, iso));
}

type PublicPlayer = Out<typeof PublicPlayerResponse>;

function playerCell(s: Shared, p: PublicPlayer | null, empty: string): string {
  if (!p) return `<td class="player none">${esc(empty)}</td>`;
  // The federation and the rating, as many as are known, one space apart.
  let meta = p.federation === null ? "" : esc(p.federation);
  if (p.rating !== null) meta = p.federation === null ? String(p.rating) : `${meta} ${p.rating}`;
  return (
    `<td class="player" data-player="${p.sourcePlayerNumber}">${nameLink(s, p.sourcePlayerNumber, p.name, p.title)}` +
    `${meta ? ` <span class="meta">${meta}</span>` : ""}</td>`
  );
}

function gamesTable(s: Shared, r: RoundView, caption: string): string {
  const l = s.l;
  const titles = wordsOf(l).resultTitleHtml;
  const bye = l.t("result.bye");
  let rows = "";
  for (const g of r.games) {
    const title = titles[g.result];
    rows +=
      (rows === "" ? "" : "\n") +
      `<tr><th scope="row">${g.board}</th>${playerCell(s, g.white, "")}` +
      `<td class="result result-${esc(g.result)}"${title ? ` title="${title}"` : ""}>${resultLabelHtml(l, g.result, g.resultText)}</td>` +
      `${playerCell(s, g.black, g.isBye ? bye : "")}</tr>`;
  }
  return scrollTable(
    caption,
    `<table class="games"><caption>${esc(caption)}</caption><thead><tr>` +
      heads(l, ["col.board", "col.white", "col.result", "col.black"]) +
      `</tr></thead><tbody>\n${rows}\n</tbody></table>`,
  );
}

function unpaired(s: Shared, r: RoundView): string {
  const l = s.l;
  if (r.unpairedPlayers.length === 0) return "";
  return (
    `<section aria-labelledby="unpaired"><h2 id="unpaired">${esc(l.t("round.unpaired"))}</h2><ul class="unpaired">` +
    r.unpairedPlayers.map((p) => `<li>${nameLink(s, p.sourcePlayerNumber, p.name, null)}</li>`).join("") +
    "</ul></section>"
  );
}

function roundState(l: Locale, r: RoundView): string {
  return esc(r.isComplete ? l.t("round.complete") : l.t("round.inPlay"));
}

function roundPage(s: Shared, r: RoundView): string {
  const l = s.l;
  const url = s.urls.page.round(s.id, r.roundNumber);
  const others = s.detail.availableRounds
    .map((n) =>
      n === r.roundNumber
        ? `<li><a href="${esc(url)}" aria-current="page">${n}</a></li>`
        : `<li><a href="${esc(s.urls.page.round(s.id, n))}">${n}</a></li>`,
    )
    .join("");
  const title = l.t("round.title", { n: r.roundNumber });
  return layout({
    l,
    urls: s.urls,
    title: titled(s, title),
    body:
      `${header(s, "round")}\n<nav aria-label="${esc(l.t("round.nav"))}" class="pager"><ul>${others}</ul></nav>\n` +
      `<h2>${esc(title)}</h2><p>${roundState(l, r)} ${updated(l, r.lastScrapedAt)}</p>\n` +
      `${gamesTable(s, r, l.t("round.caption", { n: r.roundNumber }))}\n${unpaired(s, r)}`,
    crumbs: crumbs(s, title, url),
    links: [jsonLink(s, "publicRound", { id: s.id, round: String(r.roundNumber) })],
  });
}

/** What the live script needs to redraw the table in the page's language (pages/assets.ts). */
function liveWords(l: Locale): string {
  const w = wordsOf(l);
  return JSON.stringify({
    label: w.resultLabel,
    title: w.resultTitle,
    bye: l.t("result.bye"),
    complete: l.t("round.complete"),
    inPlay: l.t("round.inPlay"),
    updated: l.t("updated"),
    locale: l.intl,
    timeZone: l.timeZone,
  });
}

function livePage(s: Shared, r: RoundView): string {
  const l = s.l;
  const live = s.detail.status === "Live";
  const liveUrl = s.urls.json("publicLive", { id: s.id });
  const note = live ? l.t("round.refresh", { n: LIVE_REFRESH_SECONDS }) : "";
  const total = s.detail.totalRounds;
  const heading = total
    ? l.t("round.of", { n: r.roundNumber, total })
    : l.t("round.title", { n: r.roundNumber });
  return layout({
    l,
    urls: s.urls,
    title: titled(s, l.t("round.live", { n: r.roundNumber })),
    body:
      `${header(s, "live")}\n<section class="live" data-live-url="${esc(liveUrl)}" data-refresh="${LIVE_REFRESH_SECONDS}" ` +
      `data-players-url="${esc(s.urls.page.players(s.id))}" ` +
      `data-status="${esc(s.detail.status)}" data-round="${r.roundNumber}"` +
      (live ? ` data-words="${esc(liveWords(l))}"` : "") +
      `>` +
      `<h2>${esc(heading)}</h2>` +
      `<p class="state" aria-live="polite">${roundState(l, r)} <span class="stamp">${updated(l, r.lastScrapedAt)}</span></p>` +
      (note ? `<p class="note">${esc(note)}</p>` : "") +
      `\n${gamesTable(s, r, l.t("round.caption", { n: r.roundNumber }))}</section>\n${unpaired(s, r)}`,
    crumbs: crumbs(s, l.t("round.crumbLive"), s.urls.page.live(s.id)),
    script: live,
    links: [jsonLink(s, "publicLive", { id: s.id })],
  });
}

function recapsPage(s: Shared, v: Out<typeof PublicRecapsResponse>): string {
  const l = s.l;
  const url = s.urls.page.recaps(s.id, v.language);
  // Only the languages that have recaps (and this page's own), each by its own name.
  const langs = s.languages
    .filter((code) => code === v.language || (s.recapCounts.get(code) ?? 0) > 0)
    .map((code) => {
      const attrs = `hreflang="${esc(code)}" lang="${esc(code)}"`;
      const name = esc(languageName(code));
      return code === v.language
        ? `<li><a href="${esc(url)}" aria-current="page" ${attrs}>${name}</a></li>`
        : `<li><a href="${esc(s.urls.page.recaps(s.id, code))}" ${attrs}>${name}</a></li>`;
    })
    .join("");
  const kind = (k: string, round: number | null): string =>
    k === "Round" && round !== null
      ? l.t("recaps.kindRound", { n: round })
      : k === "Final"
        ? l.t("recaps.kindFinal")
        : k === "Preview"
          ? l.t("recaps.kindPreview")
          : k;
  const items = v.items.length
    ? v.items
        .map(
          (it) =>
            `<article class="recap" lang="${esc(v.language)}"><p class="kind" lang="${esc(l.tag)}">${esc(kind(it.kind, it.round))}</p>` +
            `<h2>${esc(it.headline)}</h2>` +
            (it.preview ? `<p class="lead">${esc(it.preview)}</p>` : "") +
            it.paragraphs.map((p) => `<p>${esc(p)}</p>`).join("") +
            "</article>",
        )
        .join("\n")
    : `<p>${esc(l.t("recaps.none"))}</p>`;
  const title = l.t("recaps.title", { language: l.languageName(v.language) });
  return layout({
    l,
    urls: s.urls,
    title: titled(s, title),
    body: `${header(s, "recaps", url)}\n<nav aria-label="${esc(l.t("recaps.languages"))}" class="pager"><ul>${langs}</ul></nav>\n${items}`,
    crumbs: crumbs(s, title, url),
    links: [jsonLink(s, "publicRecaps", { id: s.id, language: v.language })],
  });
}

/** The locale of the global pages: the build's language (site.language), instants in UTC. */
export function siteLocale(site: SiteContext): Locale {
  return localeOf(languageOf(site.language));
}

/**
 * The time zone a tournament's times are said in: `club`'s timeZone, else the tournament's (the
 * store keeps none of its own: the zone of the first club listing it that has one), else UTC.
 */
export function zoneOf(c: TournamentContext, site: SiteContext, club?: string): string {
  const zones = site.clubTimeZones ?? {};
  const own = club === undefined ? undefined : zones[club];
  return own ?? c.published.clubs.map((x) => zones[x.slug]).find((z) => z !== undefined) ?? "UTC";
}

/** What every page of a tournament shares; null unless it is published on the global surface. */
export function sharedOf(
  c: TournamentContext,
  site: SiteContext,
): { s: Shared; recaps: Out<typeof PublicRecapsResponse>[] } | null {
  const tags = c.published.globalTags;
  if (!tags) return null;
  const detail = publicDetail(c, tags);
  const languages = recapLanguages(site);
  const recaps = languages.map((l) => publicRecaps(c, l));
  const s: Shared = {
    l: localeOf(languageOf(site.language), zoneOf(c, site)),
    id: String(detail.id),
    detail,
    languages,
    recapCounts: new Map(recaps.map((r) => [r.language, r.items.length])),
    standingsRounds: roundStandingsViews(c).map((v) => v.afterRound),
    schedule: scheduleView(c, calendarOf(c, site)),
    urls: siteUrls(site.basePath ?? "", site.origin),
    playerFeeds: c.playerFeeds,
    teamEvent: (c.t.team ?? null) !== null,
  };
  return { s, recaps };
}

/** Every page of a tournament published on the global surface; none for club-only ones. */
export function tournamentPages(c: TournamentContext, site: SiteContext): PageFile[] {
  const shared = sharedOf(c, site);
  if (!shared) return [];
  const { s, recaps } = shared;
  const id = s.id;
  const files: PageFile[] = [
    [pageFile(pageSitePaths.tournament(id)), overviewPage(s)],
    [pageFile(pageSitePaths.standings(id)), standingsPage(s, currentStandings(c))],
  ];
  for (const r of c.pairedRounds) {
    files.push([pageFile(pageSitePaths.round(id, r.roundNumber)), roundPage(s, publicRound(c, r))]);
  }
  if (c.liveRound) files.push([pageFile(pageSitePaths.live(id)), livePage(s, publicRound(c, c.liveRound))]);
  // A language without recaps has no page: nothing would lead to it but an empty list.
  for (const v of recaps) {
    if (v.items.length > 0) files.push([pageFile(pageSitePaths.recaps(id, v.language)), recapsPage(s, v)]);
  }
  return files;
}
