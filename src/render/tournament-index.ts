// The tournaments of the snapshot as the lists and the report need them, kept outside the heap:
// every rendered tournament's state goes to a TournamentIndex (the publication's bookkeeping
// implements it in SQLite: src/publish/tournament-index.ts), with its place in every list it
// belongs to (a sort key: views/order.ts). A list page is then read from the index in order, one
// page at a time, and a tick renders only the pages that its changed tournaments touch: the lists
// cost what changed, and a full build's memory does not grow with the store
// (docs/design/incremental.md, "Lists and the report").

export type { ListsRecord };
import type { IndexTotals } from "../shared/index-totals.ts";
import type { StandingsStop } from "../domain/standings.ts";
import { LISTS_KEY, type ListsRecord, type TournamentState } from "../incremental/state.ts";
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

/** One place of a tournament in one list: `rank` sorts the list's page order (finished last). */
export interface Member {
  list: string;
  /** "0" (unfinished) or "1" (finished), then the list's order key. */
  rank: string;
}

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

/**
 * The warnings and standings stops of every tournament of `ix`, in store order, for a report that
 * lists them (reads the detail of each tournament that has any).
 */
export function issuesOf(ix: Pick<TournamentIndex, "issues">): {
  warnings: string[];
  standingsStops: ({ externalId: string } & StandingsStop)[];
} {
  const out: ReturnType<typeof issuesOf> = { warnings: [], standingsStops: [] };
  for (const t of ix.issues()) {
    out.warnings.push(...t.warnings);
    if (t.stop) out.standingsStops.push({ externalId: t.id, ...t.stop });
  }
  return out;
}

/** The columns the report is summed from, without reading a tournament's detail. */
export interface StateColumns {
  /** Store order: the report lists warnings in it. */
  ord: string;
  files: number;
  unknownResults: number;
  /** Warnings, unknown results or a standings stop: a report that lists them reads its detail. */
  issues: boolean;
  /** Its warnings, counted, and whether its standings stop early: the report counts both. */
  warnings: number;
  stop: boolean;
  /** When its answers take the archive cache class (routes/cache.ts), or null. */
  archive: number | null;
  /** Its row in the store (a tick finds the record of a changed row by it). */
  row: number;
}

export function columnsOf(t: TournamentState, externalId: bigint | string, rowId: number): StateColumns {
  const s = t.public ?? t.summary;
  return {
    ord: int64Key(externalId.toString()) + int64Key(rowId),
    files: t.fileCount ?? t.files.length,
    unknownResults: t.unknownResults,
    issues: t.warnings.length > 0 || t.unknownResults > 0 || t.stop !== null,
    warnings: t.warnings.length,
    stop: t.stop !== null,
    archive: s ? archiveFrom(s.status, s.lastScrapedAt) : null,
    row: rowId,
  };
}

export type { IndexTotals };

/** What a build changed in one list, in the new page order (see changedFrom). */
export interface ListChange {
  /** How many members it had before this build (0 when new) and has now. */
  before: number;
  after: number;
  /**
   * How many of its last members (the oldest finished) keep their places, in the same order, as
   * before: every numbered page made of them alone is unchanged but for the members in `inPlace`.
   */
  sameTail: number;
  /**
   * The members whose summary changed in place (same rank, so no other member moves), each by how
   * many members follow it: only the page holding it changes.
   */
  inPlace: number[];
}

/**
 * The index a render writes to and reads the lists from. All of it describes the snapshot being
 * built: the previous build's tournaments, less those put or dropped now, plus those put now.
 */
