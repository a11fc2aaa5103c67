// The whole snapshot: every published tournament (src/render/tournament.ts, here or on worker
// threads, src/render/pool.ts), then the lists, the OpenAPI document, the 404 body and the host
// files. No file system here: files go to the FileSink that is passed in, so tests can render into
// memory. A full build looks at every tournament and keeps, as it is, one whose fingerprint
// (src/ledger/state.ts) is the one the previous snapshot recorded: its files by owner
// (keepOwned), its state and list places in the index. A tick looks only at what changed since
// that snapshot (changedTournaments) and keeps every other tournament without naming it
// (keepOwnersUnder). The lists and the report are read from the index (render/lists.ts).
import { languageOf } from "../i18n/languages.ts";
import { localeOf } from "../i18n/locale.ts";
import { errorPageWords } from "../pages/error-words.ts";
import type { StatusOptions } from "../domain/status.ts";
import type { StandingsStop } from "../domain/standings.ts";
import { BuildError, EXIT, type Problem } from "../shared/errors.ts";
import { toJson } from "../output/json.ts";
import { NOT_FOUND, NOT_FOUND_FILE } from "../output/problem.ts";
import type { SnapshotValidator } from "../output/validate.ts";
import type { SiteContext } from "../routes/table.ts";
import { OPENAPI_PATH } from "../routes/urls.ts";
import { LIST_PAGE_SIZE, type EdgeFacts } from "../routes/pagination.ts";
import { pageLinksOf } from "../routes/page-links.ts";
import {
  sha256,
  tournamentOwner,
  listsRecord,
  type ListsRecord,
  type StateRecord,
  type TournamentState,
} from "../ledger/state.ts";
import type { Store } from "../store/read/open.ts";
import { renderLists } from "./lists.ts";
import {
  changedTournaments,
  everyTournament,
  listReasons,
  onHistory,
  tournamentReason,
  type PlanContext,
  type Reason,
} from "./plan.ts";
import { issuesOf, type TournamentIndex } from "../ledger/tournament-index.ts";
import { KeyedIds } from "../ledger/keyed-ids.ts";
import { columnsOf, membersOf } from "./list-places.ts";
import { renderPlayers, type PlayerChanges } from "./players.ts";
import { updateSearch, type NameChange } from "./search.ts";
import {
  renderTournament,
  type RenderPool,
  type TournamentJob,
  type TournamentRenderContext,
  type TournamentResult,
} from "./tournament.ts";

export interface FileSink {
  /** `owner`: the tournament (tournamentOwner) or the list page (lists.ts) the file belongs to. */
  write(relPath: string, data: string | Uint8Array, owner?: string): void;
  /** Keeps every file of the previous snapshot that `owner` wrote; their count, or false. */
  keepOwned?(owner: string): number | false;
  /**
   * Keeps every previous owner named `prefix…` that this build neither writes nor drops: a tick
   * then names only what changed. False when the previous files cannot be kept that way.
   */
  keepOwnersUnder?(prefix: string): boolean;
  /** A previous owner under keepOwnersUnder's prefix that is gone. */
  dropOwner?(owner: string): void;
  /** Takes the records besides the tournaments' (the lists', ledger/state.ts) for the next build. */
  setRecords?(records: Map<string, StateRecord>, removed: readonly string[]): void;
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
  /**
   * List the warnings and standings stops of every tournament in the report (--verbose, --json):
   * that reads the detail of each tournament that has any. Without it they are only counted.
   */
  listIssues?: boolean;
  /** The base path every URL of the output is made under (routes/urls.ts href); "": the root. */
  basePath?: string;
  /** The language of the pages, feeds and calendars (src/i18n); absent: English. */
  language?: string;
  /** The origin the snapshot is served at (build --origin); absent: no absolute links. */
  origin?: string;
  onProgress?: (done: number, total: number, files: number) => void;
  /**
   * The program's key (version, code hash, options): tournaments are fingerprinted, and kept
   * when unchanged, only when it is given. null: render everything, record no state.
   */
  programKey?: string | null;
  /**
   * Where the tournaments' states go, and the lists are read from; it holds the previous build's
   * states too (what can be kept: src/ledger/tournament-index.ts).
   */
  index: TournamentIndex;
  /** Renders tournaments elsewhere (worker threads); in this thread when absent. */
  pool?: RenderPool;
  /**
   * What the live snapshot's build read (build.ts): the count of the store's changes then and the
   * fingerprints' common part (program, clubs, languages); the index holds the tournaments it
   * found changed last, with their tokens (RECENT_REVISIONS). When the store continues that
   * history (onHistory), the build looks only at the tournaments changed since, and the
   * store-wide checks read only those; else it looks at every tournament and checks the whole
   * store.
   */
  checked?: {
    since: bigint;
    base: string;
    /** The tournaments that build left out as invalid (--skip-invalid): a tick tries them again. */
    skipped?: readonly string[];
  };
  /** --rebuild, and the fingerprints' common part the live snapshot's build recorded: the plan's reasons. */
  rebuild?: boolean;
  previousBase?: string;
}

