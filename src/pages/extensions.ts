// Extension pages (issue 22): standings after each round, the crosstable (by rank and by starting
// rank) and one page with every player's card, rendered from the view objects of the extension JSON routes.
import type { RoundOutcome } from "../domain/scoring.ts";
import {
  crosstableView,
  playerCardsView,
  roundStandingsViews,
  type CrosstableView,
  type PlayerCardView,
  type PlayerCardsView,
  type RoundStandingsView,
} from "../views/extensions.ts";
import type { TournamentContext } from "../views/context.ts";
import type { MessageKey } from "../i18n/catalog.ts";
import type { Locale } from "../i18n/locale.ts";
import { escTable, pointsHtml, resultLabelHtml, tiebreakTitle, titleBadge, wordsOf } from "./format.ts";
import { esc, layout, scrollTable, scrollTableOf } from "./html.ts";
import {
  crumbs,
  header,
  heads,
  jsonLink,
  nameLink,
  pageFile,
  titled,
  updated,
  type PageFile,
  type Shared,
} from "./tournament.ts";
import { pageSitePaths } from "./links.ts";
import { pageSitePath } from "../routes/urls.ts";

/** What a round without an opponent reads as in a crosstable cell, in a locale. */
export function aloneLabels(l: Locale): Partial<Record<RoundOutcome, string>> {
  return {
    pab: l.t("alone.pab"),
    fullBye: l.t("alone.fullBye"),
    halfBye: l.t("alone.halfBye"),
    zeroBye: l.t("alone.zeroBye"),
    absent: "–",
    pending: "…",
  };
}

/** The result symbol of a cell with an opponent, as crosstables print it. */
export const OUTCOME_SYMBOL: Partial<Record<RoundOutcome, string>> = {
  win: "1",
  draw: "½",
  loss: "0",
  forfeitWin: "+",
  forfeitLoss: "−",
  pending: "…",
};

// Escaped once (per locale): a crosstable and the player cards print one per game.
const aloneHtml = new WeakMap<Locale, Partial<Record<RoundOutcome, string>>>();
function aloneHtmlOf(l: Locale): Partial<Record<RoundOutcome, string>> {
  let t = aloneHtml.get(l);
  if (t === undefined) aloneHtml.set(l, (t = escTable(aloneLabels(l))));
  return t;
}
const SYMBOL_HTML = escTable(OUTCOME_SYMBOL);

function roundStandingsPage(s: Shared, v: RoundStandingsView): string {
  const l = s.l;
  const url = s.urls.page.roundStandings(s.id, v.afterRound);
  const pager = s.standingsRounds
    .map((n) => {
      const href = esc(s.urls.page.roundStandings(s.id, n));
      return `<li><a href="${href}"${n === v.afterRound ? ' aria-current="page"' : ""}>${n}</a></li>`;
    })
    .join("");
  const head =
    `<tr>${heads(l, ["col.rank", "col.player", "col.rating", "col.points"])}` +
    v.tieBreakLabels
      .map((x) => `<th scope="col"><abbr title="${esc(tiebreakTitle(l, x))}">${esc(x)}</abbr></th>`)
      .join("") +
    "</tr>";
  let rows = "";
  for (const r of v.rows) {
    rows +=
      (rows === "" ? "" : "\n") +
      `<tr data-player="${r.sourcePlayerNumber}"><td>${r.rank}</td>` +
      `<th scope="row">${nameLink(s, r.sourcePlayerNumber, r.name, r.title)}</th>` +
      `<td>${r.rating ?? ""}</td>` +
      `<td class="pts" data-points="${r.points ?? ""}">${pointsHtml(r.points)}</td>`;
    for (const x of r.tieBreakValues) rows += `<td>${esc(l.decimal(x))}</td>`;
    rows += "</tr>";
  }
  const caption = l.t("standings.after", { n: v.afterRound });
  const origin = l.t(v.origin === "source" ? "roundStandings.source" : "roundStandings.computed");
  return layout({
    l,
    urls: s.urls,
    title: titled(s, caption),
    body:
      `${header(s, "standings", url)}\n<nav aria-label="${esc(l.t("roundStandings.nav"))}" class="pager"><ul>${pager}</ul></nav>\n` +
      scrollTable(
        caption,
        `<table class="standings"><caption>${esc(caption)}</caption><thead>${head}</thead><tbody>\n${rows}\n</tbody></table>`,
      ) +
      `\n<p class="updated">${esc(origin)} ${updated(l, v.lastScrapedAt)}</p>`,
    crumbs: crumbs(s, caption, url),
    links: [jsonLink(s, "publicRoundStandings", { id: s.id, round: String(v.afterRound) })],
  });
}

