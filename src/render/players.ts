// Players across tournaments (issue 47): after the tournaments, the players this build touches
// get their files again from their entries (views/fide-players.ts), kept per player in the ledger
// (ledger/players.ts). A player is touched when a tournament they play in (or played in before)
// was rendered or dropped now; their files are written only when their entries changed, and a
// tick names no other player (they are kept under the tick's prefix with the tournaments).
import type { SnapshotValidator } from "../output/validate.ts";
import { toJson } from "../output/json.ts";
import { schemaId } from "../output/jsonschema.ts";
import { fidePlayerFiles } from "../pages/fide-player.ts";
import { siteLocale } from "../pages/tournament.ts";
import { ROUTES, type PlayerRoute, type SiteContext } from "../routes/table.ts";
import { instanceFile } from "../routes/urls.ts";
import { playerKey, playerOwner, PlayerRecords } from "../ledger/players.ts";
import { sha256, type StateRecord } from "../ledger/state.ts";
import { compareEntries, type FideEntry, type FidePlayerView } from "../views/fide-players.ts";
import type { AcrossSink, NameChange } from "./search.ts";

/** What the tournaments of this build changed of the players. */
export interface PlayerChanges {
  /** The entries of each tournament rendered now (none: it has no FIDE-rated player now). */
  entries: Map<string, FideEntry[]>;
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
  sink: AcrossSink;
}

/** Each player's files hold this many files: resource, page, feed, calendar. */
const FILES_PER_PLAYER = 4;

const ROUTE = ROUTES.find((r): r is PlayerRoute => r.scope === "player")!;

/** Renders the touched players; the count of every player file, the records and the names changed. */
export function renderPlayers(input: PlayersInput): {
  files: number;
  records: Map<string, StateRecord>;
  removed: string[];
  names: NameChange[];
} {
  const { records, changes, sink } = input;
  const byPlayer = new Map<string, FideEntry[]>();
  for (const list of changes.entries.values())
    for (const e of list) byPlayer.set(e.fideId, [...(byPlayer.get(e.fideId) ?? []), e]);
  const touched = new Set([...changes.entries.keys(), ...changes.before.keys()]);
  const affected = new Set(byPlayer.keys());
  for (const ids of changes.before.values()) for (const id of ids) affected.add(id);
  // A tick counts the previous players; only a full build lists them (it keeps each by owner).
  const previous = input.full ? records.previousIds() : [];
  const out = {
    files: 0,
    records: new Map<string, StateRecord>(),
    removed: [] as string[],
    names: [] as NameChange[],
  };
  let count = input.full ? previous.length : records.count();
  for (const fideId of [...affected].sort()) {
    const prev = records.previous(fideId);
    const next = [
      ...(prev?.entries ?? []).filter((e) => !touched.has(e.tournamentId)),
      ...(byPlayer.get(fideId) ?? []),
    ];
    next.sort((a, b) => compareEntries(a, b) || a.sourcePlayerNumber - b.sourcePlayerNumber);
    const name = (entries: readonly FideEntry[] | undefined): string | null =>
      entries && entries.length > 0 ? [...entries].sort(compareEntries)[0]!.name : null;
    const change: NameChange = { kind: "p", id: fideId, before: name(prev?.entries), after: name(next) };
    // Every touched player, unchanged names too: a search index rebuilt for another program
    // (search.ts, fresh) takes every name from these changes.
    out.names.push(change);
    if (next.length === 0) {
      if (prev) {
        count--;
        out.removed.push(playerKey(fideId));
        if (!input.full) sink.dropOwner?.(playerOwner(fideId));
      }
      continue;
    }
    if (!prev) count++;
    const fp = sha256(input.base, JSON.stringify(next));
    out.records.set(playerKey(fideId), PlayerRecords.row(fp, next));
    if (prev?.fp === fp && (!input.full || sink.keepOwned?.(playerOwner(fideId)) !== false)) continue;
    writePlayer(input, fideId, next);
  }
  // A full build keeps, by owner, every player it did not touch (a tick keeps them unnamed).
  if (input.full)
    for (const fideId of previous)
      if (!affected.has(fideId) && sink.keepOwned?.(playerOwner(fideId)) === false) {
        const prev = records.previous(fideId)!;
        writePlayer(input, fideId, prev.entries);
      }
  out.files = count * FILES_PER_PLAYER;
  return out;
}

/** The player's resource (validated against its schema), page, feed and calendar. */
function writePlayer(input: PlayersInput, fideId: string, entries: readonly FideEntry[]): void {
  const owner = playerOwner(fideId);
  let view: FidePlayerView | undefined;
  ROUTE.render({ fideId, entries }, input.site, (params, body) => {
    const file = instanceFile(ROUTE, params);
    input.validator.assert(file, schemaId(ROUTE.schema), body);
    input.sink.write(file, toJson(body), owner);
    view = body as FidePlayerView;
  });
  for (const [file, text] of fidePlayerFiles(
    siteLocale(input.site),
    input.site.basePath ?? "",
    view!,
    entries,
  ))
    input.sink.write(file, text, owner);
}
