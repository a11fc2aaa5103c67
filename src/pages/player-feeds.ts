// Follow a player: each player of a followed tournament (one whose events are imported round by
// round) gets an Atom feed and an iCalendar file of their own games: one entry (and one event) per
// round they are in, from the moment the round is paired (board, colour, opponent), updated when
// the result is known. Only followed tournaments have them: a one-off import is over before anyone
// follows it, and a file per player is what the cards avoid at scale (docs/guide/extensions.md).
//
// Incremental by construction: everything in a player's files comes from that player's own games
// and their opponents (never the tournament's retrieval time, nor ranks, which move with every
// result), so a tick that changes one game changes the bytes of two players' files, and only
// files whose bytes changed are written.
import type { RoundOutcome } from "../domain/scoring.ts";
import type { Game } from "../domain/types.ts";
import { playerCalendarPath, playerFeedPath } from "../routes/urls.ts";
import type { TournamentContext } from "../views/context.ts";
import type { PlayerCardView, PlayerCardsView } from "../views/extensions.ts";
import { foldLine, icsText, startLine, utcStamp } from "./calendar.ts";
import { atomFeed, stableId, type FeedEntry } from "./feeds.ts";
import { formatPoints } from "./format.ts";
import type { PageFile, Shared } from "./tournament.ts";
import type { MessageKey } from "../i18n/catalog.ts";
import type { Locale } from "../i18n/locale.ts";

/** The catalog key of each outcome's words (a bye's kind, a game's result). */
export const OUTCOME: Record<RoundOutcome, MessageKey> = {
  win: "playerFeed.outcome.win",
  draw: "playerFeed.outcome.draw",
  loss: "playerFeed.outcome.loss",
  forfeitWin: "playerFeed.outcome.forfeitWin",
  forfeitLoss: "playerFeed.outcome.forfeitLoss",
  pab: "playerFeed.outcome.pab",
  fullBye: "playerFeed.outcome.fullBye",
  halfBye: "playerFeed.outcome.halfBye",
  zeroBye: "playerFeed.outcome.zeroBye",
  absent: "playerFeed.outcome.absent",
  pending: "playerFeed.outcome.pending",
};

export const COLOUR: Record<string, MessageKey> = { white: "playerFeed.white", black: "playerFeed.black" };

/** One round of a player, with the stored game it comes from (its instants). */
interface PlayerRound {
  round: PlayerCardView["rounds"][number];
  game: Game;
}

function playerRounds(c: TournamentContext, v: PlayerCardView): PlayerRound[] {
  const n = v.sourcePlayerNumber;
  const out: PlayerRound[] = [];
  for (const r of v.rounds) {
    const stored = c.t.rounds.find((x) => x.roundNumber === r.round);
    const game = stored?.games.find((g) => g.whitePlayerNumber === n || g.blackPlayerNumber === n);
    if (game) out.push({ round: r, game });
  }
  return out;
}

/** When the round last changed for this player: the result's publication, else the pairing's. */
function changedAt(g: Game): string {
  return g.resultChangedAt ?? g.firstSeenAt;
}

function titleOf(l: Locale, pr: PlayerRound): string {
  const r = pr.round;
  if (r.opponent === null) return l.t("playerFeed.bye", { n: r.round, what: l.t(OUTCOME[r.outcome]) });
  const colour = COLOUR[r.colour ?? ""];
  const params = { n: r.round, colour: colour ? l.t(colour) : "", opponent: r.opponent.name };
  return r.board === null
    ? l.t("playerFeed.gameNoBoard", params)
    : l.t("playerFeed.game", { ...params, board: r.board });
}

/** When the round starts, as the tournament's schedule announces it, its zone named; "" unknown. */
function startsOf(s: Shared, pr: PlayerRound): string {
  const planned = s.schedule.rounds.find((r) => r.roundNumber === pr.round.round);
  if (!planned?.date || planned.time === null) return "";
  const time = s.l.start(planned.date, planned.time).text;
  return ` ${s.l.t("playerFeed.starts", { day: s.l.day(planned.date), time })}`;
}

