// A build's entries of players across tournaments, and the records made from them, wait in the
// ledger connection's TEMP tables (ledger/players.ts), not in the heap: the touched players come
// back in id order with all their entries, page after page, while the caller writes on the same
// connection, and the records reach the pending delta by SQL.
import { afterAll, describe, expect, it } from "vitest";
import { Bookkeeping } from "../../../src/ledger/bookkeeping.ts";
import type { FideEntry } from "../../../src/views/fide-players.ts";
import { removeTempDirs, tempDir } from "../../support/temp.ts";

afterAll(removeTempDirs);

function entry(fideId: string, tournamentId: string): FideEntry {
  return { fideId, tournamentId, name: `P ${fideId}`, rounds: [] } as unknown as FideEntry;
}

function rows(b: Bookkeeping, sql: string): unknown[] {
  const db = (b as unknown as { db: { prepare(s: string): { all(): unknown[] } } }).db;
  return db.prepare(sql).all();
}

describe("player records", () => {
  it("gives back every touched player once, in id order, with the entries of this build", () => {
    const b = Bookkeeping.open(tempDir());
    const records = b.index(false).players();
    // More players than one page (500); ids sort as strings, as the previous Map's sort() did.
    const ids = Array.from({ length: 1234 }, (_, i) => String(100000 + ((i * 7919) % 1234) * 13));
    const row = (id: string, t: string): [string, string] => [id, JSON.stringify(entry(id, t))];
    records.addEntries(ids.map((id) => row(id, "1")));
    records.addEntries(ids.filter((_, i) => i % 3 === 0).map((id) => row(id, "2")));
    records.touch("99"); // a player of a dropped tournament: no entry now
    const seen: [string, string[]][] = [];
    for (const [id, list] of records.touched()) {
      // The caller writes on the same connection between players (the record, the files' rows).
      records.put(id, `fp-${id}`, `[${list.join(",")}]`);
      seen.push([id, list.map((e) => (JSON.parse(e) as FideEntry).tournamentId)]);
    }
    records.flush();
    const expected = [...new Set([...ids, "99"])].sort();
    expect(seen.map(([id]) => id)).toEqual(expected);
    const twice = new Set(ids.filter((_, i) => i % 3 === 0));
    for (const [id, tournaments] of seen)
      expect(tournaments).toEqual(id === "99" ? [] : twice.has(id) ? ["1", "2"] : ["1"]);
  });

  it("copies this build's records into the pending delta", () => {
    const b = Bookkeeping.open(tempDir());
    const ix = b.index(false);
    const records = ix.players();
    records.put("42", "fp", JSON.stringify([entry("42", "7")]));
    records.flush();
    ix.copyToPending();
    expect(rows(b, "SELECT key, fp, detail FROM pending_records WHERE key = 'p:42'")).toEqual([
      { key: "p:42", fp: "fp", detail: JSON.stringify({ entries: [entry("42", "7")] }) },
    ]);
  });
});
