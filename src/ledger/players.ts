// Cross-tournament ownership (issue 47). A player known by FIDE ID owns files of their own (their
// resource, page, feed and calendar) made from the entries of every tournament they played. The
// ledger keeps, per player, one record `p:<fideId>` with those entries and the fingerprint of the
// files made from them; each tournament's state names its players (TournamentState.fideIds). A
// tick that renders or drops a tournament thus finds the players it touches and their other
// tournaments' entries here, without reading those tournaments. The search index's chunks are
// records too (`s:<bound>`, and `s` for the list of bounds): ledger/search-records.ts.
//
// Owners live under the tick's prefix (`t/`, state.ts tournamentOwner): a tick keeps every player
// it does not name, as it keeps every tournament. Tournament ids are digits only, so `t/~…` is
// never a tournament's owner.
import type Database from "better-sqlite3";
import type { LedgerNeeds } from "./needs.ts";

// This build's entries and player records wait in TEMP tables of the ledger connection, not in the
// heap: a first build at M has about 130,000 entries (docs/benchmarks.md, issue 47's section).
const TEMP_SCHEMA = `
CREATE TEMP TABLE IF NOT EXISTS px_entries (fide_id TEXT NOT NULL, body TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS temp.px_entries_id ON px_entries (fide_id);
CREATE TEMP TABLE IF NOT EXISTS px_touched (fide_id TEXT PRIMARY KEY) WITHOUT ROWID;
CREATE TEMP TABLE IF NOT EXISTS px_records (key TEXT PRIMARY KEY, fp TEXT NOT NULL, detail TEXT NOT NULL) WITHOUT ROWID;
DELETE FROM temp.px_entries; DELETE FROM temp.px_touched; DELETE FROM temp.px_records;
`;

/** Rows written before the TEMP tables' transaction is committed. */
const BATCH = 2000;

/** Touched players read per query (their entries with them). */
const PAGE = 500;

/** The record key of a player's entries. */
export function playerKey(fideId: string): string {
  return `p:${fideId}`;
}

/** The owner of a player's files in the bookkeeping. */
export function playerOwner(fideId: string): string {
  return `t/~players/${fideId}`;
}

/** A player's previous record: the fingerprint of their files and `{"entries":[…]}` (JSON). */
export interface PlayerRecord {
  fp: string;
  detail: string;
}

/** One entry of a tournament rendered now: the player's FIDE ID and the entry's JSON text. */
export type EntryRow = readonly [fideId: string, body: string];

/**
 * The previous build's player records, read on the ledger connection, and this build's: the
 * entries of the tournaments rendered now and the records made from them (TEMP rows, copied into
 * the pending delta by SQL when the build is staged: bookkeeping.ts, tournament-index.ts).
 */
export class PlayerRecords {
  private readonly get: Database.Statement<[string], { fp: string; detail: string }> | null;
  private readonly db: Database.Database;
  private readonly putEntry: Database.Statement<[string, string]>;
  private readonly putTouched: Database.Statement<[string]>;
  private readonly putRecord: Database.Statement<[string, string, string]>;
  private pending = 0;
  readonly live: boolean;

  private readonly needs: LedgerNeeds | undefined;

  constructor(db: Database.Database, live: boolean, needs?: LedgerNeeds) {
    this.db = db;
    this.live = live;
    this.needs = needs;
    this.get = live ? db.prepare("SELECT fp, detail FROM main.records WHERE key = ?") : null;
    db.exec(TEMP_SCHEMA);
    this.putEntry = db.prepare("INSERT INTO temp.px_entries (fide_id, body) VALUES (?, ?)");
    this.putTouched = db.prepare("INSERT OR IGNORE INTO temp.px_touched (fide_id) VALUES (?)");
    this.putRecord = db.prepare("INSERT OR REPLACE INTO temp.px_records (key, fp, detail) VALUES (?, ?, ?)");
  }

  /** The previous record of a player, or null (parsed where the player is rendered: player-job.ts). */
  previous(fideId: string): PlayerRecord | null {
    return this.previousRow(playerKey(fideId));
  }

  /** Every player of the previous build with their fingerprints (a full build keeps the unchanged). */
  previousIds(): string[] {
    if (!this.live) return [];
    return this.db
      .prepare<[], string>(
        "SELECT substr(key, 3) FROM main.records WHERE key >= 'p:' AND key < 'p;' ORDER BY key",
      )
      .pluck()
      .all();
  }

  /** How many players the previous build had (a tick: their ids are not read). */
  previousCount(): number {
    if (!this.live) return 0;
    if (this.needs) return this.needs.playerCount();
    return this.db
      .prepare<[], number>("SELECT count(*) FROM main.records WHERE key >= 'p:' AND key < 'p;'")
      .pluck()
      .get()!;
  }

  /** The entries of a tournament rendered now, serialized where it was rendered: its players are touched. */
  addEntries(rows: readonly EntryRow[]): void {
    for (const [fideId, body] of rows)
      this.write(() => {
        this.putEntry.run(fideId, body);
        this.putTouched.run(fideId);
      });
  }

  /** A player of a tournament rendered or dropped now (their entries there may be gone). */
  touch(fideId: string): void {
    this.write(() => this.putTouched.run(fideId));
  }

  /** The touched players in id order, each with their entries (JSON) of the tournaments rendered now. */
  *touched(): Generator<[string, string[]]> {
    const ids = this.db
      .prepare<[string], string>(
        `SELECT fide_id FROM temp.px_touched WHERE fide_id > ? ORDER BY fide_id LIMIT ${PAGE}`,
      )
      .pluck();
    const entries = this.db.prepare<[string, string], { fide_id: string; body: string }>(
      "SELECT fide_id, body FROM temp.px_entries WHERE fide_id BETWEEN ? AND ? ORDER BY fide_id, rowid",
    );
    // Pages of ids read whole (.all): the caller writes on this connection between them.
    for (let page = ids.all(""); page.length > 0; page = ids.all(page[page.length - 1]!)) {
      const byId = new Map<string, string[]>();
      for (const r of entries.all(page[0]!, page[page.length - 1]!)) {
        const list = byId.get(r.fide_id) ?? [];
        list.push(r.body);
        byId.set(r.fide_id, list);
      }
      for (const id of page) yield [id, byId.get(id) ?? []];
    }
  }

  /** This build's record of a player: `entries` is their entries' JSON (the fingerprint's). */
  put(fideId: string, fp: string, entries: string): void {
    this.write(() => this.putRecord.run(playerKey(fideId), fp, `{"entries":${entries}}`));
  }

  /** Commits the TEMP rows written so far (nothing durable changes). */
  flush(): void {
    if (this.db.inTransaction) this.db.exec("COMMIT");
    this.pending = 0;
  }

  /** This build's player records into the pending delta (inside the stage transaction). */
  copyToPending(): void {
    this.db.exec(
      "INSERT INTO main.pending_records (key, fp, detail) SELECT key, fp, detail FROM temp.px_records",
    );
  }

  private write(run: () => void): void {
    if (!this.db.inTransaction) this.db.exec("BEGIN");
    run();
    if (++this.pending >= BATCH) this.flush();
  }

  /** The previous record under any key (the search index's records: search-records.ts). */
  previousRow(key: string): { fp: string; detail: string } | null {
    if (this.live) this.needs?.record(key);
    return this.get?.get(key) ?? null;
  }
}
