// What a tournament's state means to the lists and the report: its places (a sort key per list,
// views/order.ts) and the columns the report sums. The ledger's TournamentIndex stores both
// (ledger/tournament-index.ts) and reads the lists back in page order.
import type { Member, StateColumns } from "../ledger/tournament-index.ts";
import type { TournamentState } from "../ledger/state.ts";
import { entryKeyOf } from "../pages/feed-files.ts";
import { archiveFrom } from "../routes/cache.ts";
import { catalogKey, descText, finished, int64Key, publicKey } from "../views/order.ts";

/** The index's name of a list instance (never a path: lists are paths only when rendered). */
export const LIST = {
  club: (slug: string): string => `c/${slug}`,
  clubTag: (slug: string, tag: string): string => `c/${slug}/t/${tag}`,
  global: "p",
  globalTag: (tag: string): string => `p/t/${tag}`,
  /** The snapshot feed's entries, newest first (pages/feed-files.ts). */
  feed: "f",
  /** Every global summary by its retrieval instant, newest first: the feed's instant without entries. */
  scraped: "s",
} as const;

/** The lists a tournament's state puts it in, with its rank in each. Pure. */
export function membersOf(t: TournamentState): Member[] {
  const out: Member[] = [];
  if (t.summary) {
    const fin = finished(t.summary.status) ? "1" : "0";
    for (const c of t.clubs) {
      const rank = fin + catalogKey({ tournament: t.summary, tags: c.tags, displayOrder: c.displayOrder });
      out.push({ list: LIST.club(c.slug), rank });
      for (const tag of c.tags) out.push({ list: LIST.clubTag(c.slug, tag), rank });
    }
  }
  const p = t.public;
  if (p) {
    const rank = (finished(p.status) ? "1" : "0") + publicKey(p);
    out.push({ list: LIST.global, rank });
    for (const tag of p.tags) out.push({ list: LIST.globalTag(tag), rank });
    const entry = entryKeyOf(p);
    if (entry !== null) out.push({ list: LIST.feed, rank: `0${entry}` });
    out.push({ list: LIST.scraped, rank: `0${descText(p.lastScrapedAt)}${int64Key(p.id)}` });
  }
  return out;
}

/** The columns the report sums, and its order and archive instant, of a tournament. */
export function columnsOf(t: TournamentState, externalId: bigint | string, rowId: number): StateColumns {
  const s = t.public ?? t.summary;
  return {
    ord: int64Key(externalId.toString()) + int64Key(rowId),
    files: t.fileCount,
    unknownResults: t.unknownResults,
    issues: t.warnings.length > 0 || t.unknownResults > 0 || t.stop !== null,
    warnings: t.warnings.length,
    stop: t.stop !== null,
    archive: s ? archiveFrom(s.status, s.lastScrapedAt) : null,
    row: rowId,
  };
}