export interface TournamentIndex {
  /** One previous tournament's fingerprint and window, if it had one. */
  previousOf(id: string): Window | null;
  /** A previous tournament kept as it is: this build has it too. */
  see(id: string): void;
  /**
   * The previous tournaments this build neither put nor saw (gone, unpublished or invalid now):
   * among `ids`, or all of them when `ids` is undefined.
   */
  unseen(ids?: Iterable<string>): string[];
  /** The ids the previous build recorded for store row `row` (one, or none). */
  idsOfRow(row: number): string[];
  /** The previous tournaments whose window does not hold `now`, with their store rows. */
  expired(now: number): { id: string; row: number | null }[];
  /**
   * The store's tournaments changed last (row, revision token) as the previous build read them,
   * and this build's list for the next one (render/snapshot.ts onHistory).
   */
  recent(): [number, string][];
  setRecent(rows: readonly (readonly [number, string])[]): void;
  /** The previous build's list record (see ListsRecord), or null. */
  readonly previousLists: ListsRecord | null;
  /** The whole recorded state of a previous tournament (its files counted, not listed), or null. */
  loadPrevious(id: string): TournamentState | null;
  /** A tournament rendered now: its state replaces any previous one. */
  put(t: TournamentState, columns: StateColumns, members: Member[]): void;
  /** A previous tournament that is no longer published (or invalid now). */
  drop(id: string): void;
  /** The sums of the report. */
  totals(): IndexTotals;
  /** The ids whose answers are archived at `now`, sorted. */
  archived(now: number): string[];
  /**
   * Whether a tournament this build put or dropped changed whether its answers are archived (at
   * `before` as the previous build saw it, at `now` as this one does). O(change).
   */
  archivedChanged(before: number, now: number): boolean;
  /** Tournaments with warnings, unknown results or a standings stop, in store order. */
  issues(): Iterable<{ id: string; warnings: string[]; unknownResults: number; stop: StandingsStop | null }>;
  /** How many members `list` has. */
  count(list: string): number;
  /** Whether `list` has any member (without counting them). */
  any(list: string): boolean;
  /**
   * The members of `list` in rank order (the first `limit`, or all) after rank `after` (from the
   * first when omitted), with their states.
   */
  members(list: string, limit?: number, after?: string): Iterable<{ rank: string; state: TournamentState }>;
  /**
   * The rank of the member at `offset` (0: the first) of `list`, whose count `n` is; an index
   * walk, no detail read.
   */
  rankAt(list: string, offset: number, n: number): string | undefined;
  /**
   * What this build changed in `list`, or null when nothing. `before`: how many members it had,
   * as the previous build recorded (then nothing counts the whole list).
   */
  changed(list: string, before?: number): ListChange | null;
  /** The lists this build changed. */
  changedLists(): string[];
}

/** A tournament's fingerprint and the window of build instants its files hold for. */
export interface Window {
  fp: string;
  from: number | null;
  until: number | null;
}

/**
 * The rows behind a TournamentIndex (the publication's bookkeeping: publish/tournament-index.ts):
 * records keyed `t:<id>` with a JSON detail, and list places (list, rank, key).
 */
export interface IndexRows {
  see(key: string): void;
  unseen(keys?: Iterable<string>): string[];
  previousWindow(key: string): Window | undefined;
  keysOfRow(row: number): string[];
  expired(now: number): { key: string; row: number | null }[];
  recent(): [number, string][];
  setRecent(rows: readonly (readonly [number, string])[]): void;
  previousRecord(
    key: string,
  ): { fp: string; from: number | null; until: number | null; detail: string } | undefined;
  put(
    row: {
      key: string;
      fp: string;
      from: number | null;
      until: number | null;
      detail: string;
      ord: string;
      files: number;
      unknown: number;
      issues: boolean;
      warnings: number;
      stops: number;
      archive: number | null;
      row: number;
    },
    members: readonly Member[],
    /** Every list shows it as the previous build did (see listsUnmoved): it changes none. */
    unmoved?: boolean,
  ): void;
  /** A previous record's list places (list, rank), or none. */
  previousMembers(key: string): Member[];
  drop(key: string): void;
  totals(): IndexTotals;
  archived(now: number): string[];
  archivedChanged(before: number, now: number): boolean;
  issues(): Iterable<{ key: string; detail: string }>;
  count(list: string): number;
  any(list: string): boolean;
  members(
    list: string,
    limit?: number,
    after?: string,
  ): Iterable<{ rank: string; key: string; detail: string }>;
  rankAt(list: string, offset: number, n?: number): string | undefined;
  changed(list: string, before?: number): ListChange | null;
  changedLists(): string[];
}

const T = "t:";
type Detail = Omit<TournamentState, "id" | "fp" | "from" | "until" | "files">;

