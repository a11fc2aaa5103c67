// The tournaments of the snapshot as the lists and the report need them, kept outside the heap in
// the ledger's database (one implementation: the TournamentIndex below). The previous build's
// records and list members are its main tables (`records`, `members`); what this build renders
// goes to TEMP tables of the same connection, so the heap holds neither, and every read sees the
// previous rows less those this build replaced, plus its own. The delta reaches
// `pending_records` and `pending_members` only inside the stage transaction, by SQL
// (bookkeeping.ts), so nothing here changes the crash protocol.
//
// Each tournament has its place in every list it belongs to (a sort key, computed by the render:
// render/list-places.ts). A list page is then read from the index in order, one page at a time,
// and a tick renders only the pages that its changed tournaments touch: the lists cost what
// changed, and a full build's memory does not grow with the store (docs/design/incremental.md,
// "Lists and the report").
import type Database from "better-sqlite3";
import type { StandingsStop } from "../domain/standings.ts";
import {
  liveRecordSums,
  recordColumnsDdl,
  RECORD_COLUMNS,
  sumsOf,
  SUMMED_COLUMNS,
  totalsOf,
  type IndexRecord,
  type IndexRow,
  type IndexTotals,
  type RecordSums,
} from "./records.ts";
import type { KeyedIds } from "./keyed-ids.ts";
import type { LedgerNeeds } from "./needs.ts";
import { LISTS_KEY, tournamentOwner, type ListsRecord, type TournamentState } from "./state.ts";
import { PlayerRecords } from "./players.ts";

export type { IndexTotals, ListsRecord };

/** Rows inserted before the TEMP tables' transaction is committed. */
const BATCH = 2000;

/** One place of a tournament in one list: `rank` sorts the list's page order (finished last). */
export interface Member {
  list: string;
  /** "0" (unfinished) or "1" (finished), then the list's order key. */
  rank: string;
}

/** The columns the report is summed from, without reading a tournament's detail. */
export interface StateColumns {
  /** Store order: the report lists warnings in it. */
  ord: string;
  files: number;
  unknownResults: number;
  /** Warnings, unknown results or a standings stop: a report that lists them reads its detail. */
  issues: boolean;
  /** Its warnings, counted, and whether its standings stop early: the report counts both. */
  warnings: number;
  stop: boolean;
  /** When its answers take the archive cache class (routes/cache.ts), or null. */
  archive: number | null;
  /** Its row in the store (a tick finds the record of a changed row by it; kept keyed). */
  row: number;
}

/** What a build changed in one list, in the new page order (see changedFrom). */
export interface ListChange {
  /** How many members it had before this build (0 when new) and has now. */
  before: number;
  after: number;
  /**
   * How many of its last members (the oldest finished) keep their places, in the same order, as
   * before: every numbered page made of them alone is unchanged but for the members in `inPlace`.
   */
  sameTail: number;
  /**
   * The members whose summary changed in place (same rank, so no other member moves), each by how
   * many members follow it: only the page holding it changes.
   */
  inPlace: number[];
}

/** A tournament's fingerprint and the window of build instants its files hold for. */
export interface Window {
  fp: string;
  from: number | null;
  until: number | null;
}

/**
 * The warnings and standings stops of every tournament of `ix`, in store order, for a report that
 * lists them (reads the detail of each tournament that has any).
 */
export function issuesOf(ix: Pick<TournamentIndex, "issues">): {
  warnings: string[];
  standingsStops: ({ externalId: string } & StandingsStop)[];
} {
  const out: ReturnType<typeof issuesOf> = { warnings: [], standingsStops: [] };
  for (const t of ix.issues()) {
    out.warnings.push(...t.warnings);
    if (t.stop) out.standingsStops.push({ externalId: t.id, ...t.stop });
  }
  return out;
}

const T = "t:";
type Detail = Omit<TournamentState, "id" | "fp" | "from" | "until">;

