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
import type { FideEntry } from "../views/fide-players.ts";
import type { LedgerNeeds } from "./needs.ts";

/** The record key of a player's entries. */
export function playerKey(fideId: string): string {
  return `p:${fideId}`;
}

/** The owner of a player's files in the bookkeeping. */
export function playerOwner(fideId: string): string {
  return `t/~players/${fideId}`;
}

/** A player's previous record: the fingerprint of their files and their tournaments' entries. */
export interface PlayerRecord {
  fp: string;
  entries: FideEntry[];
}

/** The previous build's player records, read on the ledger connection (nothing written). */
export class PlayerRecords {
  private readonly get: Database.Statement<[string], { fp: string; detail: string }> | null;
  private readonly db: Database.Database;
  readonly live: boolean;

  private readonly needs: LedgerNeeds | undefined;

  constructor(db: Database.Database, live: boolean, needs?: LedgerNeeds) {
    this.db = db;
    this.live = live;
    this.needs = needs;
    this.get = live ? db.prepare("SELECT fp, detail FROM main.records WHERE key = ?") : null;
  }

  /** The previous record of a player, or null. */
  previous(fideId: string): PlayerRecord | null {
    if (this.live) this.needs?.record(playerKey(fideId));
    const r = this.get?.get(playerKey(fideId));
    return r ? { fp: r.fp, entries: (JSON.parse(r.detail) as { entries: FideEntry[] }).entries } : null;
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

  /** How many players the previous build had (a tick counts without listing them). */
  count(): number {
    if (!this.live) return 0;
    if (this.needs) return this.needs.playerCount();
    return this.db
      .prepare<[], number>("SELECT count(*) FROM main.records WHERE key >= 'p:' AND key < 'p;'")
      .pluck()
      .get()!;
  }

  /** A record as the ledger keeps it. */
  static row(
    fp: string,
    entries: readonly FideEntry[],
  ): { fp: string; from: null; until: null; detail: string } {
    return { fp, from: null, until: null, detail: JSON.stringify({ entries }) };
  }

  /** The previous record under any key (the search index's records: search-records.ts). */
  previousRow(key: string): { fp: string; detail: string } | null {
    if (this.live) this.needs?.record(key);
    return this.get?.get(key) ?? null;
  }
}
