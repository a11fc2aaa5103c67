// The one writer of store rows. Every INSERT names its columns (from columns.ts, the read columns
// and the private ones) and binds the row's values in that order: a row means the same whatever the column
// order of store.sql, a column added to the schema keeps its DEFAULT, and triggers on the tables
// (e.g. ones that maintain revisions) see ordinary inserts. A column that is not in columns.ts is
// refused before any SQL is prepared.
//
// Used by `build-api import-trf` (src/trf/import.ts, through writeTournament) and by the
// synthetic store generator (scripts/gen-store.ts, through insert).
import { writeTeamEvent } from "./teams.ts";
import type Database from "better-sqlite3";
import type { Game, Player, Round, ScheduledRound, Tournament } from "../../domain/types.ts";
import { isWritableColumn, type TableName, type WritableColumnOf } from "../columns.ts";

export type SqlValue = string | number | bigint | Buffer | null;

/** A row to insert, keyed by column name. An omitted (or undefined) column takes its DEFAULT. */
export type StoreRow<T extends TableName> = { readonly [C in WritableColumnOf<T>]?: SqlValue | undefined };

export class StoreWriter {
  /** Prepared statements per table, one per column list (a writer inserts few distinct shapes). */
  private readonly statements = new Map<TableName, { columns: string[]; statement: Database.Statement }[]>();
  private readonly db: Database.Database;

  constructor(db: Database.Database) {
    this.db = db;
  }

  /** Inserts one row; returns its rowid (tables WITHOUT ROWID give 0). */
  insert<T extends TableName>(table: T, row: StoreRow<T>): number | bigint {
    let columns = Object.keys(row);
    let values = Object.values(row) as (SqlValue | undefined)[];
    if (values.includes(undefined)) {
      columns = columns.filter((_, i) => values[i] !== undefined);
      values = values.filter((v) => v !== undefined);
    }
    // The SQL names every column; the values follow the same order.
    return this.statementFor(table, columns).run(values).lastInsertRowid;
  }

  private statementFor(table: TableName, columns: string[]): Database.Statement {
    let shapes = this.statements.get(table);
    if (!shapes) this.statements.set(table, (shapes = []));
    for (const shape of shapes) if (sameColumns(shape.columns, columns)) return shape.statement;
    const statement = this.prepare(table, columns);
    shapes.push({ columns, statement });
    return statement;
  }

  private prepare(table: TableName, columns: string[]): Database.Statement {
    if (columns.length === 0) throw new Error(`an insert into ${table} names no column`);
    this.checkColumns(table, columns);
    return this.db.prepare(
      `INSERT INTO ${table} (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`,
    );
  }

  /** Sets columns of the rows matching `key` (every key column equal); returns the rows changed.
   * Like insert, every column is named and checked against columns.ts. */
  update<T extends TableName>(table: T, key: StoreRow<T>, values: StoreRow<T>): number {
    const set = Object.entries(values).filter(([, v]) => v !== undefined);
    const where = Object.entries(key);
    if (set.length === 0) return 0;
    this.checkColumns(
      table,
      [...set, ...where].map(([c]) => c),
    );
    const sql =
      `UPDATE ${table} SET ${set.map(([c]) => `${c} = ?`).join(", ")} ` +
      `WHERE ${where.map(([c]) => `${c} IS ?`).join(" AND ")}`;
    return this.db.prepare(sql).run([...set.map(([, v]) => v), ...where.map(([, v]) => v)]).changes;
  }

  /** Deletes the rows matching `key` (every key column equal); returns how many. */
  delete<T extends TableName>(table: T, key: StoreRow<T>): number {
    const where = Object.entries(key);
    if (where.length === 0) throw new Error(`a delete from ${table} names no key column`);
    this.checkColumns(
      table,
      where.map(([c]) => c),
    );
    const sql = `DELETE FROM ${table} WHERE ${where.map(([c]) => `${c} IS ?`).join(" AND ")}`;
    return this.db.prepare(sql).run(where.map(([, v]) => v)).changes;
  }

