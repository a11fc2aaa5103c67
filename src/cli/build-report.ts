// The build's report as the CLI prints it: the summary line, notes, warnings, skipped tournaments
// and clubs, the plan's reasons (--explain) and the JSON (--json). Lines only: cli/program.ts
// decides where they go.
import type { BuildReport } from "../pipeline/build.ts";
import { problemLines } from "../shared/errors.ts";

/** Warnings of each kind a build lists without --verbose; one more line counts the rest. */
export const LISTED_WARNINGS = 20;

/** "1 tournament", "2 tournaments". */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** The line that ends the progress output. */
export function summaryLine(report: BuildReport, out: string): string {
  const r = report.render;
  const p = report.publish;
  return report.upToDate
    ? `${out} is up to date (same store and options; no status changes at this instant)`
    : `built ${out}: ${plural(r.tournaments, "tournament")}, ${plural(p.files, "file")} ` +
        `(${p.filesWritten} written, ${p.filesUnchanged} unchanged, ${p.filesRemoved} removed); ` +
        `${plural(r.rendered?.tournaments ?? 0, "tournament")} rendered`;
}

/** `out` is a symlink the build switches atomically: where it points and how to copy it. */
export function linkLine(out: string, snapshotDir: string): string {
  return (
    `${out} -> ${snapshotDir} (a symlink: \`cp -r\` and \`tar\` copy the link; ` +
    `for a plain copy run \`build-api export --dir ${out} --out <new dir>\` or \`cp -rL ${out} <new dir>\`)`
  );
}

/** The build's notes, and the --jobs cap. */
export function noteLines(report: BuildReport): string[] {
  const lines = (report.notes ?? []).map((n) => `note: ${n}`);
  if (report.jobs?.capped)
    lines.push(
      `note: --jobs ${report.jobs.requested} capped at ${report.jobs.used}, the cores available ` +
        "(more threads would only cost memory)",
    );
  return lines;
}

/** The report as JSON (bigints as strings). */
export function jsonText(report: BuildReport): string {
  return JSON.stringify(report, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v), 2) + "\n";
}

/** What each reason of the plan (render/plan.ts) means, for --explain. */
const REASON_TEXT: Record<string, string> = {
  "first-build": "first build (no ledger describes a live snapshot)",
  rebuild: "--rebuild",
  new: "new (not in the live snapshot)",
  "rows-changed": "its rows changed in the store",
  "window-passed": "its status window passed (the build instant left the window it was rendered in)",
  "program-changed": "the program, its options, the clubs or the store's languages changed",
  "files-missing": "the live snapshot could not keep its files",
};

/** A list's name in the ledger (render/list-places.ts LIST), as a reader knows it. */
function listName(list: string): string {
  if (list === "*") return "every list";
  if (list === "p") return "the tournament list";
  if (list === "f" || list === "s") return "the snapshot feed";
  const club = /^c\/([^/]+)(?:\/t\/(.+))?$/.exec(list);
  if (club)
    return club[2] === undefined ? `club ${club[1]}'s list` : `club ${club[1]}'s list of tag ${club[2]}`;
  const tag = /^p\/t\/(.+)$/.exec(list);
  if (tag) return `the tournament list of tag ${tag[1]}`;
  return list;
}

/** --explain: why each tournament and list this build rendered was rendered. */
export function explainLines(report: BuildReport): string[] {
  if (report.upToDate) return ["explain: up to date: nothing rendered"];
  const plan = report.render.plan;
  if (!plan) return ["explain: this build recorded no plan"];
  const lines = plan.tournaments.map(
    (t) => `explain: tournament ${t.id}: ${REASON_TEXT[t.reason] ?? t.reason}`,
  );
  // The feed has two names in the ledger: said once.
  const lists = new Map(plan.lists.map((l) => [listName(l.list), l.reason]));
  for (const [name, reason] of lists) lines.push(`explain: ${name}: ${REASON_TEXT[reason] ?? reason}`);
  if (lines.length === 0) lines.push("explain: nothing rendered: every tournament and list was kept");
  return lines;
}

