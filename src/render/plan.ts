// The planner: which tournaments a build looks at (every published one, or on a tick only those
// changed since the live snapshot's build, read from the ledger and the store's revisions), and
// why each one it renders is rendered. The reasons are pure functions of what the ledger recorded
// and what the build sees now, so each is pinned by a unit test (test/unit/render/plan.test.ts);
// `build --json` reports them and `build --explain` prints them.
import type { Window } from "../ledger/tournament-index.ts";
import type { KeyedIds } from "../ledger/keyed-ids.ts";
import { stillValid, tournamentFingerprint } from "../ledger/state.ts";
import type { TournamentIndex } from "../ledger/tournament-index.ts";
import type { Store } from "../store/read/open.ts";
import type { ChunkKey } from "../store/read/reader.ts";
import type { TournamentJob } from "./tournament.ts";

/** Why a tournament or a list was rendered rather than kept from the live snapshot. */
export type Reason =
  /** No ledger describes a live snapshot (the first build into --out, or its ledger was lost). */
  | "first-build"
  /** --rebuild: every file is written anew. */
  | "rebuild"
  /** Not in the live snapshot (new in the store, or published now). */
  | "new"
  /** Its rows (or, for a list, its members) changed in the store. */
  | "rows-changed"
  /** The build instant left the status window it was rendered in. */
  | "window-passed"
  /** The program, its options, the clubs or the store's languages changed. */
  | "program-changed"
  /** Unchanged, but the live snapshot could not keep its files. */
  | "files-missing";

/** What a build knows when it plans, besides each tournament's record. */
export interface PlanContext {
  /** --rebuild. */
  rebuild: boolean;
  /** A ledger describes the live snapshot (its records are this build's "previous"). */
  live: boolean;
  /**
   * The fingerprints' common part (program, options, clubs, languages) now and as the live
   * snapshot's build recorded it (undefined when unknown: then a changed fingerprint is put down
   * to the rows).
   */
  base: string | null;
  previousBase: string | undefined;
  now: number;
}

/** Why a tournament rendered now with fingerprint `fp` is rendered, given its previous record. Pure. */
export function tournamentReason(ctx: PlanContext, previous: Window | null, fp: string): Reason {
  if (ctx.rebuild) return "rebuild";
  if (!ctx.live) return "first-build";
  if (previous === null) return "new";
  if (previous.fp !== fp) return programChanged(ctx) ? "program-changed" : "rows-changed";
  return stillValid(previous, fp, ctx.now) ? "files-missing" : "window-passed";
}

/**
 * Why the lists are rendered: all of them (list "*") when nothing of the previous ones can be
 * kept, else each list whose members changed. Pure.
 */
export function listReasons(
  ctx: PlanContext,
  previous: { fp: string } | null,
  fp: string | null,
  changed: readonly string[],
): { list: string; reason: Reason }[] {
  if (ctx.rebuild) return [{ list: "*", reason: "rebuild" }];
  if (!ctx.live || previous === null || fp === null) return [{ list: "*", reason: "first-build" }];
  if (previous.fp !== fp) return [{ list: "*", reason: "program-changed" }];
  return [...changed].sort().map((list) => ({ list, reason: "rows-changed" }));
}

function programChanged(ctx: PlanContext): boolean {
  return ctx.previousBase !== undefined && ctx.base !== null && ctx.previousBase !== ctx.base;
}

/** Published tournaments read per query by a build that looks at every one. */
const PUBLISHED_CHUNK = 1000;

/**
 * Whether the store continues the history the live snapshot's build read: that build recorded the
 * tournaments changed last and their tokens; each must have that token now, or a count past the
 * recorded one (changed since), and at least one must be found unchanged. Another store copied
 * over the file shows other stamps; a store restored from an older copy of itself shows older
 * tokens for what it lost, unless every one of those tournaments changed again since, in which
 * case each is rendered again anyway. And the program, clubs and languages must be the same.
 * The ledger keeps rows and tokens keyed (`keyed`), so the store's side is keyed to be compared:
 * those changed since `since`, and those changed last up to it (the recorded ones that are
 * unchanged are among them, in the same order). O(recorded + changed since).
 */
