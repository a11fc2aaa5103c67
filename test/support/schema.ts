// The columns of schema/store.sql as its text documents them: type, CHECK constraint, and whether
// the comment marks the column "private" (for the importer and operators only).
import { readFileSync } from "node:fs";
import { STORE_SQL_PATH } from "../../src/store/schema.ts";

export interface SchemaColumn {
  table: string;
  column: string;
  type: "INTEGER" | "TEXT" | "REAL";
  /** The column has a CHECK constraint that limits its values. */
  check: boolean;
  /** The comment says "private". */
  private: boolean;
}

export function schemaColumns(): SchemaColumn[] {
  const columns: SchemaColumn[] = [];
  let table: string | null = null;
  for (const line of readFileSync(STORE_SQL_PATH, "utf8").split("\n")) {
    const create = /^CREATE TABLE (\w+)/.exec(line);
    if (create) {
      table = create[1]!;
      continue;
    }
    if (/^\)/.test(line)) {
      table = null;
      continue;
    }
    const m = /^\s+(\w+)\s+(INTEGER|TEXT|REAL)\b([^-]*(?:-(?!-)[^-]*)*)(?:--(.*))?$/.exec(line);
    if (!table || !m) continue;
    columns.push({
      table,
      column: m[1]!,
      type: m[2] as SchemaColumn["type"],
      check: /\bCHECK\b/.test(m[3] ?? ""),
      private: /^\s*private\b/.test(m[4] ?? ""),
    });
  }
  return columns;
}
