// One tournament: store rows → domain → views → its API files and pages, validated. No file
// system: the files are returned. The main thread calls it (--jobs 1) and so do the render workers
// (src/render/worker.ts); a tournament whose fingerprint (src/ledger/state.ts) matches the
// previous snapshot's is not assembled at all.
import type { StatusOptions } from "../domain/status.ts";
import type { PublishedTournament } from "../domain/types.ts";
import { standingsStop } from "../domain/standings.ts";
import type { Problem } from "../shared/errors.ts";
import { toJson } from "../output/json.ts";
import { schemaId } from "../output/jsonschema.ts";
import type { SnapshotValidator } from "../output/validate.ts";
import { pagesOfTournament } from "../pages/index.ts";
import { zoneOf } from "../pages/tournament.ts";
import { ROUTES, type SiteContext } from "../routes/table.ts";
import { archiveFrom } from "../routes/cache.ts";
import { instanceFile } from "../routes/urls.ts";
import { stillValid, tournamentFingerprint, type TournamentState } from "../ledger/state.ts";
import type { Store } from "../store/read/open.ts";
import { tournamentSummary } from "../views/club.ts";
import { tournamentContext } from "../views/context.ts";
import { publicSummary } from "../views/public.ts";
import { fideEntries } from "../views/fide-players.ts";
import type { EntryRow } from "../ledger/players.ts";
import type { PlayerJob, PlayerResult } from "./player-job.ts";

/** What renders one tournament: the fields of RenderOptions a worker needs, and the site. */
export interface TournamentRenderContext {
  now: number;
  statusOptions: StatusOptions;
  validator: SnapshotValidator;
  site: SiteContext;
  /** The fingerprint's common part (program, clubs, languages); null: no fingerprints. */
  base: string | null;
  /**
   * Turns each file's text into the bytes to return as soon as it is made (a worker: UTF-8 outside
   * the JavaScript heap), so the texts die young instead of being copied by each collection of
   * the young generation until the tournament is done.
   */
  encode?: (text: string) => Uint8Array;
}

/** One tournament to render. */
export interface TournamentJob {
  rowId: number;
  externalId: string;
  /** The store's revision token, or null to fingerprint by hashing the rows. */
  token: string | null;
  /** The previous fingerprint and window: with token null, the rows are not assembled when they match. */
  previous: Pick<TournamentState, "fp" | "from" | "until"> | null;
  /** Its revision says it is unchanged: no renderer sees it; its files are kept if they can be. */
  keep?: true;
}

export type TournamentResult =
  | { kind: "invalid"; externalId: string; problems: Problem[] }
  | { kind: "unchanged"; fp: string }
  /** Files as text, or as UTF-8 bytes when they come from a worker (transferred, not copied). */
  | {
      kind: "rendered";
      state: TournamentState;
      files: [string, string | Uint8Array][];
      /**
       * Its FIDE-rated players' entries (issue 47), as JSON made where it was rendered (a worker):
       * the players' own files are made from them.
       */
      fide: EntryRow[];
    };

/** Renders jobs elsewhere and hands the results back in the order of the jobs. */
export interface RenderPool {
  run(
    jobs: Iterable<TournamentJob>,
    onResult: (job: TournamentJob, result: TournamentResult) => void,
    ctx: {
      site: SiteContext;
      base: string | null;
      /** The hash of the store's revisions as this thread reads them; null when it keeps none. */
      revisions: string | null;
      local: (job: TournamentJob) => TournamentResult;
      /** Keep the workers for players() (which ends them); else run() ends them. */
      keepWorkers?: boolean;
    },
  ): Promise<void>;
  /**
   * Renders the players across tournaments on the workers run() kept, in this thread when it kept
   * none, and hands the results back in the order of the jobs; the workers are ended after.
   */
  players?(
    jobs: Iterable<PlayerJob>,
    onResult: (job: PlayerJob, result: PlayerResult) => void,
    ctx: { touched: string[]; local: (job: PlayerJob) => PlayerResult },
  ): Promise<void>;
}

/** Texts up to this many characters are remembered as validated, by value (render below). */
const SMALL_TEXT = 2048;

