// Extensions beyond the spec's eleven endpoints (issue 22): standings after each round, rank
// progression, crosstable and player cards. Same wire conventions as the spec's responses; every
// id here is marked as an extension in the OpenAPI document (x-extension, tag "Extensions").
import { z } from "zod";
import { PublicPlayerResponse, PublicStandingRowResponse } from "./public.ts";
import { contracts, date, dateTime, double, gameResult, int32, int64 } from "./wire.ts";

/** How a round went for one player, seen from their side (domain/scoring.ts RoundOutcome). */
export const roundOutcome = z.enum([
  "win",
  "draw",
  "loss",
  "forfeitWin",
  "forfeitLoss",
  "pab",
  "fullBye",
  "halfBye",
  "zeroBye",
  "absent",
  "pending",
]);

export const colour = z.enum(["white", "black"]);

export const RoundStandingsResponse = z
  .strictObject({
    tournamentId: int64,
    afterRound: int32,
    lastScrapedAt: dateTime,
    origin: z.enum(["source", "computed"]),
    tieBreakLabels: z.array(z.string()),
    rows: z.array(PublicStandingRowResponse),
  })
  .register(contracts, {
    id: "RoundStandingsResponse",
    description:
      "Extension: standings after one complete round; the source's table when the store has it " +
      "(origin source), else computed from the games of rounds 1..afterRound.",
  });

export const ProgressionPlayer = z
  .strictObject({
    sourcePlayerNumber: int32,
    name: z.string(),
    ranks: z.array(int32.nullable()),
    points: z.array(double.nullable()),
  })
  .register(contracts, {
    id: "ProgressionPlayer",
    description: "Extension: a player's rank and points after each round of `rounds` (null: not listed).",
  });

export const ProgressionResponse = z
  .strictObject({
    tournamentId: int64,
    rounds: z.array(int32),
    players: z.array(ProgressionPlayer),
  })
  .register(contracts, {
    id: "ProgressionResponse",
    description: "Extension: every player's rank after each complete round, by player number.",
  });

export const CrosstableCell = z
  .strictObject({
    round: int32,
    opponent: int32.nullable(),
    colour: colour.nullable(),
    outcome: roundOutcome,
    points: double.nullable(),
  })
  .register(contracts, {
    id: "CrosstableCell",
    description: "Extension: one round of a crosstable row; points is null while the game is not final.",
  });

export const CrosstableRow = z
  .strictObject({
    rank: int32.nullable(),
    startingRank: int32.nullable(),
    sourcePlayerNumber: int32,
    name: z.string(),
    title: z.string().nullable(),
    rating: int32.nullable(),
    federation: z.string().nullable(),
    points: double.nullable(),
    games: z.array(CrosstableCell),
  })
  .register(contracts, { id: "CrosstableRow", description: "Extension: one player of a crosstable." });

export const CrosstableResponse = z
  .strictObject({
    tournamentId: int64,
    afterRound: int32.nullable(),
    rounds: z.array(int32),
    rows: z.array(CrosstableRow),
    startingOrder: z.array(int32),
  })
  .register(contracts, {
    id: "CrosstableResponse",
    description:
      "Extension: every player's games by round. Rows by rank (rank and points of the current " +
      "standings, after round afterRound); startingOrder lists player numbers by starting rank.",
  });

export const PlayerCardRound = z
  .strictObject({
    round: int32,
    board: int32.nullable(),
    colour: colour.nullable(),
    opponent: PublicPlayerResponse.nullable(),
    outcome: roundOutcome,
    result: gameResult.nullable(),
    resultText: z.string().nullable(),
    points: double.nullable(),
    scoreAfter: double.nullable(),
    rankAfter: int32.nullable(),
  })
  .register(contracts, {
    id: "PlayerCardRound",
    description:
      "Extension: one round of a player card. scoreAfter is null from the first result that is " +
      "not final on; rankAfter is null for a round that is not complete.",
  });

export const PlayerRatingSummary = z
  .strictObject({
    ratedGames: int32,
    ratedScore: double,
    averageOpponentRating: int32.nullable(),
    performanceRating: int32.nullable(),
    expectedScore: double.nullable(),
    kFactor: int32.nullable(),
    ratingChange: double.nullable(),
  })
  .register(contracts, {
    id: "PlayerRatingSummary",
    description:
      "Extension: FIDE rating figures (B.02) over games played over the board against rated " +
      "opponents. kFactor and ratingChange are null where the store does not decide K.",
  });

export const PlayerCard = z
  .strictObject({
    sourcePlayerNumber: int32,
    startingRank: int32.nullable(),
    fideId: int64.nullable(),
    name: z.string(),
    title: z.string().nullable(),
    rating: int32.nullable(),
    federation: z.string().nullable(),
    club: z.string().nullable(),
    rounds: z.array(PlayerCardRound),
    ratingFigures: PlayerRatingSummary,
  })
  .register(contracts, {
    id: "PlayerCard",
    description: "Extension: one player's games round by round, running score, ranks and rating figures.",
  });

export const PlayerCardsResponse = z
  .strictObject({
    tournamentId: int64,
    players: z.array(PlayerCard),
  })
  .register(contracts, {
    id: "PlayerCardsResponse",
    description:
      "Extension: every player's card, by source player number. One file per tournament, not one " +
      "per player: at the scale of a mirror, a file per player multiplies the snapshot's files.",
  });

export const ScheduledRoundResponse = z
  .strictObject({
    roundNumber: int32,
    date: z.iso.date().nullable(),
    time: z
      .string()
      .regex(/^([01][0-9]|2[0-3]):[0-5][0-9]$/)
      .nullable(),
    paired: z.boolean(),
  })
  .register(contracts, {
    id: "ScheduledRoundResponse",
    description:
      "Extension: when a round is scheduled to start, in the venue's local date and time (no " +
      "time zone); null when not announced. paired: the round has published pairings.",
  });

export const ScheduleResponse = z
  .strictObject({
    tournamentId: int64,
    totalRounds: int32.nullable(),
    rounds: z.array(ScheduledRoundResponse),
    calendarPath: z.string().nullable(),
  })
  .register(contracts, {
    id: "ScheduleResponse",
    description:
      "Extension: the announced round schedule, by round number; calendarPath is the " +
      "tournament's iCalendar file when at least one round has a date.",
  });

/** One published tournament of a player known by FIDE ID (issue 47). */
export const FidePlayerTournament = z
  .strictObject({
    tournamentId: int64,
    name: z.string(),
    startDate: date.nullable(),
    endDate: date.nullable(),
    sourcePlayerNumber: int32,
    rating: int32.nullable(),
    points: double.nullable(),
    rank: int32.nullable(),
    performanceRating: int32.nullable(),
    ratingChange: double.nullable(),
    tournamentPath: z.string(),
    playerCardsPath: z.string(),
  })
  .register(contracts, {
    id: "FidePlayerTournament",
    description:
      "Extension: one globally published tournament a player played, with their score and rank in " +
      "its current standings and their rating figures; the paths name the tournament's resources.",
  });

export const FidePlayerResponse = z
  .strictObject({
    fideId: int64,
    name: z.string(),
    federation: z.string().nullable(),
    title: z.string().nullable(),
    tournaments: z.array(FidePlayerTournament),
    feedPath: z.string(),
    calendarPath: z.string(),
  })
  .register(contracts, {
    id: "FidePlayerResponse",
    description:
      "Extension: a player across every globally published tournament, keyed by FIDE ID. Name, " +
      "federation and title as the most recent tournament published them; tournaments newest first.",
  });
