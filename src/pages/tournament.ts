// The pages of one published tournament, rendered from the very view objects its JSON endpoints
// are made of (views/public.ts, views/club.ts): never a second computation of the same values.
import { TEAM_TAB } from "./teams-text.ts";
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
import {
  formatDates,
  formatInstant,
  languageName,
  pointsHtml,
  RESULT_TITLE_HTML,
  resultLabelHtml,
  statusBadge,
  tiebreakTitle,
  titleBadge,
} from "./format.ts";
import { esc, layout, scrollTable } from "./html.ts";
import { DATE_TEXT, formatDay, formatLocalTime } from "./dates.ts";
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
  const html = `${titleBadge(title)}<a class="name" href="${esc(s.urls.page.player(s.id, n))}">${esc(name)}</a>`;
  links.set(n, { name, title, html });
  return html;
}

/** The languages in which the tournament has recaps, in the order of the surface's languages. */
function recapLanguagesOf(s: Shared): string[] {
  return s.languages.filter((l) => (s.recapCounts.get(l) ?? 0) > 0);
}

export type Tab = "overview" | "standings" | "teams" | "crosstable" | "players" | "live" | "round" | "recaps";

export function header(s: Shared, tab: Tab, current?: string): string {
  const d = s.detail;
  const links: [Tab, string, string][] = [
    ["overview", "Overview", s.urls.page.tournament(s.id)],
    ["standings", "Standings", s.urls.page.standings(s.id)],
    ["crosstable", "Crosstable", s.urls.page.crosstable(s.id)],
    ["players", "Players", s.urls.page.players(s.id)],
  ];
  if (s.teamEvent) links.splice(2, 0, ["teams", TEAM_TAB, s.urls.page.teams(s.id)]);
  if (d.currentRound !== null) links.push(["live", `Round ${d.currentRound}`, s.urls.page.live(s.id)]);
  const withRecaps = recapLanguagesOf(s);
  if (withRecaps.length > 0) links.push(["recaps", "Recaps", s.urls.page.recaps(s.id, withRecaps[0]!)]);
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
  const badge = tab === "overview" || tab === "live" ? `${statusBadge(d.status)} ` : "";
  const where = [formatDates(d.startDate, d.endDate), d.location ?? ""].filter(Boolean).map(esc).join(" · ");
  return (
    `<hgroup class="tournament"><h1>${esc(d.name)}</h1>` +
    `<p>${badge}${where ? `<span>${where}</span>` : ""}</p></hgroup>\n` +
    `<nav aria-label="Tournament" class="tabs"><ul>${nav}</ul></nav>`
  );
}

export function jsonLink(s: Shared, routeId: string, params: Record<string, string>): [string, string] {
  return ["This page as JSON", s.urls.json(routeId, params)];
}

export function crumbs(s: Shared, label?: string, href?: string): [string, string][] {
  const c: [string, string][] = [
    ["Tournaments", s.urls.home],
    [s.detail.name, s.urls.page.tournament(s.id)],
  ];
  if (label && href) c.push([label, href]);
  return c;
}

