// Groups of rows as SQLite's GROUP BY forms them, judged from rows read in the same ORDER BY: equal
// values sort together, so a group is a run of neighbours. The checks err on one side only: two
// values that may be equal in SQL count as equal, so a check that finds no large group (or no
// repeat) proves SQL finds none either.
import type { SqlCells, SqlValue } from "./cells.ts";

/** Every BLOB as one key: blobs are rare in these columns, and merging groups only errs high. */
const BLOB = Symbol("blob");

/** A key under which values SQL groups together are equal: 1 and 1.0 are one group in SQL. */
function groupKey(v: SqlValue | undefined): unknown {
  if (typeof v === "bigint") return Number(v);
  return v instanceof Uint8Array ? BLOB : (v ?? null);
}

/** At least the size of the largest group of cell `at` among rows ordered by it. */
export function longestRun(rows: readonly SqlCells[], at: number): number {
  let longest = 0;
  let run = 0;
  let previous: unknown = undefined;
  for (let i = 0; i < rows.length; i++) {
    const key = groupKey(rows[i]![at]);
    run = i > 0 && key === previous ? run + 1 : 1;
    previous = key;
    if (run > longest) longest = run;
  }
  return longest;
}

/** False only when no two rows (ordered by cells `a`, `b`) share the pair of cells `a`, `b`. */
export function mayRepeat(rows: readonly SqlCells[], a: number, b: number): boolean {
  for (let i = 1; i < rows.length; i++) {
    const row = rows[i]!;
    const previous = rows[i - 1]!;
    if (groupKey(row[a]) === groupKey(previous[a]) && groupKey(row[b]) === groupKey(previous[b])) return true;
  }
  return false;
}