function stateOf(
  key: string,
  r: { fp: string; from: number | null; until: number | null; detail: string },
): TournamentState {
  return {
    id: key.slice(T.length),
    fp: r.fp,
    from: r.from,
    until: r.until,
    files: [],
    ...(JSON.parse(r.detail) as Detail),
  };
}

/**
 * What the lists show of a tournament: its catalog entries and its summaries. With its places,
 * it is all that render/lists.ts reads of a member (a unit test holds it to that).
 */
function listFace(d: Pick<Detail, "clubs" | "summary" | "public">): string {
  return JSON.stringify([d.clubs, d.summary, d.public]);
}

const placeKey = (m: Member): string => `${m.list}\0${m.rank}`;

/**
 * Whether a tournament put now keeps the places and the face the previous build recorded: then
 * no list changes by it, and a tick that changed only its games or players renders no list page.
 */
function listsUnmoved(rows: IndexRows, key: string, detail: Detail, members: readonly Member[]): boolean {
  const previous = rows.previousRecord(key);
  if (previous === undefined || listFace(JSON.parse(previous.detail) as Detail) !== listFace(detail))
    return false;
  const before = rows.previousMembers(key).map(placeKey).sort();
  const now = members.map(placeKey).sort();
  return before.length === now.length && before.every((m, i) => m === now[i]);
}

/** The TournamentIndex over its rows: states in and out as JSON details. */
export function tournamentIndex(rows: IndexRows): TournamentIndex {
  const lists = rows.previousRecord(LISTS_KEY);
  return {
    see: (id) => rows.see(T + id),
    unseen(ids) {
      const keys = ids === undefined ? undefined : [...ids].map((id) => T + id);
      return rows.unseen(keys).map((k) => k.slice(T.length));
    },
    previousOf: (id) => rows.previousWindow(T + id) ?? null,
    idsOfRow: (row) => rows.keysOfRow(row).flatMap((k) => (k.startsWith(T) ? [k.slice(T.length)] : [])),
    recent: () => rows.recent(),
    setRecent: (list) => rows.setRecent(list),
    expired: (now) =>
      rows
        .expired(now)
        .flatMap((r) => (r.key.startsWith(T) ? [{ id: r.key.slice(T.length), row: r.row }] : [])),
    previousLists: lists ? { fp: lists.fp, ...(JSON.parse(lists.detail) as Omit<ListsRecord, "fp">) } : null,
    loadPrevious(id) {
      const r = rows.previousRecord(T + id);
      return r ? stateOf(T + id, r) : null;
    },
    put(t, c, members) {
      const { id, fp, from, until, files, fileCount: _count, ...rest } = t;
      const detail: Detail = { fileCount: t.fileCount ?? files.length, ...rest };
      const key = T + id;
      rows.put(
        {
          key,
          fp,
          from,
          until,
          detail: JSON.stringify(detail),
          ord: c.ord,
          files: c.files,
          unknown: c.unknownResults,
          issues: c.issues,
          warnings: c.warnings,
          stops: c.stop ? 1 : 0,
          archive: c.archive,
          row: c.row,
        },
        members,
        listsUnmoved(rows, key, detail, members),
      );
    },
    drop: (id) => rows.drop(T + id),
    totals: () => rows.totals(),
    archived: (now) => rows.archived(now).map((k) => k.slice(T.length)),
    archivedChanged: (before, now) => rows.archivedChanged(before, now),
    *issues() {
      for (const r of rows.issues()) {
        const d = JSON.parse(r.detail) as Detail;
        yield {
          id: r.key.slice(T.length),
          warnings: d.warnings,
          unknownResults: d.unknownResults,
          stop: d.stop,
        };
      }
    },
    count: (list) => rows.count(list),
    any: (list) => rows.any(list),
    rankAt: (list, offset, n) => rows.rankAt(list, offset, n),
    *members(list, limit, after) {
      for (const m of rows.members(list, limit, after))
        yield { rank: m.rank, state: stateOf(m.key, { fp: "", from: null, until: null, detail: m.detail }) };
    },
    changed: (list, before) => rows.changed(list, before),
    changedLists: () => rows.changedLists(),
  };
}