export interface RenderReport {
  tournaments: number;
  /**
   * Tournaments left out by --skip-invalid. `problems` name store rows and values: they go to the
   * operator, never into a snapshot file (the recorded report keeps only `problemCount`).
   */
  skipped: { externalId: string; problems: Problem[]; problemCount?: number }[];
  /**
   * Club rows left out by --skip-invalid (their catalogs and club surfaces are not published), each
   * with its problems; like `skipped`, the recorded report keeps only the count.
   */
  skippedClubs?: { club: string; problems: Problem[]; problemCount?: number }[];
  /** The warnings of every tournament, counted; listed in `warnings` when asked (listIssues). */
  warningCount: number;
  warnings?: string[];
  /** Raw result texts the normalizer did not recognize (result Unknown), counted. */
  unknownResults: number;
  /**
   * Tournaments whose standings stop before a round because a result was not recognized, counted;
   * listed in `standingsStops` when asked (listIssues).
   */
  standingsStopCount: number;
  standingsStops?: ({ externalId: string } & StandingsStop)[];
  files: number;
  /** The build instants [from, until) that give the same bytes from the same store (ms). */
  validFrom: number;
  validUntil: number;
  /**
   * What this build rendered (the rest was kept from the previous snapshot), and the warnings of
   * those tournaments alone: a tick reports these in full and only counts the standing ones.
   * Per build, so never part of the snapshot's record (the record is the same for a tick and a
   * full build of the same store and instant).
   */
  rendered?: RenderedIssues;
  /**
   * How the build read the store (per build, never recorded): only the tournaments changed since
   * the live snapshot's build and checks over those ("changed"), or every tournament and the
   * whole store; and the fingerprints' common part, for the next build's `checked` (when the
   * store keeps revisions).
   */
  storeCheck?: { scope: "changed" | "whole"; base?: string };
  /**
   * Why each tournament and list this build rendered was rendered (render/plan.ts); per build,
   * never recorded. Lists: "*" when every list was rendered.
   */
  plan?: { tournaments: { id: string; reason: Reason }[]; lists: { list: string; reason: Reason }[] };
}

/** The tournaments a build rendered and their warnings (the report's fields above cover all). */
export interface RenderedIssues {
  tournaments: number;
  warnings: string[];
  unknownResults: number;
  standingsStops: ({ externalId: string } & StandingsStop)[];
}

