// An event imported round by round: how many rounds it has (XXR, else `--rounds`), and whether it
// is followed (`--follow <minutes>`), which turns the store's tracking on so that its status moves
// Upcoming → Live → AwaitingNextRound → Complete instead of staying Imported. The design note is
// docs/design/status-and-standings.md ("Events run round by round").
import { BuildError, EXIT } from "../shared/errors.ts";
import type { StoreRow, StoreWriter } from "../store/write/writer.ts";
import type { TrfFile } from "./parse.ts";
import { announcedRounds } from "./to-tournament.ts";

/** The import's human text about rounds and following, in one place. */
export const FOLLOW_TEXT = {
  noTotal: (file: string) =>
    `${file} announces no number of rounds (no XXR record) and --rounds was not given: the ` +
    "tournament is never shown Complete before its end date (record 052) is past, and never " +
    "when the file has none; pass --rounds N (the rounds the event will have)",
  conflict: (xxr: number, given: number) =>
    `the file announces ${xxr} rounds (XXR) and --rounds says ${given}`,
  conflictFix: "leave --rounds out (the file's XXR is used) or correct the file",
  tooFew: (given: number, played: number) =>
    `--rounds ${given} is fewer than the rounds the file already holds (${played})`,
  tooFewFix: "pass the number of rounds the event will have in all",
} as const;

function refuse(what: string, fix: string): never {
  throw new BuildError("Cannot import the TRF file.", [{ what, where: "--rounds", fix }], EXIT.usage);
}

/** `--rounds` checked against the file: it may not contradict XXR nor be below the rounds held. */
export function checkGivenRounds(f: TrfFile, given: number | undefined): void {
  if (given === undefined) return;
  const xxr = announcedRounds(f);
  if (xxr !== null && xxr !== given) refuse(FOLLOW_TEXT.conflict(xxr, given), FOLLOW_TEXT.conflictFix);
  if (given < f.roundColumns) refuse(FOLLOW_TEXT.tooFew(given, f.roundColumns), FOLLOW_TEXT.tooFewFix);
}

/** The tracking columns of a followed tournament read at `now`: the next import is expected one
 * interval later (the status is UpdateDelayed when it is overdue by more than the grace period). */
export function followRow(now: string, intervalSeconds: number): StoreRow<"tournaments"> {
  return {
    tracking_enabled: 1,
    refresh_interval_seconds: intervalSeconds,
    next_refresh_at: new Date(Date.parse(now) + intervalSeconds * 1000).toISOString(),
  };
}

/**
 * After a re-import: `--follow` (minutes) starts following or changes the interval; without it a
 * followed tournament stays followed, its next refresh one stored interval after this import.
 */
export function keepFollowing(
  w: StoreWriter,
  id: number | bigint,
  now: string,
  followMinutes: number | undefined,
): void {
  if (followMinutes !== undefined) {
    w.update("tournaments", { tournament_id: id }, followRow(now, followMinutes * 60));
    return;
  }
  const [stored] = w.select("tournaments", ["tracking_enabled", "refresh_interval_seconds"], {
    tournament_id: id,
  });
  const interval = stored?.["refresh_interval_seconds"];
  if (Number(stored?.["tracking_enabled"]) !== 1 || interval === null || interval === undefined) return;
  w.update("tournaments", { tournament_id: id }, followRow(now, Number(interval)));
}

/** Whether the stored tournament `id` has a number of rounds (a re-import keeps it). */
export function storedTotalRounds(w: StoreWriter, id: number | bigint): boolean {
  const [stored] = w.select("tournaments", ["total_rounds"], { tournament_id: id });
  return stored?.["total_rounds"] !== null && stored?.["total_rounds"] !== undefined;
}
