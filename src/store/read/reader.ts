// The read side of an open store: what the build asks for, one tournament at a time.
import { createHash } from "node:crypto";
import { basename } from "node:path";
import type Database from "better-sqlite3";
import type { Problem } from "../../shared/errors.ts";
import type { Club, PublishedTournament } from "../../domain/types.ts";
import { RowCheck, rowRef, rowWhere, type SqlRow } from "./cells.ts";
import { checkStore } from "./check-store.ts";
import { hashRows } from "./hash-rows.ts";
import { readClub } from "./clubs.ts";
import { isValidSegment, type SegmentKind } from "../../shared/segments.ts";
import { columnPositions, selectAll, type TableName } from "../columns.ts";
import { mayRepeat } from "./groups.ts";
import { missingReadIndexes, prepareQueries, publishedChunkSql, ROW_CAPS, type Queries } from "./queries.ts";
import {
  changedSince,
  fileIdentity,
  recentRevisions,
  revisionCounts,
  storeHistory,
  revisionState,
  revisionTokens,
  revisionTrouble,
  storeKeyOf,
  tokenOf,
} from "./revisions.ts";
import { contentStamp, storeReadError } from "./read-failure.ts";
import { replacedError } from "./replaced.ts";
import { prepareSizeQueries, type SizeQueries, type VocabularyRows } from "./sizes.ts";
import { assembleTournament, type TournamentRows } from "./tournament.ts";
import { bytesLookup, markInvalidUtf8 } from "./utf8.ts";

/** Where a chunk of publishedAfter() ends: its last row's key (the row id as the store has it). */
export interface ChunkKey {
  externalId: bigint;
  rowId: bigint;
}

export interface PublishedChunk {
  keys: { rowId: number; externalId: bigint; token: string | null }[];
  /** Where the next chunk starts; null after the last. */
  next: ChunkKey | null;
}

export interface Store {
  readonly file: string;
  /** Which file the connection reads (revisions.ts fileIdentity), as of the open. */
  readonly identity: string;
  /**
   * Which history the ledger's records of this store belong to (revisions.ts storeHistory): with
   * stamped revisions, any copy of the file continues its history (a fresh CI runner's download
   * ticks); without them, the file's identity.
   */
  readonly history: string;
  /** Enabled clubs only, ordered by slug. Rows that fail their checks are left out here;
   * checkStore() reports them. A club's catalog comes from its tournaments (loadTournament). */
  clubs(): Club[];
  /** Non-draft tournaments that are published on the global surface or in an enabled club's
   * catalog, ordered by external_id. Lightweight keys only. */
  publishedTournaments(): { rowId: number; externalId: bigint }[];
  /** How many tournaments publishedTournaments() lists. */
  publishedCount(): number;
  /**
   * publishedTournaments() a chunk at a time: at most `limit` after the key `after` (null: from
   * the first), each with its revision token when `tokens` ("" for a tournament without a
   * revision row), and the key to go on after (null: no more). A full build walks every
   * tournament this way without holding the list.
   */
  publishedAfter(after: ChunkKey | null, limit: number, tokens: boolean): PublishedChunk;
  /** Those of `rowIds` that publishedTournaments() would list, in its order. */
  publishedAmong(rowIds: Iterable<number>): { rowId: number; externalId: bigint }[];
  /** The rows of the tournaments with these external ids (those that exist). */
  rowsOfExternalIds(ids: readonly string[]): number[];
  /** Loads one tournament with players, rounds+games (result normalized), source standings,
   * non-draft recaps, its global tags (null when not globally published) and its enabled-club
   * catalog entries. Never throws on bad data: returns every problem found in its rows, tags and
   * recap languages included. value is null when there are problems. */
  loadTournament(rowId: number): { value: PublishedTournament | null; problems: Problem[] };
  /**
   * Reads a tournament's rows and hashes them (private row ids left out); assembles them only when
   * `skip(hash)` is false. Stores that keep no revisions fingerprint tournaments this way.
   */
  loadTournamentHashed(
    rowId: number,
    skip: (hash: string) => boolean,
  ): { hash: string; loaded: { value: PublishedTournament | null; problems: Problem[] } | null };
  /** The tournaments changed after the count `since` (revisions.ts changedSince). */
  changedSince(since: bigint): Map<number, string>;
  /** The `limit` tournaments changed last (at or before count `upTo`), newest first (revisions.ts recentRevisions). */
  recentRevisions(limit: number, upTo?: bigint): [number, string][];
  /** The revision tokens of these tournaments now (null: none). */
  revisionTokens(ids: readonly number[]): (string | null)[];
  /** The store's state as its revisions name it, O(1); null when none are kept. */
  revisionState(): string | null;
  /** The indexes of schema/store.sql a build reads by that the store lacks (queries.ts). */
  missingIndexes(): string[];
  /** Why revisions() is null (revisions.ts revisionTrouble), or null when they are kept. */
  revisionTrouble(): string | null;
  /** The store-wide counts (revisions.ts revisionCounts), or null without trusted revisions. */
  revisionCounts(): { all: bigint; clubs: string } | null;
  /** The hash of the clubs rows the reader reads, private row ids left out. */
  clubsHash(): string;
  /** The key of the state this build reads (store/read/revisions.ts storeKeyOf). */
  storeKey(): string | null;
  /** Store-wide checks that are not per tournament (club rows, broken flags, shared external ids,
   * dangling references). */
  /**
   * The store-wide problems; with `since` (store/read/check-store.ts), those of the tournaments
   * changed after that count of the store's revisions only.
   */
  checkStore(since?: bigint): Problem[];
  /** Every tag used on each surface and every language of non-draft recaps of published
   * tournaments; sorted, without duplicates. Values that are not valid path segments are left out
   * (loadTournament reports them), so every value here is safe in a path. */
  vocabulary(): { globalTags: string[]; clubTags: string[]; languages: string[] };
  close(): void;
}

