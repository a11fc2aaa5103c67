// The list files (club catalogs, the global list, their tag forms, the index pages, the snapshot
// feed, the site's assets), read page by page from the TournamentIndex. A full render writes
// them all; a tick writes the parts its changed tournaments touch (the head of each changed list
// and the numbered pages down to the first changed one: routes/pagination.ts firstChangedPage)
// and keeps every other page by its owner (one owner per page of a list instance), so the lists
// cost what changed, not the store.
import type { Club } from "../domain/types.ts";
import type { TournamentState } from "../ledger/state.ts";
import { toJson } from "../output/json.ts";
import { schemaId } from "../output/jsonschema.ts";
import type { SnapshotValidator } from "../output/validate.ts";
import { snapshotFeedOf } from "../pages/feed-files.ts";
import { filterable, indexPart, tagStyleOf } from "../pages/index-page.ts";
import { siteAssets } from "../pages/index.ts";
import { siteUrls } from "../pages/links.ts";
import { languageOf } from "../i18n/languages.ts";
import { localeOf } from "../i18n/locale.ts";
import { firstChangedPage, pageShape } from "../routes/pagination.ts";
import { ROUTES, type ListContext } from "../routes/table.ts";
import { instanceFile, type Params } from "../routes/urls.ts";
import type { CatalogEntry } from "../views/club.ts";
import type { PublicSummary } from "../views/public.ts";
import type { ListsRecord, TournamentIndex } from "../ledger/tournament-index.ts";
import { LIST } from "./list-places.ts";

export interface ListsInput {
  index: TournamentIndex;
  clubs: Club[];
  clubTags: string[];
  globalTags: string[];
  pageSize: number;
  basePath?: string;
  /** The language of the index pages and the snapshot feed (build --language); absent: English. */
  language?: string;
  validator: SnapshotValidator;
  /** The fingerprint of all the lists depend on but their members; null: record nothing. */
  fp: string | null;
  write(file: string, text: string, owner: string): void;
  keepOwned(owner: string): number | false;
}

/** The owner of page `j` of a list instance (0: its head), and of the lists' other files. */
export function pageOwner(list: string, j: number): string {
  return `l/${list}#${j}`;
}
const FEED_OWNER = "l/feed";
const SITE_OWNER = "l/site";

/** Which list instance a list route's params name. */
function listOf(routeId: string, params: Params): string {
  if (routeId === "clubCatalog")
    return params.tag === undefined ? LIST.club(params.slug!) : LIST.clubTag(params.slug!, params.tag);
  return params.tag === undefined ? LIST.global : LIST.globalTag(params.tag);
}

