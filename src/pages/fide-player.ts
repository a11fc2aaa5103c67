// A player across tournaments (issue 47): their page (`/players/{fideId}/`), an Atom feed and an
// iCalendar file of their games in every globally published tournament. Made from the player's
// entries (views/fide-players.ts) and the JSON view, like a tournament's pages from its views.
// The feed and calendar hold no rank and no retrieval time, so a tick that changes another game
// of a tournament leaves their bytes as they are (as the per-event player feeds: player-feeds.ts).
import type { Locale } from "../i18n/locale.ts";
import { zonedInstant } from "../i18n/zone.ts";
import { fidePlayerCalendarPath, fidePlayerFeedPath, pageSitePath, type BasePath } from "../routes/urls.ts";
import {
  compareEntries,
  type FideEntry,
  type FidePlayerView,
  type FideRound,
} from "../views/fide-players.ts";
import { foldLine, icsText, utcStamp } from "./calendar.ts";
import { atomFeed, stableId, type FeedEntry } from "./feeds.ts";
import { formatPoints, titleBadge } from "./format.ts";
import { esc, layout, scrollTable } from "./html.ts";
import { siteUrls } from "./links.ts";
import { capitalised, COLOUR, OUTCOME } from "./player-feeds.ts";
import { pageFile, type PageFile } from "./tournament.ts";

function titleOf(l: Locale, e: FideEntry, r: FideRound): string {
  const round =
    r.opponent === null
      ? l.t("playerFeed.bye", { n: r.round, what: l.t(OUTCOME[r.outcome]) })
      : r.board === null
        ? l.t("playerFeed.gameNoBoard", { n: r.round, colour: colourOf(l, r), opponent: r.opponent })
        : l.t("playerFeed.game", {
            n: r.round,
            colour: colourOf(l, r),
            opponent: r.opponent,
            board: r.board,
          });
  return `${e.tournament.name}: ${round}`;
}

function colourOf(l: Locale, r: FideRound): string {
  const key = COLOUR[r.colour ?? ""];
  return key ? l.t(key) : "";
}

function summaryOf(l: Locale, e: FideEntry, r: FideRound): string {
  const title = titleOf(l, e, r);
  if (r.outcome === "pending") return `${title}. ${l.t("playerFeed.pairedOnly")}`;
  const result = r.opponent === null ? "" : ` ${capitalised(l.t(OUTCOME[r.outcome]))}.`;
  const score =
    r.scoreAfter === null
      ? ""
      : ` ${l.t("playerFeed.scoreAfter", { n: r.round, score: formatPoints(r.scoreAfter) })}`;
  return `${title}.${result}${score}`;
}

/** Every round of every tournament, oldest first (a tournament's rounds in order). */
function roundsOf(entries: readonly FideEntry[]): [FideEntry, FideRound][] {
  return [...entries]
    .sort((a, b) => compareEntries(b, a))
    .flatMap((e) => e.rounds.map((r): [FideEntry, FideRound] => [e, r]));
}

/** The player's page, Atom feed and iCalendar file. */
export function fidePlayerFiles(
  l: Locale,
  base: BasePath,
  view: FidePlayerView,
  entries: readonly FideEntry[],
): PageFile[] {
  const fideId = String(view.fideId);
  const urls = siteUrls(base);
  const pagePath = pageSitePath("fidePlayerPage", { fideId });
  const rounds = roundsOf(entries);
  const newest = entries.reduce((m, e) => (e.tournament.createdAt > m ? e.tournament.createdAt : m), "");
  const feed = atomFeed({
    l,
    id: stableId(`fide-player/${fideId}`),
    title: l.t("fidePlayer.feedTitle", { player: view.name }),
    self: urls.file(fidePlayerFeedPath(fideId)),
    alternate: urls.file(pagePath),
    fallbackUpdated: newest,
    entries: rounds
      .map(([e, r]): FeedEntry => ({
        // The per-event feed's ids: a reader following both shows each game once.
        id: stableId(`tournament/${e.tournamentId}/player/${e.sourcePlayerNumber}/round/${r.round}`),
        title: titleOf(l, e, r),
        updated: r.updated,
        link: urls.page.round(e.tournamentId, r.round),
        summary: summaryOf(l, e, r),
      }))
      .reverse(),
  });
  return [
    [pageFile(pagePath), fidePlayerPage(l, base, view)],
    [fidePlayerFeedPath(fideId).slice(1), feed],
    [fidePlayerCalendarPath(fideId).slice(1), fidePlayerCalendar(l, base, view, rounds, newest)],
  ];
}

