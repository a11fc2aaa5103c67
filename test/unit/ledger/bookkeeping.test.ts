// The bookkeeping database: a delta is pending until applied; the next open applies one that
// targets the live version and discards one that does not; the change log answers "what changed
// since G" with tombstones, keeps a row's generation when its bytes did not change, and says when
// it does not reach back.
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { Bookkeeping } from "../../../src/ledger/bookkeeping.ts";
import type { Delta, FileRow } from "../../../src/ledger/port.ts";
import { KeyedIds } from "../../../src/ledger/keyed-ids.ts";
import type { TournamentState } from "../../../src/ledger/state.ts";
import type { StateColumns } from "../../../src/ledger/tournament-index.ts";
import { removeTempDirs, tempDir } from "../../support/temp.ts";

afterAll(removeTempDirs);

const row = (n: number, owner = "t/1"): FileRow => ({ sha256: Buffer.alloc(32, n), bytes: n * 10, owner });
/** The entry of `row(n)`, as changesSince gives it. */
const entry = (n: number) => ({ sha256: Buffer.alloc(32, n), bytes: n * 10 });

/** A tournament's state for record key `key` ("t:<id>"), fingerprint `fp-<key>`. */
function state(key: string, window: Partial<Pick<TournamentState, "from" | "until">> = {}): TournamentState {
  return {
    id: key.slice(2),
    fp: `fp-${key}`,
    from: null,
    until: null,
    fileCount: 0,
    warnings: [],
    unknownResults: 0,
    stop: null,
    clubs: [],
    summary: null,
    public: null,
    ...window,
  };
}

function columns(key: string, row: number): StateColumns {
  return {
    ord: key,
    files: 1,
    unknownResults: 0,
    issues: false,
    warnings: 0,
    stop: false,
    archive: null,
    row,
  };
}

function delta(files: Record<string, FileRow>, removed: string[] = [], extra: Partial<Delta> = {}): Delta {
  return {
    files: new Map(Object.entries(files)),
    removed,
    completeFiles: false,
    records: new Map(),
    removedRecords: [],
    completeRecords: false,
    restartLog: false,
    ...extra,
  };
}

function open(): { dir: string; b: Bookkeeping } {
  const dir = tempDir();
  return { dir, b: Bookkeeping.open(dir) };
}