export async function renderSnapshot(
  store: Store,
  sink: FileSink,
  opts: RenderOptions,
): Promise<RenderReport> {
  const problems: Problem[] = [];
  const skippedClubs = new Map<string, Problem[]>();
  const vocab = store.vocabulary();
  const programKey = opts.programKey ?? null;
  const { counts, clubsKey, base } = fingerprintBase(store, programKey, vocab.languages);
  const ix = opts.index;
  const keyed = counts !== null ? KeyedIds.of(store.history, counts.clubs) : null;
  ix.useKey(keyed);
  // A tick: the live snapshot was built from this store's history by this program, so only the
  // tournaments changed since (and those whose window ended) are looked at; the others keep their
  // files, states and list places without being read (TICK_OWNERS).
  const since =
    base !== null &&
    keyed !== null &&
    onHistory(store, opts.checked, base, ix.recent(), keyed) &&
    sink.keepOwnersUnder?.(TICK_OWNERS)
      ? opts.checked!.since
      : undefined;
  const storeProblems = storeWide(store, since, opts.skipInvalid ? skippedClubs : null);
  ix.setRecent(base !== null && counts !== null ? store.recentRevisions(RECENT_REVISIONS) : []);
  const report: RenderReport = {
    tournaments: 0,
    skipped: [],
    ...(skippedClubs.size > 0 && {
      skippedClubs: [...skippedClubs].map(([club, clubProblems]) => ({ club, problems: clubProblems })),
    }),
    warningCount: 0,
    unknownResults: 0,
    standingsStopCount: 0,
    files: 0,
    validFrom: -Infinity,
    validUntil: Infinity,
    rendered: { tournaments: 0, warnings: [], unknownResults: 0, standingsStops: [] },
    storeCheck: {
      scope: since === undefined ? "whole" : "changed",
      ...(base !== null && counts !== null && { base }),
    },
  };
  const rendered = report.rendered!;
  const planContext: PlanContext = {
    rebuild: opts.rebuild ?? false,
    live: ix.live,
    base,
    previousBase: opts.previousBase,
    now: opts.now,
  };
  const why: NonNullable<RenderReport["plan"]> = { tournaments: [], lists: [] };
  report.plan = why;
  const clubLanguages = Object.fromEntries(
    store.clubs().flatMap((c) => (c.defaultLanguage ? [[c.slug, c.defaultLanguage]] : [])),
  );
  const clubTimeZones = Object.fromEntries(
    store.clubs().flatMap((c) => (c.timeZone ? [[c.slug, c.timeZone]] : [])),
  );
  const site: SiteContext = {
    languages: vocab.languages,
    ...(skippedClubs.size > 0 && { clubSlugs: store.clubs().map((c) => c.slug) }),
    ...(opts.basePath && { basePath: opts.basePath }),
    ...(opts.language && opts.language !== "en" && { language: opts.language }),
    ...(opts.origin && { origin: opts.origin }),
    ...(Object.keys(clubLanguages).length > 0 && { clubLanguages }),
    ...(Object.keys(clubTimeZones).length > 0 && { clubTimeZones }),
  };
  const ctx: TournamentRenderContext = {
    now: opts.now,
    statusOptions: opts.statusOptions,
    validator: opts.validator,
    site,
    base,
  };
  let files = 0;
  let done = 0;
  // What the tournaments change of the players and names across tournaments (issue 47).
  const players: PlayerChanges = { rendered: new Set(), before: new Map() };
  const names: NameChange[] = [];
  const before = (id: string, after: string | null): void => {
    const prev = ix.live ? ix.loadPrevious(id) : null;
    if (prev?.fideIds) players.before.set(id, prev.fideIds);
    names.push({ kind: "t", id, before: prev?.public?.name ?? null, after });
  };

  const take = (job: TournamentJob, result: TournamentResult, forced?: Reason): void => {
    if (result.kind === "unchanged") {
      // Its state, list places and files stay as the previous build recorded them.
      const kept = sink.keepOwned?.(tournamentOwner(job.externalId)) ?? false;
      if (kept !== false) {
        // Seen: its previous record stays (the index's unseen() are gone).
        ix.see(job.externalId);
        files += kept;
      } else take(job, renderTournament(store, { ...job, previous: null }, ctx), "files-missing");
    } else if (result.kind === "invalid") {
      if (opts.skipInvalid) report.skipped.push({ externalId: result.externalId, problems: result.problems });
      else for (const p of result.problems) problems.push(p);
    } else {
      // The state keeps how many files it wrote, not their paths: the sink records each path
      // (the bookkeeping names an owner's files).
      const owner = tournamentOwner(result.state.id);
      for (const [file, text] of result.files) sink.write(file, text, owner);
      const t: TournamentState = { ...result.state, fileCount: result.files.length };
      before(t.id, t.public?.name ?? null);
      players.rendered.add(t.id);
      ix.players().addEntries(result.fide);
      files += result.files.length;
      ix.put(t, columnsOf(t, job.externalId, job.rowId), membersOf(t));
      rendered.tournaments++;
      why.tournaments.push({
        id: t.id,
        reason: forced ?? tournamentReason(planContext, job.previous, t.fp),
      });
      rendered.warnings.push(...t.warnings);
      rendered.unknownResults += t.unknownResults;
      if (t.stop) rendered.standingsStops.push({ externalId: t.id, ...t.stop });
    }
  };

  const plan =
    since === undefined
      ? everyTournament(store, ix, base, opts.now)
      : changedTournaments(store, ix, since, opts.now, opts.checked?.skipped ?? []);
  const onResult = (job: TournamentJob, result: TournamentResult): void => {
    take(job, result);
    opts.onProgress?.(++done, plan.total, files);
  };
  const local = (job: TournamentJob): TournamentResult =>
    job.keep ? { kind: "unchanged", fp: job.previous!.fp } : renderTournament(store, job, ctx);
  if (opts.pool)
    await opts.pool.run(plan.jobs, onResult, {
      site,
      base,
      revisions: store.revisionState(),
      local,
      // The workers render the players next (render/players.ts); a build without a program key
      // records no players.
      keepWorkers: true,
    });
  else for (const job of plan.jobs) onResult(job, local(job));

  // The previous tournaments neither rendered nor kept now: gone, unpublished, or invalid.
  const gone = ix.unseen(plan.candidates);
  problems.unshift(...storeProblems);
  if (problems.length > 0) {
    throw new BuildError(
      `The store has ${problems.length} problem(s); nothing was published. ` +
        "Fix them, or pass --skip-invalid to publish the valid tournaments only.",
      problems,
      EXIT.storeData,
    );
  }
  // The previous tournaments not published now (gone, or invalid) leave the state and the lists.
  for (const id of gone) {
    before(id, null);
    ix.drop(id);
    if (since !== undefined) sink.dropOwner?.(tournamentOwner(id));
  }

  const totals = addTotals(report, ix, opts.listIssues ?? false);
  const across = await renderAcross(
    players,
    names,
    since === undefined,
    base ?? "",
    ctx,
    sink,
    ix,
    opts.pool,
  );

  // The lists change only with what they list, and with what the fingerprint below holds.
  const lists = renderLists({
    index: ix,
    clubs: store.clubs(),
    clubTags: vocab.clubTags,
    globalTags: vocab.globalTags,
    pageSize: opts.pageSize ?? LIST_PAGE_SIZE,
    ...(opts.basePath && { basePath: opts.basePath }),
    ...(opts.language && { language: opts.language }),
    validator: opts.validator,
    fp:
      base === null
        ? null
        : sha256(programKey!, clubsKey, JSON.stringify(vocab), JSON.stringify(site.clubSlugs ?? null)),
    write: (file, text, owner) => sink.write(file, text, owner),
    keepOwned: (owner) => sink.keepOwned?.(owner) ?? false,
  });
  report.files = totals.files + lists.files + across.files + writeFixedFiles(sink, opts);
  const hosts = writeHostFiles(sink, ix, lists.record, opts);
  report.files += hosts.files;
  const record = listsRecord(lists.record && { ...lists.record, edge: hosts.edge });
  for (const [k, r] of across.records) record.records.set(k, r);
  sink.setRecords?.(record.records, [...record.removed, ...across.removed]);
  why.lists = listReasons(planContext, ix.previousLists, lists.record?.fp ?? null, lists.changed);
  return report;
}

