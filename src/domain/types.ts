// The domain's input: what the store layer hands over after it has checked every row.
// Plain data, no I/O. Timestamps are ISO 8601 strings in UTC ("2026-11-22T12:00:00Z"),
// dates are "YYYY-MM-DD". Identifiers that are int64 in the contract are bigint here so that
// values beyond 2^53 survive; int32 values are numbers.

import type { TeamEvent } from "./teams/types.ts";

export const GAME_RESULTS = [
  "Pending",
  "WhiteWin",
  "Draw",
  "BlackWin",
  "Bye",
  "WhiteForfeitWin",
  "BlackForfeitWin",
  "DoubleForfeit",
  "Unplayed",
  "Adjourned",
  "Unknown",
] as const;
export type GameResult = (typeof GAME_RESULTS)[number];

export const TOURNAMENT_STATUSES = [
  "Imported",
  "Upcoming",
  "Live",
  "ResultsPending",
  "AwaitingNextRound",
  "UpdateDelayed",
  "Complete",
] as const;
export type TournamentStatus = (typeof TOURNAMENT_STATUSES)[number];

/** How a bye row scores. `pab` is the pairing-allocated bye (TRF `U`), `full` a requested
 * full-point bye (`F`), `half` a half-point bye (`H`), `zero` a zero-point bye (`Z`). */
export const BYE_KINDS = ["pab", "full", "half", "zero"] as const;
export type ByeKind = (typeof BYE_KINDS)[number];

export const TIEBREAK_RULE_SETS = ["fide-2023", "fide-2026", "pre-2023"] as const;
export type TiebreakRuleSet = (typeof TIEBREAK_RULE_SETS)[number];

/**
 * Where a program's published standings depart from the written rule set, the practice says which
 * program's to follow (see docs/design/tiebreaks.md): null follows the written rules.
 */
export const TIEBREAK_PRACTICES = [
  "swiss-manager",
  "vega",
  "vega-de-score",
  "vega-sb-bye-zero",
  "chessmanager",
] as const;
export type TiebreakPractice = (typeof TIEBREAK_PRACTICES)[number];

/** Vega's practice, whichever reading of its DE column (`vega`: the position in the tied group;
 * `vega-de-score`: the points among the tied players, as Vega prints it in some events) and of its
 * SB (`vega-sb-bye-zero`: a one-point bye adds nothing to SB, as in some Vega events). */
export function followsVega(p: TiebreakPractice | null): boolean {
  return p === "vega" || p === "vega-de-score" || p === "vega-sb-bye-zero";
}

/** Vega's DE printed as the position inside the tied group (every Vega reading but `vega-de-score`). */
export function printsDeAsPosition(p: TiebreakPractice | null): boolean {
  return p === "vega" || p === "vega-sb-bye-zero";
}

export const PAIRING_SYSTEMS = ["swiss", "round-robin"] as const;
export type PairingSystem = (typeof PAIRING_SYSTEMS)[number];

export const RECAP_KINDS = ["Preview", "Round", "Final"] as const;
export type RecapKind = (typeof RECAP_KINDS)[number];

/** Points awarded per outcome. Defaults: 1 / ½ / 0, forfeit win 1, pairing-allocated bye 1. */
export interface Scoring {
  win: number;
  draw: number;
  loss: number;
  forfeitWin: number;
  forfeitLoss: number;
  pairingAllocatedBye: number;
  fullBye: number;
  halfBye: number;
  zeroBye: number;
}

export const DEFAULT_SCORING: Scoring = {
  win: 1,
  draw: 0.5,
  loss: 0,
  forfeitWin: 1,
  forfeitLoss: 0,
  pairingAllocatedBye: 1,
  fullBye: 1,
  halfBye: 0.5,
  zeroBye: 0,
};

export interface Player {
  sourcePlayerNumber: number;
  startingRank: number | null;
  fideId: bigint | null;
  name: string;
  title: string | null;
  rating: number | null;
  nationalRating: number | null;
  federation: string | null;
  club: string | null;
  gender: string | null;
  type: string | null;
  group: string | null;
}

