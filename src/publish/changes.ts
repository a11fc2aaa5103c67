// What the last publication wrote and removed, for a deploy step (S3 sync, CDN purge) that runs
// after the build: read from the bookkeeping that the build left, in O(changed files). pair.json
// names, after a build, exactly the paths where the live version differs from the one before it
// (publish.ts step 5); a path the live version holds was written with new bytes, any other was
// removed. The build's own report (PublishReport.changed) says the same but caps its list.
import path from "node:path";
import { io } from "./io.ts";
import { inspectTarget, readPair, resolveLayout } from "./layout.ts";

export interface PublicationChanges {
  /** The live version directory these changes lead to. */
  snapshotDir: string;
  /** Paths ("/" separators, sorted) written with new bytes by the last build. */
  written: string[];
  /** Paths the last build removed. */
  removed: string[];
  /**
   * False when the bookkeeping cannot say (no pair record, or "all": the first builds, a
   * migration, a --rebuild): then treat every file of the live version as written and compare
   * with what the deploy target holds.
   */
  known: boolean;
}

/** The changes of the publication now live at `outDir`. Read-only; call after the build. */
export function publicationChanges(outDir: string): PublicationChanges {
  const layout = resolveLayout(outDir);
  const current = inspectTarget(layout, false);
  if (current.kind !== "link" || current.dir === undefined) {
    return { snapshotDir: layout.target, written: [], removed: [], known: false };
  }
  const pair = readPair(layout);
  if (!pair || !pair.buffers.includes(current.version) || pair.differ === "all") {
    return { snapshotDir: current.dir, written: [], removed: [], known: false };
  }
  const written: string[] = [];
  const removed: string[] = [];
  for (const p of pair.differ) {
    let present = false;
    try {
      present = io.lstatSync(path.join(current.dir, p)).isFile();
    } catch {
      present = false;
    }
    (present ? written : removed).push(p);
  }
  return { snapshotDir: current.dir, written, removed, known: true };
}
