// Reading one store row cell by cell. SQLite is loosely typed (a foreign or hand-edited store can
// hold text in an INTEGER column), so every cell is checked with typeof before it is used. A bad
// cell adds a problem naming file, table, row key and column, and yields a placeholder; the caller
// discards the whole object once any problem was added, so placeholders never reach the output.
import type { Problem, RowRef } from "../../shared/errors.ts";
import {
  columnPositions,
  textLimit,
  type ColumnOf,
  type ColumnPositions,
  type TableName,
} from "../columns.ts";
import { unsafeCharacter, type TextFormat } from "../formats.ts";
import { INT32_MAX, INT32_MIN, INT64_MAX, INT64_MIN, MAX_TEXT_LENGTH } from "../limits.ts";
import { quote, segmentProblem, type SegmentKind } from "../../shared/segments.ts";
import { InvalidUtf8 } from "./invalid-utf8.ts";

/** What better-sqlite3 returns with safeIntegers(true). */
export type SqlValue = bigint | number | string | Uint8Array | null;
export type SqlRow = Record<string, SqlValue>;
/** A raw row (statement.raw(true)) of a selectAll() list: cells in the order of COLUMNS. */
export type SqlCells = readonly SqlValue[];

export interface Range {
  min?: number;
  max?: number;
}

const NO_RANGE: Range = {};
// Module-local copies: optInt32 runs for most integer cells, and these are read on every call.
const MIN_INT32 = INT32_MIN;
const MAX_INT32 = INT32_MAX;
const NO_OPTIONS: TextOptions = {};
const UNSAFE_FIX =
  "remove it in the importer: control, bidirectional and other invisible format characters are never published";

export interface TextOptions {
  format?: TextFormat;
  /** Required text must not be empty or blank unless this is set. */
  allowBlank?: boolean;
}

/** A value as a message shows it: integers and reals as numbers, text quoted and cut short. */
export function showValue(value: SqlValue): string {
  if (value === null) return "NULL";
  if (value instanceof InvalidUtf8) return "(text that is not UTF-8)";
  if (typeof value === "bigint" || typeof value === "number") return String(value);
  if (typeof value === "string") return quote(value, 40);
  return `a BLOB of ${value.length} bytes`;
}

function describe(value: SqlValue): string {
  if (value === null) return "NULL";
  if (typeof value === "bigint") return `the integer ${value}`;
  if (typeof value === "number") return `the real number ${value}`;
  if (typeof value === "string") return `the text ${quote(value, 40)}`;
  return `a BLOB of ${value.length} bytes`;
}

