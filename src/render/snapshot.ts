// Store → domain → views → files, one tournament at a time. No file system here: files go to
// the SnapshotWriter that is passed in, so tests can render into memory. A tournament whose
// fingerprint (src/incremental/state.ts) is the one the previous snapshot recorded is kept as it is;
// the others are rendered here (--jobs 1) or by worker threads (src/render/pool.ts).
import type { StatusOptions } from "../domain/status.ts";
import type { Club, PublishedTournament } from "../domain/types.ts";
import { standingsStop, type StandingsStop } from "../domain/standings.ts";
import { BuildError, EXIT, type Problem } from "../shared/errors.ts";
import { toJson } from "../output/json.ts";
import { schemaId } from "../output/jsonschema.ts";
import { NOT_FOUND, NOT_FOUND_FILE } from "../output/problem.ts";
import type { SnapshotValidator } from "../output/validate.ts";
import { pagesOfSite, pagesOfTournament } from "../pages/index.ts";
import { ROUTES, type ListContext, type SiteContext } from "../routes/table.ts";
import { instanceFile, OPENAPI_PATH, pathForms } from "../routes/urls.ts";
import { archiveFrom } from "../routes/cache.ts";
import { LIST_PAGE_SIZE, pageLinks, type EdgeFacts } from "../routes/pagination.ts";
import {
  emptyState,
  serializeState,
  sha256,
  STATE_FILE,
  stillValid,
  tournamentFingerprint,
  type SnapshotState,
  type TournamentState,
} from "../incremental/state.ts";
import type { Store } from "../store/read/open.ts";
import { fileIdentity } from "../store/read/revisions.ts";
import { compareCatalogEntries, tournamentSummary, type CatalogEntry } from "../views/club.ts";
import { tournamentContext } from "../views/context.ts";
import { comparePublicSummaries, publicSummary, type PublicSummary } from "../views/public.ts";

export interface FileSink {
  write(relPath: string, data: string | Uint8Array): void;
  /** Keeps these files of the previous snapshot without their bytes; false when it cannot. */
  keepAll?(relPaths: readonly string[]): boolean;
}

export interface RenderOptions {
  /** The build instant, epoch milliseconds. */
  now: number;
  statusOptions: StatusOptions;
  /** Publish the valid tournaments and list the invalid ones instead of failing. */
  skipInvalid: boolean;
  validator: SnapshotValidator;
  /** The OpenAPI document text, published at OPENAPI_PATH. */
  openApi: string;
  /**
   * Host configuration files (name → text), rendered from the route table; a function gets the
   * snapshot's edge facts (Link headers of paged lists, archived tournaments) first.
   */
  hostFiles: Map<string, string> | ((facts: EdgeFacts) => Map<string, string>);
  /** Items per page of a long list (default LIST_PAGE_SIZE; tests lower it). */
  pageSize?: number;
  onProgress?: (done: number, total: number, files: number) => void;
  /**
   * The program's key (version, code hash, options): tournaments are fingerprinted, and kept
   * when unchanged, only when it is given. null: render everything, record no state.
   */
  programKey?: string | null;
  /** The previous snapshot's state: what can be kept. */
  previous?: SnapshotState | null;
  /** Renders tournaments elsewhere (worker threads); in this thread when absent. */
  pool?: RenderPool;
}

/** What renders one tournament: the fields of RenderOptions a worker needs, and the site. */
export interface TournamentRenderContext {
  now: number;
  statusOptions: StatusOptions;
  validator: SnapshotValidator;
  site: SiteContext;
  /** The fingerprint's common part (program, clubs, languages); null: no fingerprints. */
  base: string | null;
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
  | { kind: "rendered"; state: TournamentState; files: [string, string | Uint8Array][] };

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
    },
  ): Promise<void>;
}

export interface RenderReport {
  tournaments: number;
  /**
   * Tournaments left out by --skip-invalid. `problems` name store rows and values: they go to the
   * operator, never into a snapshot file (the recorded report keeps only `problemCount`).
   */
  skipped: { externalId: string; problems: Problem[]; problemCount?: number }[];
  warnings: string[];
  /** Raw result texts the normalizer did not recognize (result Unknown), counted. */
  unknownResults: number;
  /** Tournaments whose standings stop before a round because a result was not recognized. */
  standingsStops: ({ externalId: string } & StandingsStop)[];
  files: number;
  /** The build instants [from, until) that give the same bytes from the same store (ms). */
  validFrom: number;
  validUntil: number;
}

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
  const published = loaded.value;
  const c = tournamentContext(published, ctx.now, ctx.statusOptions);
  const files: [string, string][] = [];
  for (const route of ROUTES) {
    if (route.scope !== "tournament") continue;
    route.render(c, ctx.site, (params, body) => {
      const file = instanceFile(route, params);
      const text = toJson(body);
      ctx.validator.assert(file, schemaId(route.schema), text);
      files.push([file, text]);
    });
  }
  for (const page of pagesOfTournament(c, ctx.site)) files.push(page);
  let unknownResults = 0;
  for (const r of c.t.rounds) for (const g of r.games) if (g.result === "Unknown") unknownResults++;
  const finite = (x: number): number | null => (Number.isFinite(x) ? x : null);
  // The answers change cache class when the tournament becomes archived: a build at or after
  // that instant must not reuse this one as up to date.
  const archiveAt = archiveFrom(c.status, c.t.lastScrapedAt);
  const until = Math.min(
    c.statusWindow.until,
    archiveAt !== null && archiveAt > ctx.now ? archiveAt : Infinity,
  );
  const state: TournamentState = {
    id: job.externalId,
    fp,
    from: finite(c.statusWindow.from),
    until: finite(until),
    files: files.map(([f]) => f),
    warnings: c.standings.warnings,
    unknownResults,
    stop: standingsStop(c.t),
    clubs: published.clubs.map((e) => ({ slug: e.slug, tags: e.tags, displayOrder: e.displayOrder })),
    summary: published.clubs.length > 0 ? tournamentSummary(c) : null,
    public: published.globalTags ? publicSummary(c, published.globalTags) : null,
  };
  return { kind: "rendered", state, files };
}

