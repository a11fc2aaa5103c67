// One player across tournaments (issue 47): their entries of this build merged with the previous
// record's, the fingerprint, and, when it changed, their files (resource, page, feed, calendar).
// No file system and no ledger: the main thread reads the rows and writes the files; this runs
// there or on a render worker (render/worker.ts), which is idle once the tournaments are done.
import { toJson } from "../output/json.ts";
import { schemaId } from "../output/jsonschema.ts";
import type { SnapshotValidator } from "../output/validate.ts";
import { fidePlayerFiles } from "../pages/fide-player.ts";
import { siteLocale } from "../pages/tournament.ts";
import { ROUTES, type PlayerRoute, type SiteContext } from "../routes/table.ts";
import { instanceFile } from "../routes/urls.ts";
import { sha256 } from "../ledger/state.ts";
import { compareEntries, type FideEntry, type FidePlayerView } from "../views/fide-players.ts";

/** One player to look at, as the ledger's rows hold them (JSON texts, parsed where it runs). */
export interface PlayerJob {
  fideId: string;
  /** This build's entries of the player (one JSON text per tournament rendered now). */
  now: readonly string[];
  /** The previous record: the fingerprint and `{"entries":[…]}`; null for a new player. */
  prev: { fp: string; detail: string } | null;
}

/** What renders players: the tournaments rendered or dropped now, and the site. */
export interface PlayerContext {
  /** Their previous entries are replaced by this build's (or dropped). */
  touched: ReadonlySet<string>;
  /** The fingerprints' common part (program, clubs, languages). */
  base: string;
  site: SiteContext;
  validator: SnapshotValidator;
  /** As TournamentRenderContext.encode: a worker returns UTF-8 bytes. */
  encode?: (text: string) => Uint8Array;
}

export type PlayerFile = [string, string | Uint8Array];

export interface PlayerResult {
  fideId: string;
  /** The name the search index lists, before and after (null: none). */
  before: string | null;
  after: string | null;
  /** The previous build had the player. */
  hadPrevious: boolean;
  /** The new record (fingerprint, entries' JSON); null when no entry is left. */
  record: { fp: string; entries: string } | null;
  /** The fingerprint is the previous one. */
  same: boolean;
  /** The files, unless the fingerprint is the previous one or no entry is left. */
  files: PlayerFile[] | null;
}

const ROUTE = ROUTES.find((r): r is PlayerRoute => r.scope === "player")!;

/** The name a player is listed under: their entry's in the first tournament in page order. */
function nameOf(entries: readonly FideEntry[] | undefined): string | null {
  return entries && entries.length > 0 ? [...entries].sort(compareEntries)[0]!.name : null;
}

/** Merges, fingerprints and (when needed) renders one player. */
export function renderPlayerJob(job: PlayerJob, ctx: PlayerContext): PlayerResult {
  const prev = job.prev ? (JSON.parse(job.prev.detail) as { entries: FideEntry[] }).entries : undefined;
  const next = [
    ...(prev ?? []).filter((e) => !ctx.touched.has(e.tournamentId)),
    ...job.now.map((text) => JSON.parse(text) as FideEntry),
  ];
  next.sort((a, b) => compareEntries(a, b) || a.sourcePlayerNumber - b.sourcePlayerNumber);
  const out: PlayerResult = {
    fideId: job.fideId,
    before: nameOf(prev),
    after: nameOf(next),
    hadPrevious: job.prev !== null,
    record: null,
    same: false,
    files: null,
  };
  if (next.length === 0) return out;
  const entries = JSON.stringify(next);
  const fp = sha256(ctx.base, entries);
  out.record = { fp, entries };
  out.same = job.prev?.fp === fp;
  if (!out.same) out.files = playerFiles(job.fideId, next, ctx);
  return out;
}

/** The player's resource (validated against its schema), page, feed and calendar. */
export function playerFiles(fideId: string, entries: readonly FideEntry[], ctx: PlayerContext): PlayerFile[] {
  const files: PlayerFile[] = [];
  const encode = ctx.encode ?? ((text: string): string => text);
  let view: FidePlayerView | undefined;
  ROUTE.render({ fideId, entries }, ctx.site, (params, body) => {
    const file = instanceFile(ROUTE, params);
    ctx.validator.assert(file, schemaId(ROUTE.schema), body);
    files.push([file, encode(toJson(body))]);
    view = body as FidePlayerView;
  });
  const site = ctx.site;
  for (const [file, text] of fidePlayerFiles(siteLocale(site), site.basePath ?? "", view!, entries))
    files.push([file, encode(text)]);
  return files;
}