/**
 * The warnings: a tick lists those of what it rendered; those of tournaments it kept unchanged
 * are standing (listed when those were rendered): one line counts them, --verbose lists them all.
 * Then trouble after the switch, and what --skip-invalid left out.
 */
export function warningLines(report: BuildReport, verbose: boolean): string[] {
  const r = report.render;
  const lines: string[] = [];
  const fresh = r.rendered ?? { tournaments: 0, warnings: [], unknownResults: 0, standingsStops: [] };
  const shown = verbose
    ? { ...r, warnings: r.warnings ?? [], standingsStops: r.standingsStops ?? [] }
    : fresh;
  if (shown.unknownResults > 0)
    lines.push(`warning: ${plural(shown.unknownResults, "game result")} not recognized (Unknown)`);
  // Without --verbose, the first few of each kind: a full build of a whole results source has
  // thousands, which would bury the rest of the output.
  const listed = verbose ? Infinity : LISTED_WARNINGS;
  for (const s of shown.standingsStops.slice(0, listed))
    lines.push(
      `warning: tournament ${s.externalId}: standings stop at round ${s.afterRound} because of board ${s.board} of round ${s.round} (result not recognized)`,
    );
  for (const w of shown.warnings.slice(0, listed)) lines.push(`warning: ${w}`);
  const unlisted = [
    Math.max(0, shown.standingsStops.length - listed),
    Math.max(0, shown.warnings.length - listed),
  ] as const;
  if (unlisted[0] + unlisted[1] > 0) {
    const parts = [
      unlisted[0] > 0 ? plural(unlisted[0], "more standings stop") : "",
      unlisted[1] > 0 ? plural(unlisted[1], "more warning") : "",
    ].filter(Boolean);
    lines.push(
      `warning: ${parts.join(" and ")} in tournaments this build rendered (--verbose or --json lists them)`,
    );
  }
  if (!verbose) lines.push(...standingLines(r, fresh));
  // Trouble after the switch (an old version that could not be removed...): the new snapshot
  // is live, the next build retries.
  for (const w of report.publish.warnings ?? []) lines.push(`warning: ${w}`);
  lines.push(...skippedLines(r));
  return lines;
}

/** One line counting the warnings of the tournaments this build kept unchanged. */
function standingLines(
  r: BuildReport["render"],
  fresh: NonNullable<BuildReport["render"]["rendered"]>,
): string[] {
  const stops = r.standingsStopCount - fresh.standingsStops.length;
  const others = r.warningCount - fresh.warnings.length;
  const unknown = r.unknownResults - fresh.unknownResults;
  if (stops + others + unknown <= 0) return [];
  const parts = [
    stops > 0 ? plural(stops, "standings stop") : "",
    others > 0 ? plural(others, "other warning") : "",
    unknown > 0 ? `${plural(unknown, "game result")} not recognized` : "",
  ].filter(Boolean);
  return [
    `warning: standing, in tournaments this build kept unchanged: ${parts.join(", ")} ` +
      "(--verbose or --json lists them)",
  ];
}

/** The clubs and tournaments --skip-invalid left out, with their problems. */
function skippedLines(r: BuildReport["render"]): string[] {
  const lines: string[] = [];
  for (const s of r.skippedClubs ?? []) {
    if (s.problems.length === 0 && s.problemCount) {
      lines.push(`skipped a club: ${plural(s.problemCount, "problem")} (pass --rebuild to list them)`);
      continue;
    }
    lines.push(`skipped club (${s.club}), its catalog and club pages:`);
    lines.push(...problemLines(s.problems));
  }
  for (const s of r.skipped) {
    if (s.problems.length === 0 && s.problemCount) {
      // An up-to-date snapshot's record keeps only the count (the problems name private rows).
      lines.push(
        `skipped tournament ${s.externalId}: ${plural(s.problemCount, "problem")} (pass --rebuild to list them)`,
      );
      continue;
    }
    lines.push(`skipped tournament ${s.externalId}:`);
    lines.push(...problemLines(s.problems));
  }
  return lines;
}
