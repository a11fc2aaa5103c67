// Per-tournament fingerprints: what lets a rebuild skip the tournaments whose inputs did not change.
//
// A tournament's files are a pure function of its rows, the enabled clubs (their slugs name its
// club paths), the languages of the store's recaps (its recap path forms), the program, the
// options, and the build instant through its status window. Its fingerprint is the sha256 of
//   the program key (build-api's version and code hash, status options, --skip-invalid),
//   the clubs key (the store file's identity and its clubs revision, or the hash of the clubs
//   rows: revisions are counts along one file's history, so another file renders everything),
//   the store's recap languages,
//   the tournament key (its revision, or the hash of the rows the reader reads for it),
// and it stays valid while the build instant lies in the status window it was rendered in.
//
// The publication's bookkeeping (src/ledger/bookkeeping.ts, a database beside the versions) keeps
// one record per tournament: its fingerprint and window as compact columns, which a tick reads for
// every tournament, the columns the report sums, and the rest (warnings, the summaries the list
// files need) as a detail read only for list pages rendered again and for warnings
// (ledger/tournament-index.ts). Its files are not listed here: they are recorded under the
// tournament's owner, so an unchanged tournament is kept (SnapshotWriter.keepOwned) without being
// read, computed or rendered, and without reading its paths. The records are internal (never
// served: the database is outside every version) and hold only public facts: external ids, file
// paths, summaries that the lists publish anyway, and hashes of revision counters or of contract
// columns without the private row ids.
import { createHash } from "node:crypto";
import type { StandingsStop } from "../domain/standings.ts";
import type { CatalogEntry } from "../views/club.ts";
import type { PublicSummary } from "../views/public.ts";

/** The previous format's state file (inside each version): no build writes it any more. */
export const STATE_FILE = "_build-api-state.json";
/** The record key of the list files' state. */
export const LISTS_KEY = "lists";

/** The owner of a tournament's files in the bookkeeping (render/lists.ts names the lists' owners). */
export function tournamentOwner(id: string): string {
  return `t/${id}`;
}

/** What a rebuild needs to know about one rendered tournament without reading it again. */
export interface TournamentState {
  /** The external id, the tournament's public path segment. */
  id: string;
  fp: string;
  /** The status window [from, until) it was rendered in; null for an infinite bound. */
  from: number | null;
  until: number | null;
  /**
   * How many files its routes and pages wrote. Not their paths: the ledger names each owner's
   * files (keeping every path for the whole build cost about 100 bytes a file of heap).
   */
  fileCount: number;
  warnings: string[];
  unknownResults: number;
  stop: StandingsStop | null;
  /** Its entries in enabled clubs' catalogs, and the summary they list (null when none). */
  clubs: { slug: string; tags: string[]; displayOrder: number }[];
  summary: CatalogEntry["tournament"] | null;
  /** Its summary on the global list, when published there. */
  public: PublicSummary | null;
  /** The FIDE IDs of its players when published globally (their records: ledger/players.ts). */
  fideIds?: string[];
}

export function sha256(...parts: string[]): string {
  const h = createHash("sha256");
  for (const p of parts) h.update(p).update("\0");
  return h.digest("hex");
}

/** The count of a store revision token ("17.9f3c…", store/read/revisions.ts); -1 for none. */
export function revisionCount(token: string | null): bigint {
  const m = token === null ? null : /^(\d+)\./.exec(token);
  return m ? BigInt(m[1]!) : -1n;
}

/** The fingerprint of one tournament. */
export function tournamentFingerprint(base: string, token: string | null, rowsHash: string): string {
  return token === null ? sha256(base, "rows", rowsHash) : sha256(base, "revision", token);
}

/** True when `state` was rendered with fingerprint `fp` and `now` lies in its status window. */
export function stillValid(
  state: Pick<TournamentState, "fp" | "from" | "until">,
  fp: string,
  now: number,
): boolean {
  return state.fp === fp && (state.from ?? -Infinity) <= now && now < (state.until ?? Infinity);
}

/**
 * What the next build must know of the list files: the fingerprint of everything they depend on
 * besides their members (the program, clubs, vocabulary, tags in use), and their files by owner
 * (one owner per page of a list instance, so a tick keeps every page it does not render).
 */
export interface ListsRecord {
  fp: string;
  owners: Record<string, string[]>;
  /** How many members each list instance has (the tournament index's names): a tick counts only its change. */
  counts?: Record<string, number>;
  /**
   * What the host files were made from besides the lists' fingerprint: the hash of the lists'
   * Link headers and the base path, and the build instant at which the archived ids were read.
   */
  edge?: { key: string; at: number };
}

/** A record as the ledger keeps it (port.ts RecordRow). */
export interface StateRecord {
  fp: string;
  from: number | null;
  until: number | null;
  detail: string;
}

/** The bookkeeping's record of the lists (key LISTS_KEY), or its removal. */
export function listsRecord(lists: ListsRecord | null): {
  records: Map<string, StateRecord>;
  removed: string[];
} {
  if (!lists) return { records: new Map(), removed: [LISTS_KEY] };
  const { fp, ...detail } = lists;
  return {
    records: new Map([[LISTS_KEY, { fp, from: null, until: null, detail: JSON.stringify(detail) }]]),
    removed: [],
  };
}
