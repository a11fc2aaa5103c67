// The whole snapshot: every published tournament (src/render/tournament.ts, here or on worker
// threads, src/render/pool.ts), then the lists, the OpenAPI document, the 404 body and the host
// files. No file system here: files go to the FileSink that is passed in, so tests can render into
// memory. A tournament whose fingerprint (src/incremental/state.ts) is the one the previous
// snapshot recorded is kept as it is: its files by owner (keepOwned), its state and list places
// in the index. The lists and the report are read from the index (render/lists.ts).
import { createHash } from "node:crypto";
import type { StatusOptions } from "../domain/status.ts";
import type { StandingsStop } from "../domain/standings.ts";
import { BuildError, EXIT, type Problem } from "../shared/errors.ts";
import { toJson } from "../output/json.ts";
import { NOT_FOUND, NOT_FOUND_FILE } from "../output/problem.ts";
import type { SnapshotValidator } from "../output/validate.ts";
import { ROUTES, type SiteContext } from "../routes/table.ts";
import { href, OPENAPI_PATH, pathForms } from "../routes/urls.ts";
import { LIST_PAGE_SIZE, pageLinks, type EdgeFacts } from "../routes/pagination.ts";
import {
  sha256,
  stillValid,
  tournamentFingerprint,
  tournamentOwner,
  type StateDelta,
  type TournamentState,
} from "../incremental/state.ts";
import type { Store } from "../store/read/open.ts";
import { renderLists } from "./lists.ts";
import { columnsOf, membersOf, type TournamentIndex } from "./tournament-index.ts";
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
  /** Takes the lists' state (incremental/state.ts) for the next build. */
  recordState?(delta: StateDelta): void;
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
  /** The base path every URL of the output is made under (routes/urls.ts href); "": the root. */
  basePath?: string;
  onProgress?: (done: number, total: number, files: number) => void;
  /**
   * The program's key (version, code hash, options): tournaments are fingerprinted, and kept
   * when unchanged, only when it is given. null: render everything, record no state.
   */
  programKey?: string | null;
  /**
   * Where the tournaments' states go, and the lists are read from; it holds the previous build's
   * states too (what can be kept: src/publish/tournament-index.ts).
   */
  index: TournamentIndex;
  /** Renders tournaments elsewhere (worker threads); in this thread when absent. */
  pool?: RenderPool;
  /**
   * What the live snapshot's build checked (build.ts): the count of the store's changes then and
   * the digest of the revisions of the tournaments it did not publish. The store-wide checks then
   * read only the tournaments changed since. The whole store is checked instead when the store
   * shows another history than the one recorded: a published tournament unchanged since that
   * count with another fingerprint, a previous one gone, or another digest of the unpublished
   * ones' revisions up to that count.
   */
  checked?: { since: bigint; unlisted: string };
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
  warnings: string[];
  /** Raw result texts the normalizer did not recognize (result Unknown), counted. */
  unknownResults: number;
  /** Tournaments whose standings stop before a round because a result was not recognized. */
  standingsStops: ({ externalId: string } & StandingsStop)[];
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
   * How the store-wide checks ran (per build, never recorded): over the tournaments changed since
   * the live snapshot's build, or the whole store; and the digest of the revisions of the
   * tournaments this build did not publish, for the next build's `checked`.
   */
  storeCheck?: { scope: "changed" | "whole"; unlisted?: string };
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
  /** The store-wide problems (checkStore) that fail the build, and those of its tournaments. */
  let storeProblems: Problem[] = [];
  const problems: Problem[] = [];
  const skippedClubs = new Map<string, Problem[]>();
  const storeWide = (since?: bigint): Problem[] => {
    const out: Problem[] = [];
    skippedClubs.clear();
    for (const p of store.checkStore(since)) {
      // A bad clubs row is its club's alone: --skip-invalid leaves that club out (store.clubs()
      // returns only clubs whose row passes; tournaments drop their entries in other clubs below).
      const club = /: table clubs, row \((club_id=[^)]*)\)/.exec(p.where ?? "")?.[1];
      if (opts.skipInvalid && club !== undefined)
        skippedClubs.set(club, [...(skippedClubs.get(club) ?? []), p]);
      else out.push(p);
    }
    return out;
  };
  // Scoped to what changed when the build says so; the tournaments below confirm that the store
  // is the one that was checked (else the whole store is checked after them).
  let checkSince = opts.checked?.since;
  storeProblems = storeWide(checkSince);
  const report: RenderReport = {
    tournaments: 0,
    skipped: [],
    ...(skippedClubs.size > 0 && {
      skippedClubs: [...skippedClubs].map(([club, clubProblems]) => ({ club, problems: clubProblems })),
    }),
    warnings: [],
    unknownResults: 0,
    standingsStops: [],
    files: 0,
    validFrom: -Infinity,
    validUntil: Infinity,
    rendered: { tournaments: 0, warnings: [], unknownResults: 0, standingsStops: [] },
  };
  const rendered = report.rendered!;
  const vocab = store.vocabulary();
  const site: SiteContext = {
    languages: vocab.languages,
    ...(skippedClubs.size > 0 && { clubSlugs: store.clubs().map((c) => c.slug) }),
    ...(opts.basePath && { basePath: opts.basePath }),
  };
  const programKey = opts.programKey ?? null;
  const revisions = programKey === null ? null : store.revisions();
  // Revisions count along one file's history: the file's identity is part of their key.
  const clubsKey =
    programKey === null
      ? ""
      : revisions
        ? `revision:${store.identity}:${revisions.clubs}`
        : `rows:${store.clubsHash()}`;
  const base = programKey === null ? null : sha256(programKey, clubsKey, JSON.stringify(vocab.languages));
  const ctx: TournamentRenderContext = {
    now: opts.now,
    statusOptions: opts.statusOptions,
    validator: opts.validator,
    site,
    base,
  };
  // The previous fingerprints and windows by external id (compact): what can be kept.
  const ix = opts.index;
  const previous = base === null ? new Map<string, never>() : ix.previous;
  /** The tournaments seen (rendered or kept): the previous ones not seen are gone. */
  const seen = new Set<string>();
  let files = 0;
  const keys = store.publishedTournaments();
  let done = 0;

  const take = (job: TournamentJob, result: TournamentResult): void => {
    if (result.kind === "unchanged") {
      // Its state, list places and files stay as the previous build recorded them.
      const kept = sink.keepOwned?.(tournamentOwner(job.externalId)) ?? false;
      if (kept !== false) {
        seen.add(job.externalId);
        files += kept;
      } else take(job, renderTournament(store, { ...job, previous: null }, ctx));
    } else if (result.kind === "invalid") {
      if (opts.skipInvalid) report.skipped.push({ externalId: result.externalId, problems: result.problems });
      else for (const p of result.problems) problems.push(p);
    } else {
      // The state keeps how many files it wrote, not their paths: the sink records each path
      // (the bookkeeping names an owner's files).
      const owner = tournamentOwner(result.state.id);
      for (const [file, text] of result.files) sink.write(file, text, owner);
      const t: TournamentState = { ...result.state, files: [], fileCount: result.files.length };
      seen.add(t.id);
      files += result.files.length;
      ix.put(t, columnsOf(t, job.externalId, job.rowId), membersOf(t));
      rendered.tournaments++;
      rendered.warnings.push(...t.warnings);
      rendered.unknownResults += t.unknownResults;
      if (t.stop) rendered.standingsStops.push({ externalId: t.id, ...t.stop });
    }
  };

  // A tournament whose revision says it is unchanged is a job marked `keep`: it never reaches a
  // renderer, but goes through the same ordered stream, so results are taken in store order.
  const jobs = function* (): Generator<TournamentJob> {
    for (const key of keys) {
      const externalId = key.externalId.toString();
      const prev = previous.get(externalId) ?? null;
      const token = revisions ? (revisions.tournaments.get(key.rowId) ?? "") : null;
      const fp = base !== null && token !== null ? tournamentFingerprint(base, token, "") : null;
      const keep = fp !== null && prev !== null && stillValid(prev, fp, opts.now);
      // Unchanged since the checked count, it must be the tournament the snapshot recorded.
      if (
        checkSince !== undefined &&
        (fp === null || (revisionCount(token!) <= checkSince && prev?.fp !== fp))
      )
        checkSince = undefined;
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
    opts.onProgress?.(++done, keys.length, files);
  };
  const local = (job: TournamentJob): TournamentResult =>
    job.keep ? { kind: "unchanged", fp: job.previous!.fp } : renderTournament(store, job, ctx);
  if (opts.pool) {
    const storeRevisions = (revisions ?? store.revisions())?.store ?? null;
    await opts.pool.run(jobs(), onResult, { site, base, revisions: storeRevisions, local });
  } else for (const job of jobs()) onResult(job, local(job));

  // The revisions of the tournaments not published: their digest up to the checked count must be
  // the recorded one, and a previous tournament gone must have changed since (it is not published
  // now, so its revision is in that digest). Else the whole store is checked.
  const gone = [...ix.previous.keys()].filter((id) => !seen.has(id));
  seen.clear();
  const unlisted = revisions ? unlistedDigests(revisions.tournaments, keys, checkSince) : null;
  if (checkSince !== undefined && (unlisted?.upTo !== opts.checked!.unlisted || gone.length > 0))
    checkSince = undefined;
  if (checkSince === undefined && opts.checked !== undefined) storeProblems = storeWide();
  report.storeCheck = {
    scope: checkSince === undefined ? "whole" : "changed",
    ...(unlisted && { unlisted: unlisted.all }),
  };
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
  for (const id of gone) ix.drop(id);

  // The report: sums over every tournament of the snapshot, read from the index (a kept
  // tournament's detail is read only when it has warnings to list).
  const totals = ix.totals();
  report.tournaments = totals.tournaments;
  report.unknownResults = totals.unknownResults;
  report.validFrom = totals.validFrom;
  report.validUntil = totals.validUntil;
  for (const t of ix.issues()) {
    report.warnings.push(...t.warnings);
    if (t.stop) report.standingsStops.push({ externalId: t.id, ...t.stop });
  }

  // The lists change only with what they list, and with what the fingerprint below holds.
  const lists = renderLists({
    index: ix,
    clubs: store.clubs(),
    clubTags: vocab.clubTags,
    globalTags: vocab.globalTags,
    pageSize: opts.pageSize ?? LIST_PAGE_SIZE,
    ...(opts.basePath && { basePath: opts.basePath }),
    validator: opts.validator,
    fp:
      base === null
        ? null
        : sha256(programKey!, clubsKey, JSON.stringify(vocab), JSON.stringify(site.clubSlugs ?? null)),
    write: (file, text, owner) => sink.write(file, text, owner),
    keepOwned: (owner) => sink.keepOwned?.(owner) ?? false,
  });
  report.files = totals.files + lists.files;
  const listFiles = Object.values(lists.record?.owners ?? {}).flat();

  // The base path goes with the facts, so every host config, the preview and the probe know it.
  const facts: EdgeFacts = {
    links: pageLinksOf(listFiles, opts.basePath),
    archived: ix.archived(opts.now),
    ...(opts.basePath && { basePath: opts.basePath }),
  };
  const hostFiles = typeof opts.hostFiles === "function" ? opts.hostFiles(facts) : opts.hostFiles;

  sink.write(OPENAPI_PATH.slice(1), opts.openApi);
  const notFound = toJson(NOT_FOUND);
  opts.validator.assert(NOT_FOUND_FILE, "ProblemResponse", notFound);
  sink.write(NOT_FOUND_FILE, notFound);
  for (const [name, text] of [...hostFiles].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    sink.write(name, text);
  }
  report.files += 2 + hostFiles.size;
  sink.recordState?.({ lists: lists.record });
  return report;
}

