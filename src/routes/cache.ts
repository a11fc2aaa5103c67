// Cache lifetimes per cache class, as numbers; the Cache-Control header is written from them.
// The snapshot is regenerated on a schedule (every few minutes in CI): max-age bounds how stale a
// browser copy may be, s-maxage what a CDN may keep, and stale-while-revalidate lets caches answer
// at once while they fetch the next snapshot.
import type { CacheClass } from "./urls.ts";

/** Lifetimes in seconds; an absent sMaxAge means a CDN follows max-age. */
export interface CacheLifetimes {
  maxAge: number;
  sMaxAge?: number;
  staleWhileRevalidate?: number;
}

export const CACHE_LIFETIMES: Readonly<Record<CacheClass, CacheLifetimes>> = {
  /** The newest round: results arrive every few minutes during play. */
  live: { maxAge: 30, sMaxAge: 60, staleWhileRevalidate: 300 },
  /** Standings, rounds, details, recaps: change with each regeneration while a tournament runs. */
  current: { maxAge: 60, sMaxAge: 300, staleWhileRevalidate: 600 },
  /** Lists: change when tournaments are published or change status. */
  list: { maxAge: 60, sMaxAge: 300, staleWhileRevalidate: 600 },
  /** The OpenAPI document: changes only with a new build-api version. */
  meta: { maxAge: 3600, staleWhileRevalidate: 86400 },
  /**
   * Page assets and the club embed: their names carry no hash, so a short max-age bounds how long
   * a page and an older stylesheet or script may meet; revalidation by ETag makes it cheap.
   */
  asset: { maxAge: 300, staleWhileRevalidate: 86400 },
  /**
   * Every answer of an archived tournament (see archiveFrom): a day in shared caches, which a
   * purge by its tag (`tournament-{id}`) empties when a correction comes; an hour in browsers,
   * which no purge reaches. Never `immutable`: a correction, an unpublication or a new build-api
   * version changes these bytes under the same URL.
   */
  archive: { maxAge: 3600, sMaxAge: 86400, staleWhileRevalidate: 86400 },
};

/** A Complete tournament not fetched from its source for this long is archived. */
export const ARCHIVE_AFTER_MS = 7 * 24 * 3600 * 1000;

/**
 * The instant (epoch ms) from which a tournament's answers take the archive class, or null while
 * it is not Complete: its last fetch from the source plus ARCHIVE_AFTER_MS. It depends on the data
 * and the build instant only, never the clock; a tournament fetched again (a correction) leaves
 * the class with the build that publishes the fetch.
 */
export function archiveFrom(status: string, lastScrapedAt: string): number | null {
  if (status !== "Complete") return null;
  const t = Date.parse(lastScrapedAt);
  return Number.isFinite(t) ? t + ARCHIVE_AFTER_MS : null;
}

/** Error bodies are not cached for long, so a tournament published later becomes visible. */
export const ERROR_CACHE_LIFETIMES: CacheLifetimes = { maxAge: 60 };

/** The Cache-Control value of public, shared-cacheable lifetimes. */
export function cacheControl(l: CacheLifetimes): string {
  return [
    "public",
    `max-age=${l.maxAge}`,
    ...(l.sMaxAge === undefined ? [] : [`s-maxage=${l.sMaxAge}`]),
    ...(l.staleWhileRevalidate === undefined ? [] : [`stale-while-revalidate=${l.staleWhileRevalidate}`]),
  ].join(", ");
}

export const CACHE_POLICY: Readonly<Record<CacheClass, string>> = Object.fromEntries(
  Object.entries(CACHE_LIFETIMES).map(([k, l]) => [k, cacheControl(l)]),
) as Record<CacheClass, string>;

export const ERROR_CACHE_POLICY = cacheControl(ERROR_CACHE_LIFETIMES);