export async function renderSnapshot(
  store: Store,
  sink: FileSink,
  opts: RenderOptions,
): Promise<RenderReport> {
  const problems: Problem[] = [...store.checkStore()];
  const report: RenderReport = {
    tournaments: 0,
    skipped: [],
    warnings: [],
    unknownResults: 0,
    standingsStops: [],
    files: 0,
    validFrom: -Infinity,
    validUntil: Infinity,
  };
  const vocab = store.vocabulary();
  const site: SiteContext = { languages: vocab.languages };
  const programKey = opts.programKey ?? null;
  const revisions = programKey === null ? null : store.revisions();
  // Revisions count along one file's history: the file's identity is part of their key.
  const clubsKey =
    programKey === null
      ? ""
      : revisions
        ? `revision:${fileIdentity(store.file)}:${revisions.clubs}`
        : `rows:${store.clubsHash()}`;
  const base = programKey === null ? null : sha256(programKey, clubsKey, JSON.stringify(vocab.languages));
  const ctx: TournamentRenderContext = {
    now: opts.now,
    statusOptions: opts.statusOptions,
    validator: opts.validator,
    site,
    base,
  };
  // The previous states by external id; each is taken out as it is used, so memory goes down.
  const previous = new Map((opts.previous?.tournaments ?? []).map((t) => [t.id, t]));
  const state: SnapshotState = emptyState();
  const keepAll = (files: readonly string[]): boolean => sink.keepAll?.(files) ?? false;

  const catalog = new Map<string, CatalogEntry[]>();
  const publicSummaries: PublicSummary[] = [];
  const archived: string[] = [];
  const keys = store.publishedTournaments();
  let done = 0;

  /** Counts a tournament, rendered now or kept, into the report and the lists. */
  const adopt = (t: TournamentState): void => {
    report.tournaments++;
    report.files += t.files.length;
    report.validFrom = Math.max(report.validFrom, t.from ?? -Infinity);
    report.validUntil = Math.min(report.validUntil, t.until ?? Infinity);
    report.warnings.push(...t.warnings);
    report.unknownResults += t.unknownResults;
    if (t.stop) report.standingsStops.push({ externalId: t.id, ...t.stop });
    for (const entry of t.clubs) {
      const list = catalog.get(entry.slug) ?? [];
      list.push({ tournament: t.summary!, tags: entry.tags, displayOrder: entry.displayOrder });
      catalog.set(entry.slug, list);
    }
    if (t.public) publicSummaries.push(t.public);
    const s = t.public ?? t.summary;
    const from = s ? archiveFrom(s.status, s.lastScrapedAt) : null;
    if (from !== null && from <= opts.now) archived.push(t.id);
    if (base !== null) state.tournaments.push(t);
  };
  const take = (job: TournamentJob, result: TournamentResult): void => {
    if (result.kind === "unchanged") {
      const prev = previous.get(job.externalId)!;
      // The snapshot lacks a file it recorded: render the tournament after all.
      if (keepAll(prev.files)) adopt(prev);
      else take(job, renderTournament(store, { ...job, previous: null }, ctx));
    } else if (result.kind === "invalid") {
      if (opts.skipInvalid) report.skipped.push({ externalId: result.externalId, problems: result.problems });
      else for (const p of result.problems) problems.push(p);
    } else {
      for (const [file, text] of result.files) sink.write(file, text);
      adopt(result.state);
    }
  };

  // A tournament whose revision says it is unchanged is a job marked `keep`: it never reaches a
  // renderer, but goes through the same ordered stream, so results are taken in store order.
  const jobs = function* (): Generator<TournamentJob> {
    for (const key of keys) {
      const externalId = key.externalId.toString();
      const prev = previous.get(externalId) ?? null;
      const token = revisions ? (revisions.tournaments.get(key.rowId) ?? "") : null;
      const keep =
        base !== null &&
        prev !== null &&
        token !== null &&
        stillValid(prev, tournamentFingerprint(base, token, ""), opts.now);
      yield {
        rowId: key.rowId,
        externalId,
        token,
        previous: prev && { fp: prev.fp, from: prev.from, until: prev.until },
        ...(keep && { keep }),
      };
    }
  };
  const onResult = (job: TournamentJob, result: TournamentResult): void => {
    take(job, result);
    previous.delete(job.externalId);
    opts.onProgress?.(++done, keys.length, report.files);
  };
  const local = (job: TournamentJob): TournamentResult =>
    job.keep ? { kind: "unchanged", fp: job.previous!.fp } : renderTournament(store, job, ctx);
  if (opts.pool) {
    const storeRevisions = (revisions ?? store.revisions())?.store ?? null;
    await opts.pool.run(jobs(), onResult, { site, base, revisions: storeRevisions, local });
  } else for (const job of jobs()) onResult(job, local(job));

  if (problems.length > 0) {
    throw new BuildError(
      `The store has ${problems.length} problem(s); nothing was published. ` +
        "Fix them, or pass --skip-invalid to publish the valid tournaments only.",
      problems,
      EXIT.storeData,
    );
  }

  const clubs: { club: Club; entries: CatalogEntry[] }[] = store.clubs().map((club) => ({
    club,
    entries: (catalog.get(club.slug) ?? []).sort(compareCatalogEntries),
  }));
  const lists: ListContext = {
    clubs,
    publicSummaries: publicSummaries.sort(comparePublicSummaries),
    clubTags: vocab.clubTags,
    globalTags: vocab.globalTags,
    pageSize: opts.pageSize ?? LIST_PAGE_SIZE,
  };
  // The list files change only with what they list: kept as they are when that is the same.
  const listsFp =
    base === null
      ? null
      : sha256(
          programKey!,
          JSON.stringify(lists, (_k, v: unknown) => (typeof v === "bigint" ? `${v}n` : v)),
        );
  const prevLists = opts.previous?.lists;
  let listFiles: string[] = [];
  if (listsFp !== null && prevLists && prevLists.fp === listsFp && keepAll(prevLists.files)) {
    report.files += prevLists.files.length;
    state.lists = prevLists;
    listFiles = prevLists.files;
  } else {
    const listSink = (file: string, text: string): void => {
      sink.write(file, text);
      listFiles.push(file);
    };
    for (const route of ROUTES) {
      if (route.scope !== "list") continue;
      route.render(lists, (params, body) => {
        const file = instanceFile(route, params);
        const text = toJson(body);
        opts.validator.assert(file, schemaId(route.schema), text);
        listSink(file, text);
      });
    }
    for (const [file, text] of pagesOfSite(lists)) listSink(file, text);
    report.files += listFiles.length;
    if (listsFp !== null) state.lists = { fp: listsFp, files: listFiles };
  }

  const facts: EdgeFacts = { links: pageLinksOf(listFiles), archived: archived.sort() };
  const hostFiles = typeof opts.hostFiles === "function" ? opts.hostFiles(facts) : opts.hostFiles;

  sink.write(OPENAPI_PATH.slice(1), opts.openApi);
  const notFound = toJson(NOT_FOUND);
  opts.validator.assert(NOT_FOUND_FILE, "ProblemResponse", notFound);
  sink.write(NOT_FOUND_FILE, notFound);
  for (const [name, text] of [...hostFiles].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    sink.write(name, text);
  }
  report.files += 2 + hostFiles.size;
  if (base !== null) sink.write(STATE_FILE, serializeState(state));
  return report;
}

