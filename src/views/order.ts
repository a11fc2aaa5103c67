// Sort keys: strings whose plain comparison (JavaScript's `<`, SQLite's BINARY collation: both
// compare these ASCII keys byte by byte) gives a list's order, so the publication's bookkeeping
// can keep a list's members in an index and read one page of it without loading the rest.
// Each key is built from the same fields, in the same order, as the comparator it stands for
// (club.ts compareCatalogEntries, public.ts comparePublicSummaries); test/unit/views/order.test.ts
// checks that they agree. Pure.
import type { TournamentStatus } from "../domain/types.ts";
import type { CatalogEntry } from "./club.ts";
import type { PublicSummary } from "./public.ts";

/**
 * Whether a tournament of this status sorts with the finished ones, at the end of a paged list
 * (routes/pagination.ts cuts the pages from there): the pages of the finished stay put.
 */
export function finished(status: TournamentStatus): boolean {
  return status === "Complete";
}

/** Text in ascending code-unit order (JavaScript's `<`): 4 hex digits a unit, then a terminator
 * below every digit, so a prefix sorts first. */
export function ascText(s: string): string {
  let out = "";
  for (let i = 0; i < s.length; i++) out += s.charCodeAt(i).toString(16).padStart(4, "0");
  return `${out} `;
}

const FLIP: Record<string, string> = Object.fromEntries(
  [..."0123456789abcdef"].map((d, i) => [d, (15 - i).toString(16)]),
);

/** Text in descending order: each digit of ascText flipped, then a terminator above every digit. */
export function descText(s: string): string {
  const asc = ascText(s);
  let out = "";
  for (let i = 0; i < asc.length - 1; i++) out += FLIP[asc[i]!];
  return `${out}~`;
}

const INT64_OFFSET = 2n ** 63n;

/** A 64-bit integer (as JSON carries it: a number or a decimal string), ascending. */
export function int64Key(v: number | string | bigint): string {
  return (BigInt(v) + INT64_OFFSET).toString(16).padStart(16, "0");
}

/** A 32-bit integer, ascending. */
export function int32Key(v: number): string {
  return (v + 2 ** 31).toString(16).padStart(8, "0");
}

/** compareStartDateDesc: the newest first, an unknown date last. */
export function startDateDescKey(d: string | null): string {
  return d === null ? "1" : `0${descText(d)}`;
}

/** compareCatalogEntries: display order, then the newest start date, then the tournament id. */
export function catalogKey(e: CatalogEntry): string {
  return (
    int32Key(e.displayOrder) + startDateDescKey(e.tournament.startDate) + int64Key(e.tournament.tournamentId)
  );
}

/** comparePublicSummaries: the newest start date, then the name, then the id. */
export function publicKey(s: PublicSummary): string {
  return startDateDescKey(s.startDate) + ascText(s.name) + int64Key(s.id);
}