function codePointLength(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length - 1; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

/** Whether a text is longer than `limit` characters (Unicode code points, as SQLite counts). */
export function isTooLong(s: string, limit: number): boolean {
  return s.length > limit && codePointLength(s) > limit;
}

/** A store row as a problem refers to it (Problem.row). */
export function rowRef(table: string, key: readonly (readonly [string, SqlValue])[]): RowRef {
  return { table, key: key.map(([name, value]) => [name, showValue(value)]) };
}

/** "sample.sqlite: table games, row (tournament_id=3, round_number=5)" */
export function rowWhere(file: string, ref: RowRef): string {
  return `${file}: table ${ref.table}, row (${ref.key.map(([name, value]) => `${name}=${value}`).join(", ")})`;
}

export class RowCheck<T extends TableName> {
  private readonly before: number;
  // Made only when a problem needs it: most rows are fine.
  private rowPlace: { ref: RowRef; where: string } | null = null;
  // Created by the first problem on a column: most rows have none.
  private failedColumns: Set<string> | null = null;
  /** Null for a row object; column positions for raw cells. */
  private readonly positions: ColumnPositions | null;

  /** `row` is either an object keyed by column name or the raw cells of selectAll(table). */
  readonly file: string;
  readonly table: T;
  private readonly row: SqlRow | SqlCells;
  private readonly keyColumns: readonly ColumnOf<T>[];
  private readonly sink: Problem[];

  constructor(
    file: string,
    table: T,
    row: SqlRow | SqlCells,
    keyColumns: readonly ColumnOf<T>[],
    sink: Problem[],
  ) {
    this.file = file;
    this.table = table;
    this.row = row;
    this.keyColumns = keyColumns;
    this.sink = sink;
    this.before = sink.length;
    this.positions = Array.isArray(row) ? columnPositions(table) : null;
  }

  /** True while no problem was found in this row. */
  get ok(): boolean {
    return this.sink.length === this.before;
  }

  /** The row, and its place as text (with `column`, that column of it). */
  private place(column?: string): { ref: RowRef; where: string } {
    if (this.rowPlace === null) {
      const ref = rowRef(
        this.table,
        this.keyColumns.map((c) => [c, this.value(c)] as const),
      );
      this.rowPlace = { ref, where: rowWhere(this.file, ref) };
    }
    const { ref, where } = this.rowPlace;
    return { ref, where: column ? `${where}, column ${column}` : where };
  }

  where(column?: string): string {
    return this.place(column).where;
  }

  /** True when a problem was reported on `column`: its value is a placeholder, so checks that
   * compare it with other rows must skip it rather than report an echo. */
  failed(column: ColumnOf<T>): boolean {
    return this.failedColumns !== null && this.failedColumns.has(column);
  }

  report(column: ColumnOf<T> | null, what: string, fix: string): void {
    if (column !== null) (this.failedColumns ??= new Set()).add(column);
    const { ref, where } = this.place(column ?? undefined);
    this.sink.push({ where, what, fix, row: ref });
  }

  value(column: ColumnOf<T>): SqlValue {
    const positions = this.positions;
    const v = positions === null ? (this.row as SqlRow)[column] : (this.row as SqlCells)[positions[column]!];
    return v ?? null;
  }

  private missing(column: ColumnOf<T>): void {
    this.report(column, "is NULL but a value is required", "set a value");
  }

  private integer(column: ColumnOf<T>, lo: bigint, hi: bigint, kind: string): bigint | null {
    const v = this.value(column);
    if (typeof v !== "bigint") {
      this.report(column, `holds ${describe(v)}, expected an integer`, "store a whole number");
      return null;
    }
    if (v < lo || v > hi) {
      this.report(column, `is ${v}, outside ${kind} ${lo}..${hi}`, `use a whole number from ${lo} to ${hi}`);
      return null;
    }
    return v;
  }

  optInt32(column: ColumnOf<T>, range: Range = NO_RANGE): number | null {
    const v = this.value(column);
    if (v === null) return null;
    if (typeof v !== "bigint") {
      this.report(column, `holds ${describe(v)}, expected an integer`, "store a whole number");
      return 0;
    }
    // Plain numbers: the bounds are exact, and rounding a huge bigint never moves it across them.
    const lo = Math.max(range.min ?? MIN_INT32, MIN_INT32);
    const hi = Math.min(range.max ?? MAX_INT32, MAX_INT32);
    const n = Number(v);
    if (n < lo || n > hi) {
      const kind = range.min === undefined && range.max === undefined ? "the int32 range" : "the range";
      this.report(column, `is ${v}, outside ${kind} ${lo}..${hi}`, `use a whole number from ${lo} to ${hi}`);
      return 0;
    }
    return n;
  }

  int32(column: ColumnOf<T>, range: Range = NO_RANGE): number {
    if (this.value(column) === null) {
      this.missing(column);
      return 0;
    }
    return this.optInt32(column, range) ?? 0;
  }

  optInt64(column: ColumnOf<T>, min: bigint = INT64_MIN): bigint | null {
    if (this.value(column) === null) return null;
    return this.integer(column, min, INT64_MAX, "the range") ?? 0n;
  }

  int64(column: ColumnOf<T>, min: bigint = INT64_MIN): bigint {
    if (this.value(column) === null) {
      this.missing(column);
      return 0n;
    }
    return this.optInt64(column, min) ?? 0n;
  }

  /** A 0/1 boolean column. */
  flag(column: ColumnOf<T>): boolean {
    const v = this.value(column);
    if (v === 0n || v === 1n) return v === 1n;
    this.report(column, `holds ${describe(v)}, expected 0 or 1`, "store 0 (false) or 1 (true)");
    return false;
  }

  optReal(column: ColumnOf<T>, limit: number): number | null {
    const v = this.value(column);
    if (v === null) return null;
    // A store without REAL affinity hands whole numbers over as integers.
    const n = typeof v === "bigint" ? Number(v) : v;
    if (typeof n !== "number") {
      this.report(column, `holds ${describe(v)}, expected a number`, "store a number such as 1 or 0.5");
      return 0;
    }
    if (!Number.isFinite(n) || Math.abs(n) > limit) {
      this.report(
        column,
        `is ${n}, outside -${limit}..${limit}`,
        `store a number from -${limit} to ${limit}`,
      );
      return 0;
    }
    return n;
  }

  real(column: ColumnOf<T>, limit: number): number {
    if (this.value(column) === null) {
      this.missing(column);
      return 0;
    }
    return this.optReal(column, limit) ?? 0;
  }

  optText(column: ColumnOf<T>, options: TextOptions = NO_OPTIONS): string | null {
    const v = this.value(column);
    if (v === null) return null;
    if (v instanceof InvalidUtf8) {
      this.report(
        column,
        `is not valid UTF-8 (byte ${v.offset} of the stored text)`,
        "store the text as UTF-8: convert it from its real encoding in the importer",
      );
      return "";
    }
    if (typeof v !== "string") {
      this.report(column, `holds ${describe(v)}, expected text`, "store the value as text");
      return "";
    }
    const limit = textLimit(this.table, column);
    if (limit !== null && isTooLong(v, limit)) {
      this.report(column, `is longer than ${limit} characters`, `shorten it to at most ${limit} characters`);
      return "";
    }
    // Free-text columns (the longest limit) may span lines; the JSON columns may too (whitespace
    // between items), and their items are checked one by one in jsonStrings.
    const unsafe = unsafeCharacter(v, limit !== null && limit >= MAX_TEXT_LENGTH);
    if (unsafe !== null) {
      this.report(column, `contains ${unsafe}`, UNSAFE_FIX);
      return "";
    }
    if (options.format && !options.format.test(v)) {
      this.report(column, `is ${quote(v)}, expected ${options.format.expected}`, options.format.fix);
      return "";
    }
    return v;
  }

  text(column: ColumnOf<T>, options: TextOptions = NO_OPTIONS): string {
    const before = this.sink.length;
    const v = this.optText(column, options);
    if (v === null) {
      this.missing(column);
      return "";
    }
    if (!options.allowBlank && this.sink.length === before && v.trim() === "") {
      this.report(column, "is empty", "set a non-empty value");
    }
    return v;
  }

  optChoice<V extends string>(column: ColumnOf<T>, values: readonly V[]): V | null {
    const v = this.value(column);
    if (v === null) return null;
    if (typeof v === "string" && (values as readonly string[]).includes(v)) return v as V;
    this.report(
      column,
      `holds ${describe(v)}, expected one of ${values.join(", ")}`,
      "use one of those values",
    );
    return values[0]!;
  }

  choice<V extends string>(column: ColumnOf<T>, values: readonly V[]): V {
    const v = this.optChoice(column, values);
    if (v === null) {
      this.missing(column);
      return values[0]!;
    }
    return v;
  }

  /** A URL path segment: slug, tag or language. */
  segment(column: ColumnOf<T>, kind: SegmentKind): string {
    const before = this.sink.length;
    const v = this.text(column, { allowBlank: true });
    if (this.sink.length !== before) return v;
    const problem = segmentProblem(kind, v);
    if (problem) this.report(column, problem.what, problem.fix);
    return v;
  }

  optSegment(column: ColumnOf<T>, kind: SegmentKind): string | null {
    return this.value(column) === null ? null : this.segment(column, kind);
  }

  /** A JSON array of strings, e.g. paragraphs or tie-break labels. */
  jsonStrings(column: ColumnOf<T>, maxItems: number, maxItemLength: number): string[] {
    const before = this.sink.length;
    const text = this.text(column, { allowBlank: true });
    if (this.sink.length !== before) return [];
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      this.report(
        column,
        `is not valid JSON: ${quote(text)}`,
        'store a JSON array of strings, e.g. ["a", "b"]',
      );
      return [];
    }
    if (!Array.isArray(parsed) || !parsed.every((item) => typeof item === "string")) {
      this.report(
        column,
        `is not a JSON array of strings: ${quote(text)}`,
        'store a JSON array of strings, e.g. ["a", "b"]',
      );
      return [];
    }
    if (parsed.length > maxItems) {
      this.report(
        column,
        `has ${parsed.length} items, more than ${maxItems}`,
        `keep at most ${maxItems} items`,
      );
      return [];
    }
    for (const [i, item] of (parsed as string[]).entries()) {
      if (isTooLong(item, maxItemLength)) {
        this.report(
          column,
          `item ${i} is longer than ${maxItemLength} characters`,
          `shorten it to at most ${maxItemLength} characters`,
        );
        return [];
      }
      const unsafe = unsafeCharacter(item, maxItemLength >= MAX_TEXT_LENGTH);
      if (unsafe !== null) {
        this.report(column, `item ${i} contains ${unsafe}`, UNSAFE_FIX);
        return [];
      }
    }
    return parsed as string[];
  }
}