/**
 * The files across tournaments (issue 47): each touched player's, then the search index's chunks
 * that the changed names fall in. Their count (written and kept), and their ledger records.
 */
async function renderAcross(
  players: PlayerChanges,
  names: NameChange[],
  full: boolean,
  base: string,
  ctx: TournamentRenderContext,
  sink: FileSink,
  ix: TournamentIndex,
  pool: RenderPool | undefined,
): Promise<{ files: number; records: Map<string, StateRecord>; removed: string[] }> {
  const records = ix.players();
  const p = await renderPlayers({
    pool,
    records,
    changes: players,
    full,
    base,
    site: ctx.site,
    validator: ctx.validator,
    sink,
  });
  const s = updateSearch({ records, changes: [...names, ...p.names], full, base, sink });
  return { files: p.files + s.files, records: s.records, removed: [...p.removed, ...s.removed] };
}

/**
 * The fingerprints' common part: the program's key, the clubs (by revision, or by the hash of
 * their rows without trusted revisions: revisions count along one file's history, so the file's
 * identity is part of their key) and the store's recap languages. Null without a program key.
 */
function fingerprintBase(
  store: Store,
  programKey: string | null,
  languages: readonly string[],
): { counts: { all: bigint; clubs: string } | null; clubsKey: string; base: string | null } {
  if (programKey === null) return { counts: null, clubsKey: "", base: null };
  const counts = store.revisionCounts();
  const clubsKey = counts ? `revision:${store.history}:${counts.clubs}` : `rows:${store.clubsHash()}`;
  return { counts, clubsKey, base: sha256(programKey, clubsKey, JSON.stringify(languages)) };
}