function stateOf(
  key: string,
  r: { fp: string; from: number | null; until: number | null; detail: string },
): TournamentState {
  return {
    id: key.slice(T.length),
    fp: r.fp,
    from: r.from,
    until: r.until,
    ...(JSON.parse(r.detail) as Detail),
  };
}

/**
 * What the lists show of a tournament: its catalog entries and its summaries. With its places,
 * it is all that render/lists.ts reads of a member (a unit test holds it to that).
 */
function listFace(d: Pick<Detail, "clubs" | "summary" | "public">): string {
  return JSON.stringify([d.clubs, d.summary, d.public]);
}

const placeKey = (m: Member): string => `${m.list}\0${m.rank}`;

const TEMP_SCHEMA = `
CREATE TEMP TABLE IF NOT EXISTS ix_records (${recordColumnsDdl()});
CREATE TEMP TABLE IF NOT EXISTS ix_members (
  list TEXT NOT NULL, rank TEXT NOT NULL, key TEXT NOT NULL, PRIMARY KEY (list, rank)
) WITHOUT ROWID;
CREATE TEMP TABLE IF NOT EXISTS ix_replaced (key TEXT PRIMARY KEY) WITHOUT ROWID;
CREATE TEMP TABLE IF NOT EXISTS ix_seen (key TEXT PRIMARY KEY) WITHOUT ROWID;
CREATE TEMP TABLE IF NOT EXISTS ix_unmoved (key TEXT PRIMARY KEY) WITHOUT ROWID;
CREATE TEMP TABLE IF NOT EXISTS ix_recent (row TEXT PRIMARY KEY, token TEXT NOT NULL);
DELETE FROM temp.ix_records; DELETE FROM temp.ix_members; DELETE FROM temp.ix_replaced;
DELETE FROM temp.ix_seen; DELETE FROM temp.ix_unmoved;
DELETE FROM temp.ix_recent;
`;

/** A put or dropped tournament that changes the lists (one put `unmoved` does not). */
const MOVED = "key NOT IN (SELECT key FROM temp.ix_unmoved)";

/**
 * The index a render writes to and reads the lists from. All of it describes the snapshot being
 * built: the previous build's tournaments, less those put or dropped now, plus those put now.
 */
export class TournamentIndex {
  /**
   * How near the end of a list (in members) a change in place must be for its place to be
   * counted from the end; further up it is counted from the head (TournamentIndex.fromEnd).
   */
  nearEnd = 2048;
  private readonly db: Database.Database;
  /** The main tables describe the previous snapshot (false: a first build, they are ignored). */
  readonly live: boolean;
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
  /** The previous build's list record (see ListsRecord), or null. */
  readonly previousLists: ListsRecord | null;
  /** How store rows and revision tokens are kept (useKey); null: not at all. */
  private keyed: KeyedIds | null = null;
  /** The players across tournaments: the previous records and this build's (TEMP rows too). */
  private readonly playerRecords: PlayerRecords;
  /** Told of a previous state read whole: a split ledger holds its FIDE IDs in its group. */
  private readonly needs: LedgerNeeds | undefined;

  constructor(db: Database.Database, live: boolean, needs?: LedgerNeeds) {
    this.db = db;
    this.live = live;
    this.needs = needs;
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
    this.playerRecords = new PlayerRecords(db, live, needs);
    const lists = this.previousRecord(LISTS_KEY);
    this.previousLists = lists
      ? { fp: lists.fp, ...(JSON.parse(lists.detail) as Omit<ListsRecord, "fp">) }
      : null;
  }

  /**
   * The key this build keeps store rows and revision tokens under (keyed-ids.ts), set before any
   * put; null when the store keeps no revisions (no row is then kept: only a tick looks rows up).
   */
  useKey(keyed: KeyedIds | null): void {
    this.keyed = keyed;
  }

  /**
   * The store's tournaments changed last (row, revision token, both keyed) as the previous build
   * read them (render/plan.ts onHistory).
   */
  recent(): [string, string][] {
    if (!this.live) return [];
    return this.db
      .prepare<[], [string, string]>("SELECT row, token FROM main.recent ORDER BY rowid")
      .raw(true)
      .all();
  }

