// One test over every route: each produces files, each file validates against the route's
// schema, each route is in the OpenAPI document and in the endpoint reference.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_STATUS_OPTIONS } from "../../../src/domain/status.ts";
import { hostFiles } from "../../../src/hosting/hosts/index.ts";
import { schemaId } from "../../../src/output/jsonschema.ts";
import { SnapshotValidator } from "../../../src/output/validate.ts";
import { memoryIndex } from "../../../src/ledger/bookkeeping.ts";
import { renderSnapshot } from "../../../src/render/snapshot.ts";
import { ROUTES, type Route } from "../../../src/routes/table.ts";
import {
  instanceFile,
  instancePath,
  isApiPath,
  PAGE_ROUTES,
  pageCache,
  fallbackForms,
  pathForms,
  queryFormPath,
  STATIC_DIRS,
} from "../../../src/routes/urls.ts";
import { openStore, type Store } from "../../../src/store/read/open.ts";
import { importTrf } from "../../../src/trf/import.ts";
import { fileURLToPath } from "node:url";
import { makeSampleStore, SAMPLE_NOW } from "../../support/e2e.ts";
import { removeTempDirs, tempDir } from "../../support/temp.ts";

afterAll(removeTempDirs);

let store: Store;
const files = new Map<string, string>();
const validator = new SnapshotValidator();

/** The sample has no team event: the shared Swiss-Manager team Swiss is imported beside it,
 * published globally and in a club, so that the team routes have files too (issue 46). */
function withTeamEvent(db: string): string {
  importTrf({
    file: fileURLToPath(new URL("../../fixtures/trf/teams/sm-2025-eschlkam-team-swiss.trf", import.meta.url)),
    db,
    externalId: 4600n,
    tiebreaks: ["BH", "SB"],
    practice: "swiss-manager",
    teamTiebreaks: ["GP", "BH:MP"],
    publish: true,
    club: "hobsons-bay",
    now: new Date(SAMPLE_NOW).toISOString(),
    sourceUrl: "https://example.org/team-swiss",
  });
  return db;
}

beforeAll(async () => {
  store = openStore(withTeamEvent(makeSampleStore(tempDir("routes"))));
  await renderSnapshot(
    store,
    { write: (p, d) => void files.set(p, typeof d === "string" ? d : Buffer.from(d).toString("utf8")) },
    {
      now: SAMPLE_NOW,
      statusOptions: DEFAULT_STATUS_OPTIONS,
      skipInvalid: false,
      validator,
      openApi: "{}",
      hostFiles: hostFiles(store.vocabulary()),
      index: memoryIndex(),
    },
  );
});
afterAll(() => store.close());

/** The files of one route: its path template with every parameter as one segment. */
function filesOf(route: Route): string[] {
  // Ids, rounds and team numbers are digits, so they never collide with the reserved words beside
  // them (`teams/{team}` beside `teams/standings`).
  const segment = "[^/]+";
  const base = route.path
    .slice(1)
    .replace(/\{(id|round|team)\}/g, "\\d+")
    .replace(/\{\w+\}/g, segment);
  const forms = [base];
  if (route.query) forms.push(`${base}/${route.query.segment}(?:/${segment})?`);
  const re = new RegExp(`^(?:${forms.join("|")})/index\\.json$`);
  return [...files.keys()].filter((f) => re.test(f));
}

describe.each(ROUTES.map((r) => [r.id, r] as const))("route %s", (_id, route) => {
  it("produces files for the sample, each valid against its schema", () => {
    const mine = filesOf(route);
    expect(mine.length).toBeGreaterThan(0);
    for (const f of mine) expect(validator.check(f, schemaId(route.schema), files.get(f)!)).toEqual([]);
  });

  it("is in the OpenAPI document with a summary, and in the endpoint reference (extensions: in their guide)", () => {
    const doc = JSON.parse(readFileSync(new URL("../../../schema/openapi.json", import.meta.url), "utf8"));
    const op = doc.paths[route.path].get;
    expect(op.summary).toBe(route.summary);
    if (route.extension) {
      // Marked as beyond the spec, and listed in docs/guide/extensions.md.
      expect(op["x-extension"]).toBe(true);
      expect(op.tags).toEqual(["Extensions"]);
      const guide = readFileSync(new URL("../../../docs/guide/extensions.md", import.meta.url), "utf8");
      expect(guide).toContain(`\`${route.path}\``);
      return;
    }
    expect(op["x-extension"]).toBeUndefined();
    expect(op.tags).not.toContain("Extensions");
    // docs/reference/endpoints.md is generated from the route table (npm run gen-docs).
    const reference = readFileSync(new URL("../../../docs/reference/endpoints.md", import.meta.url), "utf8");
    // A row of its endpoint table: | n | `path` | (Prettier pads the cells).
    const escaped = route.path.replace(/[{}/]/g, "\\$&");
    expect(reference).toMatch(new RegExp(`\\|\\s*${route.n}\\s*\\|\\s*\`${escaped}\`\\s*\\|`));
  });
});

