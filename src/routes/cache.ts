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
};

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
