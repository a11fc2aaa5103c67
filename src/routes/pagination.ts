// Lists that stay small: a list longer than the page size is split into pages that keep their
// content while finished tournaments stay finished, so a tick rewrites the first page only. Pure.
// The decisions (page size, order, numbering, Link headers) are in docs/design/lists-and-caching.md.

/** Summaries per page of a list (the global list, a club catalog, their tag forms). */
export const LIST_PAGE_SIZE = 1000;

/** One list split into its head (the list's own URL) and its numbered pages. */
export interface Paged<T> {
  /** The list's own URL: the unfinished tournaments and the newest finished ones. */
  head: T[];
  /** pages[j - 1] is page j; page 1 holds the oldest finished tournaments. Empty when it fits. */
  pages: T[][];
}

/**
 * Splits a list in its order. A list of at most `size` items is its head, as it is: a store under
 * the page size publishes what it always did. A longer list puts the unfinished items first (each
 * part in the list's order) and cuts pages of exactly `size` items from its end: page 1 is the
 * last `size` items, page 2 the `size` before them, and the head keeps what is left (1 to `size`
 * items). Items that change (unfinished tournaments) sit in the head while there are fewer of them
 * than the head holds, and a newly finished tournament enters at the head's end, so the numbered
 * pages keep their bytes until a finished tournament changes or leaves the list.
 */
export function paginate<T>(items: readonly T[], size: number, finished: (item: T) => boolean): Paged<T> {
  const { k, headSize } = pageShape(items.length, size);
  if (k === 0) return { head: [...items], pages: [] };
  const ordered = [...items.filter((i) => !finished(i)), ...items.filter(finished)];
  const pages: T[][] = [];
  for (let j = 1; j <= k; j++)
    pages.push(ordered.slice(ordered.length - j * size, ordered.length - (j - 1) * size));
  return { head: ordered.slice(0, headSize), pages };
}

/**
 * How a list of `n` items is cut (paginate): `k` numbered pages (0 when it fits one page) and the
 * head's size. Page j (1..k) holds the items at positions [n - j*size, n - (j-1)*size) of the
 * page order.
 */
export function pageShape(n: number, size: number): { k: number; headSize: number } {
  if (!Number.isInteger(size) || size < 1) throw new Error(`page size ${size}: expected a positive integer`);
  if (n <= size) return { k: 0, headSize: n };
  const k = Math.floor((n - 1) / size);
  return { k, headSize: n - k * size };
}

/**
 * The oldest numbered page a build must render again after a change to a list (it renders the head
 * and every page from its k down to this one; the older pages keep their bytes): pages made only
 * of the `sameTail` last items, unchanged and in the same order, are the same, unless the number
 * of pages changed (page k links to the head as "prev") or the list crossed one page (the head
 * of a list that fits is in list order, not page order). Returns k + 1 when only the head changes.
 */
export function firstChangedPage(
  change: { before: number; after: number; sameTail: number },
  size: number,
): number {
  const kBefore = pageShape(change.before, size).k;
  const k = pageShape(change.after, size).k;
  let first = Math.floor(change.sameTail / size) + 1;
  if (kBefore !== k) first = Math.min(first, Math.max(1, Math.min(kBefore, k)));
  if (kBefore === 0 || k === 0) first = 1;
  return Math.min(first, k + 1);
}

/**
 * The Link header of the head (page 0) or page `j` of a list of `k` numbered pages, whose page n
 * is at `url(n)` (a JSON list: `<list>` and `<list>/page/{n}`; the index page for people: `/`
 * and `/page/{n}/`): first is the head, last is page 1, next goes towards the older pages.
 */
export function pageLinks(url: (page: number) => string, j: number, k: number): string {
  return pageNeighbours(j, k)
    .map(({ rel, page }) => `<${url(page)}>; rel="${rel}"`)
    .join(", ");
}

export type PageRel = "first" | "prev" | "next" | "last";

/**
 * The pages the head (page 0) or page `j` of a list of `k` numbered pages links to, by relation:
 * first is the head, last is page 1, next goes towards the older pages. The one model of a paged
 * list's links: the Link headers of the JSON pages and the navigation of the index pages.
 */
export function pageNeighbours(j: number, k: number): { rel: PageRel; page: number }[] {
  const out: { rel: PageRel; page: number }[] = [{ rel: "first", page: 0 }];
  if (j > 0) out.push({ rel: "prev", page: j === k ? 0 : j + 1 });
  if (j === 0) out.push({ rel: "next", page: k });
  else if (j > 1) out.push({ rel: "next", page: j - 1 });
  out.push({ rel: "last", page: 1 });
  return out;
}

/** What the hosts must know of a snapshot's lists and tournaments beyond the URL model. */
export interface EdgeFacts {
  /**
   * The Link header of each file of a paged list (`api/.../page/2/index.json`) and of a split
   * index page (`page/2/index.html`), heads included (routes/page-links.ts).
   */
  links: Record<string, string>;
  /** External ids of the tournaments served with the archive cache class, sorted. */
  archived: string[];
  /** The base path the snapshot is served under (routes/urls.ts); absent for the root. */
  basePath?: string;
  /** The HTML error page's words in the build's language (pages/error-words.ts); absent for
   * English, whose words the error page has itself (output/problem.ts). */
  errorPage?: ErrorPageWords;
}

/** What an HTML error page says, in one language (its lang), by status. */
export interface ErrorPageWords {
  lang: string;
  titles: Record<string, string>;
  texts: Record<string, string>;
  home: string;
}

export const NO_EDGE_FACTS: EdgeFacts = { links: {}, archived: [] };
