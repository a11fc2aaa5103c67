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
// The snapshot keeps, in STATE_FILE, each tournament's fingerprint, window, file list and the
// public summaries the list files need, so an unchanged tournament is kept (SnapshotWriter.keepAll)
// without being read, computed or rendered, and the list files are rendered again only when the
// summaries, clubs or vocabulary in them changed. The state file is internal (never served) and
// holds only public facts: external ids, file paths, summaries that the lists publish anyway, and
// hashes of revision counters or of contract columns without the private row ids.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import type { StandingsStop } from "../domain/standings.ts";
import type { CatalogEntry } from "../views/club.ts";
import type { PublicSummary } from "../views/public.ts";

export const STATE_FILE = "_build-api-state.json";
const STATE_FORMAT = 1;

/** What a rebuild needs to know about one rendered tournament without reading it again. */
export interface TournamentState {
  /** The external id, the tournament's public path segment. */
  id: string;
  fp: string;
  /** The status window [from, until) it was rendered in; null for an infinite bound. */
  from: number | null;
  until: number | null;
  /** Every file its routes and pages wrote, in write order. */
  files: string[];
  warnings: string[];
  unknownResults: number;
  stop: StandingsStop | null;
  /** Its entries in enabled clubs' catalogs, and the summary they list (null when none). */
  clubs: { slug: string; tags: string[]; displayOrder: number }[];
  summary: CatalogEntry["tournament"] | null;
  /** Its summary on the global list, when published there. */
  public: PublicSummary | null;
}

export interface SnapshotState {
  format: number;
  /** The fingerprint of the list files (catalogs, global lists, index page) and their paths. */
  lists: { fp: string; files: string[] } | null;
  tournaments: TournamentState[];
}

export function sha256(...parts: string[]): string {
  const h = createHash("sha256");
  for (const p of parts) h.update(p).update("\0");
  return h.digest("hex");
}

/** True when `state` was rendered with fingerprint `fp` and `now` lies in its status window. */
/** The fingerprint of one tournament. */
export function tournamentFingerprint(base: string, token: string | null, rowsHash: string): string {
  return token === null ? sha256(base, "rows", rowsHash) : sha256(base, "revision", token);
}

export function stillValid(state: TournamentState, fp: string, now: number): boolean {
  return state.fp === fp && (state.from ?? -Infinity) <= now && now < (state.until ?? Infinity);
}

export function serializeState(state: SnapshotState): string {
  // One tournament per line: readable, and a diff of two states shows what changed.
  const lines = state.tournaments.map((t) => JSON.stringify(t));
  return (
    `{"format":${state.format},"lists":${JSON.stringify(state.lists)},"tournaments":[\n` +
    lines.join(",\n") +
    (lines.length ? "\n" : "") +
    "]}\n"
  );
}

export function emptyState(): SnapshotState {
  return { format: STATE_FORMAT, lists: null, tournaments: [] };
}

/** The state of the snapshot at `out`, or null when there is none or it is not ours. */
export function readState(out: string): SnapshotState | null {
  try {
    const s = JSON.parse(readFileSync(path.join(out, STATE_FILE), "utf8")) as SnapshotState;
    return s.format === STATE_FORMAT && Array.isArray(s.tournaments) ? s : null;
  } catch {
    return null;
  }
}
