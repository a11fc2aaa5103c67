// The one bookkeeping file inside a version, at its root: the marker. It says "this directory is a
// build-api snapshot, a build may replace it" and names the generation of the bookkeeping
// (the ledger, src/ledger/, beside the versions) the version was sealed as.
//
// The previous format kept a manifest of every file (MANIFEST_NAME) and the per-tournament state
// in each version: a build finds no generation in such a version's marker, compares every file as
// a first build does, and drops both files.
import path from "node:path";
import { io } from "./io.ts";

export const MARKER_NAME = ".build-api-snapshot";
export const MARKER_CONTENT =
  "build-api snapshot\nThis directory was written by build-api; the next build may replace it.\n";
/** The previous format's manifest: no build writes it any more; hosts still refuse it. */
export const MANIFEST_NAME = ".build-api-manifest.json";

/** The marker of a version sealed as `generation` of the bookkeeping (bookkeeping.ts). */
export function markerText(generation: number): string {
  return `${MARKER_CONTENT}generation ${generation}\n`;
}

/** The generation a version's marker names; undefined when it names none (the previous format). */
export function markerGeneration(dir: string): number | undefined {
  try {
    const text = io.readFileSync(path.join(dir, MARKER_NAME), "utf8") as string;
    const m = /\ngeneration ([1-9][0-9]*)\n$/.exec(text);
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}
