// Domain → extension responses (contracts/extensions.ts). The per-round tables, crosstable and
// cards of a tournament, and their views, are computed once per context and shared by the JSON
// routes (public and each club's), the pages and the feed: callers read the views, never change them.
import type { z } from "zod";
import type {
  CrosstableResponse,
  PlayerCard as PlayerCardSchema,
  PlayerCardsResponse,
  ProgressionResponse,
  RoundStandingsResponse,
  ScheduleResponse,
} from "../contracts/extensions.ts";
import type { PublicPlayerResponse } from "../contracts/public.ts";
import { toInt64 } from "../contracts/wire.ts";
import { crosstable, type Crosstable } from "../domain/extensions/crosstable.ts";
import { playerCards, type PlayerCard } from "../domain/extensions/player-card.ts";
import { scheduleOf } from "../domain/extensions/schedule.ts";
import {
  rankProgression,
  standingsAfterEachRound,
  type Progression,
  type RoundStandings,
} from "../domain/extensions/round-standings.ts";
import type { Player } from "../domain/types.ts";
import { perContext, type TournamentContext } from "./context.ts";

type Out<S extends z.ZodType> = z.output<S>;
export type RoundStandingsView = Out<typeof RoundStandingsResponse>;
export type ProgressionView = Out<typeof ProgressionResponse>;
export type CrosstableView = Out<typeof CrosstableResponse>;
export type PlayerCardView = Out<typeof PlayerCardSchema>;
export type PlayerCardsView = Out<typeof PlayerCardsResponse>;
export type ScheduleView = Out<typeof ScheduleResponse>;

interface Extras {
  tables: RoundStandings[];
  progression: Progression;
  crosstable: Crosstable;
  cards: PlayerCard[];
  /** The views, made on first use. */
  views: {
    rounds?: RoundStandingsView[];
    crosstable?: CrosstableView;
    cards?: PlayerCardsView;
    progression?: ProgressionView;
  };
}

const memo = new WeakMap<TournamentContext, Extras>();

function extras(c: TournamentContext): Extras {
  let e = memo.get(c);
  if (!e) {
    // The round entries up to the last paired round serve the tables and the cards alike.
    const entries = c.entries;
    const tables = standingsAfterEachRound(c.t, c.standings, entries);
    const progression = rankProgression(c.t, tables);
    e = {
      tables,
      progression,
      crosstable: crosstable(c.t, c.standings.rows, entries),
      cards: playerCards(c.t, progression, entries),
      views: {},
    };
    memo.set(c, e);
  }
  return e;
}

export function roundStandingsViews(c: TournamentContext): readonly RoundStandingsView[] {
  const e = extras(c);
  return (e.views.rounds ??= e.tables.map((s) => ({
    tournamentId: toInt64(c.t.externalId),
    afterRound: s.afterRound,
    lastScrapedAt: s.lastUpdatedAt,
    origin: s.origin,
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
  })));
}

export function progressionView(c: TournamentContext): ProgressionView {
  const e = extras(c);
  // One object for the public surface and every club: serialized and validated once.
  return (e.views.progression ??= progressionViewOf(c, e.progression));
}

function progressionViewOf(c: TournamentContext, p: Extras["progression"]): ProgressionView {
  return {
    tournamentId: toInt64(c.t.externalId),
    rounds: p.rounds,
    players: p.players.map((x) => ({
      sourcePlayerNumber: x.sourcePlayerNumber,
      name: x.name,
      ranks: x.ranks,
      points: x.points,
    })),
  };
}

export function crosstableView(c: TournamentContext): CrosstableView {
  const e = extras(c);
  return (e.views.crosstable ??= crosstableViewOf(c, e.crosstable));
}

function crosstableViewOf(c: TournamentContext, x: Crosstable): CrosstableView {
  return {
    tournamentId: toInt64(c.t.externalId),
    afterRound: c.standings.afterRound,
    rounds: x.rounds,
    rows: x.rows.map((r) => ({
      rank: r.rank,
      startingRank: r.player.startingRank,
      sourcePlayerNumber: r.player.sourcePlayerNumber,
      name: r.player.name,
      title: r.player.title,
      rating: r.player.rating,
      federation: r.player.federation,
      points: r.points,
      games: r.cells.map((g) => ({
        round: g.round,
        opponent: g.opponent,
        colour: g.colour,
        outcome: g.outcome,
        points: g.points,
      })),
    })),
    startingOrder: x.startingOrder,
  };
}

function playerView(p: Player): Out<typeof PublicPlayerResponse> {
  return {
    sourcePlayerNumber: p.sourcePlayerNumber,
    name: p.name,
    rating: p.rating,
    title: p.title,
    federation: p.federation,
    club: p.club,
  };
}

export function playerCardViews(c: TournamentContext): PlayerCardView[] {
  return extras(c).cards.map(({ player: p, rounds, rating }) => ({
    sourcePlayerNumber: p.sourcePlayerNumber,
    startingRank: p.startingRank,
    fideId: p.fideId === null ? null : toInt64(p.fideId),
    name: p.name,
    title: p.title,
    rating: p.rating,
    federation: p.federation,
    club: p.club,
    rounds: rounds.map((r) => ({
      round: r.round,
      board: r.board,
      colour: r.colour,
      opponent: r.opponentPlayer && playerView(r.opponentPlayer),
      outcome: r.outcome,
      result: r.game?.result ?? null,
      resultText: r.game?.resultText ?? null,
      points: r.points,
      scoreAfter: r.scoreAfter,
      rankAfter: r.rankAfter,
    })),
    ratingFigures: { ...rating },
  }));
}

/** Every card of the tournament, in one response (sorted by source player number). */
export function playerCardsView(c: TournamentContext): PlayerCardsView {
  const e = extras(c);
  return (e.views.cards ??= {
    tournamentId: toInt64(c.t.externalId),
    players: playerCardViews(c).sort((a, b) => a.sourcePlayerNumber - b.sourcePlayerNumber),
  });
}

/**
 * `calendar`: the URL path of the tournament's iCalendar file (routes/urls.ts), or null. One object
 * per calendar path: without a calendar, the public surface and every club share it.
 */
export const scheduleView = perContext(scheduleViewOf);

function scheduleViewOf(c: TournamentContext, calendar: string | null): ScheduleView {
  return {
    tournamentId: toInt64(c.t.externalId),
    totalRounds: c.t.totalRounds,
    rounds: scheduleOf(c.t),
    calendarPath: calendar,
  };
}