export interface Game {
  boardNumber: number;
  whitePlayerNumber: number | null;
  blackPlayerNumber: number | null;
  result: GameResult;
  /** Display text for the result, e.g. "1 - 0", "½ - ½", "+ - -", "bye". */
  resultText: string;
  rawResult: string | null;
  /** Set when result is Bye: how the bye scores. */
  byeKind: ByeKind | null;
  provisionalPoints: number | null;
  firstSeenAt: string;
  lastSeenAt: string;
  resultChangedAt: string | null;
}

export interface Round {
  roundNumber: number;
  firstScrapedAt: string;
  lastScrapedAt: string;
  lastSourceChangeAt: string | null;
  /** Sorted by boardNumber. Empty when the source has no pairings for the round yet. */
  games: Game[];
}

/** When a round is scheduled to start: the venue's local date and time, as announced. */
export interface ScheduledRound {
  roundNumber: number;
  /** YYYY-MM-DD; null when not announced. */
  date: string | null;
  /** HH:MM (24 h); null when not announced. */
  time: string | null;
}

/** Standings as the source (e.g. Swiss-Manager via chess-results) printed them. */
export interface SourceStandings {
  afterRound: number;
  retrievedAt: string;
  tieBreakLabels: string[];
  rows: SourceStandingRow[];
}

export interface SourceStandingRow {
  rank: number;
  sourcePlayerNumber: number;
  name: string;
  title: string | null;
  internationalRating: number | null;
  nationalRating: number | null;
  gender: string | null;
  type: string | null;
  group: string | null;
  federation: string | null;
  club: string | null;
  points: number | null;
  tieBreakValues: string[];
}

export interface Recap {
  language: string;
  kind: RecapKind;
  round: number | null;
  headline: string;
  preview: string | null;
  paragraphs: string[];
}

export interface Tournament {
  externalId: bigint;
  sourceUrl: string;
  name: string;
  location: string | null;
  federation: string | null;
  organizer: string | null;
  tournamentDirector: string | null;
  chiefArbiter: string | null;
  deputyChiefArbiter: string | null;
  arbiters: string | null;
  timeControl: string | null;
  tournamentType: string | null;
  ratingCalculation: string | null;
  fideEventId: bigint | null;
  averageRating: number | null;
  averageAge: number | null;
  pairingProgram: string | null;
  sourceLastUpdated: string | null;
  sourceCreator: string | null;
  startDate: string | null;
  endDate: string | null;
  totalRounds: number | null;
  trackingEnabled: boolean;
  refreshIntervalSeconds: number | null;
  nextRefreshAt: string | null;
  createdAt: string;
  lastScrapedAt: string;
  lastSourceChangeAt: string | null;
  system: PairingSystem;
  /** FIDE C.07 acronyms in the order they break ties, e.g. ["DE", "BH-C1", "BH"]. */
  tiebreaks: string[];
  tiebreakRules: TiebreakRuleSet;
  /** The pairing program whose known practice the tie-breaks follow; null: the written rules. */
  tiebreakPractice: TiebreakPractice | null;
  scoring: Scoring;
  /** Sorted by sourcePlayerNumber. */
  players: Player[];
  /** Sorted by roundNumber. */
  rounds: Round[];
  /** Scheduled round starts, sorted by roundNumber (empty when none is announced). */
  schedule: ScheduledRound[];
  /** Sorted by afterRound. */
  sourceStandings: SourceStandings[];
  /** Published (non-draft) recaps only. */
  recaps: Recap[];
  /** A team event's teams, scoring and unplayed matches; absent or null: an individual event. */
  team?: TeamEvent | null;
}

/** A tournament with where it is published. Drafts never get this far. */
export interface PublishedTournament {
  tournament: Tournament;
  /** Tags on the global surface; null when the operator has not published it there. */
  globalTags: string[] | null;
  /** Club catalogs (enabled clubs only) that list the tournament. */
  clubs: { slug: string; tags: string[]; displayOrder: number }[];
}

export interface Club {
  clubId: string;
  slug: string;
  name: string;
  description: string | null;
  logoPath: string | null;
  websiteUrl: string | null;
  contactEmail: string | null;
  defaultLanguage: string | null;
  timeZone: string | null;
  brandColor: string | null;
}