/**
 * The store-wide problems (checkStore) that fail the build; with `since`, of what changed. A bad
 * clubs row is its club's alone: with --skip-invalid (`skippedClubs` given) that club is left out
 * (store.clubs() returns only clubs whose row passes; tournaments drop their entries in others).
 */
function storeWide(
  store: Store,
  since: bigint | undefined,
  skippedClubs: Map<string, Problem[]> | null,
): Problem[] {
  const out: Problem[] = [];
  for (const p of store.checkStore(since)) {
    const club =
      p.row?.table === "clubs"
        ? p.row.key.map(([column, value]) => `${column}=${value}`).join(", ")
        : undefined;
    if (skippedClubs !== null && club !== undefined)
      skippedClubs.set(club, [...(skippedClubs.get(club) ?? []), p]);
    else out.push(p);
  }
  return out;
}

/**
 * The report's sums over every tournament of the snapshot, read from the index's columns; the
 * warnings themselves only when asked (a kept tournament's detail is read to list them).
 */
function addTotals(report: RenderReport, ix: TournamentIndex, listIssues: boolean): { files: number } {
  const totals = ix.totals();
  report.tournaments = totals.tournaments;
  report.unknownResults = totals.unknownResults;
  report.warningCount = totals.warnings;
  report.standingsStopCount = totals.standingsStops;
  report.validFrom = totals.validFrom;
  report.validUntil = totals.validUntil;
  if (listIssues) Object.assign(report, issuesOf(ix));
  return totals;
}

/** The OpenAPI document and the 404 body: written by every build. Their count. */
function writeFixedFiles(sink: FileSink, opts: RenderOptions): number {
  sink.write(OPENAPI_PATH.slice(1), opts.openApi);
  const notFound = toJson(NOT_FOUND);
  opts.validator.assert(NOT_FOUND_FILE, "ProblemResponse", NOT_FOUND);
  sink.write(NOT_FOUND_FILE, notFound);
  return 2;
}

/**
 * The host files. They depend on the program, the vocabulary and the base path (the lists'
 * record holds them), the lists' Link headers and the archived tournaments. Those last change
 * only with the tournaments this build put or dropped, unless the clock went back: otherwise the
 * previous files are kept, and neither the archived ids (O(store)) nor the files are made.
 * Returns their count and what they were made from (the lists' record keeps it).
 */
function writeHostFiles(
  sink: FileSink,
  ix: TournamentIndex,
  lists: ListsRecord | null,
  opts: RenderOptions,
): { files: number; edge: NonNullable<ListsRecord["edge"]> } {
  const links = pageLinksOf(Object.values(lists?.owners ?? {}).flat(), opts.basePath);
  const edge = { key: sha256(JSON.stringify(links), opts.basePath ?? ""), at: opts.now };
  const before = ix.previousLists;
  const kept =
    lists !== null &&
    before?.fp === lists.fp &&
    before.edge?.key === edge.key &&
    before.edge.at <= opts.now &&
    !ix.archivedChanged(before.edge.at, opts.now)
      ? (sink.keepOwned?.(HOSTS_OWNER) ?? false)
      : false;
  if (kept !== false) return { files: kept, edge };
  // The base path goes with the facts, so every host config, the preview and the probe know it.
  const facts: EdgeFacts = {
    links,
    archived: ix.archived(opts.now),
    ...(opts.basePath && { basePath: opts.basePath }),
    // The error page's words travel with the facts (English is the page's own: no key).
    ...(opts.language &&
      opts.language !== "en" && { errorPage: errorPageWords(localeOf(languageOf(opts.language))) }),
  };
  const hostFiles = typeof opts.hostFiles === "function" ? opts.hostFiles(facts) : opts.hostFiles;
  for (const [name, text] of [...hostFiles].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    sink.write(name, text, HOSTS_OWNER);
  }
  return { files: hostFiles.size, edge };
}

/** The owner of the host files (a build keeps them all or writes them all). */
const HOSTS_OWNER = "hosts";

/** The tournaments a tick can keep unread: every owner under this prefix (tournamentOwner). */
const TICK_OWNERS = tournamentOwner("");

/** How many of the tournaments changed last a build records, for the next one to find again. */
export const RECENT_REVISIONS = 1024;