export function onHistory(
  store: Store,
  checked: { since: bigint; base: string } | undefined,
  base: string,
  recent: readonly [string, string][],
  keyed: KeyedIds,
): boolean {
  if (checked === undefined || checked.base !== base || recent.length === 0) return false;
  const then = new Map(
    store
      .recentRevisions(recent.length, checked.since)
      .map(([row, token]) => [keyed.row(row), keyed.token(token)]),
  );
  let changed: Set<string> | undefined;
  let unchanged = 0;
  for (const [row, token] of recent) {
    if (then.get(row) === token) unchanged++;
    else {
      changed ??= new Set([...store.changedSince(checked.since).keys()].map((r) => keyed.row(r)));
      if (!changed.has(row)) return false;
    }
  }
  return unchanged > 0;
}

/** The tournaments a build looks at, in store order, and the previous ones it may drop. */
export interface Plan {
  jobs: Iterable<TournamentJob>;
  /** How many jobs there are (for progress). */
  total: number;
  /** The previous tournaments that are gone unless seen now; undefined: every one. */
  candidates?: Iterable<string>;
}

/**
 * Every published tournament: a job marked `keep` when its revision says it is unchanged (it never
 * reaches a renderer, but goes through the same ordered stream, so results are taken in store
 * order). Every previous tournament is a candidate to drop. O(tournaments) in time, O(chunk) in
 * memory.
 */
export function everyTournament(store: Store, ix: TournamentIndex, base: string | null, now: number): Plan {
  // Read a chunk at a time, each tournament's previous record by a seek: the build holds no list
  // of every tournament, however large the store.
  const tokens = base !== null && store.revisionTrouble() === null;
  const jobs = function* (): Generator<TournamentJob> {
    let after: ChunkKey | null = null;
    do {
      const chunk = store.publishedAfter(after, PUBLISHED_CHUNK, tokens);
      for (const key of chunk.keys) {
        const externalId = key.externalId.toString();
        const prev = base === null ? null : ix.previousOf(externalId);
        const fp = base !== null && key.token !== null ? tournamentFingerprint(base, key.token, "") : null;
        const keep = fp !== null && prev !== null && stillValid(prev, fp, now);
        yield {
          rowId: key.rowId,
          externalId,
          token: key.token,
          previous: prev && { fp: prev.fp, from: prev.from, until: prev.until },
          ...(keep && { keep }),
        };
      }
      after = chunk.next;
    } while (after !== null);
  };
  return { jobs: jobs(), total: store.publishedCount() };
}

/**
 * A tick's tournaments: those whose revision passed `since`, those whose window no longer holds
 * `now` and those the live build skipped as invalid; the published ones are rendered in store
 * order. Their previous records are the candidates to drop (a tournament unpublished, deleted,
 * or given another external id). The others are kept under TICK_OWNERS. O(change): the revision
 * and window indexes find them.
 */
export function changedTournaments(
  store: Store,
  ix: TournamentIndex,
  since: bigint,
  now: number,
  skipped: readonly string[],
): Plan {
  const tokens = store.changedSince(since);
  // Unchanged, but to be looked at again: a window that ended, or a tournament left out as
  // invalid (it has no record; it is reported again, as a full build would).
  const again = [...store.rowsOfExternalIds(ix.expired(now)), ...store.rowsOfExternalIds(skipped)];
  const expired = [...new Set(again)].filter((row) => !tokens.has(row));
  const unchanged = store.revisionTokens(expired);
  for (const [i, row] of expired.entries()) tokens.set(row, unchanged[i] ?? "");
  const keys = store.publishedAmong(tokens.keys());
  const candidates = new Set<string>();
  for (const row of tokens.keys()) for (const id of ix.idsOfRow(row)) candidates.add(id);
  const jobs = function* (): Generator<TournamentJob> {
    for (const key of keys) {
      const externalId = key.externalId.toString();
      const prev = ix.previousOf(externalId);
      if (prev) candidates.add(externalId);
      yield {
        rowId: key.rowId,
        externalId,
        token: tokens.get(key.rowId) ?? "",
        previous: prev && { fp: prev.fp, from: prev.from, until: prev.until },
      };
    }
  };
  return { jobs: jobs(), total: keys.length, candidates };
}
