// The Atom feed files: a tournament's (from its events and the extension views) and the
// snapshot's (each published tournament's newest event, from the list summaries).
import { feedEvents, type FeedEvent } from "../domain/extensions/feed.ts";
import { feedPath, SNAPSHOT_FEED_PATH } from "../routes/urls.ts";
import type { SiteUrls } from "./links.ts";
import type { Locale } from "../i18n/locale.ts";
import { roundStandingsViews } from "../views/extensions.ts";
import type { TournamentContext } from "../views/context.ts";
import { ascText, descText } from "../views/order.ts";
import type { PublicSummary } from "../views/public.ts";
import { atomFeed, eventTitle, stableId, type FeedEntry } from "./feeds.ts";
import { formatPoints } from "./format.ts";
import type { PageFile, Shared } from "./tournament.ts";

/** The entry id of a tournament's event: the same in its own feed and in the snapshot's. */
function entryId(id: string, key: string): string {
  return stableId(`tournament/${id}/${key}`);
}

function leader(l: Locale, c: TournamentContext, round: number): string {
  const table = roundStandingsViews(c).find((v) => v.afterRound === round);
  const top = table?.rows.filter((r) => r.rank === 1) ?? [];
  if (top.length === 0) return "";
  const leaders = top.map((r) => `${r.name} (${formatPoints(r.points)})`).join(", ");
  return ` ${l.t("feed.leading", { n: round, leaders })}`;
}

function entryOf(c: TournamentContext, s: Shared, e: FeedEvent): FeedEntry {
  const round = c.t.rounds.find((r) => r.roundNumber === e.round);
  const boards = round?.games.length ?? 0;
  const l = s.l;
  const base = { id: entryId(s.id, e.key), title: eventTitle(l, s.detail.name, e), updated: e.updated };
  switch (e.kind) {
    case "pairings":
      return {
        ...base,
        link: s.urls.page.round(s.id, e.round),
        summary: l.t("feed.pairingsSummary", { n: e.round, boards: l.plural("feed.boards", boards) }),
      };
    case "results":
      return {
        ...base,
        link: s.urls.page.roundStandings(s.id, e.round),
        summary: `${l.t("feed.resultsSummary", { n: e.round })}${leader(l, c, e.round)}`,
      };
    case "final":
      return {
        ...base,
        link: s.urls.page.standings(s.id),
        summary: `${l.t("feed.finalSummary", { n: e.round })}${leader(l, c, e.round)}`,
      };
  }
}

export function tournamentFeed(c: TournamentContext, s: Shared): PageFile {
  const path = feedPath(s.id);
  return [
    path.slice(1),
    atomFeed({
      l: s.l,
      id: stableId(`tournament/${s.id}`),
      title: s.detail.name,
      self: s.urls.feed(s.id),
      alternate: s.urls.page.tournament(s.id),
      fallbackUpdated: c.t.lastScrapedAt,
      entries: feedEvents(c.t).map((e) => entryOf(c, s, e)),
    }),
  ];
}

/** The newest event a summary tells of: the final standings of a complete tournament, else the
 * pairings of its newest round; none before any round is paired. */
function newestEvent(p: PublicSummary): { key: string; final: boolean } | null {
  if (p.currentRound === null) return null;
  if (p.status === "Complete") return { key: "final", final: true };
  return { key: `round-${p.currentRound}-pairings`, final: false };
}

/** The title and summary of a summary's newest event, in a language. */
function newestText(l: Locale, p: PublicSummary, final: boolean): { title: string; summary: string } {
  const n = p.currentRound!;
  if (final) return { title: l.t("feed.final", { name: p.name }), summary: l.t("feed.completeAfter", { n }) };
  return {
    title: l.t("feed.pairings", { name: p.name, n }),
    summary: p.totalRounds ? l.t("feed.pairedOf", { n, total: p.totalRounds }) : l.t("feed.paired", { n }),
  };
}

/** When a summary's newest event happened: its source's last change, else its retrieval. */
function eventInstant(p: PublicSummary): string {
  return p.lastSourceChangeAt ?? p.lastScrapedAt;
}

/**
 * A summary's place in the snapshot feed, as a sort key (views/order.ts): the newest event
 * first, then by entry id; null when it tells of no event.
 */
export function entryKeyOf(p: PublicSummary): string | null {
  const e = newestEvent(p);
  return e && descText(eventInstant(p)) + ascText(entryId(String(p.id), e.key));
}

/**
 * `/feeds/all.atom`: the newest event of each published tournament, newest first, at most `limit`
 * entries (the list's page size), so the file stays bounded as the store grows. A reader that
 * polls sees every new event long before `limit` newer ones push it out; older tournaments stay
 * in their own feeds and on the index pages.
 */
export function snapshotFeed(
  l: Locale,
  summaries: readonly PublicSummary[],
  urls: SiteUrls,
  limit: number,
): PageFile {
  const newest = summaries
    .map((p) => ({ p, key: entryKeyOf(p) }))
    .filter((e): e is { p: PublicSummary; key: string } => e.key !== null)
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .slice(0, limit)
    .map((e) => e.p);
  const scraped = summaries.reduce<string | null>(
    (m, p) => (m === null || p.lastScrapedAt > m ? p.lastScrapedAt : m),
    null,
  );
  return snapshotFeedOf(l, newest, scraped, urls);
}

/**
 * The snapshot feed of its `newest` summaries, already in feed order (entryKeyOf) and cut to the
 * limit, each with an event; `lastScrapedAt` is the newest retrieval of any listed tournament.
 */
export function snapshotFeedOf(
  l: Locale,
  newest: readonly PublicSummary[],
  lastScrapedAt: string | null,
  urls: SiteUrls,
): PageFile {
  const entries: FeedEntry[] = newest.map((p) => {
    const e = newestEvent(p)!;
    const id = String(p.id);
    return {
      id: entryId(id, e.key),
      ...newestText(l, p, e.final),
      updated: eventInstant(p),
      link: e.final ? urls.page.standings(id) : urls.page.round(id, p.currentRound!),
    };
  });
  // With no entry, the feed's instant is the newest retrieval of any listed tournament.
  const fallback =
    lastScrapedAt !== null && lastScrapedAt > "1970-01-01T00:00:00Z" ? lastScrapedAt : "1970-01-01T00:00:00Z";
  return [
    SNAPSHOT_FEED_PATH.slice(1),
    atomFeed({
      l,
      id: stableId("snapshot"),
      title: l.t("feed.title"),
      self: urls.snapshotFeed,
      alternate: urls.home,
      fallbackUpdated: fallback,
      entries,
    }),
  ];
}