describe("Bookkeeping", () => {
  it("keeps a staged delta pending: applied when it targets the live version, discarded when not", () => {
    const { dir, b } = open();
    b.stage(delta({ a: row(1), b: row(2, "lists") }), "1", 1);
    expect(b.generation).toBe(0);
    expect(b.get("a")).toBeUndefined();
    b.close();
    // Killed after the switch: the next open finds version 1 live and applies the delta.
    const again = Bookkeeping.open(dir);
    again.recover("1", true);
    expect(again.generation).toBe(1);
    expect(again.describes("1", 1)).toBe(true);
    expect(again.describes("1", 2)).toBe(false);
    expect(again.get("a")).toEqual(row(1));
    expect(again.owned("t/1")).toEqual({ files: 1, bytes: 10 });
    expect(again.totals()).toEqual({ files: 2, bytes: 30 });
    // Killed before the switch: version 2 never went live; a reader leaves it, a build drops it.
    again.stage(delta({ a: row(3) }), "2", 2);
    again.recover("1", false);
    expect(again.pendingTarget()).toEqual({ version: "2", generation: 2 });
    again.recover("1", true);
    expect(again.pendingTarget()).toBeUndefined();
    expect(again.generation).toBe(1);
    expect(again.get("a")).toEqual(row(1));
    again.close();
  });

  it("answers what changed since a generation, with tombstones, and moves owners' totals", () => {
    const { b } = open();
    b.stage(delta({ a: row(1), b: row(2), c: row(3, "t/2") }), "1", 1);
    b.apply();
    b.stage(delta({ a: row(4) }, ["b"]), "2", 2);
    b.apply();
    b.stage(delta({ d: row(5, "t/2") }), "1", 3);
    b.apply();
    expect(b.changesSince(2)).toEqual({ written: new Map([["d", entry(5)]]), removed: [] });
    expect(b.changesSince(1)).toEqual({
      written: new Map([
        ["a", entry(4)],
        ["d", entry(5)],
      ]),
      removed: ["b"],
    });
    expect(b.changesSince(3)).toEqual({ written: new Map(), removed: [] });
    expect(b.changesSince(4)).toBeUndefined();
    expect(b.owned("t/1")).toEqual({ files: 1, bytes: 40 });
    expect(b.owned("t/2")).toEqual({ files: 2, bytes: 80 });
    expect([...b.allFiles()].map(([p]) => p)).toEqual(["a", "c", "d"]);
    expect(
      b
        .filesOf("t/2")
        .map(([p]) => p)
        .sort(),
    ).toEqual(["c", "d"]);
    b.close();
  });

  it("a complete delta tombstones what it lacks and keeps the generation of unchanged rows", () => {
    const { b } = open();
    b.stage(delta({ a: row(1), b: row(2) }), "1", 1);
    b.apply();
    b.stage(delta({ a: row(1), c: row(3) }, [], { completeFiles: true }), "2", 2);
    b.apply();
    expect(b.changesSince(1)).toEqual({ written: new Map([["c", entry(3)]]), removed: ["b"] });
    expect(b.owners()).toEqual(["t/1"]);
    expect(b.totals()).toEqual({ files: 2, bytes: 40 });
    b.close();
  });

  it("keeps the live totals in meta through every kind of delta, equal to the owners' sums", () => {
    const { dir, b } = open();
    const sums = (): { files: number; bytes: number } => {
      let files = 0;
      let bytes = 0;
      for (const o of b.owners()) {
        files += b.owned(o)!.files;
        bytes += b.owned(o)!.bytes;
      }
      return { files, bytes };
    };
    b.stage(delta({ a: row(1), b: row(2), c: row(3, "t/2"), d: row(4, "lists") }), "1", 1);
    b.apply();
    expect(b.totals()).toEqual({ files: 4, bytes: 100 });
    // A changed file, a removed one, a new owner, a file moving between owners.
    b.stage(delta({ a: row(5), e: row(6, "t/3"), c: row(7, "t/1") }, ["d"]), "2", 2);
    b.apply();
    expect(b.totals()).toEqual({ files: 4, bytes: 200 });
    expect(b.totals()).toEqual(sums());
    b.stage(delta({ a: row(1) }, [], { completeFiles: true }), "1", 3);
    b.apply();
    expect(b.totals()).toEqual({ files: 1, bytes: 10 });
    expect(b.totals()).toEqual(sums());
    b.close();
    // A database written before the totals were kept: they are summed from the owners.
    const again = Bookkeeping.open(dir);
    (again as unknown as { db: { exec(sql: string): void } }).db.exec(
      "DELETE FROM meta WHERE k IN ('files', 'bytes')",
    );
    expect(again.totals()).toEqual({ files: 1, bytes: 10 });
    again.stage(delta({ z: row(2, "t/9") }), "2", 4);
    again.apply();
    expect(again.totals()).toEqual({ files: 2, bytes: 30 });
    again.close();
  });

  it("restarts the log when the rows did not describe the live version", () => {
    const { b } = open();
    b.stage(delta({ a: row(1) }), "1", 1);
    b.apply();
    b.stage(delta({ a: row(2) }, [], { completeFiles: true, restartLog: true }), "2", 2);
    b.apply();
    expect(b.changesSince(1)).toBeUndefined();
    expect(b.changesSince(2)).toEqual({ written: new Map(), removed: [] });
    b.close();
  });

  it("keeps records: compact rows for all, the detail on demand, complete deltas replace", () => {
    const { b } = open();
    const rec = (fp: string) => ({ fp, from: 1, until: null, detail: `{"x":"${fp}"}` });
    b.stage(
      delta({}, [], {
        records: new Map([
          ["t:1", rec("a")],
          ["t:2", rec("b")],
        ]),
      }),
      "1",
      1,
    );
    b.apply();
    // Read as a build reads them: the index's rows over the live records, one key at a time.
    const compact = () => {
      const live = b.index(true);
      const keys = b.connection.prepare<[], string>("SELECT key FROM records ORDER BY key").pluck().all();
      return new Map(keys.map((k) => [k, live.previousOf(k.slice(2))]));
    };
    expect(compact()).toEqual(
      new Map([
        ["t:1", { fp: "a", from: 1, until: null }],
        ["t:2", { fp: "b", from: 1, until: null }],
      ]),
    );
    expect(b.index(true).loadPrevious("2")).toMatchObject({ id: "2", fp: "b", x: "b" });
    b.stage(delta({}, [], { records: new Map([["t:3", rec("c")]]), removedRecords: ["t:1"] }), "2", 2);
    b.apply();
    expect([...compact().keys()].sort()).toEqual(["t:2", "t:3"]);
    b.stage(delta({}, [], { records: new Map([["t:4", rec("d")]]), completeRecords: true }), "1", 3);
    b.apply();
    expect([...compact().keys()]).toEqual(["t:4"]);
    b.close();
  });

  it("finds a tick's records by store row and by window, and keeps the tournaments changed last, keyed", () => {
    const { b } = open();
    const row = (key: string, rowId: number, from: number | null, until: number | null) =>
      [state(key, { from, until }), columns(key, rowId)] as const;
    const keyed = KeyedIds.of("1:2:3", "4.ABCDEF0123456789");
    const first = b.index(false);
    first.useKey(keyed);
    first.put(...row("t:1", 11, null, 100), []);
    first.put(...row("t:2", 12, 50, null), []);
    first.put(...row("t:3", 13, null, null), []);
    first.setRecent([
      [13, "9.aa"],
      [12, "8.bb"],
    ]);
    first.flush();
    b.stage({ ...delta({}), index: first }, "1", 1);
    b.apply();
    const live = b.index(true);
    // Looked up by the keyed row: without the key (another store), nothing is found.
    expect(live.idsOfRow(12)).toEqual([]);
    live.useKey(keyed);
    expect(live.idsOfRow(12)).toEqual(["2"]);
    expect(live.idsOfRow(99)).toEqual([]);
    live.useKey(KeyedIds.of("1:2:3", "5.ABCDEF0123456789"));
    expect(live.idsOfRow(12)).toEqual([]);
    live.useKey(keyed);
    // Neither the rows nor the tokens are kept as the store has them.
    const kept = b.connection
      .prepare("SELECT row FROM records UNION ALL SELECT row || token FROM recent")
      .pluck()
      .all();
    expect(kept).toHaveLength(5);
    for (const v of kept) expect(String(v)).not.toMatch(/^1[123]$|8\.bb|9\.aa/);
    // At 100 the first record's window has ended; before 50 the second's has not begun.
    expect(live.expired(100)).toEqual(["1"]);
    expect(live.expired(40)).toEqual(["2"]);
    expect(live.expired(60)).toEqual([]);
    expect(live.previousOf("2")).toEqual({ fp: "fp-t:2", from: 50, until: null });
    expect(live.recent().sort()).toEqual(
      [
        [keyed.row(12), keyed.token("8.bb")],
        [keyed.row(13), keyed.token("9.aa")],
      ].sort(),
    );
    // The next generation's list replaces it; a build that records none leaves none.
    live.setRecent([[11, "10.cc"]]);
    live.flush();
    b.stage({ ...delta({}), index: live }, "2", 2);
    b.apply();
    expect(b.index(true).recent()).toEqual([[keyed.row(11), keyed.token("10.cc")]]);
    b.stage(delta({}), "1", 3);
    b.apply();
    expect(b.index(true).recent()).toEqual([]);
    b.close();
  });

  it("counts the warnings and standings stops of the live records and this build's, without their details", () => {
    const { b } = open();
    const row = (key: string, warnings: number, stops: number) =>
      [
        state(key),
        {
          ...columns(key, Number(key.slice(2))),
          files: 2,
          unknownResults: 1,
          issues: warnings + stops > 0,
          warnings,
          stop: stops > 0,
        },
      ] as const;
    const first = b.index(false);
    first.put(...row("t:1", 3, 1), []);
    first.put(...row("t:2", 0, 0), []);
    first.put(...row("t:3", 2, 1), []);
    first.flush();
    expect(first.totals()).toMatchObject({
      tournaments: 3,
      warnings: 5,
      standingsStops: 2,
      unknownResults: 3,
    });
    b.stage({ ...delta({}), index: first }, "1", 1);
    b.apply();
    // A tick replaces t:1 and drops t:3: the sums are the kept records' plus its own.
    const tick = b.index(true);
    tick.put(...row("t:1", 1, 0), []);
    tick.drop("3");
    expect(tick.totals()).toMatchObject({ tournaments: 2, files: 4, warnings: 1, standingsStops: 0 });
    tick.flush();
    b.stage({ ...delta({}), index: tick }, "2", 2);
    b.apply();
    expect(b.index(true).totals()).toMatchObject({ tournaments: 2, warnings: 1, standingsStops: 0 });
    b.close();
  });

  it("reads without writing: a reader refuses writes and takes another format's rows for none", () => {
    const dir = tempDir("bk-reader");
    const b = Bookkeeping.open(dir);
    b.stage(delta({ "a.json": row(1) }), "1", 1);
    b.apply();
    b.close();
    const reader = Bookkeeping.openReader(dir);
    expect(reader.describes("1", 1)).toBe(true);
    expect(() => reader.connection.exec("DELETE FROM files")).toThrow(/readonly|query_only/i);
    reader.close();
    // A build of another release left it: only a build may drop its tables; a reader uses none.
    const other = Bookkeeping.open(dir);
    other.connection.exec("UPDATE meta SET v = '3' WHERE k = 'format'");
    other.close();
    const old = Bookkeeping.openReader(dir);
    expect(old.describes("1", 1)).toBe(false);
    expect([...old.tournamentRecords()]).toEqual([]);
    old.close();
  });

  it("is a file beside the versions, made on first open", () => {
    const { dir, b } = open();
    expect(b.file).toBe(path.join(dir, "bookkeeping.sqlite"));
    expect(b.generation).toBe(0);
    expect(b.describes("1", undefined)).toBe(false);
    b.close();
  });
});
