// Tournament status at a given instant: the status table of docs/design/status-and-standings.md, first match wins.
// Pure: the instant comes in as a value (`now`, epoch milliseconds).
import type { TournamentStatus } from "./types.ts";
import { isFinalResult } from "./results.ts";

export interface StatusOptions {
  /** How overdue nextRefreshAt may be before the tournament counts as UpdateDelayed. */
  graceMs: number;
  /** How long after its last change a round with unfinished games still counts as Live. */
  resultsWindowMs: number;
}

export const DEFAULT_STATUS_OPTIONS: StatusOptions = {
  graceMs: 30 * 60_000,
  resultsWindowMs: 6 * 3_600_000,
};

/** What the status depends on; derived from a Tournament by `statusInput`. */
export interface StatusInput {
  trackingEnabled: boolean;
  nextRefreshAt: string | null;
  startDate: string | null;
  endDate: string | null;
  totalRounds: number | null;
  /** The newest round with published pairings, or null when no round has any. */
  newestRound: {
    roundNumber: number;
    complete: boolean;
    /** When its data last changed (lastSourceChangeAt, else firstScrapedAt). */
    changedAt: string;
  } | null;
}

const DAY_MS = 86_400_000;

/** A calendar date is past once the whole day is over in UTC; an unknown date never is. */
function isDatePast(date: string | null, now: number): boolean {
  return date !== null && Date.parse(date) + DAY_MS <= now;
}

export function deriveStatus(
  input: StatusInput,
  now: number,
  options: StatusOptions = DEFAULT_STATUS_OPTIONS,
): TournamentStatus {
  const newest = input.newestRound;
  const finalRoundDone =
    newest !== null &&
    input.totalRounds !== null &&
    newest.roundNumber >= input.totalRounds &&
    newest.complete;
  // Never Complete before the announced last round: the end date stands in for a total that was
  // never announced (a TRF without XXR, imported without --rounds), not for one that was.
  const endDatePast = input.totalRounds === null && isDatePast(input.endDate, now);
  if (finalRoundDone || (endDatePast && newest !== null && newest.complete)) return "Complete";

  if (
    input.trackingEnabled &&
    input.nextRefreshAt !== null &&
    now - Date.parse(input.nextRefreshAt) > options.graceMs
  ) {
    return "UpdateDelayed";
  }

  if (newest === null) {
    if (!isDatePast(input.startDate, now) || input.trackingEnabled) return "Upcoming";
  }

  if (!input.trackingEnabled) return "Imported";

  // From here on tracking is enabled, so a tournament without pairings was Upcoming above.
  if (newest === null) return "Upcoming";
  if (!newest.complete) {
    return now - Date.parse(newest.changedAt) <= options.resultsWindowMs ? "Live" : "ResultsPending";
  }
  // Complete newest round; more rounds remain (or the total is unknown).
  return "AwaitingNextRound";
}

/** How many days past its end a complete followed event keeps its players' feeds, so a calendar
 * that syncs once a day or a reader back from the weekend still gets the last result. */
export const PLAYER_FEED_DAYS_AFTER_END = 7;

/** The instant a complete followed event's player feeds go: the days above past its end date's
 * day, else (no end date) past its newest round's last change; null when it has neither. */
function feedsEnd(input: StatusInput): number | null {
  const keep = PLAYER_FEED_DAYS_AFTER_END * DAY_MS;
  if (input.endDate !== null) return Date.parse(input.endDate) + DAY_MS + keep;
  return input.newestRound && Date.parse(input.newestRound.changedAt) + keep;
}

/**
 * Whether each player of an event has a feed and a calendar of their own at `now`: only where
 * people follow, i.e. while a followed event is on (any status but Complete), and for a week past
 * its end once it is Complete; never for an event that is not followed. Feeds are two files a
 * player: a followed archive would multiply the snapshot's files (docs/guide/extensions.md).
 */
export function playerFeedsOpen(input: StatusInput, status: TournamentStatus, now: number): boolean {
  if (!input.trackingEnabled) return false;
  if (status !== "Complete") return true;
  const end = feedsEnd(input);
  return end !== null && now < end;
}

/** The round a status, the live view and currentRound are about: the newest with games. */
export function newestPairedRound<R extends { roundNumber: number; games: unknown[] }>(
  rounds: R[],
): R | null {
  let newest: R | null = null;
  for (const r of rounds)
    if (r.games.length > 0 && (newest === null || r.roundNumber > newest.roundNumber)) newest = r;
  return newest;
}

export function isRoundComplete(round: {
  games: { result: Parameters<typeof isFinalResult>[0] }[];
}): boolean {
  return round.games.every((g) => isFinalResult(g.result));
}

/** The instants at which one of the status table's conditions on `now` flips (false → true). */
function thresholds(input: StatusInput, options: StatusOptions): number[] {
  const out: number[] = [];
  if (input.endDate !== null) out.push(Date.parse(input.endDate) + DAY_MS);
  // The followed event's player feeds go a week past its end date (playerFeedsOpen).
  const feeds = input.trackingEnabled ? feedsEnd(input) : null;
  if (feeds !== null) out.push(feeds);
  if (input.startDate !== null) out.push(Date.parse(input.startDate) + DAY_MS);
  // now - t > grace holds from t + grace + 1 ms on; now - t <= window stops holding there too.
  if (input.nextRefreshAt !== null) out.push(Date.parse(input.nextRefreshAt) + options.graceMs + 1);
  if (input.newestRound !== null)
    out.push(Date.parse(input.newestRound.changedAt) + options.resultsWindowMs + 1);
  return out;
}

/**
 * The interval of instants [from, until) around `now` in which neither the status nor whether
 * players have feeds (playerFeedsOpen) can change: every condition of the table compares `now`
 * with a threshold, and none is crossed inside it. A rebuild at an instant inside the window, from
 * the same store, gives the same bytes.
 */
export function statusWindow(
  input: StatusInput,
  now: number,
  options: StatusOptions = DEFAULT_STATUS_OPTIONS,
): { from: number; until: number } {
  let from = -Infinity;
  let until = Infinity;
  for (const t of thresholds(input, options)) {
    if (t <= now) from = Math.max(from, t);
    else until = Math.min(until, t);
  }
  return { from, until };
}