  /** The rows matching `key`, with the named columns (integers as bigint: ids are int64). */
  select<T extends TableName>(
    table: T,
    columns: readonly WritableColumnOf<T>[],
    key: StoreRow<T>,
  ): Record<string, SqlValue>[] {
    const where = Object.entries(key);
    this.checkColumns(table, [...columns, ...where.map(([c]) => c)]);
    const sql =
      `SELECT ${columns.join(", ")} FROM ${table}` +
      (where.length > 0 ? ` WHERE ${where.map(([c]) => `${c} IS ?`).join(" AND ")}` : "");
    return this.db
      .prepare(sql)
      .safeIntegers(true)
      .all(where.map(([, v]) => v)) as Record<string, SqlValue>[];
  }

  private checkColumns(table: TableName, columns: readonly string[]): void {
    for (const column of columns) {
      if (!isWritableColumn(table, column)) {
        throw new Error(`${table}.${column} is not a column of the store (src/store/columns.ts)`);
      }
    }
  }

  /** The row id of the tournament with this external id, or null. */
  tournamentIdOf(externalId: bigint): number | bigint | null {
    const row = this.db
      .prepare("SELECT tournament_id FROM tournaments WHERE external_id = ?")
      .get(externalId) as { tournament_id: number | bigint } | undefined;
    return row ? row.tournament_id : null;
  }

  /** The row id of the club with this slug, or null. */
  clubIdOf(slug: string): number | bigint | null {
    const row = this.db.prepare("SELECT club_id FROM clubs WHERE slug = ?").get(slug) as
      { club_id: number | bigint } | undefined;
    return row ? row.club_id : null;
  }

  /** The display order after the last tournament of a club's catalog (0 for an empty catalog). */
  nextDisplayOrder(clubId: number | bigint): number {
    const row = this.db
      .prepare("SELECT COALESCE(MAX(display_order), -1) + 1 AS n FROM club_tournaments WHERE club_id = ?")
      .get(clubId) as { n: number };
    return row.n;
  }
}

export interface TournamentPlacement {
  /** Publish it on the global surface, with this audit time (publications.published_at). */
  publishedAt?: string;
  /** List it in this club's catalog, at the end. */
  clubId?: number | bigint;
}

