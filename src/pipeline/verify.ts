// `build-api verify`: the scheduled full check that a tick leaves out because it costs O(store) and
// O(files): the store's quick_check and trigger set, every file of the live snapshot against its
// bookkeeping, and, given both, that the store still holds the history the snapshot was built from
// (a tick confirms it by the tournaments changed last only: docs/design/incremental.md). Read-only;
// takes no lock, so it never blocks a build.
import { existsSync } from "node:fs";
import type { Problem } from "../shared/errors.ts";
import { checkedOf, readRecord } from "../ledger/inputs.ts";
import { revisionCount, tournamentFingerprint } from "../ledger/state.ts";
import { clubsDigest, KeyedIds } from "../ledger/keyed-ids.ts";
import { besideSnapshot } from "../ledger/site.ts";
import { resolveLayout } from "../publish/layout.ts";
import { verifySnapshot, type SnapshotVerification } from "../publish/verify.ts";
import { openStore, type Store } from "../store/read/open.ts";

export interface VerifyOptions {
  db?: string;
  out?: string;
}

/** The snapshot's tournaments against the store's revisions now (both --db and --out). */
export interface HistoryCheck {
  /** Why nothing was compared (no record of what the build read, another store file), if so. */
  skipped?: string;
  /** Tournaments whose revision is the one they were rendered from. */
  same: number;
  /** Tournaments changed since the snapshot's build: the next build renders them. */
  changedSince: number;
  /** Tournaments whose revision is not newer but is not theirs: another history (problems). */
  differing: number;
}

export interface VerifyReport {
  /** The store passed quick_check and its schema checks (else verify throws, EXIT.storeUnreadable...). */
  store?: {
    file: string;
    /** Why ticks cannot trust the store's revisions (they hash every tournament's rows), or null. */
    revisions: string | null;
  };
  snapshot?: SnapshotVerification;
  history?: HistoryCheck;
  /** Everything found wrong in the snapshot and its history (the store's trouble throws). */
  problems: Problem[];
}

export function verify(opts: VerifyOptions): VerifyReport {
  const report: VerifyReport = { problems: [] };
  // Every check of a full build, quick_check included: a corrupt store throws (exit 3).
  const store = opts.db === undefined ? undefined : openStore(opts.db, { quickCheck: true });
  try {
    if (store) report.store = { file: opts.db!, revisions: store.revisionTrouble() };
    if (opts.out !== undefined) {
      report.snapshot = verifySnapshot(opts.out);
      report.problems.push(...report.snapshot.problems);
      if (store && report.snapshot.described) {
        report.history = storeHistory(store, opts.out, report.problems);
      }
    }
  } finally {
    store?.close();
  }
  return report;
}

const REBUILD = "run `build-api build --rebuild`: it renders every tournament from the store as it is";

/**
 * Each tournament of the snapshot whose revision is not past the count its build read must have
 * the revision it was rendered from (its fingerprint, with the build's common part). One that
 * does not shows a store of another history: restored in place from an older copy, or another
 * store copied over it, which a tick may miss (it looks at the 1,024 changed last only).
 */
function storeHistory(store: Store, out: string, problems: Problem[]): HistoryCheck {
  const result: HistoryCheck = { same: 0, changedSince: 0, differing: 0 };
  // Null too when the snapshot was built from another file (the next build renders everything).
  const checked = checkedOf(readRecord(out)?.checked, store.history);
  if (checked === null)
    return { ...result, skipped: "the snapshot's build recorded no revisions of this store file" };
  const since = checked.since;
  const rowOf = rowFinder(store, checked);
  const bookkeeping = besideSnapshot(resolveLayout(out).store, existsSync).openReadOnly();
  try {
    for (const r of bookkeeping.tournamentRecords()) {
      if (r.row === null) continue;
      const row = rowOf(r.key.slice(2), r.row);
      const token = typeof row === "number" ? (store.revisionTokens([row])[0] ?? null) : null;
      if (row === "changed" || (token !== null && revisionCount(token) > since)) result.changedSince++;
      else if (token !== null && tournamentFingerprint(checked.base, token, "") === r.fp) result.same++;
      else {
        result.differing++;
        problems.push({
          where: `${store.file}: table tournaments, row (external_id=${r.key.slice(2)})`,
          what:
            `tournament ${r.key.slice(2)} was built from another revision than the store holds, ` +
            `though none newer than the snapshot's build: the store has another history ` +
            `(restored from an older copy, or another store put over it)`,
          fix: REBUILD,
        });
      }
    }
  } finally {
    bookkeeping.close();
  }
  return result;
}

/**
 * Finds a record's store row: the ledger keeps it keyed (ledger/keyed-ids.ts), so the store finds
 * the tournament by its external id and the key confirms it is the same row. One no longer there
 * changed since in the history the snapshot was built from: its keyed row is among those changed
 * since `checked.since` ("changed"), or the store has another history (null). When the clubs
 * changed since the build (so did the key; the next build renders everything), the external id
 * alone is followed.
 */
function rowFinder(
  store: Store,
  checked: { since: bigint; clubs: string },
): (externalId: string, keyedRow: string) => number | "changed" | null {
  const counts = store.revisionCounts();
  const keyed =
    counts && checked.clubs === clubsDigest(counts.clubs) ? KeyedIds.of(store.history, counts.clubs) : null;
  let changed: Set<string> | undefined;
  return (externalId, keyedRow) => {
    const rows = store.rowsOfExternalIds([externalId]);
    if (keyed === null) return rows.length === 1 ? rows[0]! : "changed";
    const row = rows.find((r) => keyed.row(r) === keyedRow);
    if (row !== undefined) return row;
    changed ??= new Set([...store.changedSince(checked.since).keys()].map((r) => keyed.row(r)));
    return changed.has(keyedRow) ? "changed" : null;
  };
}