type Order = "rank" | "start";

function crosstablePage(s: Shared, x: CrosstableView, order: Order): string {
  const l = s.l;
  const byNumber = new Map(x.rows.map((r) => [r.sourcePlayerNumber, r]));
  const rows = order === "rank" ? x.rows : x.startingOrder.map((n) => byNumber.get(n)!);
  // Opponents are named by their line in this table, as printed crosstables do.
  const line = new Map(rows.map((r, i) => [r.sourcePlayerNumber, i + 1]));
  const url = order === "rank" ? s.urls.page.crosstable(s.id) : s.urls.page.crosstableStart(s.id);
  const switcher =
    `<nav aria-label="${esc(l.t("crosstable.order"))}" class="pager"><ul>` +
    `<li><a href="${esc(s.urls.page.crosstable(s.id))}"${order === "rank" ? ' aria-current="page"' : ""}>${esc(l.t("crosstable.byRank"))}</a></li>` +
    `<li><a href="${esc(s.urls.page.crosstableStart(s.id))}"${order === "start" ? ' aria-current="page"' : ""}>${esc(l.t("crosstable.byStart"))}</a></li>` +
    `</ul></nav>`;
  const head =
    `<tr>${heads(l, ["col.number", "col.rank", "col.player", "col.rating"])}` +
    x.rounds.map((n) => `<th scope="col">${esc(l.t("col.roundShort", { n }))}</th>`).join("") +
    `${heads(l, ["col.points"])}</tr>`;
  const alone = aloneHtmlOf(l);
  const white = esc(l.t("colour.whiteLetter"));
  const black = esc(l.t("colour.blackLetter"));
  let body = "";
  for (const [i, r] of rows.entries()) {
    body +=
      (i === 0 ? "" : "\n") +
      `<tr data-player="${r.sourcePlayerNumber}"><td>${i + 1}</td><td>${r.rank ?? ""}</td>` +
      `<th scope="row">${nameLink(s, r.sourcePlayerNumber, r.name, r.title)}</th><td>${r.rating ?? ""}</td>`;
    for (const g of r.games) {
      // Escaped: a line number, a colour letter and a symbol escaped once.
      const label =
        g.opponent === null
          ? (alone[g.outcome] ?? "")
          : `${line.get(g.opponent)}${g.colour === "white" ? white : g.colour === "black" ? black : ""} ${SYMBOL_HTML[g.outcome] ?? ""}`;
      body +=
        `<td class="cell" data-round="${g.round}" data-opponent="${g.opponent ?? ""}" ` +
        `data-points="${g.points ?? ""}">${label}</td>`;
    }
    body += `<td class="pts" data-points="${r.points ?? ""}">${pointsHtml(r.points)}</td></tr>`;
  }
  const caption = l.t(order === "rank" ? "crosstable.captionRank" : "crosstable.captionStart");
  const note = x.afterRound === null ? l.t("crosstable.none") : l.t("crosstable.after", { n: x.afterRound });
  return layout({
    l,
    urls: s.urls,
    title: titled(s, caption),
    body:
      `${header(s, "crosstable", url)}\n${switcher}\n<p>${esc(note)}</p>\n` +
      scrollTable(
        caption,
        `<table class="crosstable"><caption>${esc(caption)}</caption><thead>${head}</thead><tbody>\n${body}\n</tbody></table>`,
      ),
    crumbs: crumbs(s, caption, url),
    links: [jsonLink(s, "publicCrosstable", { id: s.id })],
  });
}