function summaryOf(s: Shared, pr: PlayerRound): string {
  const l = s.l;
  const r = pr.round;
  if (r.outcome === "pending") return `${titleOf(l, pr)}. ${l.t("playerFeed.pairedOnly")}${startsOf(s, pr)}`;
  const score =
    r.scoreAfter === null
      ? ""
      : ` ${l.t("playerFeed.scoreAfter", { n: r.round, score: formatPoints(r.scoreAfter) })}`;
  const result = r.opponent === null ? "" : ` ${capitalised(l.t(OUTCOME[r.outcome]))}.`;
  return `${titleOf(l, pr)}.${result}${score}`;
}

export function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The newest change of the player's rounds; the tournament's creation when none. */
function stampOf(c: TournamentContext, rounds: PlayerRound[]): string {
  return rounds.reduce((m, pr) => (changedAt(pr.game) > m ? changedAt(pr.game) : m), c.t.createdAt);
}

function playerFeed(c: TournamentContext, s: Shared, v: PlayerCardView, rounds: PlayerRound[]): string {
  const n = v.sourcePlayerNumber;
  const entries: FeedEntry[] = rounds
    .map((pr) => ({
      id: stableId(`tournament/${s.id}/player/${n}/round/${pr.round.round}`),
      title: titleOf(s.l, pr),
      updated: changedAt(pr.game),
      link: s.urls.page.round(s.id, pr.round.round),
      summary: summaryOf(s, pr),
    }))
    .reverse();
  return atomFeed({
    l: s.l,
    id: stableId(`tournament/${s.id}/player/${n}`),
    title: s.l.t("playerFeed.title", { player: v.name, tournament: s.detail.name }),
    self: s.urls.playerFeed(s.id, n),
    alternate: s.urls.page.player(s.id, n),
    fallbackUpdated: c.t.createdAt,
    entries,
  });
}

/** DTSTART of a round: its announced date and time as the tournament's calendar says it (UTC,
 * read in the tournament's zone), the whole day without a time; the day it was paired (UTC) when
 * no date is announced. */
function startOf(s: Shared, pr: PlayerRound): string {
  const planned = s.schedule.rounds.find((r) => r.roundNumber === pr.round.round);
  if (planned?.date) return startLine(s.l, planned.date, planned.time);
  return startLine(s.l, pr.game.firstSeenAt.slice(0, 10), null);
}

function playerCalendar(c: TournamentContext, s: Shared, v: PlayerCardView, rounds: PlayerRound[]): string {
  const n = v.sourcePlayerNumber;
  const stamp = utcStamp(stampOf(c, rounds));
  const lines = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//build-api//Player games//EN",
    "CALSCALE:GREGORIAN",
    "METHOD:PUBLISH",
    `X-WR-CALNAME:${icsText(s.l.t("playerFeed.title", { player: v.name, tournament: s.detail.name }))}`,
  ];
  for (const pr of rounds) {
    const round = pr.round.round;
    lines.push(
      "BEGIN:VEVENT",
      `UID:round-${round}.player-${n}.tournament-${s.id}@build-api`,
      `DTSTAMP:${stamp}`,
      startOf(s, pr),
      `SUMMARY:${icsText(`${s.detail.name}: ${titleOf(s.l, pr)}`)}`,
      ...(s.detail.location ? [`LOCATION:${icsText(s.detail.location)}`] : []),
      `DESCRIPTION:${icsText(`${summaryOf(s, pr)}\n${s.l.t("calendar.description", { url: s.urls.page.round(s.id, round) })}`)}`,
      "END:VEVENT",
    );
  }
  lines.push("END:VCALENDAR");
  return lines.map(foldLine).join("\r\n") + "\r\n";
}

/** Each player's Atom feed and iCalendar file; none unless the tournament is followed. */
export function playerFeedFiles(c: TournamentContext, s: Shared, cards: PlayerCardsView): PageFile[] {
  if (!s.playerFeeds) return [];
  const files: PageFile[] = [];
  for (const v of cards.players) {
    const rounds = playerRounds(c, v);
    const n = v.sourcePlayerNumber;
    files.push([playerFeedPath(s.id, n).slice(1), playerFeed(c, s, v, rounds)]);
    files.push([playerCalendarPath(s.id, n).slice(1), playerCalendar(c, s, v, rounds)]);
  }
  return files;
}
