// Cache-Control per cache class. The snapshot is regenerated on a schedule (every few minutes
// in CI): max-age bounds how stale a browser copy may be, s-maxage what a CDN may keep, and
// stale-while-revalidate lets caches answer at once while they fetch the next snapshot.
import type { CacheClass } from "../routes.ts";

export const CACHE_POLICY: Record<CacheClass, string> = {
  /** The newest round: results arrive every few minutes during play. */
  live: "public, max-age=30, s-maxage=60, stale-while-revalidate=300",
  /** Standings, rounds, details, recaps: change with each regeneration while a tournament runs. */
  current: "public, max-age=60, s-maxage=300, stale-while-revalidate=600",
  /** Lists: change when tournaments are published or change status. */
  list: "public, max-age=60, s-maxage=300, stale-while-revalidate=600",
  /** The OpenAPI document: changes only with a new build-api version. */
  meta: "public, max-age=3600, stale-while-revalidate=86400",
  /**
   * Page assets and the club embed: their names carry no hash, so a short max-age bounds how long
   * a page and an older stylesheet or script may meet; revalidation by ETag makes it cheap.
   */
  asset: "public, max-age=300, stale-while-revalidate=86400",
};

/** Error bodies are not cached for long, so a tournament published later becomes visible. */
export const ERROR_CACHE_POLICY = "public, max-age=60";
