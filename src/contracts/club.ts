// Club catalog surface: /api/clubs/{slug}/... (spec §2.1).
import { z } from "zod";
import { contracts, date, dateTime, double, gameResult, int32, int64, tournamentStatus } from "./wire.ts";

export const TournamentSummaryResponse = z
  .strictObject({
    tournamentId: int64,
    name: z.string(),
    location: z.string().nullable(),
    startDate: date.nullable(),
    endDate: date.nullable(),
    playerCount: int32,
    currentRound: int32.nullable(),
    totalRounds: int32.nullable(),
    trackingEnabled: z.boolean(),
    lastScrapedAt: dateTime,
    status: tournamentStatus,
  })
  .register(contracts, {
    id: "TournamentSummaryResponse",
    description: "A lightweight tournament value for collection views.",
  });

export const ClubTournamentSummaryResponse = z
  .strictObject({
    tournament: TournamentSummaryResponse,
    tags: z.array(z.string()),
    displayOrder: int32,
  })
  .register(contracts, {
    id: "ClubTournamentSummaryResponse",
    description: "A tournament in a club's catalog, with the club's tags and display order (ascending).",
  });

export const ClubCatalogResponse = z
  .strictObject({
    clubId: z.uuid(),
    slug: z.string(),
    name: z.string(),
    tournaments: z.array(ClubTournamentSummaryResponse),
    description: z.string().nullable(),
    logoPath: z.string().nullable(),
    websiteUrl: z.string().nullable(),
    contactEmail: z.string().nullable(),
    defaultLanguage: z.string().nullable(),
    timeZone: z.string().nullable(),
    brandColor: z.string().nullable(),
  })
  .register(contracts, {
    id: "ClubCatalogResponse",
    description: "An enabled club and the tournaments it publishes.",
  });

export const PlayerResponse = z
  .strictObject({
    sourcePlayerNumber: int32,
    startingRank: int32.nullable(),
    fideId: int64.nullable(),
    name: z.string(),
    title: z.string().nullable(),
    rating: int32.nullable(),
    federation: z.string().nullable(),
    club: z.string().nullable(),
  })
  .register(contracts, {
    id: "PlayerResponse",
    description: "A player of the tournament-local directory, identified by source player number.",
  });

export const TournamentResponse = z
  .strictObject({
    externalId: int64,
    sourceUrl: z.string(),
    name: z.string(),
    location: z.string().nullable(),
    federation: z.string().nullable(),
    organizer: z.string().nullable(),
    tournamentDirector: z.string().nullable(),
    chiefArbiter: z.string().nullable(),
    deputyChiefArbiter: z.string().nullable(),
    arbiters: z.string().nullable(),
    timeControl: z.string().nullable(),
    tournamentType: z.string().nullable(),
    ratingCalculation: z.string().nullable(),
    fideEventId: int64.nullable(),
    averageRating: int32.nullable(),
    averageAge: int32.nullable(),
    pairingProgram: z.string().nullable(),
    sourceLastUpdated: z.string().nullable(),
    sourceCreator: z.string().nullable(),
    startDate: date.nullable(),
    endDate: date.nullable(),
    totalRounds: int32.nullable(),
    currentRound: int32.nullable(),
    trackingEnabled: z.boolean(),
    refreshIntervalSeconds: int32.nullable(),
    nextRefreshAt: dateTime.nullable(),
    createdAt: dateTime,
    lastScrapedAt: dateTime,
    lastSourceChangeAt: dateTime.nullable(),
    players: z.array(PlayerResponse),
  })
  .register(contracts, {
    id: "TournamentResponse",
    description: "A stored tournament with its tournament-local player directory.",
  });

export const StandingRowResponse = z
  .strictObject({
    rank: int32,
    sourcePlayerNumber: int32,
    name: z.string(),
    title: z.string().nullable(),
    internationalRating: int32.nullable(),
    nationalRating: int32.nullable(),
    gender: z.string().nullable(),
    type: z.string().nullable(),
    group: z.string().nullable(),
    federation: z.string().nullable(),
    club: z.string().nullable(),
    points: double.nullable(),
    tieBreakValues: z.array(z.string()),
  })
  .register(contracts, {
    id: "StandingRowResponse",
    description: "One standings row; tieBreakValues correspond to the response's tieBreakLabels.",
  });

export const CurrentStandingsResponse = z
  .strictObject({
    tournamentId: int64,
    tournamentName: z.string(),
    afterRound: int32.nullable(),
    lastUpdatedAt: dateTime,
    tieBreakLabels: z.array(z.string()),
    rows: z.array(StandingRowResponse),
  })
  .register(contracts, {
    id: "CurrentStandingsResponse",
    description: "Standings after the newest complete round (afterRound is null before any).",
  });

export const GameResponse = z
  .strictObject({
    boardNumber: int32,
    whitePlayerNumber: int32.nullable(),
    blackPlayerNumber: int32.nullable(),
    result: gameResult,
    rawResult: z.string().nullable(),
    provisionalPoints: double.nullable(),
    firstSeenAt: dateTime,
    lastSeenAt: dateTime,
    resultChangedAt: dateTime.nullable(),
  })
  .register(contracts, { id: "GameResponse", description: "A board pairing or an unpaired entry." });

export const RoundResponse = z
  .strictObject({
    roundNumber: int32,
    firstScrapedAt: dateTime,
    lastScrapedAt: dateTime,
    lastSourceChangeAt: dateTime.nullable(),
    isComplete: z.boolean(),
    games: z.array(GameResponse),
  })
  .register(contracts, { id: "RoundResponse", description: "A stored round and its games, by board." });

export const LivePlayer = z
  .strictObject({
    sourcePlayerNumber: int32,
    name: z.string(),
    rating: int32.nullable(),
    title: z.string().nullable(),
    federation: z.string().nullable(),
  })
  .register(contracts, { id: "LivePlayer", description: "A player's display values." });

export const LiveGameRow = z
  .strictObject({
    boardNumber: int32,
    white: LivePlayer.nullable(),
    black: LivePlayer.nullable(),
    result: gameResult,
    resultText: z.string(),
    resultChangedAt: dateTime.nullable(),
  })
  .register(contracts, { id: "LiveGameRow", description: "A board of the live round." });

export const LiveRoundResponse = z
  .strictObject({
    tournamentId: int64,
    tournamentName: z.string(),
    roundNumber: int32,
    totalRounds: int32.nullable(),
    lastUpdatedAt: dateTime,
    isComplete: z.boolean(),
    games: z.array(LiveGameRow),
    status: tournamentStatus,
  })
  .register(contracts, {
    id: "LiveRoundResponse",
    description: "The newest round with published pairings, player display values resolved.",
  });