/** Loads, computes, renders and validates one tournament. The files are returned, not written. */
export function renderTournament(
  store: Store,
  job: TournamentJob,
  ctx: TournamentRenderContext,
): TournamentResult {
  let fp = "";
  let loaded: { value: PublishedTournament | null; problems: Problem[] };
  if (ctx.base !== null && job.token === null) {
    const base = ctx.base;
    const r = store.loadTournamentHashed(job.rowId, (hash) => {
      fp = tournamentFingerprint(base, null, hash);
      return job.previous !== null && stillValid({ ...job.previous } as TournamentState, fp, ctx.now);
    });
    if (!r.loaded) return { kind: "unchanged", fp };
    loaded = r.loaded;
  } else {
    if (ctx.base !== null) fp = tournamentFingerprint(ctx.base, job.token, "");
    loaded = store.loadTournament(job.rowId);
  }
  if (!loaded.value) return { kind: "invalid", externalId: job.externalId, problems: loaded.problems };
  let published = loaded.value;
  const clubSlugs = ctx.site.clubSlugs;
  if (clubSlugs !== undefined) {
    // Catalog entries in clubs that --skip-invalid left out are not published either.
    published = { ...published, clubs: published.clubs.filter((e) => clubSlugs.includes(e.slug)) };
  }
  const c = tournamentContext(published, ctx.now, ctx.statusOptions);
  const encode = ctx.encode;
  const files: [string, string | Uint8Array][] = [];
  // The views are shared (views/): the public surface and each club that lists the tournament
  // emit the same body object, a fifth of the JSON bytes. It is serialized once, and validated once
  // against each schema it is emitted under (validation is a function of the value and the schema,
  // and equal texts are equal values). Small texts are remembered too (empty recaps in each
  // language); large ones are not kept alive.
  const made = new Map<object, string | Uint8Array>();
  const valid = new Map<string, Set<object | string>>();
  for (const route of ROUTES) {
    if (route.scope !== "tournament") continue;
    const schema = schemaId(route.schema);
    let checked = valid.get(schema);
    if (!checked) valid.set(schema, (checked = new Set()));
    route.render(c, ctx.site, (params, body) => {
      const file = instanceFile(route, params);
      const key = typeof body === "object" && body !== null ? body : undefined;
      let out = key && made.get(key);
      if (out === undefined || !checked.has(key!)) {
        // New, or met before under another schema only (then serialized again: rare).
        const text = toJson(body);
        const small = text.length <= SMALL_TEXT;
        if (!(small && checked.has(text))) ctx.validator.assert(file, schema, body);
        if (small) checked.add(text);
        out ??= encode ? encode(text) : text;
        if (key) {
          checked.add(key);
          made.set(key, out);
        }
      }
      files.push([file, out]);
    });
  }
  for (const [file, text] of pagesOfTournament(c, ctx.site)) files.push([file, encode ? encode(text) : text]);
  let unknownResults = 0;
  for (const r of c.t.rounds) for (const g of r.games) if (g.result === "Unknown") unknownResults++;
  const finite = (x: number): number | null => (Number.isFinite(x) ? x : null);
  // The answers change cache class when the tournament becomes archived: a build at or after
  // that instant must not reuse this one as up to date, nor a build before it one made after.
  const archiveAt = archiveFrom(c.status, c.t.lastScrapedAt);
  const archived = archiveAt !== null && archiveAt <= ctx.now;
  const from = Math.max(c.statusWindow.from, archived ? archiveAt : -Infinity);
  const until = Math.min(c.statusWindow.until, archiveAt !== null && !archived ? archiveAt : Infinity);
  const fide = fideEntries(c, zoneOf(c, ctx.site));
  const state: TournamentState = {
    id: job.externalId,
    fp,
    from: finite(from),
    until: finite(until),
    // The paths go with the files (the sink records them); the state keeps their count.
    fileCount: files.length,
    warnings: c.standings.warnings,
    unknownResults,
    stop: standingsStop(c.t),
    clubs: published.clubs.map((e) => ({ slug: e.slug, tags: e.tags, displayOrder: e.displayOrder })),
    summary: published.clubs.length > 0 ? tournamentSummary(c) : null,
    public: published.globalTags ? publicSummary(c, published.globalTags) : null,
    ...(fide.length > 0 && { fideIds: [...new Set(fide.map((e) => e.fideId))].sort() }),
  };
  const rows = fide.map((e): EntryRow => [e.fideId, JSON.stringify(e)]);
  return { kind: "rendered", state, files, fide: rows };
}