function overviewPage(s: Shared): string {
  const d = s.detail;
  const facts: [string, string][] = [
    ["Status", statusBadge(d.status)],
    ["Dates", esc(formatDates(d.startDate, d.endDate) || "not announced")],
  ];
  if (d.location) facts.push(["Location", esc(d.location)]);
  facts.push(
    ["Rounds", d.currentRound === null ? "not paired yet" : `${d.currentRound} of ${d.totalRounds ?? "?"}`],
    ["Players", esc(d.playerCount)],
  );
  if (d.tags.length) facts.push(["Tags", d.tags.map((t) => `<span class="tag">${esc(t)}</span>`).join(" ")]);
  facts.push(["Last update", formatInstant(d.lastScrapedAt)]);
  const source = safeHttpUrl(d.sourceUrl);
  facts.push([
    "Source",
    source ? `<a href="${esc(source)}" rel="external">${esc(source)}</a>` : esc(d.sourceUrl),
  ]);

  const rounds = d.availableRounds.length
    ? `<ul class="rounds">${d.availableRounds
        .map((n) => `<li><a href="${esc(s.urls.page.round(s.id, n))}">Round ${n}</a></li>`)
        .join("")}</ul>`
    : "<p>No round has been paired yet.</p>";
  const withRecaps = recapLanguagesOf(s);
  const recaps = withRecaps.length
    ? `<ul>${withRecaps
        .map((l) => {
          const n = s.recapCounts.get(l) ?? 0;
          return `<li><a href="${esc(s.urls.page.recaps(s.id, l))}" hreflang="${esc(l)}" lang="${esc(l)}">${esc(languageName(l))}</a>: ${n} ${n === 1 ? "recap" : "recaps"}</li>`;
        })
        .join("")}</ul>`
    : "<p>No recaps yet.</p>";
  const body =
    header(s, "overview") +
    `\n<section aria-labelledby="facts"><h2 id="facts">About</h2><dl class="facts">${facts
      .map(([k, v]) => `<dt>${esc(k)}</dt><dd>${v}</dd>`)
      .join("")}</dl></section>\n` +
    `<section aria-labelledby="rounds"><h2 id="rounds">Rounds</h2>${rounds}</section>\n` +
    scheduleSection(s) +
    `<section aria-labelledby="recaps"><h2 id="recaps">Recaps</h2>${recaps}</section>`;
  return layout({
    urls: s.urls,
    title: d.name,
    body,
    crumbs: [
      ["Tournaments", s.urls.home],
      [d.name, s.urls.page.tournament(s.id)],
    ],
    links: [jsonLink(s, "publicTournament", { id: s.id }), ["Follow (Atom feed)", s.urls.feed(s.id)]],
    head: `<link rel="alternate" type="application/atom+xml" title="${esc(d.name)}" href="${esc(s.urls.feed(s.id))}">\n`,
  });
}

/** The announced schedule (extension), with the calendar file to subscribe to. */
function scheduleSection(s: Shared): string {
  const sc = s.schedule;
  if (sc.rounds.length === 0) return "";
  const rows = sc.rounds
    .map(
      (r) =>
        `<tr data-round="${r.roundNumber}"><th scope="row">${r.roundNumber}</th>` +
        `<td class="date">${r.date ? `<time datetime="${esc(r.date)}">${esc(formatDay(r.date))}</time>` : DATE_TEXT.notAnnounced}</td>` +
        `<td class="time">${r.time ? esc(formatLocalTime(r.time)) : ""}</td>` +
        `<td>${r.paired ? `<a href="${esc(s.urls.page.round(s.id, r.roundNumber))}">paired</a>` : ""}</td></tr>`,
    )
    .join("");
  const calendar = sc.calendarPath
    ? `<p><a href="${esc(s.urls.calendar(s.id))}" type="text/calendar">Add the rounds to your calendar (iCalendar)</a></p>`
    : "";
  return (
    `<section aria-labelledby="schedule"><h2 id="schedule">Schedule</h2>` +
    scrollTable(
      "Round dates and local start times",
      `<table class="schedule"><caption>Round dates and local start times</caption><thead><tr>` +
        `<th scope="col">Round</th><th scope="col">Date</th><th scope="col">Time</th><th scope="col">Pairings</th>` +
        `</tr></thead><tbody>${rows}</tbody></table>`,
    ) +
    `${calendar}</section>\n`
  );
}

