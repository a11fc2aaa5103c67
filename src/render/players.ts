// Players across tournaments (issue 47): after the tournaments, the players this build touches
// get their files again from their entries (views/fide-players.ts), kept per player in the ledger
// (ledger/players.ts; this build's wait in its TEMP rows, not in the heap). A player is touched
// when a tournament they play in (or played in before) was rendered or dropped now; their files
// are written only when their entries changed, and a tick names no other player (they are kept
// under the tick's prefix with the tournaments). Each player is made by render/player-job.ts, on
// the render workers when the pool kept them (idle once the tournaments are done), else here;
// this thread reads and writes the ledger's rows and hands the files to the sink, in id order.
import type { SnapshotValidator } from "../output/validate.ts";
import type { SiteContext } from "../routes/table.ts";
import { playerKey, playerOwner, type PlayerRecords } from "../ledger/players.ts";
import {
  playerFiles,
  renderPlayerJob,
  type PlayerContext,
  type PlayerFile,
  type PlayerJob,
  type PlayerResult,
} from "./player-job.ts";
import type { FideEntry } from "../views/fide-players.ts";
import type { AcrossSink, NameChange } from "./search.ts";
import type { RenderPool } from "./tournament.ts";

/**
 * What the tournaments of this build changed of the players. Their entries went to the ledger's
 * TEMP rows as each tournament was rendered (PlayerRecords.addEntries), not into the heap.
 */
export interface PlayerChanges {
  /** The tournaments rendered now. */
  rendered: Set<string>;
  /** The tournaments rendered or dropped now that had FIDE-rated players before, with their ids. */
  before: Map<string, readonly string[]>;
}

export interface PlayersInput {
  records: PlayerRecords;
  changes: PlayerChanges;
  /** Not a tick: every player this build does not touch is kept by owner. */
  full: boolean;
  /** The fingerprints' common part (program, clubs, languages). */
  base: string;
  site: SiteContext;
  validator: SnapshotValidator;
  /** A worker's files come as UTF-8 bytes. */
  sink: AcrossSink & { write(relPath: string, data: string | Uint8Array, owner: string): void };
  /** The render workers, when the pool kept them for the players. */
  pool?: RenderPool;
}

/** Each player's files hold this many files: resource, page, feed, calendar. */
const FILES_PER_PLAYER = 4;

interface PlayersOut {
  files: number;
  removed: string[];
  names: NameChange[];
}

/** Renders the touched players; the count of every player file, the records and the names changed. */
export async function renderPlayers(input: PlayersInput): Promise<PlayersOut> {
  const { records, changes } = input;
  const touched = [...new Set([...changes.rendered, ...changes.before.keys()])];
  for (const ids of changes.before.values()) for (const id of ids) records.touch(id);
  // A tick counts the previous players and names none of them.
  const previous = input.full ? records.previousIds() : [];
  const out: PlayersOut & { count: number } = {
    files: 0,
    removed: [],
    names: [],
    count: input.full ? previous.length : records.previousCount(),
  };
  const ctx: PlayerContext = {
    touched: new Set(touched),
    base: input.base,
    site: input.site,
    validator: input.validator,
  };
  const local = (job: PlayerJob): PlayerResult => renderPlayerJob(job, ctx);
  const affected = new Set<string>();
  const take = (job: PlayerJob, result: PlayerResult): void => {
    affected.add(job.fideId);
    takePlayer(input, result, out, ctx);
  };
  if (input.pool?.players) await input.pool.players(jobsOf(records), take, { touched, local });
  else for (const job of jobsOf(records)) take(job, local(job));
  // A full build keeps, by owner, every player it did not touch (a tick keeps them unnamed).
  if (input.full)
    for (const fideId of previous)
      if (!affected.has(fideId) && input.sink.keepOwned?.(playerOwner(fideId)) === false) {
        const { entries } = JSON.parse(records.previous(fideId)!.detail) as { entries: FideEntry[] };
        writeFiles(input, fideId, playerFiles(fideId, entries, ctx));
      }
  records.flush();
  return { files: out.count * FILES_PER_PLAYER, removed: out.removed, names: out.names };
}

/** The touched players' jobs, in id order, with their previous records. */
function* jobsOf(records: PlayerRecords): Generator<PlayerJob> {
  for (const [fideId, now] of records.touched()) yield { fideId, now, prev: records.previous(fideId) };
}

/** One player's result into the ledger, the sink and the counts (in this thread). */
function takePlayer(
  input: PlayersInput,
  result: PlayerResult,
  out: PlayersOut & { count: number },
  ctx: PlayerContext,
): void {
  const { fideId } = result;
  // Every touched player, unchanged names too: a search index rebuilt for another program
  // (search.ts, fresh) takes every name from these changes.
  out.names.push({ kind: "p", id: fideId, before: result.before, after: result.after });
  if (result.record === null) {
    if (result.hadPrevious) {
      out.count--;
      out.removed.push(playerKey(fideId));
      if (!input.full) input.sink.dropOwner?.(playerOwner(fideId));
    }
    return;
  }
  if (!result.hadPrevious) out.count++;
  input.records.put(fideId, result.record.fp, result.record.entries);
  if (result.same && (!input.full || input.sink.keepOwned?.(playerOwner(fideId)) !== false)) return;
  // The same fingerprint, but the live copies could not be kept: made again here.
  const files = result.files ?? playerFiles(fideId, JSON.parse(result.record.entries) as FideEntry[], ctx);
  writeFiles(input, fideId, files);
}

function writeFiles(input: PlayersInput, fideId: string, files: readonly PlayerFile[]): void {
  const owner = playerOwner(fideId);
  for (const [file, data] of files) input.sink.write(file, data, owner);
}