/** A row id that a JS number holds exactly (a job names its tournament by it). */
function safeRowId(id: unknown): boolean {
  return typeof id === "bigint" && id >= -(2n ** 53n) + 1n && id <= 2n ** 53n - 1n;
}

/** Private row ids: never part of a hash that reaches the snapshot. */
const ROW_IDS: ReadonlySet<string> = new Set(["tournament_id", "club_id", "recap_id"]);

function rawRowIds(table: TableName): ReadonlySet<number> {
  const at = columnPositions(table);
  return new Set([...ROW_IDS].filter((c) => c in at).map((c) => at[c]!));
}

const RAW_ROW_IDS = {
  players: rawRowIds("players"),
  rounds: rawRowIds("rounds"),
  schedule: rawRowIds("round_schedule"),
  games: rawRowIds("games"),
  standings: rawRowIds("source_standings"),
  standingRows: rawRowIds("source_standing_rows"),
  recaps: rawRowIds("recaps"),
  teams: rawRowIds("teams"),
  teamMembers: rawRowIds("team_members"),
  teamByes: rawRowIds("team_byes"),
  teamForfeits: rawRowIds("team_forfeited_matches"),
};

const selectAllClubs = selectAll("clubs");
const GAME_ROUND = columnPositions("games")["round_number"]!;
const GAME_BOARD = columnPositions("games")["board_number"]!;

/** The hash of everything loadTournament reads for one tournament, private row ids left out. */
function hashTournamentRows(rows: TournamentRows): string {
  const hash = createHash("sha256");
  hashRows(hash, "tournament", [rows.tournament], ROW_IDS);
  hashRows(hash, "players", rows.players, RAW_ROW_IDS.players);
  hashRows(hash, "rounds", rows.rounds, RAW_ROW_IDS.rounds);
  hashRows(hash, "schedule", rows.schedule, RAW_ROW_IDS.schedule);
  hashRows(hash, "games", rows.games, RAW_ROW_IDS.games);
  hashRows(hash, "duplicateBoards", rows.duplicateBoards, ROW_IDS);
  hashRows(hash, "standings", rows.standings, RAW_ROW_IDS.standings);
  hashRows(hash, "standingRows", rows.standingRows, RAW_ROW_IDS.standingRows);
  hashRows(hash, "recaps", rows.recaps, RAW_ROW_IDS.recaps);
  hashRows(hash, "teamEvent", rows.teamEvent, ROW_IDS);
  hashRows(hash, "teams", rows.teams, RAW_ROW_IDS.teams);
  hashRows(hash, "teamMembers", rows.teamMembers, RAW_ROW_IDS.teamMembers);
  hashRows(hash, "teamByes", rows.teamByes, RAW_ROW_IDS.teamByes);
  hashRows(hash, "teamForfeits", rows.teamForfeits, RAW_ROW_IDS.teamForfeits);
  hashRows(hash, "publication", rows.publication, ROW_IDS);
  hashRows(hash, "clubEntries", rows.clubEntries, ROW_IDS);
  return hash.digest("hex");
}

