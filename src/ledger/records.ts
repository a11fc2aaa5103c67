// The tournament records, written once: their columns (in the ledger's `records`, its pending
// delta and a build's TEMP table alike) and the sums the report takes over them. A record is keyed
// `t:<id>` for a tournament (LISTS_KEY for the lists' record) and holds its fingerprint, status
// window, keyed store row, JSON detail (opaque here: tournament-index.ts turns it into a state) and the compact
// columns the report sums and a tick selects by, so neither reads a detail.
import type Database from "better-sqlite3";

/** The report's sums over every tournament of a snapshot. */
export interface IndexTotals {
  tournaments: number;
  files: number;
  unknownResults: number;
  /** Warnings, and standings that stop early, of every tournament. */
  warnings: number;
  standingsStops: number;
  validFrom: number;
  validUntil: number;
}

/**
 * The DDL of a record table's columns. `tombstones`: the pending delta, where a row with a NULL
 * fingerprint and detail removes its record.
 */
export function recordColumnsDdl(tombstones = false): string {
  const required = tombstones ? "" : " NOT NULL";
  return `key TEXT PRIMARY KEY, fp TEXT${required}, vfrom INTEGER, vuntil INTEGER, detail TEXT${required},
  ord TEXT, nfiles INTEGER NOT NULL DEFAULT 0, unknown INTEGER NOT NULL DEFAULT 0,
  issues INTEGER NOT NULL DEFAULT 0, archive INTEGER, row TEXT,
  nwarn INTEGER NOT NULL DEFAULT 0, stops INTEGER NOT NULL DEFAULT 0`;
}

/** A record's compact columns and its detail (JSON, opaque here). */
export interface IndexRecord {
  fp: string;
  from: number | null;
  until: number | null;
  detail: string;
}

/** A tournament's record with the columns the report is summed from. */
export interface IndexRow extends IndexRecord {
  key: string;
  ord: string;
  files: number;
  unknown: number;
  issues: boolean;
  /** How many warnings it has, and 1 when its standings stop early: the report counts them. */
  warnings: number;
  stops: number;
  archive: number | null;
  /**
   * The tournament's row in the store, keyed (keyed-ids.ts; null when the store keeps no
   * revisions): a tick finds a changed row's previous record by it.
   */
  row: string | null;
}

/** A record's columns, in the bookkeeping's tables and in this build's TEMP table alike. */
export const RECORD_COLUMNS =
  "key, fp, vfrom, vuntil, detail, ord, nfiles, unknown, issues, archive, row, nwarn, stops";

/** The report's sums over tournament records (RecordSums), by column. */
export const SUMMED_COLUMNS = "nfiles, unknown, nwarn, stops";

/** The sums the report takes over every tournament record. */
export interface RecordSums {
  n: number;
  files: number;
  unknown: number;
  nwarn: number;
  stops: number;
}

/** The bookkeeping's `meta` key of the live records' sums (kept by Bookkeeping.apply). */
export const RECORD_SUMS_KEY = "recordSums";

/**
 * The sums of the records of `from` (a FROM clause; tournament keys only when it reads
 * main.records whole). `columns`: the summed columns as `from` names them.
 */
export function sumsOf(
  db: Database.Database,
  from: string,
  columns: readonly string[] = SUMMED_COLUMNS.split(", "),
): RecordSums {
  const [files, unknown, nwarn, stops] = columns;
  const r = db
    .prepare<
      [],
      { n: number; files: number | null; unknown: number | null; nwarn: number | null; stops: number | null }
    >(
      `SELECT count(*) AS n, sum(${files}) AS files, sum(${unknown}) AS unknown, sum(${nwarn}) AS nwarn,
         sum(${stops}) AS stops FROM ${from}`,
    )
    .get()!;
  return { n: r.n, files: r.files ?? 0, unknown: r.unknown ?? 0, nwarn: r.nwarn ?? 0, stops: r.stops ?? 0 };
}

/** The live tournament records' sums as the bookkeeping keeps them, or null when it keeps none. */
export function liveRecordSums(db: Database.Database): RecordSums | null {
  const v = db.prepare<[string], string>("SELECT v FROM main.meta WHERE k = ?").pluck().get(RECORD_SUMS_KEY);
  return v === undefined ? null : (JSON.parse(v) as RecordSums);
}

/** The live tournament records' sums, counted (O(records), by the covering index records_sums). */
export function countRecordSums(db: Database.Database): RecordSums {
  return sumsOf(db, "main.records WHERE key >= 't:' AND key < 't;'");
}

export function totalsOf(s: RecordSums): Omit<IndexTotals, "validFrom" | "validUntil"> {
  return {
    tournaments: s.n,
    files: s.files,
    unknownResults: s.unknown,
    warnings: s.nwarn,
    standingsStops: s.stops,
  };
}
