// Domain → club catalog surface responses (spec §2.1).
import type { z } from "zod";
import { isRoundComplete } from "../domain/status.ts";
import type { Club, Round } from "../domain/types.ts";
import type {
  ClubCatalogResponse,
  CurrentStandingsResponse,
  LivePlayer,
  LiveRoundResponse,
  RoundResponse,
  TournamentResponse,
  TournamentSummaryResponse,
} from "../contracts/club.ts";
import { toInt64 } from "../contracts/wire.ts";
import { playerOf, type TournamentContext } from "./context.ts";

type Out<S extends z.ZodType> = z.output<S>;

export function tournamentSummary(c: TournamentContext): Out<typeof TournamentSummaryResponse> {
  const t = c.t;
  return {
    tournamentId: toInt64(t.externalId),
    name: t.name,
    location: t.location,
    startDate: t.startDate,
    endDate: t.endDate,
    playerCount: t.players.length,
    currentRound: c.liveRound?.roundNumber ?? null,
    totalRounds: t.totalRounds,
    trackingEnabled: t.trackingEnabled,
    lastScrapedAt: t.lastScrapedAt,
    status: c.status,
  };
}

/** One catalog entry; the build sorts and filters them. */
export interface CatalogEntry {
  tournament: Out<typeof TournamentSummaryResponse>;
  tags: string[];
  displayOrder: number;
}

/** Catalog order: displayOrder ascending, then newest start date, then tournament id. */
export function compareCatalogEntries(a: CatalogEntry, b: CatalogEntry): number {
  return (
    a.displayOrder - b.displayOrder ||
    compareStartDateDesc(a.tournament.startDate, b.tournament.startDate) ||
    compareInt64(a.tournament.tournamentId, b.tournament.tournamentId)
  );
}

export function clubCatalog(club: Club, entries: CatalogEntry[]): Out<typeof ClubCatalogResponse> {
  return {
    clubId: club.clubId,
    slug: club.slug,
    name: club.name,
    tournaments: entries.map((e) => ({
      tournament: e.tournament,
      tags: e.tags,
      displayOrder: e.displayOrder,
    })),
    description: club.description,
    logoPath: club.logoPath,
    websiteUrl: club.websiteUrl,
    contactEmail: club.contactEmail,
    defaultLanguage: club.defaultLanguage,
    timeZone: club.timeZone,
    brandColor: club.brandColor,
  };
}

export function tournamentDetail(c: TournamentContext): Out<typeof TournamentResponse> {
  const t = c.t;
  return {
    externalId: toInt64(t.externalId),
    sourceUrl: t.sourceUrl,
    name: t.name,
    location: t.location,
    federation: t.federation,
    organizer: t.organizer,
    tournamentDirector: t.tournamentDirector,
    chiefArbiter: t.chiefArbiter,
    deputyChiefArbiter: t.deputyChiefArbiter,
    arbiters: t.arbiters,
    timeControl: t.timeControl,
    tournamentType: t.tournamentType,
    ratingCalculation: t.ratingCalculation,
    fideEventId: t.fideEventId === null ? null : toInt64(t.fideEventId),
    averageRating: t.averageRating,
    averageAge: t.averageAge,
    pairingProgram: t.pairingProgram,
    sourceLastUpdated: t.sourceLastUpdated,
    sourceCreator: t.sourceCreator,
    startDate: t.startDate,
    endDate: t.endDate,
    totalRounds: t.totalRounds,
    currentRound: c.liveRound?.roundNumber ?? null,
    trackingEnabled: t.trackingEnabled,
    refreshIntervalSeconds: t.refreshIntervalSeconds,
    nextRefreshAt: t.nextRefreshAt,
    createdAt: t.createdAt,
    lastScrapedAt: t.lastScrapedAt,
    lastSourceChangeAt: t.lastSourceChangeAt,
    players: t.players.map((p) => ({
      sourcePlayerNumber: p.sourcePlayerNumber,
      startingRank: p.startingRank,
      fideId: p.fideId === null ? null : toInt64(p.fideId),
      name: p.name,
      title: p.title,
      rating: p.rating,
      federation: p.federation,
      club: p.club,
    })),
  };
}

export function currentStandings(c: TournamentContext): Out<typeof CurrentStandingsResponse> {
  const s = c.standings;
  return {
    tournamentId: toInt64(c.t.externalId),
    tournamentName: c.t.name,
    afterRound: s.afterRound,
    lastUpdatedAt: s.lastUpdatedAt,
    tieBreakLabels: s.tieBreakLabels,
    rows: s.rows.map((r) => ({
      rank: r.rank,
      sourcePlayerNumber: r.sourcePlayerNumber,
      name: r.name,
      title: r.title,
      internationalRating: r.internationalRating,
      nationalRating: r.nationalRating,
      gender: r.gender,
      type: r.type,
      group: r.group,
      federation: r.federation,
      club: r.club,
      points: r.points,
      tieBreakValues: r.tieBreakValues,
    })),
  };
}

export function round(r: Round): Out<typeof RoundResponse> {
  return {
    roundNumber: r.roundNumber,
    firstScrapedAt: r.firstScrapedAt,
    lastScrapedAt: r.lastScrapedAt,
    lastSourceChangeAt: r.lastSourceChangeAt,
    isComplete: isRoundComplete(r),
    games: r.games.map((g) => ({
      boardNumber: g.boardNumber,
      whitePlayerNumber: g.whitePlayerNumber,
      blackPlayerNumber: g.blackPlayerNumber,
      result: g.result,
      rawResult: g.rawResult,
      provisionalPoints: g.provisionalPoints,
      firstSeenAt: g.firstSeenAt,
      lastSeenAt: g.lastSeenAt,
      resultChangedAt: g.resultChangedAt,
    })),
  };
}

export function liveRound(c: TournamentContext, r: Round): Out<typeof LiveRoundResponse> {
  const player = (n: number | null): Out<typeof LivePlayer> | null => {
    const p = playerOf(c, n);
    return (
      p && {
        sourcePlayerNumber: p.sourcePlayerNumber,
        name: p.name,
        rating: p.rating,
        title: p.title,
        federation: p.federation,
      }
    );
  };
  return {
    tournamentId: toInt64(c.t.externalId),
    tournamentName: c.t.name,
    roundNumber: r.roundNumber,
    totalRounds: c.t.totalRounds,
    lastUpdatedAt: r.lastScrapedAt,
    isComplete: isRoundComplete(r),
    games: r.games.map((g) => ({
      boardNumber: g.boardNumber,
      white: player(g.whitePlayerNumber),
      black: player(g.blackPlayerNumber),
      result: g.result,
      resultText: g.resultText,
      resultChangedAt: g.resultChangedAt,
    })),
    status: c.status,
  };
}

/** Newest start date first; unknown start dates last. */
export function compareStartDateDesc(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a < b ? 1 : -1;
}

export function compareInt64(a: number | string, b: number | string): number {
  const x = BigInt(a);
  const y = BigInt(b);
  return x < y ? -1 : x > y ? 1 : 0;
}
