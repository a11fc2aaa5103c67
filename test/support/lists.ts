// A ListContext over arrays, cut by paginate() (the pure model of the pages): for tests of the
// list routes without an index. The build reads the same parts from its TournamentIndex.
import type { Club } from "../../src/domain/types.ts";
import { paginate } from "../../src/routes/pagination.ts";
import { summaryFinished, type ListContext } from "../../src/routes/table.ts";
import { compareCatalogEntries, type CatalogEntry } from "../../src/views/club.ts";
import { comparePublicSummaries, type PublicSummary } from "../../src/views/public.ts";

/** The head, then page k down to page 1: the order the build renders them in. */
function parts<T>(items: T[], size: number, finished: (t: T) => boolean): [number, T[]][] {
  const { head, pages } = paginate(items, size, finished);
  const out: [number, T[]][] = [[0, head]];
  for (let j = pages.length; j >= 1; j--) out.push([j, pages[j - 1]!]);
  return out;
}

export function arrayLists(o: {
  clubs?: { club: Club; entries: CatalogEntry[] }[];
  publicSummaries: PublicSummary[];
  clubTags?: string[];
  globalTags: string[];
  pageSize: number;
}): ListContext {
  const summaries = [...o.publicSummaries].sort(comparePublicSummaries);
  const done = (e: CatalogEntry): boolean => e.tournament.status === "Complete";
  return {
    clubs: (o.clubs ?? []).map((c) => c.club),
    clubTags: o.clubTags ?? [],
    globalTags: o.globalTags,
    catalog(slug, tag) {
      const entries = [...(o.clubs?.find((c) => c.club.slug === slug)?.entries ?? [])].sort(
        compareCatalogEntries,
      );
      return parts(
        tag === undefined ? entries : entries.filter((e) => e.tags.includes(tag)),
        o.pageSize,
        done,
      );
    },
    global(tag) {
      return parts(
        tag === undefined ? summaries : summaries.filter((s) => s.tags.includes(tag)),
        o.pageSize,
        summaryFinished,
      );
    },
  };
}

/** A valid global summary of tournament `id`, newest first by id (finished, untagged unless `o` says). */
export function listSummary(id: number, o: Partial<PublicSummary> = {}): PublicSummary {
  return {
    id,
    name: `Open ${id}`,
    location: null,
    startDate: `2026-01-${String(30 - id).padStart(2, "0")}`,
    endDate: null,
    status: "Complete",
    currentRound: 5,
    totalRounds: 5,
    playerCount: 10,
    lastScrapedAt: "2026-02-01T00:00:00Z",
    lastSourceChangeAt: null,
    tags: [],
    ...o,
  };
}
