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
import {
  escTable,
  formatInstant,
  pointsHtml,
  RESULT_TITLE_HTML,
  resultLabelHtml,
  tiebreakTitle,
  titleBadge,
} from "./format.ts";
import { esc, layout, scrollTable, scrollTableOf } from "./html.ts";
import { crumbs, header, jsonLink, nameLink, pageFile, type PageFile, type Shared } from "./tournament.ts";
import { pageSitePaths } from "./links.ts";

/** What a round without an opponent reads as in a crosstable cell. */
export const ALONE_LABEL: Partial<Record<RoundOutcome, string>> = {
  pab: "bye",
  fullBye: "bye 1",
  halfBye: "bye ½",
  zeroBye: "bye 0",
  absent: "–",
  pending: "…",
};

/** The result symbol of a cell with an opponent, as crosstables print it. */
export const OUTCOME_SYMBOL: Partial<Record<RoundOutcome, string>> = {
  win: "1",
  draw: "½",
  loss: "0",
  forfeitWin: "+",
  forfeitLoss: "−",
  pending: "…",
};

// Escaped once: a crosstable and the player cards print one per game.
const ALONE_HTML = escTable(ALONE_LABEL);
const SYMBOL_HTML = escTable(OUTCOME_SYMBOL);

function roundStandingsPage(s: Shared, v: RoundStandingsView): string {
  const url = s.urls.page.roundStandings(s.id, v.afterRound);
  const pager = s.standingsRounds
    .map((n) => {
      const href = esc(s.urls.page.roundStandings(s.id, n));
      return `<li><a href="${href}"${n === v.afterRound ? ' aria-current="page"' : ""}>${n}</a></li>`;
    })
    .join("");
  const head =
    `<tr><th scope="col">Rank</th><th scope="col">Player</th><th scope="col">Rating</th><th scope="col">Points</th>` +
    v.tieBreakLabels
      .map((l) => `<th scope="col"><abbr title="${esc(tiebreakTitle(l))}">${esc(l)}</abbr></th>`)
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
    for (const x of r.tieBreakValues) rows += `<td>${esc(x)}</td>`;
    rows += "</tr>";
  }
  const caption = `Standings after round ${v.afterRound}`;
  const origin = v.origin === "source" ? "As the results source published them." : "Computed from the games.";
  return layout({
    urls: s.urls,
    title: `${caption} · ${s.detail.name}`,
    body:
      `${header(s, "standings", url)}\n<nav aria-label="Standings after round" class="pager"><ul>${pager}</ul></nav>\n` +
      scrollTable(
        caption,
        `<table class="standings"><caption>${esc(caption)}</caption><thead>${head}</thead><tbody>\n${rows}\n</tbody></table>`,
      ) +
      `\n<p class="updated">${origin} Updated ${formatInstant(v.lastScrapedAt)}</p>`,
    crumbs: crumbs(s, caption, url),
    links: [jsonLink(s, "publicRoundStandings", { id: s.id, round: String(v.afterRound) })],
  });
}

type Order = "rank" | "start";