function standingsPage(s: Shared, st: Out<typeof CurrentStandingsResponse>): string {
  const labels = st.tieBreakLabels;
  const head =
    `<tr><th scope="col">Rank</th><th scope="col">Player</th><th scope="col">Fed</th>` +
    `<th scope="col">Rating</th><th scope="col">Points</th>` +
    labels
      .map((l) => `<th scope="col"><abbr title="${esc(tiebreakTitle(l))}">${esc(l)}</abbr></th>`)
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
    for (const v of r.tieBreakValues) rows += `<td>${esc(v)}</td>`;
    rows += "</tr>";
  }
  const caption =
    st.afterRound === null ? "Standings: no round is complete yet" : `Standings after round ${st.afterRound}`;
  const table =
    st.rows.length === 0
      ? `<p>${esc(caption)}.</p>`
      : scrollTable(
          caption,
          `<table class="standings"><caption>${esc(caption)}</caption><thead>${head}</thead><tbody>\n${rows}\n</tbody></table>`,
        );
  const after = s.standingsRounds.length
    ? `<nav aria-label="Standings after each round" class="pager"><ul>${s.standingsRounds
        .map((n) => `<li><a href="${esc(s.urls.page.roundStandings(s.id, n))}">after round ${n}</a></li>`)
        .join("")}</ul></nav>`
    : "";
  const legend = labels.length
    ? `<section aria-labelledby="tiebreaks"><h2 id="tiebreaks">Tie-breaks, in order</h2><dl class="legend">${labels
        .map((l) => `<dt>${esc(l)}</dt><dd>${esc(tiebreakTitle(l))}</dd>`)
        .join("")}</dl></section>`
    : "";
  return layout({
    urls: s.urls,
    title: `Standings · ${s.detail.name}`,
    body: `${header(s, "standings")}\n${after}\n${table}\n<p class="updated">Updated ${formatInstant(st.lastUpdatedAt)}</p>\n${legend}`,
    crumbs: crumbs(s, "Standings", s.urls.page.standings(s.id)),
    links: [jsonLink(s, "publicStandings", { id: s.id })],
  });
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
  let rows = "";
  for (const g of r.games) {
    const title = RESULT_TITLE_HTML[g.result];
    rows +=
      (rows === "" ? "" : "\n") +
      `<tr><th scope="row">${g.board}</th>${playerCell(s, g.white, "")}` +
      `<td class="result result-${esc(g.result)}"${title ? ` title="${title}"` : ""}>${resultLabelHtml(g.result, g.resultText)}</td>` +
      `${playerCell(s, g.black, g.isBye ? "bye" : "")}</tr>`;
  }
  return scrollTable(
    caption,
    `<table class="games"><caption>${esc(caption)}</caption><thead><tr><th scope="col">Board</th>` +
      `<th scope="col">White</th><th scope="col">Result</th><th scope="col">Black</th></tr></thead>` +
      `<tbody>\n${rows}\n</tbody></table>`,
  );
}

function unpaired(s: Shared, r: RoundView): string {
  if (r.unpairedPlayers.length === 0) return "";
  return (
    `<section aria-labelledby="unpaired"><h2 id="unpaired">Not paired in this round</h2><ul class="unpaired">` +
    r.unpairedPlayers.map((p) => `<li>${nameLink(s, p.sourcePlayerNumber, p.name, null)}</li>`).join("") +
    "</ul></section>"
  );
}

function roundState(r: RoundView): string {
  return r.isComplete ? "All results are in." : "Some games are still in play.";
}

function roundPage(s: Shared, r: RoundView): string {
  const url = s.urls.page.round(s.id, r.roundNumber);
  const others = s.detail.availableRounds
    .map((n) =>
      n === r.roundNumber
        ? `<li><a href="${esc(url)}" aria-current="page">${n}</a></li>`
        : `<li><a href="${esc(s.urls.page.round(s.id, n))}">${n}</a></li>`,
    )
    .join("");
  return layout({
    urls: s.urls,
    title: `Round ${r.roundNumber} · ${s.detail.name}`,
    body:
      `${header(s, "round")}\n<nav aria-label="Rounds" class="pager"><ul>${others}</ul></nav>\n` +
      `<h2>Round ${r.roundNumber}</h2><p>${roundState(r)} Updated ${formatInstant(r.lastScrapedAt)}</p>\n` +
      `${gamesTable(s, r, `Round ${r.roundNumber}: pairings and results`)}\n${unpaired(s, r)}`,
    crumbs: crumbs(s, `Round ${r.roundNumber}`, url),
    links: [jsonLink(s, "publicRound", { id: s.id, round: String(r.roundNumber) })],
  });
}

