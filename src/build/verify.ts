// `build-api verify`: the scheduled full check that a tick leaves out because it costs O(store) and
// O(files): the store's quick_check and trigger set, and every file of the live snapshot against
// its manifest. Read-only; takes no lock, so it never blocks a build.
import type { Problem } from "../shared/errors.ts";
import { verifySnapshot, type SnapshotVerification } from "../publish/verify.ts";
import { openStore } from "../store/read/open.ts";

export interface VerifyOptions {
  db?: string;
  out?: string;
}

export interface VerifyReport {
  /** The store passed quick_check and its schema checks (else verify throws, EXIT.storeUnreadable...). */
  store?: {
    file: string;
    /** Why ticks cannot trust the store's revisions (they hash every tournament's rows), or null. */
    revisions: string | null;
  };
  snapshot?: SnapshotVerification;
  /** Everything found wrong in the snapshot (the store's trouble throws). */
  problems: Problem[];
}

export function verify(opts: VerifyOptions): VerifyReport {
  const report: VerifyReport = { problems: [] };
  if (opts.db !== undefined) {
    // Every check of a full build, quick_check included: a corrupt store throws (exit 3).
    const store = openStore(opts.db, { quickCheck: true });
    try {
      report.store = { file: opts.db, revisions: store.revisionTrouble() };
    } finally {
      store.close();
    }
  }
  if (opts.out !== undefined) {
    report.snapshot = verifySnapshot(opts.out);
    report.problems.push(...report.snapshot.problems);
  }
  return report;
}
