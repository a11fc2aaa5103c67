import { describe, expect, it } from "vitest";
import { DEFAULT_STATUS_OPTIONS } from "../../../src/domain/status.ts";
import {
  DEFAULT_SCORING,
  type Game,
  type PublishedTournament,
  type Tournament,
} from "../../../src/domain/types.ts";
import {
  compareCatalogEntries,
  liveRound,
  tournamentSummary,
  type CatalogEntry,
} from "../../../src/views/club.ts";
import { tournamentContext } from "../../../src/views/context.ts";
import {
  comparePublicSummaries,
  publicRecaps,
  publicRound,
  publicSummary,
} from "../../../src/views/public.ts";
import { NO_METADATA } from "../../support/tournament.ts";

const NOW = Date.parse("2026-11-22T12:00:00Z");
const T0 = "2026-11-22T10:00:00Z";

function game(board: number, white: number | null, black: number | null, result: Game["result"]): Game {
  return {
    boardNumber: board,
    whitePlayerNumber: white,
    blackPlayerNumber: black,
    result,
    resultText: result,
    rawResult: null,
    byeKind: result === "Bye" ? "pab" : null,
    provisionalPoints: null,
    firstSeenAt: T0,
    lastSeenAt: T0,
    resultChangedAt: null,
  };
}

function tournament(patch: Partial<Tournament> = {}): Tournament {
  const player = (n: number) => ({
    sourcePlayerNumber: n,
    startingRank: n,
    fideId: null,
    name: `Player ${n}`,
    title: null,
    rating: 2000 - n,
    nationalRating: null,
    federation: "ESP",
    club: "Club",
    gender: null,
    type: null,
    group: null,
  });
  return {
    externalId: 42n,
    sourceUrl: "https://example.org/42",
    name: "Open",
    ...NO_METADATA,
    startDate: "2026-11-20",
    endDate: "2026-11-24",
    totalRounds: 5,
    trackingEnabled: true,
    refreshIntervalSeconds: 300,
    nextRefreshAt: "2026-11-22T12:05:00Z",
    createdAt: T0,
    lastScrapedAt: T0,
    lastSourceChangeAt: T0,
    system: "swiss",
    tiebreaks: ["BH"],
    tiebreakRules: "fide-2023",
    tiebreakPractice: null,
    scoring: DEFAULT_SCORING,
    players: [1, 2, 3, 4, 5, 6].map(player),
    schedule: [],
    rounds: [
      {
        roundNumber: 1,
        firstScrapedAt: T0,
        lastScrapedAt: T0,
        lastSourceChangeAt: T0,
        games: [game(1, 1, 2, "WhiteWin"), game(2, 3, 4, "Draw"), game(3, 5, null, "Bye")],
      },
      {
        roundNumber: 2,
        firstScrapedAt: T0,
        lastScrapedAt: T0,
        lastSourceChangeAt: T0,
        games: [game(1, 1, 3, "Pending"), game(2, 2, 5, "BlackForfeitWin")],
      },
      // Scraped, but without pairings yet: not the current round.
      { roundNumber: 3, firstScrapedAt: T0, lastScrapedAt: T0, lastSourceChangeAt: null, games: [] },
    ],
    sourceStandings: [],
    recaps: [
      { language: "es", kind: "Final", round: null, headline: "Final", preview: null, paragraphs: [] },
      { language: "es", kind: "Round", round: 2, headline: "R2", preview: null, paragraphs: ["p"] },
      { language: "en", kind: "Round", round: 1, headline: "R1 en", preview: null, paragraphs: [] },
      { language: "es", kind: "Round", round: 1, headline: "R1", preview: null, paragraphs: [] },
      { language: "es", kind: "Preview", round: null, headline: "Preview", preview: "soon", paragraphs: [] },
    ],
    ...patch,
  };
}

const published = (t: Tournament): PublishedTournament => ({
  tournament: t,
  globalTags: ["rapid"],
  clubs: [],
});
const ctx = (t = tournament()) => tournamentContext(published(t), NOW, DEFAULT_STATUS_OPTIONS);

describe("round views", () => {
  it("the current round is the newest with pairings, and the live view is that round", () => {
    const c = ctx();
    expect(tournamentSummary(c).currentRound).toBe(2);
    expect(liveRound(c, c.liveRound!).roundNumber).toBe(2);
    expect(c.status).toBe("Live");
  });

  it("lists players in no game of the round as unpaired, and marks bye rows", () => {
    const c = ctx();
    const r1 = publicRound(c, c.t.rounds[0]!);
    expect(r1.unpairedPlayers.map((p) => p.sourcePlayerNumber)).toEqual([6]);
    expect(r1.games.map((g) => g.isBye)).toEqual([false, false, true]);
    expect(r1.games[2]!.black).toBeNull();
    const r2 = publicRound(c, c.t.rounds[1]!);
    expect(r2.unpairedPlayers.map((p) => p.sourcePlayerNumber)).toEqual([4, 6]);
    expect(r2.isComplete).toBe(false);
    expect(r2.games[0]!.white).toEqual({
      sourcePlayerNumber: 1,
      name: "Player 1",
      rating: 1999,
      title: null,
      federation: "ESP",
      club: "Club",
    });
  });

  it("resolves live players from the directory", () => {
    const c = ctx();
    const live = liveRound(c, c.liveRound!);
    expect(live.games[1]!.black).toEqual({
      sourcePlayerNumber: 5,
      name: "Player 5",
      rating: 1995,
      title: null,
      federation: "ESP",
    });
  });
});

describe("recaps", () => {
  it("filter by language and order Preview, rounds ascending, Final", () => {
    const c = ctx();
    expect(publicRecaps(c, "es").items.map((r) => r.headline)).toEqual(["Preview", "R1", "R2", "Final"]);
    expect(publicRecaps(c, "en").items.map((r) => r.headline)).toEqual(["R1 en"]);
    expect(publicRecaps(c, "de")).toEqual({ tournamentId: 42, language: "de", items: [] });
  });
});

describe("list order", () => {
  const entry = (id: number, displayOrder: number, startDate: string | null): CatalogEntry => ({
    tournament: { ...tournamentSummary(ctx()), tournamentId: id, startDate },
    tags: [],
    displayOrder,
  });

  it("catalog: displayOrder, then newest start date (unknown last), then id", () => {
    const entries = [
      entry(5, 2, "2026-01-01"),
      entry(4, 1, null),
      entry(3, 1, "2026-03-01"),
      entry(2, 1, "2026-05-01"),
      entry(1, 1, "2026-03-01"),
    ];
    expect(entries.sort(compareCatalogEntries).map((e) => e.tournament.tournamentId)).toEqual([
      2, 1, 3, 4, 5,
    ]);
  });

  it("global list: newest start date (unknown last), then name, then id (int64 strings included)", () => {
    const s = (id: number | string, name: string, startDate: string | null) => ({
      ...publicSummary(ctx(), []),
      id,
      name,
      startDate,
    });
    const list = [
      s(1, "B", "2026-01-01"),
      s("9007199254740993", "A", null),
      s(3, "A", "2026-01-01"),
      s(2, "A", "2026-01-01"),
      s(4, "Z", "2026-06-01"),
    ];
    expect(list.sort(comparePublicSummaries).map((x) => x.id)).toEqual([4, 2, 3, 1, "9007199254740993"]);
  });
});
