// Domain → global surface responses (spec §2.2).
import type { z } from "zod";
import { isRoundComplete } from "../domain/status.ts";
import type { Recap, Round } from "../domain/types.ts";
import type {
  PublicPlayerResponse,
  PublicRecapsResponse,
  PublicRoundResponse,
  PublicStandingsResponse,
  PublicTournamentDetailResponse,
  PublicTournamentSummaryResponse,
} from "../contracts/public.ts";
import { toInt64 } from "../contracts/wire.ts";
import { compareInt64, compareStartDateDesc } from "./club.ts";
import { perContext, playerOf, type TournamentContext } from "./context.ts";

type Out<S extends z.ZodType> = z.output<S>;
export type PublicSummary = Out<typeof PublicTournamentSummaryResponse>;

export function publicSummary(c: TournamentContext, tags: string[]): PublicSummary {
  const t = c.t;
  return {
    id: toInt64(t.externalId),
    name: t.name,
    location: t.location,
    startDate: t.startDate,
    endDate: t.endDate,
    status: c.status,
    currentRound: c.liveRound?.roundNumber ?? null,
    totalRounds: t.totalRounds,
    playerCount: t.players.length,
    lastScrapedAt: t.lastScrapedAt,
    lastSourceChangeAt: t.lastSourceChangeAt,
    tags,
  };
}

/** List order: newest start date first (unknown last), then name, then id. */
export function comparePublicSummaries(a: PublicSummary, b: PublicSummary): number {
  return (
    compareStartDateDesc(a.startDate, b.startDate) ||
    (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) ||
    compareInt64(a.id, b.id)
  );
}

export function publicDetail(
  c: TournamentContext,
  tags: string[],
): Out<typeof PublicTournamentDetailResponse> {
  return {
    ...publicSummary(c, tags),
    sourceUrl: c.t.sourceUrl,
    availableRounds: c.pairedRounds.map((r) => r.roundNumber),
  };
}

export function publicStandings(c: TournamentContext): Out<typeof PublicStandingsResponse> {
  const s = c.standings;
  return {
    tournamentId: toInt64(c.t.externalId),
    afterRound: s.afterRound,
    lastScrapedAt: s.lastUpdatedAt,
    tieBreakLabels: s.tieBreakLabels,
    rows: s.rows.map((r) => ({
      rank: r.rank,
      sourcePlayerNumber: r.sourcePlayerNumber,
      name: r.name,
      title: r.title,
      rating: r.internationalRating,
      club: r.club,
      points: r.points,
      tieBreakValues: r.tieBreakValues,
    })),
  };
}

/** Each round's view, made once: the live round's answer is its round's, the same object. */
export const publicRound = perContext(publicRoundOf);

function publicRoundOf(c: TournamentContext, r: Round): Out<typeof PublicRoundResponse> {
  const player = (n: number | null): Out<typeof PublicPlayerResponse> | null => {
    const p = playerOf(c, n);
    return (
      p && {
        sourcePlayerNumber: p.sourcePlayerNumber,
        name: p.name,
        rating: p.rating,
        title: p.title,
        federation: p.federation,
        club: p.club,
      }
    );
  };
  const paired = new Set<number>();
  for (const g of r.games) {
    if (g.whitePlayerNumber !== null) paired.add(g.whitePlayerNumber);
    if (g.blackPlayerNumber !== null) paired.add(g.blackPlayerNumber);
  }
  return {
    tournamentId: toInt64(c.t.externalId),
    roundNumber: r.roundNumber,
    isComplete: isRoundComplete(r),
    lastScrapedAt: r.lastScrapedAt,
    lastSourceChangeAt: r.lastSourceChangeAt,
    games: r.games.map((g) => ({
      board: g.boardNumber,
      white: player(g.whitePlayerNumber),
      black: player(g.blackPlayerNumber),
      result: g.result,
      resultText: g.resultText,
      isBye: g.result === "Bye",
      resultChangedAt: g.resultChangedAt,
    })),
    unpairedPlayers: c.t.players
      .filter((p) => !paired.has(p.sourcePlayerNumber))
      .map((p) => ({ sourcePlayerNumber: p.sourcePlayerNumber, name: p.name })),
  };
}

const KIND_ORDER: Record<Recap["kind"], number> = { Preview: 0, Round: 1, Final: 2 };

/** Recaps in one language: previews first, then rounds ascending, then the final report. */
export function publicRecaps(c: TournamentContext, language: string): Out<typeof PublicRecapsResponse> {
  const items = c.t.recaps
    .map((r, i) => ({ r, i }))
    .filter(({ r }) => r.language === language)
    .sort(
      (a, b) =>
        KIND_ORDER[a.r.kind] - KIND_ORDER[b.r.kind] || (a.r.round ?? 0) - (b.r.round ?? 0) || a.i - b.i,
    )
    .map(({ r }) => ({
      kind: r.kind,
      round: r.round,
      headline: r.headline,
      preview: r.preview,
      paragraphs: r.paragraphs,
    }));
  return { tournamentId: toInt64(c.t.externalId), language, items };
}