/** What a rating figure that cannot be computed reads as, escaped. */
const NO_FIGURE = esc("—");

/** A fact of a card, its value escaped; none when the value is empty. */
function fact(l: Locale, label: MessageKey, value: string): string {
  return value === "" ? "" : `<dt>${esc(l.t(label))}</dt><dd>${value}</dd>`;
}

/** A rating figure of a card, its value escaped. */
function figure(l: Locale, key: string, label: MessageKey, value: string | number): string {
  return `<dt>${esc(l.t(label))}</dt><dd data-figure="${key}">${value}</dd>`;
}

/** The FIDE ID, linked to the player's page across every published tournament (issue 47). */
function fideLink(s: Shared, name: string, fideId: string): string {
  const href = s.urls.file(pageSitePath("fidePlayerPage", { fideId }));
  return `<a href="${esc(href)}" title="${esc(s.l.t("fidePlayer.crossEvent", { player: name }))}">${esc(fideId)}</a>`;
}

/** One player's card: a section of the players page, its heading the anchor the crosstable,
 * the other cards and the embed link to. Numbers are printed as they are (esc() returns a
 * number's text unchanged). */
function playerSection(s: Shared, v: PlayerCardView): string {
  const l = s.l;
  const n = v.sourcePlayerNumber;
  const notKnown = esc(l.t("card.notKnown"));
  const facts =
    fact(l, "card.number", String(n)) +
    fact(l, "card.startingRank", v.startingRank === null ? "" : String(v.startingRank)) +
    fact(l, "col.rating", v.rating === null ? esc(l.t("card.unrated")) : String(v.rating)) +
    fact(l, "card.federation", esc(v.federation ?? "")) +
    fact(l, "card.club", esc(v.club ?? "")) +
    fact(l, "card.fideId", v.fideId === null ? "" : fideLink(s, v.name, String(v.fideId)));
  const f = v.ratingFigures;
  const figures =
    figure(l, "ratedGames", "card.ratedGames", f.ratedGames) +
    figure(l, "averageOpponentRating", "card.averageOpponent", f.averageOpponentRating ?? NO_FIGURE) +
    figure(l, "performanceRating", "card.performance", f.performanceRating ?? NO_FIGURE) +
    figure(
      l,
      "expectedScore",
      "card.expected",
      f.expectedScore === null ? NO_FIGURE : esc(l.decimal(String(f.expectedScore))),
    ) +
    figure(l, "kFactor", "card.kFactor", f.kFactor ?? notKnown) +
    figure(
      l,
      "ratingChange",
      "card.ratingChange",
      f.ratingChange === null
        ? notKnown
        : esc(l.decimal(`${f.ratingChange > 0 ? "+" : ""}${f.ratingChange}`)),
    );
  const w = wordsOf(l);
  const alone = aloneHtmlOf(l);
  const colours = { white: esc(l.t("colour.white")), black: esc(l.t("colour.black")) };
  let rows = "";
  for (const r of v.rounds) {
    const o = r.opponent;
    const title = r.result ? w.resultTitleHtml[r.result] : undefined;
    const result = r.result ? resultLabelHtml(l, r.result, r.resultText ?? "") : (alone[r.outcome] ?? "");
    rows +=
      (rows === "" ? "" : "\n") +
      `<tr data-round="${r.round}"><th scope="row">${r.round}</th><td>${r.board ?? ""}</td>` +
      `<td>${r.colour === null ? "" : colours[r.colour]}</td>` +
      `<td class="opponent" data-player="${o?.sourcePlayerNumber ?? ""}">${o ? nameLink(s, o.sourcePlayerNumber, o.name, o.title) : ""}</td>` +
      `<td>${o?.rating ?? ""}</td>` +
      `<td class="result"${title ? ` title="${title}"` : ""}>${result}</td>` +
      `<td class="points" data-points="${r.points ?? ""}">${pointsHtml(r.points)}</td>` +
      `<td class="score" data-points="${r.scoreAfter ?? ""}">${pointsHtml(r.scoreAfter)}</td>` +
      `<td class="rank">${r.rankAfter ?? ""}</td></tr>`;
  }
  // The name escaped once serves the heading and the caption (esc() of the template's text
  // around it keeps the escaped name as it is: a NUL marks its place).
  const name = esc(v.name);
  const caption = esc(l.t("card.games", { name: "\u0000" })).replace("\u0000", name);
  return (
    `<section class="card" data-player="${n}" aria-labelledby="player-${n}">\n` +
    `<h2 id="player-${n}">${titleBadge(l, v.title)}<span class="name">${name}</span></h2>\n` +
    `<dl class="facts">${facts}</dl>\n` +
    followLinks(s, n, name) +
    scrollTableOf(
      caption,
      `<table class="card"><caption>${caption}</caption><thead><tr>` +
        heads(l, [
          "col.round",
          "col.board",
          "col.colour",
          "col.opponent",
          "col.rating",
          "col.result",
          "col.points",
          "col.score",
          "col.rank",
        ]) +
        `</tr></thead><tbody>\n${rows}\n</tbody></table>`,
    ) +
    `\n<h3 id="rating-${n}">${esc(l.t("card.ratingHeading"))}</h3><dl class="facts" aria-labelledby="rating-${n}">${figures}</dl>\n</section>`
  );
}

