// One user-facing error type. Each problem says what is wrong, where, and how to fix it; a
// BuildError carries every problem found, not only the first, and the exit code of its class.

/** Process exit codes, one per class of failure. Documented in the README. */
export const EXIT = {
  ok: 0,
  /** Unexpected internal failure (a bug). */
  internal: 1,
  /** Bad command-line usage or option value. */
  usage: 2,
  /** The store file is missing, not SQLite, corrupt or truncated. */
  storeUnreadable: 3,
  /** The store has a different or newer schema version, or tables/columns are missing. */
  storeSchema: 4,
  /** Rows in the store are invalid (types, references, duplicates, patterns, sizes). */
  storeData: 5,
  /** The output directory is unsafe to write or replace. */
  unsafeOutput: 6,
  /** Another build holds the lock on the output directory. */
  locked: 7,
  /** An emitted file failed validation against its JSON Schema (a bug in build-api). */
  invalidOutput: 8,
  /** A TRF file could not be parsed or imported. */
  trf: 9,
  /** `verify` found snapshot files that differ from the manifest, are missing, or are extra. */
  snapshotDamaged: 10,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export interface Problem {
  /** What is wrong, in one sentence. */
  what: string;
  /** Where: file, table, row, column, line, path ... */
  where?: string;
  /** How to fix it. */
  fix?: string;
}

export class BuildError extends Error {
  readonly problems: Problem[];
  readonly exitCode: ExitCode;

  constructor(summary: string, problems: Problem[], exitCode: ExitCode) {
    super(formatMessage(summary, problems));
    this.name = "BuildError";
    this.problems = problems;
    this.exitCode = exitCode;
  }
}

export function formatProblem(p: Problem): string {
  let s = p.where ? `${p.where}: ${p.what}` : p.what;
  if (p.fix) s += ` (fix: ${p.fix})`;
  return s;
}

/** 1000000 → "1,000,000", the same on every machine (no locale). */
export function groupDigits(n: number | bigint): string {
  return String(n).replace(/\B(?=(\d{3})+$)/g, ",");
}

/** Problems a report lists one by one; the rest are counted. */
export const PROBLEMS_SHOWN = 50;

/** The report lines of a problem list of any length: the first PROBLEMS_SHOWN, then the count of
 * the others ("  ... and 999,950 more"). */
export function problemLines(problems: readonly Problem[], shown = PROBLEMS_SHOWN): string[] {
  const lines: string[] = [];
  for (let i = 0; i < problems.length && i < shown; i++) lines.push(`  - ${formatProblem(problems[i]!)}`);
  if (problems.length > shown) {
    lines.push(`  ... and ${groupDigits(problems.length - shown)} more`);
  }
  return lines;
}

function formatMessage(summary: string, problems: Problem[]): string {
  if (problems.length === 0) return summary;
  return `${summary}\n${problemLines(problems).join("\n")}`;
}