function livePage(s: Shared, r: RoundView): string {
  const live = s.detail.status === "Live";
  const liveUrl = s.urls.json("publicLive", { id: s.id });
  const note = live
    ? `This page refreshes itself every ${LIVE_REFRESH_SECONDS} seconds while the round is played.`
    : "";
  return layout({
    urls: s.urls,
    title: `Round ${r.roundNumber} (live) · ${s.detail.name}`,
    body:
      `${header(s, "live")}\n<section class="live" data-live-url="${esc(liveUrl)}" data-refresh="${LIVE_REFRESH_SECONDS}" ` +
      `data-players-url="${esc(s.urls.page.players(s.id))}" ` +
      `data-status="${esc(s.detail.status)}" data-round="${r.roundNumber}">` +
      `<h2>Round ${r.roundNumber}${s.detail.totalRounds ? ` of ${s.detail.totalRounds}` : ""}</h2>` +
      `<p class="state" aria-live="polite">${roundState(r)} Updated <span class="stamp">${formatInstant(r.lastScrapedAt)}</span></p>` +
      (note ? `<p class="note">${esc(note)}</p>` : "") +
      `\n${gamesTable(s, r, `Round ${r.roundNumber}: pairings and results`)}</section>\n${unpaired(s, r)}`,
    crumbs: crumbs(s, "Live", s.urls.page.live(s.id)),
    script: live,
    links: [jsonLink(s, "publicLive", { id: s.id })],
  });
}

function recapsPage(s: Shared, v: Out<typeof PublicRecapsResponse>): string {
  const url = s.urls.page.recaps(s.id, v.language);
  // Only the languages that have recaps (and this page's own), each by its own name.
  const langs = s.languages
    .filter((l) => l === v.language || (s.recapCounts.get(l) ?? 0) > 0)
    .map((l) => {
      const attrs = `hreflang="${esc(l)}" lang="${esc(l)}"`;
      const name = esc(languageName(l));
      return l === v.language
        ? `<li><a href="${esc(url)}" aria-current="page" ${attrs}>${name}</a></li>`
        : `<li><a href="${esc(s.urls.page.recaps(s.id, l))}" ${attrs}>${name}</a></li>`;
    })
    .join("");
  const kind = (k: string, round: number | null) =>
    k === "Round" && round !== null ? `Round ${round}` : k === "Final" ? "Final report" : k;
  const items = v.items.length
    ? v.items
        .map(
          (it) =>
            `<article class="recap" lang="${esc(v.language)}"><p class="kind">${esc(kind(it.kind, it.round))}</p>` +
            `<h2>${esc(it.headline)}</h2>` +
            (it.preview ? `<p class="lead">${esc(it.preview)}</p>` : "") +
            it.paragraphs.map((p) => `<p>${esc(p)}</p>`).join("") +
            "</article>",
        )
        .join("\n")
    : `<p>No recaps in this language.</p>`;
  return layout({
    urls: s.urls,
    title: `Recaps (${languageName(v.language)}) · ${s.detail.name}`,
    body: `${header(s, "recaps", url)}\n<nav aria-label="Languages" class="pager"><ul>${langs}</ul></nav>\n${items}`,
    crumbs: crumbs(s, `Recaps (${languageName(v.language)})`, url),
    links: [jsonLink(s, "publicRecaps", { id: s.id, language: v.language })],
  });
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
    id: String(detail.id),
    detail,
    languages,
    recapCounts: new Map(recaps.map((r) => [r.language, r.items.length])),
    standingsRounds: roundStandingsViews(c).map((v) => v.afterRound),
    schedule: scheduleView(c, calendarOf(c, site)),
    urls: siteUrls(site.basePath ?? ""),
    playerFeeds: c.t.trackingEnabled,
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
