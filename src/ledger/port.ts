// The ledger's port: what the publication, the render and the readers (verify, deploy) use of the
// incremental state, without knowing where it lives. Today one site exists, the SQLite database
// beside the snapshot's versions (besideSnapshot); a ledger held in a bucket is another site of
// the same port (docs/design/ledger.md).
import type { FileEntry } from "./file-entry.ts";
import type { LedgerNeeds } from "./needs.ts";
import type { RecordSums } from "./records.ts";
import type { StagedRows } from "./staged-rows.ts";
import type { TournamentIndex } from "./tournament-index.ts";

/** One live file: its sha256 and size (file-entry.ts) and the owner that wrote it. */
export interface FileRow extends FileEntry {
  owner: string;
}

/** One record (a tournament's state): compact columns and the rest as opaque text. */
export interface RecordRow {
  fp: string;
  from: number | null;
  until: number | null;
  detail: string;
}

/** What the next generation changes. */
export interface Delta {
  /** Files with new bytes or a new owner. */
  files: Map<string, FileRow>;
  /** Files removed. */
  removed: string[];
  /** True: `files` is the whole snapshot (every other live row becomes a tombstone). */
  completeFiles: boolean;
  /** Records written; with `completeRecords`, every other record is dropped. */
  records: Map<string, RecordRow>;
  removedRecords: string[];
  completeRecords: boolean;
  /** The change log cannot say what changed before this generation (the previous rows were unknown). */
  restartLog: boolean;
  /**
   * A build's rows streamed into this connection's TEMP tables (staged-rows.ts): copied into the
   * pending delta by SQL, beside `files` and `removed`, so they never sit in the heap together.
   */
  staged?: StagedRows;
  /** The tournaments' records and list members of this build (tournament-index.ts), by SQL. */
  index?: { copyToPending(): void };
}

/** A generation of the ledger: what a deploy record keeps to ask "what changed since". */
export interface Generation {
  /** The change log's identity: a generation means something only within one log. */
  log: string;
  generation: number;
}

/** The ledger of one publication: its files, records, change log and crash protocol. */
export interface Ledger {
  /** Set when the rows are partial (a bucket's split ledger): what the build reads is reported. */
  needs?: LedgerNeeds;
  /** Where it lives, for messages (a file name, a bucket key). */
  readonly name: string;
  /** The generation the rows describe (0: none yet), and the version directory they describe. */
  readonly generation: number;
  readonly version: string | undefined;
  /** The change log's identity, and the first generation whose changes it holds. */
  readonly log: string;
  readonly logFrom: number;

  // The crash protocol (bookkeeping.ts): stage before the switch, apply after it.
  /** Settles a delta staged by a build that was killed: applied or, when `discard`, dropped. */
  recover(liveVersion: string | undefined, discard: boolean): void;
  /** Runs `read` in one read transaction: every query in it sees the same committed generation. */
  consistently<T>(read: () => T): T;
  /** True when the rows describe `version`, whose marker names generation `markerGeneration`. */
  describes(version: string | undefined, markerGeneration: number | undefined): boolean;
  stage(delta: Delta, version: string, generation: number): void;
  apply(): void;
  discard(): void;
  close(): void;

  // A build's working state, next to the live rows it is compared with.
  /** The tournament index of one build: over the live records when `live`. */
  index(live: boolean): TournamentIndex;
  /** Fresh working rows for one build's files. */
  staging(): StagedRows;

  // The live files, by path and by owner.
  get(p: string): FileRow | undefined;
  owned(owner: string): { files: number; bytes: number } | undefined;
  owners(): string[];
  filesOf(owner: string): Array<[string, FileEntry]>;
  pathsOwnedBy(owners: ReadonlySet<string>, out: string[]): void;
  allFiles(): Iterable<[string, FileRow]>;
  totals(): { files: number; bytes: number };
  /** Paths changed after generation `since`; undefined when the log does not reach back that far. */
  changesSince(since: number): { written: Map<string, FileEntry>; removed: string[] } | undefined;

  // The tournament records, for verify.
  tournamentRecords(): Iterable<{ key: string; fp: string; row: string | null }>;
  recordSums(): { kept: RecordSums | null; counted: RecordSums };
}

/** Where a ledger lives: opened by a build, or by a reader that must change nothing. */
export interface LedgerSite {
  /** Where it lives, for messages. */
  readonly name: string;
  /** Whether a ledger is there at all (a reader with none compares every file instead). */
  exists(): boolean;
  /** Opens it for a build (made when missing). */
  open(): Ledger;
  /** Opens it to read only (verify, deploy): it must exist. */
  openReadOnly(): Ledger;
}