/** Links to the player's own feed and calendar, when the tournament is followed. */
function followLinks(s: Shared, n: number, name: string): string {
  if (!s.playerFeeds) return "";
  const calendar = s.urls.playerCalendar(s.id, n);
  // webcal: only with the site's origin (build --origin): it needs an absolute URL.
  const webcal = s.urls.webcal(calendar);
  return (
    `<p class="follow">${esc(s.l.t("follow.lead", { name }))} ` +
    `<a href="${esc(s.urls.playerFeed(s.id, n))}" type="application/atom+xml">${esc(s.l.t("follow.feed"))}</a> · ` +
    `<a href="${esc(calendar)}" type="text/calendar">${esc(s.l.t("follow.calendar"))}</a>` +
    (webcal ? ` · <a href="${esc(webcal)}">${esc(s.l.t("follow.subscribe"))}</a>` : "") +
    `</p>\n`
  );
}

/** Every player's card on one page, in source player number order. */
function playersPage(s: Shared, cards: PlayerCardsView): string {
  const url = s.urls.page.players(s.id);
  // Appended, not joined: layout() flattens the page once.
  let body = header(s, "players");
  for (const v of cards.players) body += `\n${playerSection(s, v)}`;
  const title = s.l.t("card.players");
  return layout({
    l: s.l,
    urls: s.urls,
    title: titled(s, title),
    body,
    crumbs: crumbs(s, title, url),
    links: [jsonLink(s, "publicPlayerCards", { id: s.id })],
  });
}

/** The extension pages of a tournament published on the global surface. */
export function extensionPages(
  c: TournamentContext,
  s: Shared,
  cards: PlayerCardsView = playerCardsView(c),
): PageFile[] {
  const files: PageFile[] = [];
  for (const v of roundStandingsViews(c)) {
    files.push([pageFile(pageSitePaths.roundStandings(s.id, v.afterRound)), roundStandingsPage(s, v)]);
  }
  const x = crosstableView(c);
  files.push([pageFile(pageSitePaths.crosstable(s.id)), crosstablePage(s, x, "rank")]);
  files.push([pageFile(pageSitePaths.crosstableStart(s.id)), crosstablePage(s, x, "start")]);
  files.push([pageFile(pageSitePaths.players(s.id)), playersPage(s, cards)]);
  return files;
}