/**
 * The Link header of every file of a paged list, from the list files' names alone (the same
 * whether the lists were rendered now or kept): each list instance with its numbered pages.
 */
export function pageLinksOf(listFiles: readonly string[], basePath = ""): Record<string, string> {
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
      const base = href(basePath, `/${m[1]}`);
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

/** The count of a revision token ("17.9f3c…", store/read/revisions.ts); -1 for none. */
function revisionCount(token: string): bigint {
  const m = /^(\d+)\./.exec(token);
  return m ? BigInt(m[1]!) : -1n;
}

/**
 * Digests of the revision tokens of the tournaments (row ids, existing or not) that are not
 * published: of all of them, and of those whose count is at most `since`. Published ones are
 * vouched for by their fingerprints; these cover drafts, unpublished tournaments and rows of
 * tournaments that do not exist.
 */
function unlistedDigests(
  tokens: ReadonlyMap<number, string>,
  published: readonly { rowId: number }[],
  since: bigint | undefined,
): { all: string; upTo: string | null } {
  const listed = new Set(published.map((k) => k.rowId));
  const all = createHash("sha256");
  const upTo = createHash("sha256");
  for (const [id, token] of tokens) {
    if (listed.has(id)) continue;
    all.update(`${id}:${token}\n`);
    if (since !== undefined && revisionCount(token) <= since) upTo.update(`${id}:${token}\n`);
  }
  return { all: all.digest("hex"), upTo: since === undefined ? null : upTo.digest("hex") };
}
