// Store → domain → views → files, one tournament at a time. No file system here: files go to
// the SnapshotWriter that is passed in, so tests can render into memory.
import type { StatusOptions } from "./domain/status.ts";
import type { Club } from "./domain/types.ts";
import { standingsStop, type StandingsStop } from "./domain/standings.ts";
import { BuildError, EXIT, type Problem } from "./errors.ts";
import { toJson } from "./emit/json.ts";
import { schemaId } from "./emit/jsonschema.ts";
import { NOT_FOUND, NOT_FOUND_FILE } from "./emit/problem.ts";
import type { SnapshotValidator } from "./emit/validate.ts";
import { pagesOfSite, pagesOfTournament, writePages } from "./pages/index.ts";
import {
  instanceFile,
  OPENAPI_PATH,
  ROUTES,
  type ListContext,
  type Route,
  type SiteContext,
} from "./routes.ts";
import type { Store } from "./store/open.ts";
import { compareCatalogEntries, tournamentSummary, type CatalogEntry } from "./views/club.ts";
import { tournamentContext } from "./views/context.ts";
import { comparePublicSummaries, publicSummary, type PublicSummary } from "./views/public.ts";

export interface FileSink {
  write(relPath: string, data: string): void;
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
  /** Host configuration files (name → text), rendered from the route table. */
  hostFiles: Map<string, string>;
  onProgress?: (done: number, total: number, files: number) => void;
}

export interface RenderReport {
  tournaments: number;
  skipped: { externalId: string; problems: Problem[] }[];
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

export function renderSnapshot(store: Store, sink: FileSink, opts: RenderOptions): RenderReport {
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

  const emitter = (route: Route) => (params: Parameters<typeof instanceFile>[1], body: unknown) => {
    const file = instanceFile(route, params);
    const text = toJson(body);
    opts.validator.assert(file, schemaId(route.schema), text);
    sink.write(file, text);
    report.files++;
  };

  const catalog = new Map<string, CatalogEntry[]>();
  const publicSummaries: PublicSummary[] = [];
  const keys = store.publishedTournaments();
  let done = 0;
  for (const key of keys) {
    const loaded = store.loadTournament(key.rowId);
    done++;
    if (!loaded.value) {
      if (opts.skipInvalid)
        report.skipped.push({ externalId: key.externalId.toString(), problems: loaded.problems });
      else for (const p of loaded.problems) problems.push(p);
      opts.onProgress?.(done, keys.length, report.files);
      continue;
    }
    const published = loaded.value;
    const c = tournamentContext(published, opts.now, opts.statusOptions);
    report.tournaments++;
    report.validFrom = Math.max(report.validFrom, c.statusWindow.from);
    report.validUntil = Math.min(report.validUntil, c.statusWindow.until);
    report.warnings.push(...c.standings.warnings);
    for (const r of c.t.rounds) for (const g of r.games) if (g.result === "Unknown") report.unknownResults++;
    const stop = standingsStop(c.t);
    if (stop) report.standingsStops.push({ externalId: c.t.externalId.toString(), ...stop });
    for (const route of ROUTES) if (route.scope === "tournament") route.render(c, site, emitter(route));
    report.files += writePages(sink, pagesOfTournament(c, site));
    const summary = tournamentSummary(c);
    for (const entry of published.clubs) {
      const list = catalog.get(entry.slug) ?? [];
      list.push({ tournament: summary, tags: entry.tags, displayOrder: entry.displayOrder });
      catalog.set(entry.slug, list);
    }
    if (published.globalTags) publicSummaries.push(publicSummary(c, published.globalTags));
    opts.onProgress?.(done, keys.length, report.files);
  }

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
  };
  for (const route of ROUTES) if (route.scope === "list") route.render(lists, emitter(route));
  report.files += writePages(sink, pagesOfSite(lists));

  sink.write(OPENAPI_PATH.slice(1), opts.openApi);
  const notFound = toJson(NOT_FOUND);
  opts.validator.assert(NOT_FOUND_FILE, "ProblemResponse", notFound);
  sink.write(NOT_FOUND_FILE, notFound);
  for (const [name, text] of [...opts.hostFiles].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    sink.write(name, text);
  }
  report.files += 2 + opts.hostFiles.size;
  return report;
}