  /** This build's list of the tournaments changed last, for the next build (none without a key). */
  setRecent(rows: readonly (readonly [number, string])[]): void {
    this.flush();
    this.db.exec("DELETE FROM temp.ix_recent");
    const keyed = this.keyed;
    if (keyed === null) return;
    const put = this.db.prepare("INSERT OR IGNORE INTO temp.ix_recent (row, token) VALUES (?, ?)");
    for (const [row, token] of rows) put.run(keyed.row(row), keyed.token(token));
  }

  /** One previous tournament's fingerprint and window, if it had one. */
  previousOf(id: string): Window | null {
    const r = this.getWindow?.get(T + id);
    return r ? { fp: r.fp, from: r.vfrom, until: r.vuntil } : null;
  }

  /** A previous tournament kept as it is: this build has it too (see unseen). */
  see(id: string): void {
    this.write(() => this.putSeen.run(T + id));
  }

  /**
   * The previous build's tournaments that this build neither put nor saw (gone, unpublished or
   * invalid now): among `ids`, or all of them when `ids` is undefined (by SQL, so a full build
   * holds no set of what it saw).
   */
  unseen(ids?: Iterable<string>): string[] {
    const keys = ids === undefined ? undefined : [...ids].map((id) => T + id);
    return this.unseenKeys(keys).map((k) => k.slice(T.length));
  }

