// The TournamentIndex of a build (render/tournament-index.ts) in the bookkeeping database: the
// previous build's records and list members are its main tables (`records`, `members`); what
// this build renders goes to TEMP tables of the same connection, so the heap holds neither, and
// every read sees the previous rows less those this build replaced, plus its own. The delta
// reaches `pending_records` and `pending_members` only inside the stage transaction, by SQL
// (bookkeeping.ts), so nothing here changes the crash protocol.
// Rows only: keys, JSON details and the columns the report sums (render/tournament-index.ts
// turns them into states and defines what they mean).
import type Database from "better-sqlite3";
import type { IndexTotals } from "../shared/index-totals.ts";

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
  /** The tournament's row in the store: a tick finds a changed row's previous record by it. */
  row: number;
}

/** Rows inserted before the TEMP tables' transaction is committed. */
const BATCH = 2000;
/** A record's columns, in the bookkeeping's tables and in this build's TEMP table alike. */
export const RECORD_COLUMNS =
  "key, fp, vfrom, vuntil, detail, ord, nfiles, unknown, issues, archive, row, nwarn, stops";

/** The report's sums over tournament records (RecordSums), by column. */
const SUMMED_COLUMNS = "nfiles, unknown, nwarn, stops";

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

function totalsOf(s: RecordSums): Omit<IndexTotals, "validFrom" | "validUntil"> {
  return {
    tournaments: s.n,
    files: s.files,
    unknownResults: s.unknown,
    warnings: s.nwarn,
    standingsStops: s.stops,
  };
}

const TEMP_SCHEMA = `
CREATE TEMP TABLE IF NOT EXISTS ix_records (
  key TEXT PRIMARY KEY, fp TEXT NOT NULL, vfrom INTEGER, vuntil INTEGER, detail TEXT NOT NULL,
  ord TEXT, nfiles INTEGER NOT NULL, unknown INTEGER NOT NULL, issues INTEGER NOT NULL, archive INTEGER,
  row INTEGER, nwarn INTEGER NOT NULL, stops INTEGER NOT NULL
);
CREATE TEMP TABLE IF NOT EXISTS ix_members (
  list TEXT NOT NULL, rank TEXT NOT NULL, key TEXT NOT NULL, PRIMARY KEY (list, rank)
) WITHOUT ROWID;
CREATE TEMP TABLE IF NOT EXISTS ix_replaced (key TEXT PRIMARY KEY) WITHOUT ROWID;
CREATE TEMP TABLE IF NOT EXISTS ix_seen (key TEXT PRIMARY KEY) WITHOUT ROWID;
CREATE TEMP TABLE IF NOT EXISTS ix_unmoved (key TEXT PRIMARY KEY) WITHOUT ROWID;
CREATE TEMP TABLE IF NOT EXISTS ix_recent (row INTEGER PRIMARY KEY, token TEXT NOT NULL);
DELETE FROM temp.ix_records; DELETE FROM temp.ix_members; DELETE FROM temp.ix_replaced;
DELETE FROM temp.ix_seen; DELETE FROM temp.ix_unmoved;
DELETE FROM temp.ix_recent;
`;

/** A put or dropped tournament that changes the lists (one put `unmoved` does not). */
const MOVED = "key NOT IN (SELECT key FROM temp.ix_unmoved)";

export class SqlIndexRows {
  /**
   * How near the end of a list (in members) a change in place must be for its place to be
   * counted from the end; further up it is counted from the head (SqlIndexRows.fromEnd).
   */
  nearEnd = 2048;
  private readonly db: Database.Database;
  /** The main tables describe the previous snapshot (false: a first build, they are ignored). */
  private readonly live: boolean;
  private pending = 0;
  private readonly putRecord: Database.Statement;
  private readonly putMember: Database.Statement;
  private readonly putReplaced: Database.Statement;
  private readonly putSeen: Database.Statement;
  private readonly putUnmoved: Database.Statement;
  private readonly getMembers: Database.Statement<[string], { list: string; rank: string }> | null;
  private readonly getWindow: Database.Statement<
    [string],
    { fp: string; vfrom: number | null; vuntil: number | null }
  > | null;
  private readonly getOld: Database.Statement<
    [string],
    { detail: string; fp: string; vfrom: number | null; vuntil: number | null }
  > | null;

