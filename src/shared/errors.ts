// One user-facing error type. Each problem says what is wrong, where, and how to fix it; a
// BuildError carries every problem found, not only the first, and the exit code of its class.

/**
 * Process exit codes, one per class of failure. docs/reference/exit-codes.md is generated from
 * this table and EXIT_MEANINGS (npm run gen-docs).
 */
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
  /**
   * `verify` found snapshot files that differ from the manifest, are missing, or are extra, or a
   * snapshot built from another history of the store.
   */
  snapshotDamaged: 10,
  /** Uploading to object storage failed (network, credentials, bucket); a rerun resumes. */
  deploy: 11,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/**
 * What each exit code tells the operator, one line each: the data of the exit-code reference, so
 * a new code cannot be added without its description (the Record type requires every key).
 */
export const EXIT_MEANINGS: Readonly<Record<keyof typeof EXIT, string>> = {
  ok: "success",
  internal: "internal error: a bug in build-api (please report it with the message)",
  usage:
    "bad usage: unknown command or option, missing or invalid value; also `preview` on a port or address it cannot listen on",
  storeUnreadable:
    "the store is unreadable: missing, not SQLite, truncated or corrupt, or replaced or removed while a build read it",
  storeSchema: "the store's schema is wrong: a different or newer `user_version`, missing tables or columns",
  storeData:
    "the store has invalid rows or exceeds a limit (the first problems are listed, then the count of the others); `--skip-invalid` skips the tournaments concerned",
  unsafeOutput:
    "the output directory is unsafe to replace, or full or not writable (never caused by a store value)",
  locked:
    "another build holds the lock on the output directory; for `verify`, a build switched the snapshot while it was checked",
  invalidOutput: "an emitted file failed its JSON Schema: a bug in build-api; nothing is published",
  trf: "a TRF file could not be parsed or imported (also: unknown result codes, team tournaments)",
  snapshotDamaged:
    "the live snapshot differs from its manifest (`verify`; or a build found a live file removed by hand), or `verify` found it built from another history of the store: `build --rebuild` writes every file anew",
  deploy:
    "`deploy` failed: the bucket could not be reached, did not answer in time or refused a request (network, a timeout, credentials, bucket, a server error or throttling after retries), or the snapshot or its edge code cannot be deployed (no manifest, a CloudFront Function over 10 KB); a rerun resumes an interrupted deploy",
};

/** A row of a store table, by its key columns. */
export interface RowRef {
  table: string;
  key: [column: string, value: string][];
}

export interface Problem {
  /** What is wrong, in one sentence. */
  what: string;
  /** Where: file, table, row, column, line, path ... */
  where?: string;
  /**
   * The store row it is in, when it is one: `where` as data (its table and its key, each value as
   * `where` shows it), so no reader parses `where` back.
   */
  row?: RowRef;
  /** How to fix it. */
  fix?: string;
}

export class BuildError extends Error {
  readonly problems: Problem[];
  readonly exitCode: ExitCode;

  /** `options.cause`: the failure underneath (an SDK error, an fs error), kept for the report. */
  constructor(summary: string, problems: Problem[], exitCode: ExitCode, options?: ErrorOptions) {
    super(formatMessage(summary, problems), options);
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