function sameColumns(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

const flag = (b: boolean): number => (b ? 1 : 0);

/** The tournaments row of a domain Tournament: every column the domain has. */
export function tournamentRow(t: Tournament, isDraft = false): StoreRow<"tournaments"> {
  return {
    external_id: t.externalId,
    source_url: t.sourceUrl,
    name: t.name,
    location: t.location,
    federation: t.federation,
    organizer: t.organizer,
    tournament_director: t.tournamentDirector,
    chief_arbiter: t.chiefArbiter,
    deputy_chief_arbiter: t.deputyChiefArbiter,
    arbiters: t.arbiters,
    time_control: t.timeControl,
    tournament_type: t.tournamentType,
    rating_calculation: t.ratingCalculation,
    fide_event_id: t.fideEventId,
    average_rating: t.averageRating,
    average_age: t.averageAge,
    pairing_program: t.pairingProgram,
    source_last_updated: t.sourceLastUpdated,
    source_creator: t.sourceCreator,
    start_date: t.startDate,
    end_date: t.endDate,
    total_rounds: t.totalRounds,
    tracking_enabled: flag(t.trackingEnabled),
    refresh_interval_seconds: t.refreshIntervalSeconds,
    next_refresh_at: t.nextRefreshAt,
    created_at: t.createdAt,
    last_scraped_at: t.lastScrapedAt,
    last_source_change_at: t.lastSourceChangeAt,
    is_draft: flag(isDraft),
    pairing_system: t.system,
    tiebreaks: t.tiebreaks.join(","),
    tiebreak_rules: t.tiebreakRules,
    tiebreak_practice: t.tiebreakPractice,
    points_win: t.scoring.win,
    points_draw: t.scoring.draw,
    points_loss: t.scoring.loss,
    points_forfeit_win: t.scoring.forfeitWin,
    points_forfeit_loss: t.scoring.forfeitLoss,
    points_pairing_bye: t.scoring.pairingAllocatedBye,
    points_full_bye: t.scoring.fullBye,
    points_half_bye: t.scoring.halfBye,
    points_zero_bye: t.scoring.zeroBye,
  };
}

/** A players row (the private columns birth_date and email are not the domain's: left out). */
export function playerRow(id: number | bigint, p: Player): StoreRow<"players"> {
  return {
    tournament_id: id,
    source_player_number: p.sourcePlayerNumber,
    starting_rank: p.startingRank,
    fide_id: p.fideId,
    name: p.name,
    title: p.title,
    rating: p.rating,
    national_rating: p.nationalRating,
    federation: p.federation,
    club: p.club,
    gender: p.gender,
    player_type: p.type,
    player_group: p.group,
  };
}

export function roundRow(id: number | bigint, r: Round): StoreRow<"rounds"> {
  return {
    tournament_id: id,
    round_number: r.roundNumber,
    first_scraped_at: r.firstScrapedAt,
    last_scraped_at: r.lastScrapedAt,
    last_source_change_at: r.lastSourceChangeAt,
  };
}

/** A round_schedule row: when a round is scheduled to start (local date and time, each nullable). */
export function scheduleRow(id: number | bigint, r: ScheduledRound): StoreRow<"round_schedule"> {
  return {
    tournament_id: id,
    round_number: r.roundNumber,
    scheduled_date: r.date,
    scheduled_time: r.time,
  };
}

export function gameRow(id: number | bigint, round: number, g: Game): StoreRow<"games"> {
  return {
    tournament_id: id,
    round_number: round,
    board_number: g.boardNumber,
    white_player_number: g.whitePlayerNumber,
    black_player_number: g.blackPlayerNumber,
    raw_result: g.rawResult,
    result: g.result,
    bye_kind: g.byeKind,
    provisional_points: g.provisionalPoints,
    first_seen_at: g.firstSeenAt,
    last_seen_at: g.lastSeenAt,
    result_changed_at: g.resultChangedAt,
  };
}

/**
 * Writes a tournament as the domain holds it (every column the domain has), with its players,
 * rounds, games, source standings and recaps, and where it is published. Returns its row id. The
 * caller runs it inside a transaction.
 */
export function writeTournament(
  w: StoreWriter,
  t: Tournament,
  place: TournamentPlacement = {},
  isDraft = false,
): number | bigint {
  const id = w.insert("tournaments", tournamentRow(t, isDraft));
  for (const p of t.players) w.insert("players", playerRow(id, p));
  for (const r of t.rounds) {
    w.insert("rounds", roundRow(id, r));
    for (const g of r.games) w.insert("games", gameRow(id, r.roundNumber, g));
  }
  for (const r of t.schedule) w.insert("round_schedule", scheduleRow(id, r));
  if (t.team) writeTeamEvent(w, id, t.team);
  for (const s of t.sourceStandings) {
    w.insert("source_standings", {
      tournament_id: id,
      after_round: s.afterRound,
      retrieved_at: s.retrievedAt,
      tie_break_labels: JSON.stringify(s.tieBreakLabels),
    });
    for (const row of s.rows) {
      w.insert("source_standing_rows", {
        tournament_id: id,
        after_round: s.afterRound,
        source_player_number: row.sourcePlayerNumber,
        rank: row.rank,
        name: row.name,
        title: row.title,
        international_rating: row.internationalRating,
        national_rating: row.nationalRating,
        gender: row.gender,
        player_type: row.type,
        player_group: row.group,
        federation: row.federation,
        club: row.club,
        points: row.points,
        tie_break_values: JSON.stringify(row.tieBreakValues),
      });
    }
  }
  for (const r of t.recaps) {
    w.insert("recaps", {
      tournament_id: id,
      language: r.language,
      kind: r.kind,
      round_number: r.round,
      headline: r.headline,
      preview: r.preview,
      paragraphs: JSON.stringify(r.paragraphs),
    });
  }
  if (place.publishedAt !== undefined) {
    w.insert("publications", { tournament_id: id, published_at: place.publishedAt });
  }
  if (place.clubId !== undefined) {
    w.insert("club_tournaments", {
      club_id: place.clubId,
      tournament_id: id,
      display_order: w.nextDisplayOrder(place.clubId),
    });
  }
  return id;
}