describe("instance paths", () => {
  const byId = (id: string) => ROUTES.find((r) => r.id === id)!;

  it("fill the spec's path and add the query's path form", () => {
    expect(instancePath(byId("publicRound"), { id: "42", round: "3" })).toBe(
      "/api/public/v1/tournaments/42/rounds/3",
    );
    expect(instanceFile(byId("clubCatalog"), { slug: "hbcc", tag: "rapid" })).toBe(
      "api/clubs/hbcc/tournaments/tag/rapid/index.json",
    );
    // The empty tag is the list no tag matches: the fallback for unknown tags.
    expect(instanceFile(byId("publicTournaments"), { tag: "" })).toBe(
      "api/public/v1/tournaments/tag/index.json",
    );
    expect(instanceFile(byId("publicRecaps"), { id: "7", language: "en" })).toBe(
      "api/public/v1/tournaments/7/recaps/language/en/index.json",
    );
  });

  it("refuse a missing parameter", () => {
    expect(() => instancePath(byId("clubTournament"), { slug: "x" })).toThrow(/missing parameter id/);
  });

  it("every file of the snapshot belongs to exactly one route, or is a top-level file", () => {
    const owned = new Map<string, string[]>();
    for (const route of ROUTES)
      for (const f of filesOf(route)) owned.set(f, [...(owned.get(f) ?? []), route.id]);
    for (const f of files.keys()) {
      if (!f.startsWith("api/") || f === "api/public/v1/openapi.json") continue;
      expect(owned.get(f), f).toHaveLength(1);
    }
  });
});

describe("the one model of query forms, path forms and pages", () => {
  const byId = (id: string) => ROUTES.find((r) => r.id === id)!;

  it("derives every path form of a route from its query form", () => {
    // Extension: a long list's numbered pages, for the list and each tag form.
    expect(pathForms(byId("publicTournaments"))).toEqual([
      "/api/public/v1/tournaments",
      "/api/public/v1/tournaments/tag/{tag}",
      "/api/public/v1/tournaments/page/{page}",
      "/api/public/v1/tournaments/tag/{tag}/page/{page}",
    ]);
    expect(instancePath(byId("clubCatalog"), { slug: "s", tag: "open", page: "3" })).toBe(
      "/api/clubs/s/tournaments/tag/open/page/3",
    );
    expect(() => instancePath(byId("clubCatalog"), { slug: "s", page: "0" })).toThrow(/page number/);
    // The answer to an unknown tag is a file, not a URL: `<list>/tag` is a 404.
    expect(fallbackForms(byId("publicTournaments"))).toEqual(["/api/public/v1/tournaments/tag"]);
    expect(fallbackForms(byId("publicRecaps"))).toEqual([]);
    // An unknown language is a 404, so recaps have no bare `/language` form.
    expect(pathForms(byId("publicRecaps"))).toEqual([
      "/api/public/v1/tournaments/{id}/recaps",
      "/api/public/v1/tournaments/{id}/recaps/language/{language}",
    ]);
    expect(pathForms(byId("publicStandings"))).toEqual([byId("publicStandings").path]);
  });

  it("writes files only at the path forms the hosts know", () => {
    const patterns = ROUTES.flatMap((r) => [...pathForms(r), ...fallbackForms(r)]).map(
      (u) => new RegExp(`^${u.slice(1).replace(/\{\w+\}/g, "[^/]+")}/index\\.json$`),
    );
    for (const f of files.keys()) {
      if (!f.startsWith("api/") || f === "api/public/v1/openapi.json") continue;
      expect(
        patterns.some((re) => re.test(f)),
        f,
      ).toBe(true);
    }
  });

  it("builds instance paths with the same query-form rule", () => {
    const q = byId("clubCatalog").query!;
    expect(queryFormPath("/x", q, "open")).toBe("/x/tag/open");
    expect(queryFormPath("/x", q, "")).toBe("/x/tag");
    expect(instancePath(byId("clubCatalog"), { slug: "s", tag: "open" })).toBe(
      queryFormPath("/api/clubs/s/tournaments", q, "open"),
    );
  });

  it("gives every page a slash URL, public parameters only, and the cache class of its JSON", () => {
    for (const page of PAGE_ROUTES) {
      expect(page.path.endsWith("/"), page.id).toBe(true);
      expect(page.path.startsWith("/api"), page.id).toBe(false);
      const followed = byId(page.follows);
      expect(followed.surface, page.id).toBe("public");
      expect(pageCache(page)).toBe(followed.cache);
    }
    expect(pageCache(PAGE_ROUTES.find((p) => p.id === "livePage")!)).toBe("live");
    expect(pageCache(PAGE_ROUTES.find((p) => p.id === "indexPage")!)).toBe("list");
    expect(STATIC_DIRS.find((d) => d.prefix === "/embed/")?.cors).toBe(true);
    expect(STATIC_DIRS.find((d) => d.prefix === "/assets/")?.cors).toBe(false);
  });

  it("tells API paths (JSON errors) from page paths (HTML errors)", () => {
    expect([isApiPath("/api"), isApiPath("/api/x"), isApiPath("/apix"), isApiPath("/")]).toEqual([
      true,
      true,
      false,
      false,
    ]);
  });
});
