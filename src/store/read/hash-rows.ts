// A tournament's rows as one hash, for stores that keep no revisions (see revisions.ts): the
// fingerprint of a tournament is then the hash of exactly what the reader read, private ids left out.
import type { createHash } from "node:crypto";

type Cell = bigint | number | string | Uint8Array | null;

/**
 * Appends rows to a hash, cell by cell with its type, leaving out the columns named in `skip`
 * (the private row ids) or, for raw rows, the positions in `skipAt`.
 */
export function hashRows(
  hash: ReturnType<typeof createHash>,
  label: string,
  rows: readonly (readonly Cell[] | Readonly<Record<string, Cell>>)[],
  skip: ReadonlySet<string | number>,
): void {
  hash.update(`\u001d${label}`);
  for (const row of rows) {
    hash.update("\u001e");
    const entries: [string | number, Cell][] = Array.isArray(row)
      ? (row as readonly Cell[]).map((v, i) => [i, v])
      : Object.entries(row as Record<string, Cell>);
    for (const [k, v] of entries) {
      if (skip.has(k)) continue;
      if (v === null) hash.update("\u001fn");
      else if (typeof v === "bigint") hash.update(`\u001fi${v}`);
      else if (typeof v === "number") hash.update(`\u001fr${Object.is(v, -0) ? "-0" : v}`);
      else if (typeof v === "string") hash.update(`\u001fs${v.length}:`).update(v);
      else hash.update(`\u001fb${v.length}:`).update(v);
    }
  }
}