/**
 * An I/O failure in the middle of a read (a writer's lock, the file written in place, damage)
 * ends the build, saying which (read-failure.ts). `opened`: the file's stamp when it was opened.
 */
function guard<T>(file: string, opened: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === "string" && code.startsWith("SQLITE_")) {
      throw storeReadError(file, error, `reading failed: ${(error as Error).message}`, opened);
    }
    throw error;
  }
}

export class StoreReader implements Store {
  private readonly queries: Queries;
  private readonly sizes: SizeQueries;
  private readonly bytes: ReturnType<typeof bytesLookup>;
  /** The name problems use; short and the same on every machine. */
  private readonly name: string;

  private readonly db: Database.Database;
  readonly file: string;
  readonly identity: string;
  readonly history: string;
  /** The file's size and mtime when this reader began: a read that fails after they moved says so. */
  private readonly opened: string;

  /**
   * `vocabularyRows`: the rows of the vocabulary queries when the opener has read them already
   * (open.ts reads them to count them against the size limits), in this read transaction.
   */
  constructor(db: Database.Database, file: string, identity: string, vocabularyRows?: VocabularyRows) {
    this.vocabularyRows = vocabularyRows;
    this.db = db;
    this.file = file;
    this.identity = identity;
    this.history = storeHistory(db, identity);
    this.opened = contentStamp(file);
    this.name = basename(file);
    this.queries = prepareQueries(db);
    this.sizes = prepareSizeQueries(db, this.name);
    this.bytes = bytesLookup(db);
  }

  clubs(): Club[] {
    return guard(this.file, this.opened, () => {
      const clubs: Club[] = [];
      const ignored: Problem[] = [];
      const rows = this.queries.enabledClubs.all();
      markInvalidUtf8(this.bytes, "clubs", ["club_id"], rows);
      for (const row of rows) {
        const c = new RowCheck(this.name, "clubs", row, ["club_id"], ignored);
        const club = readClub(c);
        if (!c.ok) continue;
        clubs.push(club);
      }
      return clubs;
    });
  }

  publishedTournaments(): { rowId: number; externalId: bigint }[] {
    return guard(this.file, this.opened, () =>
      this.queries.publishedTournaments
        .all()
        .filter((row) => safeRowId(row["tournament_id"]))
        .map((row) => ({ rowId: Number(row["tournament_id"]), externalId: row["external_id"] as bigint })),
    );
  }

  publishedCount(): number {
    return guard(this.file, this.opened, () => Number(this.queries.publishedCount.pluck().get()));
  }

  publishedAfter(after: ChunkKey | null, limit: number, tokens: boolean): PublishedChunk {
    return guard(this.file, this.opened, () => {
      const sql = publishedChunkSql(after === null, tokens ? tokenOf("t") : "NULL");
      const rows = this.db
        .prepare<
          [Record<string, unknown>],
          { tournament_id: bigint; external_id: bigint; token: string | null }
        >(sql)
        .safeIntegers(true)
        .all(after === null ? { limit } : { limit, e: after.externalId, r: after.rowId });
      const last = rows[rows.length - 1];
      return {
        keys: rows
          .filter((row) => safeRowId(row.tournament_id))
          .map((row) => ({
            rowId: Number(row.tournament_id),
            externalId: row.external_id,
            token: tokens ? (row.token ?? "") : null,
          })),
        next:
          rows.length < limit || !last ? null : { externalId: last.external_id, rowId: last.tournament_id },
      };
    });
  }

