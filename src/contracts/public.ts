// Global surface: /api/public/v1/... (spec §2.2). The values of status, result and recap kind,
// which the spec does not show, are the TournamentStatus, GameResult and RecapKind enums.
import { z } from "zod";
import {
  contracts,
  date,
  dateTime,
  double,
  gameResult,
  int32,
  int64,
  recapKind,
  tournamentStatus,
} from "./wire.ts";

const summaryShape = {
  id: int64,
  name: z.string(),
  location: z.string().nullable(),
  startDate: date.nullable(),
  endDate: date.nullable(),
  status: tournamentStatus,
  currentRound: int32.nullable(),
  totalRounds: int32.nullable(),
  playerCount: int32,
  lastScrapedAt: dateTime,
  lastSourceChangeAt: dateTime.nullable(),
  tags: z.array(z.string()),
};

export const PublicTournamentSummaryResponse = z.strictObject(summaryShape).register(contracts, {
  id: "PublicTournamentSummaryResponse",
  description: "A tournament the operator has published.",
});

export const PublicTournamentList = z.array(PublicTournamentSummaryResponse).register(contracts, {
  id: "PublicTournamentList",
  description: "Published tournaments, newest start date first.",
});

export const PublicTournamentDetailResponse = z
  .strictObject({ ...summaryShape, sourceUrl: z.string(), availableRounds: z.array(int32) })
  .register(contracts, {
    id: "PublicTournamentDetailResponse",
    description: "A published tournament with its source URL and the rounds that have pairings.",
  });

export const PublicStandingRowResponse = z
  .strictObject({
    rank: int32,
    sourcePlayerNumber: int32,
    name: z.string(),
    title: z.string().nullable(),
    rating: int32.nullable(),
    club: z.string().nullable(),
    points: double.nullable(),
    tieBreakValues: z.array(z.string()),
  })
  .register(contracts, { id: "PublicStandingRowResponse", description: "One standings row." });

export const PublicStandingsResponse = z
  .strictObject({
    tournamentId: int64,
    afterRound: int32.nullable(),
    lastScrapedAt: dateTime,
    tieBreakLabels: z.array(z.string()),
    rows: z.array(PublicStandingRowResponse),
  })
  .register(contracts, {
    id: "PublicStandingsResponse",
    description: "Standings after the newest complete round (afterRound is null before any).",
  });

export const PublicPlayerResponse = z
  .strictObject({
    sourcePlayerNumber: int32,
    name: z.string(),
    rating: int32.nullable(),
    title: z.string().nullable(),
    federation: z.string().nullable(),
    club: z.string().nullable(),
  })
  .register(contracts, { id: "PublicPlayerResponse", description: "A player's display values." });

export const PublicGameResponse = z
  .strictObject({
    board: int32,
    white: PublicPlayerResponse.nullable(),
    black: PublicPlayerResponse.nullable(),
    result: gameResult,
    resultText: z.string(),
    isBye: z.boolean(),
    resultChangedAt: dateTime.nullable(),
  })
  .register(contracts, { id: "PublicGameResponse", description: "A board of the round." });

export const PublicUnpairedPlayerResponse = z
  .strictObject({ sourcePlayerNumber: int32, name: z.string() })
  .register(contracts, {
    id: "PublicUnpairedPlayerResponse",
    description: "A player of the tournament who is in no game of the round.",
  });

export const PublicRoundResponse = z
  .strictObject({
    tournamentId: int64,
    roundNumber: int32,
    isComplete: z.boolean(),
    lastScrapedAt: dateTime,
    lastSourceChangeAt: dateTime.nullable(),
    games: z.array(PublicGameResponse),
    unpairedPlayers: z.array(PublicUnpairedPlayerResponse),
  })
  .register(contracts, { id: "PublicRoundResponse", description: "A round with resolved players." });

export const PublicRecapResponse = z
  .strictObject({
    kind: recapKind,
    round: int32.nullable(),
    headline: z.string(),
    preview: z.string().nullable(),
    paragraphs: z.array(z.string()),
  })
  .register(contracts, { id: "PublicRecapResponse", description: "A stored recap." });

export const PublicRecapsResponse = z
  .strictObject({ tournamentId: int64, language: z.string(), items: z.array(PublicRecapResponse) })
  .register(contracts, {
    id: "PublicRecapsResponse",
    description: "The published recaps of a tournament in one language.",
  });
