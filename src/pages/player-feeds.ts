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
import { foldLine, icsText, utcStamp } from "./calendar.ts";
import { atomFeed, stableId, type FeedEntry } from "./feeds.ts";
import { formatPoints } from "./format.ts";
import type { PageFile, Shared } from "./tournament.ts";

/** The human text of a player's feed and calendar, in one place. */
export const PLAYER_FEED_TEXT = {
  feedTitle: (player: string, tournament: string) => `${player} at ${tournament}`,
  colour: { white: "White", black: "Black" } as Record<string, string>,
  game: (round: number, board: number | null, colour: string, opponent: string) =>
    `Round ${round}${board === null ? "" : `, board ${board}`}: ${colour} against ${opponent}`,
  bye: (round: number, what: string) => `Round ${round}: ${what}`,
  outcome: {
    win: "won",
    draw: "drawn",
    loss: "lost",
    forfeitWin: "won by forfeit",
    forfeitLoss: "lost by forfeit",
    pab: "bye (pairing-allocated)",
    fullBye: "bye, one point",
    halfBye: "bye, half a point",
    zeroBye: "bye, no point",
    absent: "not paired",
    pending: "in play",
  } satisfies Record<RoundOutcome, string>,
  scoreAfter: (round: number, score: string) => `Score after round ${round}: ${score}.`,
  pairedOnly: "Paired; the result is not known yet.",
  seeRound: (path: string) => `Pairings and results: ${path}`,
} as const;

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

function titleOf(pr: PlayerRound): string {
  const r = pr.round;
  const T = PLAYER_FEED_TEXT;
  if (r.opponent === null) return T.bye(r.round, T.outcome[r.outcome]);
  return T.game(r.round, r.board, T.colour[r.colour ?? ""] ?? "", r.opponent.name);
}

function summaryOf(pr: PlayerRound): string {
  const r = pr.round;
  const T = PLAYER_FEED_TEXT;
  if (r.outcome === "pending") return `${titleOf(pr)}. ${T.pairedOnly}`;
  const score = r.scoreAfter === null ? "" : ` ${T.scoreAfter(r.round, formatPoints(r.scoreAfter))}`;
  const result = r.opponent === null ? "" : ` ${capitalised(T.outcome[r.outcome])}.`;
  return `${titleOf(pr)}.${result}${score}`;
}

function capitalised(text: string): string {
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
      title: titleOf(pr),
      updated: changedAt(pr.game),
      link: s.urls.page.round(s.id, pr.round.round),
      summary: summaryOf(pr),
    }))
    .reverse();
  return atomFeed({
    l: s.l,
    id: stableId(`tournament/${s.id}/player/${n}`),
    title: PLAYER_FEED_TEXT.feedTitle(v.name, s.detail.name),
    self: s.urls.playerFeed(s.id, n),
    alternate: s.urls.page.player(s.id, n),
    fallbackUpdated: c.t.createdAt,
    entries,
  });
}

/** DTSTART of a round: its announced date and local time (a floating time, as the tournament's
 * calendar), the whole day without a time; the day it was paired (UTC) when no date is announced. */
function startOf(s: Shared, pr: PlayerRound): string {
  const planned = s.schedule.rounds.find((r) => r.roundNumber === pr.round.round);
  const date = (planned?.date ?? pr.game.firstSeenAt.slice(0, 10)).replace(/-/g, "");
  const time = planned?.date ? planned.time : null;
  return time === null ? `DTSTART;VALUE=DATE:${date}` : `DTSTART:${date}T${time.replace(":", "")}00`;
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
    `X-WR-CALNAME:${icsText(PLAYER_FEED_TEXT.feedTitle(v.name, s.detail.name))}`,
  ];
  for (const pr of rounds) {
    const round = pr.round.round;
    lines.push(
      "BEGIN:VEVENT",
      `UID:round-${round}.player-${n}.tournament-${s.id}@build-api`,
      `DTSTAMP:${stamp}`,
      startOf(s, pr),
      `SUMMARY:${icsText(`${s.detail.name}: ${titleOf(pr)}`)}`,
      ...(s.detail.location ? [`LOCATION:${icsText(s.detail.location)}`] : []),
      `DESCRIPTION:${icsText(`${summaryOf(pr)}\n${PLAYER_FEED_TEXT.seeRound(s.urls.page.round(s.id, round))}`)}`,
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