/** Renders (or keeps) every list file; returns the record for the next build and the file count. */
export function renderLists(input: ListsInput): {
  record: ListsRecord | null;
  files: number;
  /** The list instances whose members changed (ledger names), when the previous lists were kept. */
  changed: string[];
} {
  const ix = input.index;
  const size = input.pageSize;
  const urls = siteUrls(input.basePath ?? "");
  const l = localeOf(languageOf(input.language));
  const used = input.globalTags.filter((t) => filterable(t) && ix.any(LIST.globalTag(t)));
  const style = tagStyleOf(used);
  const fp = input.fp === null ? null : `${input.fp}:${used.join(" ")}`;
  const before = ix.previousLists;
  const incremental = fp !== null && before !== null && before.fp === fp;
  const changed = new Set(incremental ? ix.changedLists() : []);
  // The previous pages of each list instance, from the owners the record names.
  const pagesBefore = new Map<string, number[]>();
  for (const owner of incremental ? Object.keys(before.owners) : []) {
    const m = /^l\/(.*)#(\d+)$/.exec(owner);
    if (!m) continue;
    pagesBefore.set(m[1]!, [...(pagesBefore.get(m[1]!) ?? []), Number(m[2])]);
  }

  const owners: Record<string, string[]> = {};
  /** Members per list instance, for the next build; the previous build's, when incremental. */
  const counts: Record<string, number> = {};
  const countsBefore = incremental ? before.counts : undefined;
  const count = (list: string): number => (counts[list] ??= countsBefore?.[list] ?? ix.count(list));
  let files = 0;
  const keep = (owner: string): boolean => {
    const n = input.keepOwned(owner);
    if (n === false) return false;
    owners[owner] = before?.owners[owner] ?? [];
    files += n;
    return true;
  };
  const write = (file: string, text: string, owner: string): void => {
    input.write(file, text, owner);
    (owners[owner] ??= []).push(file);
    files++;
  };

  /** The page of a list of `n` members that holds the one `t` members from its end. */
  const pageHolding = (t: number, n: number): number => {
    const { k } = pageShape(n, size);
    const j = Math.floor(t / size) + 1;
    return k === 0 || j > k ? 0 : j;
  };

  /** The parts of `list` to render now, each mapped to its items; the others are kept. */
  function* parts<T>(list: string, item: (s: TournamentState) => T): Generator<[number, T[]]> {
    const render = new Set<number>();
    let n: number | null = null;
    if (!incremental) {
      n = count(list);
      for (let j = 0; j <= pageShape(n, size).k; j++) render.add(j);
    } else {
      const change = changed.has(list) ? ix.changed(list, countsBefore?.[list]) : null;
      if (change !== null) {
        n = counts[list] = change.after;
        const { k } = pageShape(n, size);
        // A member that came, left or moved shifts every member above it: the head and the pages
        // down to the deepest such member. One changed in place changes its own page only.
        if (change.before !== change.after || change.sameTail < change.after) {
          render.add(0);
          for (let j = firstChangedPage(change, size); j <= k; j++) render.add(j);
        }
        for (const t of change.inPlace) render.add(pageHolding(t, n));
        for (let j = 0; j <= k; j++) if (!render.has(j) && !keep(pageOwner(list, j))) render.add(j);
      } else {
        // Untouched: every page is kept; one the snapshot lacks is rendered again.
        count(list);
        for (const j of pagesBefore.get(list) ?? [0]) if (!keep(pageOwner(list, j))) render.add(j);
      }
    }
    if (render.size === 0) return;
    n ??= count(list);
    const { k, headSize } = pageShape(n, size);
    if (k === 0) {
      // A list that fits one page is its head, in list order (the rank without its finished flag).
      const all = [...ix.members(list)].sort((a, b) => (a.rank.slice(1) < b.rank.slice(1) ? -1 : 1));
      yield [0, all.map((m) => item(m.state))];
      return;
    }
    // Page order: the head, then page k down to page 1. Each run of pages to render is read from
    // its first member on, found by an index seek, so a page deep in the list costs its members.
    const order = [0, ...Array.from({ length: k }, (_, q) => k - q)];
    const offsetOf = (q: number): number => (q === 0 ? 0 : headSize + (q - 1) * size);
    for (let q = 0; q < order.length; q++) {
      if (!render.has(order[q]!)) continue;
      let end = q;
      while (end + 1 < order.length && render.has(order[end + 1]!)) end++;
      const from = offsetOf(q);
      const after = from === 0 ? "" : ix.rankAt(list, from - 1, n);
      if (after === undefined) throw new Error(`list ${list}: no member at ${from - 1} of ${n}`);
      let page = q;
      let items: T[] = [];
      let left = page === 0 ? headSize : size;
      for (const m of ix.members(list, offsetOf(end) + (end === 0 ? headSize : size) - from, after)) {
        items.push(item(m.state));
        if (--left > 0) continue;
        yield [order[page]!, items];
        items = [];
        page++;
        left = size;
      }
      if (page <= end) throw new Error(`list ${list}: ${n} members counted, fewer read`);
      q = end;
    }
  }

  const catalogItem =
    (slug: string) =>
    (s: TournamentState): CatalogEntry => {
      const entry = s.clubs.find((c) => c.slug === slug)!;
      return { tournament: s.summary!, tags: entry.tags, displayOrder: entry.displayOrder };
    };
  const lists: ListContext = {
    clubs: input.clubs,
    clubTags: input.clubTags,
    globalTags: input.globalTags,
    ...(input.basePath && { basePath: input.basePath }),
    catalog: (slug, tag) =>
      parts(tag === undefined ? LIST.club(slug) : LIST.clubTag(slug, tag), catalogItem(slug)),
    global: (tag) => {
      if (tag !== undefined) return parts(LIST.globalTag(tag), (s) => s.public!);
      // The index pages for people are the global list's parts, page for page.
      return (function* () {
        let shape: { n: number; k: number } | null = null;
        for (const [j, items] of parts(LIST.global, (s) => s.public!)) {
          if (shape === null) {
            const n = count(LIST.global);
            shape = { n, k: pageShape(n, size).k };
          }
          const [file, text] = indexPart(l, items, input.globalTags, urls, style?.[0] ?? null, {
            page: j,
            pages: shape.k,
            total: shape.n,
          });
          write(file, text, pageOwner(LIST.global, j));
          yield [j, items] as [number, PublicSummary[]];
        }
      })();
    },
  };
  for (const route of ROUTES) {
    if (route.scope !== "list") continue;
    route.render(lists, (params, body) => {
      const file = instanceFile(route, params);
      const text = toJson(body);
      input.validator.assert(file, schemaId(route.schema), body);
      write(file, text, pageOwner(listOf(route.id, params), Number(params.page ?? 0)));
    });
  }

  // The snapshot feed: the newest entries, and the newest retrieval for a feed without any.
  if (!incremental || (changed.has(LIST.feed) || changed.has(LIST.scraped) ? true : !keep(FEED_OWNER))) {
    const newest = [...ix.members(LIST.feed, size)].map((m) => m.state.public!);
    const [last] = ix.members(LIST.scraped, 1);
    const [file, text] = snapshotFeedOf(l, newest, last?.state.public?.lastScrapedAt ?? null, urls);
    write(file, text, FEED_OWNER);
  }
  // The assets, the embed and the tag filter's stylesheet change with the program and the tags
  // in use, which the fingerprint holds.
  if (!incremental || !keep(SITE_OWNER)) {
    for (const [file, text] of [...siteAssets(), ...(style ? [style] : [])]) write(file, text, SITE_OWNER);
  }
  return { record: fp === null ? null : { fp, owners, counts }, files, changed: [...changed] };
}