  rowsOfExternalIds(ids: readonly string[]): number[] {
    return guard(this.file, this.opened, () => {
      const stmt = this.db
        .prepare<[bigint], number>("SELECT tournament_id FROM tournaments WHERE external_id = ?")
        .pluck();
      return ids.flatMap((id) => (/^-?\d+$/.test(id) ? stmt.all(BigInt(id)).map(Number) : []));
    });
  }

  publishedAmong(rowIds: Iterable<number>): { rowId: number; externalId: bigint }[] {
    return guard(this.file, this.opened, () => {
      const out: { rowId: number; externalId: bigint }[] = [];
      for (const rowId of rowIds) {
        const row = this.queries.publishedTournament.get(rowId);
        if (row && safeRowId(row["tournament_id"]))
          out.push({ rowId, externalId: row["external_id"] as bigint });
      }
      return out.sort((a, b) =>
        a.externalId !== b.externalId ? (a.externalId < b.externalId ? -1 : 1) : a.rowId - b.rowId,
      );
    });
  }

  loadTournament(rowId: number): { value: PublishedTournament | null; problems: Problem[] } {
    return this.loadTournamentHashed(rowId, () => false, false).loaded!;
  }

  loadTournamentHashed(
    rowId: number,
    skip: (hash: string) => boolean,
    hashed = true,
  ): { hash: string; loaded: { value: PublishedTournament | null; problems: Problem[] } | null } {
    return guard(this.file, this.opened, () => {
      const rows = this.readRows(rowId);
      if (!("tournament" in rows)) return { hash: "", loaded: rows };
      const hash = hashed ? hashTournamentRows(rows) : "";
      if (hashed && skip(hash)) return { hash, loaded: null };
      return { hash, loaded: this.assemble(rows) };
    });
  }

  private readRows(rowId: number): TournamentRows | { value: null; problems: Problem[] } {
    const q = this.queries;
    const tournament = q.tournament.get(rowId);
    if (!tournament) {
      return {
        value: null,
        problems: [
          {
            where: rowWhere(this.name, rowRef("tournaments", [["tournament_id", BigInt(rowId)]])),
            row: rowRef("tournaments", [["tournament_id", BigInt(rowId)]]),
            what: "no such tournament",
            fix: "load only the tournaments publishedTournaments() returns",
          },
        ],
      };
    }
    // Each query reads at most one row past its limit (queries.ts ROW_CAPS): counts run only when
    // those rows cannot prove the tournament within every limit, and name what is over.
    const rows: TournamentRows = {
      tournament,
      players: q.players.all(rowId),
      rounds: q.rounds.all(rowId),
      schedule: q.schedule.all(rowId),
      games: q.games.all(rowId),
      duplicateBoards: [],
      standings: q.standings.all(rowId),
      standingRows: q.standingRows.all(rowId),
      recaps: q.recaps.all(rowId),
      teamEvent: q.teamEvent.all(rowId),
      teams: q.teams.all(rowId),
      teamMembers: q.teamMembers.all(rowId),
      teamByes: q.teamByes.all(rowId),
      teamForfeits: q.teamForfeits.all(rowId),
      publication: q.publication.all(rowId, ROW_CAPS.publication),
      clubEntries: q.clubEntries.all(rowId, ROW_CAPS.clubEntries),
    };
    if (!this.sizes.withinLimits(rowId, rows)) {
      const tooBig = this.sizes.tournament(rowId);
      if (tooBig.length > 0) return { value: null, problems: tooBig };
      // Within every limit: only the tag queries' caps can have cut rows (several catalogs' tags).
      rows.publication = q.publication.all(rowId, -1);
      rows.clubEntries = q.clubEntries.all(rowId, -1);
    }
    // Ordered by board: a board that occurs twice in a round has its rows side by side.
    if (mayRepeat(rows.games, GAME_ROUND, GAME_BOARD)) rows.duplicateBoards = q.duplicateBoards.all(rowId);
    return rows;
  }