function fidePlayerCalendar(
  l: Locale,
  base: BasePath,
  view: FidePlayerView,
  rounds: [FideEntry, FideRound][],
  newest: string,
): string {
  const urls = siteUrls(base);
  const stamp = utcStamp(rounds.reduce((m, [, r]) => (r.updated > m ? r.updated : m), newest));
  const lines = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//build-api//Player games//EN",
    "CALSCALE:GREGORIAN",
    "METHOD:PUBLISH",
    `X-WR-CALNAME:${icsText(l.t("fidePlayer.feedTitle", { player: view.name }))}`,
  ];
  for (const [e, r] of rounds) {
    // As the per-event calendar (calendar.ts startLine): an announced time read in the
    // tournament's zone, written in UTC; the whole day without one; the day paired without a date.
    const date = r.date ?? r.paired.slice(0, 10);
    const start =
      r.date !== null && r.time !== null
        ? `DTSTART:${utcStamp(new Date(zonedInstant(r.date, r.time, e.tournament.zone)).toISOString())}`
        : `DTSTART;VALUE=DATE:${date.replace(/-/g, "")}`;
    lines.push(
      "BEGIN:VEVENT",
      // The per-event calendar's UIDs: the same game is the same event in both.
      `UID:round-${r.round}.player-${e.sourcePlayerNumber}.tournament-${e.tournamentId}@build-api`,
      `DTSTAMP:${stamp}`,
      start,
      `SUMMARY:${icsText(titleOf(l, e, r))}`,
      ...(e.tournament.location ? [`LOCATION:${icsText(e.tournament.location)}`] : []),
      `DESCRIPTION:${icsText(`${summaryOf(l, e, r)}\n${l.t("calendar.description", { url: urls.page.round(e.tournamentId, r.round) })}`)}`,
      "END:VEVENT",
    );
  }
  lines.push("END:VCALENDAR");
  return lines.map(foldLine).join("\r\n") + "\r\n";
}

function fidePlayerPage(l: Locale, base: BasePath, v: FidePlayerView): string {
  const urls = siteUrls(base);
  const fideId = String(v.fideId);
  const rows = v.tournaments
    .map((t) => {
      const id = String(t.tournamentId);
      return (
        `<tr><th scope="row"><a href="${esc(urls.page.tournament(id))}">${esc(t.name)}</a></th>` +
        `<td>${esc(l.dates(t.startDate, t.endDate))}</td><td>${t.rank ?? "–"}</td>` +
        `<td>${esc(formatPoints(t.points))}</td><td>${t.performanceRating ?? "–"}</td>` +
        `<td>${t.ratingChange === null ? "–" : esc(t.ratingChange.toFixed(1))}</td>` +
        `<td><a href="${esc(urls.page.player(id, t.sourcePlayerNumber))}">${esc(l.t("card.games", { name: v.name }))}</a></td></tr>`
      );
    })
    .join("\n");
  const facts = [
    `<dt>${esc(l.t("card.fideId"))}</dt><dd>${esc(fideId)}</dd>`,
    ...(v.federation ? [`<dt>${esc(l.t("card.federation"))}</dt><dd>${esc(v.federation)}</dd>`] : []),
  ].join("");
  const table = scrollTable(
    l.t("fidePlayer.caption", { player: v.name }),
    `<table class="fide-player"><caption>${esc(l.t("fidePlayer.caption", { player: v.name }))}</caption><thead><tr>` +
      (
        [
          "fidePlayer.tournament",
          "fidePlayer.dates",
          "fidePlayer.rank",
          "fidePlayer.points",
          "card.performance",
          "card.ratingChange",
          "card.players",
        ] as const
      )
        .map((k) => `<th scope="col">${esc(l.t(k))}</th>`)
        .join("") +
      `</tr></thead><tbody>\n${rows}\n</tbody></table>`,
  );
  const feed = urls.file(fidePlayerFeedPath(fideId));
  return layout({
    l,
    urls,
    title: l.t("fidePlayer.title", { player: v.name }),
    head: `<link rel="alternate" type="application/atom+xml" title="${esc(l.t("fidePlayer.feedTitle", { player: v.name }))}" href="${esc(feed)}">\n`,
    body:
      `<h1>${titleBadge(l, v.title)}${esc(v.name)}</h1>\n<dl class="facts">${facts}</dl>\n${table}\n` +
      `<p><a href="${esc(feed)}">${esc(l.t("fidePlayer.games"))}</a> · ` +
      `<a href="${esc(urls.file(fidePlayerCalendarPath(fideId)))}">${esc(l.t("fidePlayer.calendar"))}</a></p>`,
    links: [[l.t("link.json"), urls.json("publicFidePlayer", { fideId })]],
  });
}
