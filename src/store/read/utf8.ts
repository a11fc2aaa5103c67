// Invalid UTF-8 in a text cell. better-sqlite3 decodes text leniently: bytes that are not UTF-8
// arrive as U+FFFD, and the published name would silently differ from what the store holds. So a
// text cell that holds U+FFFD (rare: valid text only has it when the source had it) is read once
// more as bytes and checked with a fatal decoder; a cell that is not UTF-8 is replaced by an
// InvalidUtf8 value, which the row check reports naming the row and column.
import type Database from "better-sqlite3";
import type { SqlCells, SqlRow, SqlValue } from "./cells.ts";
import { InvalidUtf8, invalidUtf8Offset, REPLACEMENT } from "./invalid-utf8.ts";
import { columnPositions, COLUMNS, textLimit, type ColumnOf, type TableName } from "../columns.ts";

/** A cell's stored bytes; `cut` when they are only the start of the value. */
interface StoredBytes {
  bytes: Uint8Array | null;
  cut: bigint;
}
type Lookup = (table: TableName, column: string, key: readonly [string, SqlValue][]) => StoredBytes[];

/** Reads a text cell's stored bytes (cut like the SELECT lists: a too-long value is reported for
 * its length anyway), for every row with the given key. */
export function bytesLookup(db: Database.Database): Lookup {
  const statements = new Map<string, Database.Statement<unknown[], StoredBytes>>();
  return (table, column, key) => {
    const id = `${table}.${column}`;
    let stmt = statements.get(id);
    if (!stmt) {
      const limit = textLimit(table, column as ColumnOf<typeof table>) ?? 0;
      const max = 4 * (limit + 1);
      stmt = db
        .prepare<unknown[], StoredBytes>(
          `SELECT substr(CAST(${column} AS BLOB), 1, ${max}) AS bytes,
             length(CAST(${column} AS BLOB)) > ${max} AS cut FROM ${table}
           WHERE ${key.map(([k]) => `${k} IS ?`).join(" AND ")}`,
        )
        .safeIntegers(true);
      statements.set(id, stmt);
    }
    return stmt.all(...key.map(([, v]) => v));
  };
}

const TEXT_COLUMNS = Object.fromEntries(
  Object.entries(COLUMNS).map(([table, columns]) => [
    table,
    Object.entries(columns)
      .filter(([, limit]) => limit !== null)
      .map(([column]) => column),
  ]),
) as Record<TableName, string[]>;

/** Where each of TEXT_COLUMNS sits in a raw row. */
const TEXT_POSITIONS = Object.fromEntries(
  Object.entries(TEXT_COLUMNS).map(([table, columns]) => [
    table,
    columns.map((c) => columnPositions(table as TableName)[c]!),
  ]),
) as Record<TableName, number[]>;

/**
 * Replaces, in place, every text cell of `rows` (rows of `table`: objects, or raw cells in the
 * order of selectAll) whose stored bytes are not UTF-8 by an InvalidUtf8. `keyColumns` identify a
 * row; they must be in every row.
 */
export function markInvalidUtf8<T extends TableName>(
  lookup: Lookup,
  table: T,
  keyColumns: readonly ColumnOf<T>[],
  rows: readonly (SqlRow | SqlCells)[],
): void {
  const columns = TEXT_COLUMNS[table];
  const at = TEXT_POSITIONS[table];
  for (const row of rows) {
    const raw = Array.isArray(row);
    for (let i = 0; i < columns.length; i++) {
      const v = raw ? (row as SqlCells)[at[i]!] : (row as SqlRow)[columns[i]!];
      // Only a cell holding U+FFFD can stand for bytes that are not UTF-8 (rare): looked up then.
      if (typeof v === "string" && v.includes(REPLACEMENT)) {
        markCell(lookup, table, keyColumns, row, columns[i]!);
      }
    }
  }
}

/** Replaces the cell `column` of `row` (it holds U+FFFD) when its stored bytes are not UTF-8. */
function markCell<T extends TableName>(
  lookup: Lookup,
  table: T,
  keyColumns: readonly ColumnOf<T>[],
  row: SqlRow | SqlCells,
  column: string,
): void {
  const positions = columnPositions(table);
  const raw = Array.isArray(row);
  const get = (c: string): SqlValue => (raw ? (row as SqlCells)[positions[c]!] : (row as SqlRow)[c]) ?? null;
  const key = keyColumns.map((k) => [k, get(k)] as [string, SqlValue]);
  for (const { bytes, cut } of lookup(table, column, key)) {
    if (!(bytes instanceof Uint8Array)) continue;
    const offset = invalidUtf8Offset(bytes, cut === 1n);
    if (offset < 0) continue;
    const bad = new InvalidUtf8(bytes);
    bad.offset = offset;
    if (raw) (row as SqlValue[])[positions[column]!] = bad;
    else (row as SqlRow)[column] = bad;
    break;
  }
}