function crosstablePage(s: Shared, x: CrosstableView, order: Order): string {
  const byNumber = new Map(x.rows.map((r) => [r.sourcePlayerNumber, r]));
  const rows = order === "rank" ? x.rows : x.startingOrder.map((n) => byNumber.get(n)!);
  // Opponents are named by their line in this table, as printed crosstables do.
  const line = new Map(rows.map((r, i) => [r.sourcePlayerNumber, i + 1]));
  const url = order === "rank" ? s.urls.page.crosstable(s.id) : s.urls.page.crosstableStart(s.id);
  const switcher =
    `<nav aria-label="Crosstable order" class="pager"><ul>` +
    `<li><a href="${esc(s.urls.page.crosstable(s.id))}"${order === "rank" ? ' aria-current="page"' : ""}>by rank</a></li>` +
    `<li><a href="${esc(s.urls.page.crosstableStart(s.id))}"${order === "start" ? ' aria-current="page"' : ""}>by starting rank</a></li>` +
    `</ul></nav>`;
  const head =
    `<tr><th scope="col">No.</th><th scope="col">Rank</th><th scope="col">Player</th><th scope="col">Rating</th>` +
    x.rounds.map((n) => `<th scope="col">R${n}</th>`).join("") +
    `<th scope="col">Points</th></tr>`;
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
          ? (ALONE_HTML[g.outcome] ?? "")
          : `${line.get(g.opponent)}${g.colour === "white" ? "w" : g.colour === "black" ? "b" : ""} ${SYMBOL_HTML[g.outcome] ?? ""}`;
      body +=
        `<td class="cell" data-round="${g.round}" data-opponent="${g.opponent ?? ""}" ` +
        `data-points="${g.points ?? ""}">${label}</td>`;
    }
    body += `<td class="pts" data-points="${r.points ?? ""}">${pointsHtml(r.points)}</td></tr>`;
  }
  const caption = order === "rank" ? "Crosstable by rank" : "Crosstable by starting rank";
  const note =
    x.afterRound === null
      ? "No round is complete yet: ranks and points are not given."
      : `Rank and points after round ${x.afterRound}. A cell reads: opponent's line, colour, result.`;
  return layout({
    urls: s.urls,
    title: `${caption} · ${s.detail.name}`,
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
function fact(label: string, value: string): string {
  return value === "" ? "" : `<dt>${label}</dt><dd>${value}</dd>`;
}

/** A rating figure of a card, its value escaped. */
function figure(key: string, label: string, value: string | number): string {
  return `<dt>${label}</dt><dd data-figure="${key}">${value}</dd>`;
}

/** One player's card: a section of the players page, its heading the anchor the crosstable,
 * the other cards and the embed link to. Numbers are printed as they are (esc() returns a
 * number's text unchanged); the labels are ours and plain. */
function playerSection(s: Shared, v: PlayerCardView): string {
  const n = v.sourcePlayerNumber;
  const facts =
    fact("Player number", String(n)) +
    fact("Starting rank", v.startingRank === null ? "" : String(v.startingRank)) +
    fact("Rating", v.rating === null ? "unrated" : String(v.rating)) +
    fact("Federation", esc(v.federation ?? "")) +
    fact("Club", esc(v.club ?? "")) +
    fact("FIDE ID", v.fideId === null ? "" : esc(String(v.fideId)));
  const f = v.ratingFigures;
  const figures =
    figure("ratedGames", "Rated games", f.ratedGames) +
    figure("averageOpponentRating", "Average opponent rating", f.averageOpponentRating ?? NO_FIGURE) +
    figure("performanceRating", "Performance rating", f.performanceRating ?? NO_FIGURE) +
    figure("expectedScore", "Expected score", f.expectedScore ?? NO_FIGURE) +
    figure("kFactor", "K factor", f.kFactor ?? "not known") +
    figure(
      "ratingChange",
      "Rating change",
      f.ratingChange === null ? "not known" : `${f.ratingChange > 0 ? "+" : ""}${f.ratingChange}`,
    );
  let rows = "";
  for (const r of v.rounds) {
    const o = r.opponent;
    const title = r.result ? RESULT_TITLE_HTML[r.result] : undefined;
    const result = r.result ? resultLabelHtml(r.result, r.resultText ?? "") : (ALONE_HTML[r.outcome] ?? "");
    rows +=
      (rows === "" ? "" : "\n") +
      `<tr data-round="${r.round}"><th scope="row">${r.round}</th><td>${r.board ?? ""}</td>` +
      `<td>${esc(r.colour ?? "")}</td>` +
      `<td class="opponent" data-player="${o?.sourcePlayerNumber ?? ""}">${o ? nameLink(s, o.sourcePlayerNumber, o.name, o.title) : ""}</td>` +
      `<td>${o?.rating ?? ""}</td>` +
      `<td class="result"${title ? ` title="${title}"` : ""}>${result}</td>` +
      `<td class="points" data-points="${r.points ?? ""}">${pointsHtml(r.points)}</td>` +
      `<td class="score" data-points="${r.scoreAfter ?? ""}">${pointsHtml(r.scoreAfter)}</td>` +
      `<td class="rank">${r.rankAfter ?? ""}</td></tr>`;
  }
  // esc() works character by character: the name escaped once serves the heading and the caption.
  const name = esc(v.name);
  const caption = `${name}: games round by round`;
  return (
    `<section class="card" data-player="${n}" aria-labelledby="player-${n}">\n` +
    `<h2 id="player-${n}">${titleBadge(v.title)}<span class="name">${name}</span></h2>\n` +
    `<dl class="facts">${facts}</dl>\n` +
    followLinks(s, n, name) +
    scrollTableOf(
      caption,
      `<table class="card"><caption>${caption}</caption><thead><tr><th scope="col">Round</th>` +
        `<th scope="col">Board</th><th scope="col">Colour</th><th scope="col">Opponent</th>` +
        `<th scope="col">Rating</th><th scope="col">Result</th><th scope="col">Points</th>` +
        `<th scope="col">Score</th><th scope="col">Rank</th></tr></thead><tbody>\n${rows}\n</tbody></table>`,
    ) +
    `\n<h3 id="rating-${n}">Rating (FIDE B.02)</h3><dl class="facts" aria-labelledby="rating-${n}">${figures}</dl>\n</section>`
  );
}

/** The card's human text about following a player, in one place. */
const FOLLOW_TEXT = {
  lead: (name: string) => `Follow ${name}'s games:`,
  feed: "Atom feed",
  calendar: "calendar (iCalendar)",
} as const;

/** Links to the player's own feed and calendar, when the tournament is followed. */
function followLinks(s: Shared, n: number, name: string): string {
  if (!s.playerFeeds) return "";
  return (
    `<p class="follow">${FOLLOW_TEXT.lead(name)} ` +
    `<a href="${esc(s.urls.playerFeed(s.id, n))}" type="application/atom+xml">${FOLLOW_TEXT.feed}</a> · ` +
    `<a href="${esc(s.urls.playerCalendar(s.id, n))}" type="text/calendar">${FOLLOW_TEXT.calendar}</a></p>\n`
  );
}

/** Every player's card on one page, in source player number order. */
function playersPage(s: Shared, cards: PlayerCardsView): string {
  const url = s.urls.page.players(s.id);
  // Appended, not joined: layout() flattens the page once.
  let body = header(s, "players");
  for (const v of cards.players) body += `\n${playerSection(s, v)}`;
  return layout({
    urls: s.urls,
    title: `Players · ${s.detail.name}`,
    body,
    crumbs: crumbs(s, "Players", url),
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