  private unseenKeys(keys: string[] | undefined): string[] {
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

  /** The ids the previous build recorded for store row `row` (one, or none), by its keyed value. */
  idsOfRow(row: number): string[] {
    if (!this.live || this.keyed === null) return [];
    return this.db
      .prepare<[string], string>("SELECT key FROM main.records WHERE row = ?")
      .pluck()
      .all(this.keyed.row(row))
      .flatMap((k) => (k.startsWith(T) ? [k.slice(T.length)] : []));
  }

  /**
   * The previous build's records whose window does not hold `now` (until <= now, or from > now):
   * their answers change with the clock alone. By the window indexes: O(what expired). (UNION ALL:
   * a plain UNION merges the two sides in key order, which makes SQLite scan every record by its
   * primary key. A record in both would come twice: callers take ids as a set.) The ledger keeps
   * no store row it could give back: the store finds each by its external id.
   */
  expired(now: number): string[] {
    if (!this.live) return [];
    return this.db
      .prepare<[number, number], string>(
        `SELECT key FROM main.records WHERE vuntil <= ?
         UNION ALL SELECT key FROM main.records WHERE vfrom > ?`,
      )
      .pluck()
      .all(now, now)
      .flatMap((k) => (k.startsWith(T) ? [k.slice(T.length)] : []));
  }

  /** The previous build's records of players across tournaments and of the search index (issue 47). */
  players(): PlayerRecords {
    return this.playerRecords;
  }

  /** A record of the previous build, if any. */
  private previousRecord(key: string): IndexRecord | undefined {
    const r = this.getOld?.get(key);
    return r && { fp: r.fp, from: r.vfrom, until: r.vuntil, detail: r.detail };
  }

  /** The whole recorded state of a previous tournament (its files counted, not listed), or null. */
  loadPrevious(id: string): TournamentState | null {
    this.needs?.owner(tournamentOwner(id));
    const r = this.previousRecord(T + id);
    return r ? stateOf(T + id, r) : null;
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
  private previousMembers(key: string): Member[] {
    return this.getMembers?.all(key) ?? [];
  }

  /**
   * Whether a tournament put now keeps the places and the face the previous build recorded: then
   * no list changes by it, and a tick that changed only its games or players renders no list page.
   */
  private listsUnmoved(key: string, detail: Detail, members: readonly Member[]): boolean {
    const previous = this.previousRecord(key);
    if (previous === undefined || listFace(JSON.parse(previous.detail) as Detail) !== listFace(detail))
      return false;
    const before = this.previousMembers(key).map(placeKey).sort();
    const now = members.map(placeKey).sort();
    return before.length === now.length && before.every((m, i) => m === now[i]);
  }

  /**
   * A tournament rendered now, with the columns the report sums and its places (list, rank) in
   * the lists: its state replaces any previous one. One whose every list shows it as before
   * (listsUnmoved) is left out of changedLists and changed.
   */
  put(t: TournamentState, c: StateColumns, members: readonly Member[]): void {
    const { id, fp, from, until, fileCount, ...rest } = t;
    const detail: Detail = { fileCount, ...rest };
    const key = T + id;
    this.putRow(
      {
        key,
        fp,
        from,
        until,
        detail: JSON.stringify(detail),
        ord: c.ord,
        files: c.files,
        unknown: c.unknownResults,
        issues: c.issues,
        warnings: c.warnings,
        stops: c.stop ? 1 : 0,
        archive: c.archive,
        row: this.keyed?.row(c.row) ?? null,
      },
      members,
      this.listsUnmoved(key, detail, members),
    );
  }

  private putRow(row: IndexRow, members: readonly Member[], unmoved: boolean): void {
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

  /** A previous tournament that is no longer published (or invalid now). */
  drop(id: string): void {
    this.write(() => this.putReplaced.run(T + id));
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

  /** The ids whose answers are archived at `now`, sorted. */
  archived(now: number): string[] {
    this.flush();
    return this.db
      .prepare<[number], string>(
        `SELECT key FROM ${this.merged("key, archive")} WHERE archive IS NOT NULL AND archive <= ? ORDER BY key`,
      )
      .pluck()
      .all(now)
      .map((k) => k.slice(T.length));
  }

  /** Tournaments with warnings, unknown results or a standings stop, in store order. */
  *issues(): Generator<{
    id: string;
    warnings: string[];
    unknownResults: number;
    stop: StandingsStop | null;
  }> {
    this.flush();
    const rows = this.db
      .prepare<[], { key: string; detail: string }>(
        `SELECT key, detail FROM ${this.merged("key, detail, ord, issues")} WHERE issues = 1 ORDER BY ord, key`,
      )
      .all();
    for (const r of rows) {
      const d = JSON.parse(r.detail) as Detail;
      yield {
        id: r.key.slice(T.length),
        warnings: d.warnings,
        unknownResults: d.unknownResults,
        stop: d.stop,
      };
    }
  }

  /** How many members `list` has. */
  count(list: string): number {
    return this.countWhere(list, "", []);
  }

  /** Whether `list` has any member (without counting them). */
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

  /**
   * The members of `list` in rank order after rank `after` ("": from the first), `limit` of them
   * (all by default), with their states.
   */
  *members(list: string, limit = Infinity, after = ""): Generator<{ rank: string; state: TournamentState }> {
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
        yield { rank: r.rank, state: stateOf(r.key, { fp: "", from: null, until: null, detail: r.detail }) };
      }
      if (rows.length < Math.min(left, 500)) return;
      left -= rows.length;
      after = rows[rows.length - 1]!.rank;
    }
  }

  /**
   * What this build changed in `list`, or null when nothing. With `before` (the count the
   * previous build recorded), the counts follow from the change alone: O(change + the members
   * below the deepest moved place), not O(list).
   */
  changed(list: string, before?: number): ListChange | null {
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

  /** The lists this build changed. */
  changedLists(): string[] {
    this.flush();
    const sql = this.live
      ? `SELECT list FROM temp.ix_members WHERE ${MOVED} UNION
         SELECT m.list FROM temp.ix_replaced x CROSS JOIN main.members m ON m.key = x.key WHERE x.${MOVED}`
      : "SELECT DISTINCT list FROM temp.ix_members";
    return this.db.prepare<[], string>(sql).pluck().all();
  }

  /** Inside the ledger's stage transaction (bookkeeping.ts): this build's records and members, pending. */
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
    this.playerRecords.copyToPending();
  }
}