  private assemble(rows: TournamentRows): { value: PublishedTournament | null; problems: Problem[] } {
    const bytes = this.bytes;
    markInvalidUtf8(bytes, "tournaments", ["tournament_id"], [rows.tournament]);
    markInvalidUtf8(bytes, "players", ["tournament_id", "source_player_number"], rows.players);
    markInvalidUtf8(bytes, "rounds", ["tournament_id", "round_number"], rows.rounds);
    markInvalidUtf8(bytes, "round_schedule", ["tournament_id", "round_number"], rows.schedule);
    markInvalidUtf8(bytes, "games", ["tournament_id", "round_number", "board_number"], rows.games);
    markInvalidUtf8(bytes, "source_standings", ["tournament_id", "after_round"], rows.standings);
    markInvalidUtf8(
      bytes,
      "source_standing_rows",
      ["tournament_id", "after_round", "source_player_number"],
      rows.standingRows,
    );
    markInvalidUtf8(bytes, "recaps", ["recap_id"], rows.recaps);
    markInvalidUtf8(bytes, "teams", ["tournament_id", "team_number"], rows.teams);
    return assembleTournament(this.name, rows);
  }

  changedSince(since: bigint): Map<number, string> {
    return guard(this.file, this.opened, () => changedSince(this.db, since));
  }

  recentRevisions(limit: number, upTo?: bigint): [number, string][] {
    return guard(this.file, this.opened, () => recentRevisions(this.db, limit, upTo));
  }

  revisionTokens(ids: readonly number[]): (string | null)[] {
    return guard(this.file, this.opened, () => revisionTokens(this.db, ids));
  }

  revisionState(): string | null {
    return guard(this.file, this.opened, () => revisionState(this.db));
  }

  missingIndexes(): string[] {
    return guard(this.file, this.opened, () => missingReadIndexes(this.db));
  }

  revisionTrouble(): string | null {
    return guard(this.file, this.opened, () => revisionTrouble(this.db));
  }

  revisionCounts(): { all: bigint; clubs: string } | null {
    return guard(this.file, this.opened, () => revisionCounts(this.db));
  }

  storeKey(): string | null {
    const key = guard(this.file, this.opened, () => storeKeyOf(this.db, this.file));
    // The key stats the path: it names this connection's state only if the path is still its file.
    if (fileIdentity(this.file) !== this.identity) throw replacedError(this.file, "while the build ran");
    return key;
  }

  clubsHash(): string {
    return guard(this.file, this.opened, () => {
      const hash = createHash("sha256");
      const rows = this.db
        .prepare<[], SqlRow>(`SELECT ${selectAllClubs} FROM clubs ORDER BY club_id`)
        .safeIntegers(true)
        .all();
      // club_id is private, but the order of the rows and which club a row is stays in the hash.
      hashRows(hash, "clubs", rows, ROW_IDS);
      return hash.digest("hex");
    });
  }

  checkStore(since?: bigint): Problem[] {
    return guard(this.file, this.opened, () => checkStore(this.db, this.name, since));
  }

  private readonly vocabularyRows: VocabularyRows | undefined;
  /** Read once: the build asks for it twice (the lists, the host files), in one read state. */
  private vocab: { globalTags: string[]; clubTags: string[]; languages: string[] } | undefined;

  vocabulary(): { globalTags: string[]; clubTags: string[]; languages: string[] } {
    return (this.vocab ??= guard(this.file, this.opened, () => {
      const q = this.queries;
      const values = (rows: SqlRow[], column: string, kind: SegmentKind): string[] => {
        const set = new Set<string>();
        for (const row of rows) {
          const v = row[column];
          if (isValidSegment(kind, v)) set.add(v);
        }
        return [...set].sort();
      };
      const rows = this.vocabularyRows ?? {
        globalTags: q.globalTags.all() as SqlRow[],
        clubTags: q.clubTags.all() as SqlRow[],
        languages: q.languages.all() as SqlRow[],
      };
      return {
        globalTags: values(rows.globalTags, "tag", "tag"),
        clubTags: values(rows.clubTags, "tag", "tag"),
        languages: values(rows.languages, "language", "language"),
      };
    }));
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