  constructor(db: Database.Database, live: boolean) {
    this.db = db;
    this.live = live;
    db.exec(TEMP_SCHEMA);
    this.putRecord = db.prepare(
      `INSERT OR REPLACE INTO temp.ix_records (${RECORD_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.putMember = db.prepare("INSERT OR REPLACE INTO temp.ix_members (list, rank, key) VALUES (?, ?, ?)");
    this.putReplaced = db.prepare("INSERT OR IGNORE INTO temp.ix_replaced (key) VALUES (?)");
    this.putSeen = db.prepare("INSERT OR IGNORE INTO temp.ix_seen (key) VALUES (?)");
    this.putUnmoved = db.prepare("INSERT OR IGNORE INTO temp.ix_unmoved (key) VALUES (?)");
    this.getMembers = live ? db.prepare("SELECT list, rank FROM main.members WHERE key = ?") : null;
    this.getWindow = live ? db.prepare("SELECT fp, vfrom, vuntil FROM main.records WHERE key = ?") : null;
    this.getOld = live
      ? db.prepare("SELECT detail, fp, vfrom, vuntil FROM main.records WHERE key = ?")
      : null;
  }

  /** The store's tournaments changed last as the previous build read them (row, token). */
  recent(): [number, string][] {
    if (!this.live) return [];
    return this.db
      .prepare<[], [number, string]>("SELECT row, token FROM main.recent ORDER BY rowid")
      .raw(true)
      .all();
  }

  /** This build's list of the tournaments changed last, for the next build. */
  setRecent(rows: readonly (readonly [number, string])[]): void {
    this.flush();
    this.db.exec("DELETE FROM temp.ix_recent");
    const put = this.db.prepare("INSERT OR IGNORE INTO temp.ix_recent (row, token) VALUES (?, ?)");
    for (const [row, token] of rows) put.run(row, token);
  }

  /** The fingerprint and window of a record of the previous build, if any. */
  previousWindow(key: string): { fp: string; from: number | null; until: number | null } | undefined {
    const r = this.getWindow?.get(key);
    return r && { fp: r.fp, from: r.vfrom, until: r.vuntil };
  }

  /** A previous record kept as it is: this build has it too (see unseen). */
  see(key: string): void {
    this.write(() => this.putSeen.run(key));
  }

  /**
   * The previous build's tournament records that this build neither put nor saw (gone,
   * unpublished or invalid now): among `keys`, or of every record when `keys` is undefined (by
   * SQL, so a full build holds no set of what it saw).
   */
  unseen(keys?: Iterable<string>): string[] {
    if (!this.live) return [];
    this.flush();
    const unseen = `key NOT IN (SELECT key FROM temp.ix_records) AND key NOT IN (SELECT key FROM temp.ix_seen)`;
    if (keys === undefined)
      return this.db
        .prepare<[], string>(
          `SELECT key FROM main.records WHERE key >= 't:' AND key < 't;' AND ${unseen} ORDER BY key`,
        )
        .pluck()
        .all();
    const stmt = this.db
      .prepare<[{ key: string }], string>(`SELECT key FROM main.records WHERE key = @key AND ${unseen}`)
      .pluck();
    return [...new Set(keys)].filter((key) => stmt.get({ key }) !== undefined);
  }

  /** The keys of the previous build's records of store row `row` (one, or none). */
  keysOfRow(row: number): string[] {
    if (!this.live) return [];
    return this.db.prepare<[number], string>("SELECT key FROM main.records WHERE row = ?").pluck().all(row);
  }

  /**
   * The previous build's records whose window does not hold `now` (until <= now, or from > now):
   * their answers change with the clock alone. By the window indexes: O(what expired). (UNION ALL:
   * a plain UNION merges the two sides in key order, which makes SQLite scan every record by its
   * primary key. A record in both would come twice: callers take rows as a set.)
   */
  expired(now: number): { key: string; row: number | null }[] {
    if (!this.live) return [];
    return this.db
      .prepare<[number, number], { key: string; row: number | null }>(
        `SELECT key, row FROM main.records WHERE vuntil <= ?
         UNION ALL SELECT key, row FROM main.records WHERE vfrom > ?`,
      )
      .all(now, now);
  }

  /** A record of the previous build, if any. */
  previousRecord(key: string): IndexRecord | undefined {
    const r = this.getOld?.get(key);
    return r && { fp: r.fp, from: r.vfrom, until: r.vuntil, detail: r.detail };
  }

  /**
   * Every tournament record of the snapshot being built, with only `columns`: a FROM clause. Naming
   * the columns lets the live side be read from a covering index, not the rows with their details.
   */
  private merged(columns: string): string {
    return this.live
      ? `(SELECT ${columns} FROM main.records WHERE key >= 't:' AND key < 't;'
           AND key NOT IN (SELECT key FROM temp.ix_replaced)
         UNION ALL SELECT ${columns} FROM temp.ix_records)`
      : "temp.ix_records";
  }

  private write(run: () => void): void {
    if (!this.db.inTransaction) this.db.exec("BEGIN");
    run();
    if (++this.pending >= BATCH) this.flush();
  }

  /** Commits the TEMP rows written so far (nothing durable changes). */
  flush(): void {
    if (this.db.inTransaction) this.db.exec("COMMIT");
    this.pending = 0;
  }

  /** A previous record's places (list, rank) in the lists. */
  previousMembers(key: string): { list: string; rank: string }[] {
    return this.getMembers?.all(key) ?? [];
  }

  /**
   * A tournament rendered now, with its places (list, rank) in the lists; `unmoved` when every
   * list shows it as before (changedLists and changed leave it out).
   */
  put(row: IndexRow, members: readonly { list: string; rank: string }[], unmoved = false): void {
    this.write(() => {
      this.putReplaced.run(row.key);
      if (unmoved) this.putUnmoved.run(row.key);
      this.putRecord.run(
        row.key,
        row.fp,
        row.from,
        row.until,
        row.detail,
        row.ord,
        row.files,
        row.unknown,
        row.issues ? 1 : 0,
        row.archive,
        row.row,
        row.warnings,
        row.stops,
      );
      for (const m of members) this.putMember.run(m.list, m.rank, row.key);
    });
  }

  /** A previous record that goes. */
  drop(key: string): void {
    this.write(() => this.putReplaced.run(key));
  }

  private one<R>(sql: string, ...params: unknown[]): R {
    this.flush();
    return this.db.prepare<unknown[], R>(sql).get(...params)!;
  }

  /**
   * The report's sums over every tournament of this build's view. On a live snapshot: the live
   * sums (kept by the bookkeeping, recordSums) less the replaced records' plus this build's, and
   * the window's ends read from the window indexes, so a tick pays for what it changed.
   */
  totals(): IndexTotals {
    this.flush();
    const live = this.live ? liveRecordSums(this.db) : null;
    if (live === null) {
      const all = sumsOf(this.db, this.merged(SUMMED_COLUMNS));
      return { ...totalsOf(all), ...this.window(this.merged("vfrom, vuntil")) };
    }
    const out = sumsOf(
      this.db,
      "temp.ix_replaced x CROSS JOIN main.records r ON r.key = x.key",
      SUMMED_COLUMNS.split(", ").map((c) => `r.${c}`),
    );
    const put = sumsOf(this.db, "temp.ix_records");
    const sum = (k: keyof RecordSums): number => live[k] - out[k] + put[k];
    const edge = (order: "ASC" | "DESC", column: "vfrom" | "vuntil"): number | null =>
      this.db
        .prepare<[], number>(
          `SELECT ${column} FROM main.records INDEXED BY records_${column.slice(1)}
           WHERE ${column} IS NOT NULL AND key >= 't:' AND key < 't;'
             AND key NOT IN (SELECT key FROM temp.ix_replaced)
           ORDER BY ${column} ${order} LIMIT 1`,
        )
        .pluck()
        .get() ?? null;
    const fresh = this.window("temp.ix_records");
    const from = edge("DESC", "vfrom");
    const until = edge("ASC", "vuntil");
    return {
      ...totalsOf({
        n: sum("n"),
        files: sum("files"),
        unknown: sum("unknown"),
        nwarn: sum("nwarn"),
        stops: sum("stops"),
      }),
      validFrom: Math.max(from ?? -Infinity, fresh.validFrom),
      validUntil: Math.min(until ?? Infinity, fresh.validUntil),
    };
  }

  /** The latest window start and the earliest window end of the records `from` (a FROM clause). */
  private window(from: string): { validFrom: number; validUntil: number } {
    const r = this.db
      .prepare<[], { from: number | null; until: number | null }>(
        `SELECT max(vfrom) AS "from", min(vuntil) AS until FROM ${from}`,
      )
      .get()!;
    return { validFrom: r.from ?? -Infinity, validUntil: r.until ?? Infinity };
  }

  /**
   * Whether a tournament this build put or dropped changed whether its answers are archived: as
   * the previous build saw it at `before`, as this one does at `now`. A record kept as it is keeps
   * its place: its window ends (or, once archived, starts) at its archive instant
   * (render/tournament.ts), so a build on the other side renders it again. O(change).
   */
  archivedChanged(before: number, now: number): boolean {
    if (!this.live) return true;
    this.flush();
    return (
      this.db
        .prepare<[number, number], number>(
          `SELECT 1 FROM temp.ix_replaced x
             LEFT JOIN main.records o ON o.key = x.key LEFT JOIN temp.ix_records n ON n.key = x.key
           WHERE coalesce(o.archive <= ?, 0) <> coalesce(n.archive <= ?, 0) LIMIT 1`,
        )
        .pluck()
        .get(before, now) !== undefined
    );
  }

  archived(now: number): string[] {
    this.flush();
    return this.db
      .prepare<[number], string>(
        `SELECT key FROM ${this.merged("key, archive")} WHERE archive IS NOT NULL AND archive <= ? ORDER BY key`,
      )
      .pluck()
      .all(now);
  }

  /** The records with warnings, unknown results or a standings stop, in store order. */
  issues(): { key: string; detail: string }[] {
    this.flush();
    return this.db
      .prepare<[], { key: string; detail: string }>(
        `SELECT key, detail FROM ${this.merged("key, detail, ord, issues")} WHERE issues = 1 ORDER BY ord, key`,
      )
      .all();
  }

  count(list: string): number {
    return this.countWhere(list, "", []);
  }

  any(list: string): boolean {
    const fresh = this.one<{ n: number }>(
      "SELECT EXISTS (SELECT 1 FROM temp.ix_members WHERE list = ?) AS n",
      list,
    ).n;
    if (fresh || !this.live) return fresh === 1;
    return (
      this.one<{ n: number }>(
        `SELECT EXISTS (SELECT 1 FROM main.members WHERE list = ?
           AND key NOT IN (SELECT key FROM temp.ix_replaced)) AS n`,
        list,
      ).n === 1
    );
  }

  /** Members of `list` (this build's view) whose rank passes `cond` (SQL on `rank`). */
  private countWhere(list: string, cond: string, params: unknown[]): number {
    const n = this.one<{ n: number }>(
      `SELECT count(*) AS n FROM temp.ix_members WHERE list = ?${cond}`,
      list,
      ...params,
    ).n;
    if (!this.live) return n;
    return (
      n +
      this.one<{ n: number }>(
        `SELECT count(*) AS n FROM main.members WHERE list = ?${cond} AND key NOT IN (SELECT key FROM temp.ix_replaced)`,
        list,
        ...params,
      ).n
    );
  }

  /**
   * The ranks of list @list's members in this snapshot (the live ones not replaced, and this
   * build's), `cond` added to both sides: index entries only, for a walk in rank order.
   */
  private mergedRanks(cond: string): string {
    const side = (from: string, extra: string): string =>
      `SELECT rank FROM ${from} WHERE list = @list${cond}${extra}`;
    return this.live
      ? `${side("main.members", " AND key NOT IN (SELECT key FROM temp.ix_replaced)")} UNION ALL ${side("temp.ix_members", "")}`
      : side("temp.ix_members", "");
  }

  /**
   * The rank of the member at `offset` (0: the first) of `list` in page order, or undefined past
   * its end; `n`, its count when the caller has it. An index-only walk from the nearer end: no
   * detail is read.
   */
  rankAt(list: string, offset: number, n = this.count(list)): string | undefined {
    if (offset < 0 || offset >= n) return undefined;
    const fromEnd = offset >= n / 2;
    const ranks = this.mergedRanks("");
    return this.db
      .prepare<[{ list: string; offset: number }], string>(
        `${ranks} ORDER BY 1${fromEnd ? " DESC" : ""} LIMIT 1 OFFSET @offset`,
      )
      .pluck()
      .get({ list, offset: fromEnd ? n - 1 - offset : offset });
  }

  /** The members of `list` in rank order after rank `after` ("": from the first), `limit` of them. */
  *members(
    list: string,
    limit = Infinity,
    after = "",
  ): Generator<{ rank: string; key: string; detail: string }> {
    this.flush();
    // Keyset chunks: each query reads one chunk in rank order (the two sides merged by SQLite),
    // with each member's detail joined in, and no statement stays open while the caller renders.
    const sql = this.live
      ? `SELECT m.rank, m.key, r.detail FROM main.members m LEFT JOIN main.records r ON r.key = m.key
           WHERE m.list = @list AND m.rank > @after AND m.key NOT IN (SELECT key FROM temp.ix_replaced)
         UNION ALL SELECT m.rank, m.key, r.detail FROM temp.ix_members m LEFT JOIN temp.ix_records r ON r.key = m.key
           WHERE m.list = @list AND m.rank > @after
         ORDER BY 1 LIMIT @limit`
      : `SELECT m.rank, m.key, r.detail FROM temp.ix_members m LEFT JOIN temp.ix_records r ON r.key = m.key
           WHERE m.list = @list AND m.rank > @after ORDER BY 1 LIMIT @limit`;
    const stmt = this.db.prepare<
      [{ list: string; after: string; limit: number }],
      { rank: string; key: string; detail: string | null }
    >(sql);
    let left = limit;
    while (left > 0) {
      const rows = stmt.all({ list, after, limit: Math.min(left, 500) });
      for (const r of rows) {
        if (r.detail === null) throw new Error(`tournament index: no record ${r.key} for a list member`);
        yield { rank: r.rank, key: r.key, detail: r.detail };
      }
      if (rows.length < Math.min(left, 500)) return;
      left -= rows.length;
      after = rows[rows.length - 1]!.rank;
    }
  }

  /**
   * What this build changed in `list` (render/tournament-index.ts ListChange), or null. With
   * `before` (the count the previous build recorded), the counts follow from the change alone:
   * O(change + the members below the deepest moved place), not O(list).
   */
  changed(
    list: string,
    before?: number,
  ): { before: number; after: number; sameTail: number; inPlace: number[] } | null {
    this.flush();
    // The places this build's moved tournaments take, and those they held: one held and taken
    // again (same key, same rank) is a change in place; the others move the members above them.
    const taken = this.db
      .prepare<[string], { key: string; rank: string }>(
        `SELECT key, rank FROM temp.ix_members WHERE list = ? AND ${MOVED}`,
      )
      .all(list);
    const held = this.live
      ? this.db
          .prepare<[string], { key: string; rank: string }>(
            `SELECT m.key, m.rank FROM temp.ix_replaced x CROSS JOIN main.members m ON m.key = x.key
             WHERE m.list = ? AND x.${MOVED}`,
          )
          .all(list)
      : [];
    if (taken.length === 0 && held.length === 0) return null;
    const place = (m: { key: string; rank: string }): string => `${m.key}\0${m.rank}`;
    const heldPlaces = new Set(held.map(place));
    const takenPlaces = new Set(taken.map(place));
    const inPlaceRanks = taken.filter((m) => heldPlaces.has(place(m))).map((m) => m.rank);
    let last: string | null = null;
    for (const m of [
      ...taken.filter((m) => !heldPlaces.has(place(m))),
      ...held.filter((m) => !takenPlaces.has(place(m))),
    ])
      if (last === null || m.rank > last) last = m.rank;
    let was: number;
    let after: number;
    if (before === undefined || !this.live) {
      was = this.live
        ? this.one<{ n: number }>("SELECT count(*) AS n FROM main.members WHERE list = ?", list).n
        : 0;
      after = this.count(list);
    } else {
      const removed = this.one<{ n: number }>(
        `SELECT count(*) AS n FROM temp.ix_replaced x CROSS JOIN main.members m ON m.key = x.key
         WHERE m.list = ?`,
        list,
      ).n;
      const added = this.one<{ n: number }>(
        "SELECT count(*) AS n FROM temp.ix_members WHERE list = ?",
        list,
      ).n;
      was = before;
      after = before - removed + added;
    }
    return {
      before: was,
      after,
      sameTail: last === null ? after : after - this.countWhere(list, " AND rank <= ?", [last]),
      inPlace: this.fromEnd(list, inPlaceRanks, after),
    };
  }

  /**
   * How many members of `list` (`after` of them) follow each of `ranks`, its place among the
   * pages numbered from the oldest. Counted by SQLite over the index from the nearer end: a
   * finished tournament changed in place sits near the end of a long list, a live one at its
   * head (walking the 80,000 members below it in JavaScript took 0.35 s of a live tick at XL).
   * The ranks are taken in order and each stretch between two is counted once, so many changes
   * in place (a build after a long pause) cost one pass, not one each.
   */
  private fromEnd(list: string, ranks: readonly string[], after: number): number[] {
    if (ranks.length === 0) return [];
    const sorted = [...new Set(ranks)].sort();
    // Fewer than nearEnd members after the first rank: all of them are near the end.
    const near =
      this.one<{ n: number }>(
        `SELECT count(*) AS n FROM (${this.mergedRanks(" AND rank > @lo")} LIMIT ${this.nearEnd})`,
        { list, lo: sorted[0]! },
      ).n < this.nearEnd;
    const follow = new Map<string, number>();
    if (near) {
      // From the end: the members after the last rank, then each stretch up to the one before.
      let n = 0;
      let hi: string | undefined;
      for (const lo of sorted.reverse()) {
        n +=
          hi === undefined
            ? this.countWhere(list, " AND rank > ?", [lo])
            : this.countWhere(list, " AND rank > ? AND rank <= ?", [lo, hi]);
        follow.set(lo, n);
        hi = lo;
      }
    } else {
      // From the head: the members up to the first rank, then each stretch down to the next.
      let upTo = 0;
      let lo: string | undefined;
      for (const hi of sorted) {
        upTo +=
          lo === undefined
            ? this.countWhere(list, " AND rank <= ?", [hi])
            : this.countWhere(list, " AND rank > ? AND rank <= ?", [lo, hi]);
        if (upTo > after)
          throw new Error(`tournament index: ${list} has ${after} members, and ${upTo} up to rank ${hi}`);
        follow.set(hi, after - upTo);
        lo = hi;
      }
    }
    return ranks.map((r) => follow.get(r)!);
  }

  changedLists(): string[] {
    this.flush();
    const sql = this.live
      ? `SELECT list FROM temp.ix_members WHERE ${MOVED} UNION
         SELECT m.list FROM temp.ix_replaced x CROSS JOIN main.members m ON m.key = x.key WHERE x.${MOVED}`
      : "SELECT DISTINCT list FROM temp.ix_members";
    return this.db.prepare<[], string>(sql).pluck().all();
  }

  /** Inside bookkeeping.ts's stage transaction: this build's records and members, pending. */
  copyToPending(): void {
    // No flush: the stage transaction is open, and the writer committed the TEMP rows before it.
    this.db.exec(
      `INSERT INTO main.pending_records (${RECORD_COLUMNS}) SELECT ${RECORD_COLUMNS} FROM temp.ix_records`,
    );
    this.db.exec(
      `INSERT OR IGNORE INTO main.pending_records (key) SELECT key FROM temp.ix_replaced
       WHERE key NOT IN (SELECT key FROM temp.ix_records)`,
    );
    this.db.exec(
      "INSERT INTO main.pending_members (list, rank, key) SELECT list, rank, key FROM temp.ix_members",
    );
    this.db.exec("INSERT INTO main.pending_recent (row, token) SELECT row, token FROM temp.ix_recent");
  }
}