/**
 * The Link header of every file of a paged list, from the list files' names alone (the same
 * whether the lists were rendered now or kept): each list instance with its numbered pages.
 */
export function pageLinksOf(listFiles: readonly string[]): Record<string, string> {
  const instances = new Map<string, Map<number, string>>();
  const patterns = ROUTES.filter((r) => r.paged).flatMap((r) =>
    pathForms({ ...r, paged: undefined }).map(
      (form) =>
        new RegExp(`^(${form.slice(1).replace(/\{\w+\}/g, "[^/]+")})(?:/page/([1-9][0-9]*))?/index\\.json$`),
    ),
  );
  for (const file of listFiles) {
    for (const re of patterns) {
      const m = re.exec(file);
      if (!m) continue;
      const base = `/${m[1]}`;
      const pages = instances.get(base) ?? new Map<number, string>();
      pages.set(m[2] === undefined ? 0 : Number(m[2]), file);
      instances.set(base, pages);
      break;
    }
  }
  const links: Record<string, string> = {};
  for (const [base, pages] of [...instances].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const k = pages.size - 1;
    if (k === 0) continue; // a list that fits one page sends no Link header
    for (const [j, file] of [...pages].sort(([a], [b]) => a - b)) links[file] = pageLinks(base, j, k);
  }
  return links;
}
