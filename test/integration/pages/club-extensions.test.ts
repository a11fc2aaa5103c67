// Issue 22, club surface: every tournament a club's catalog lists (club-only ones included) has
// the extension JSON under the club's path, equal to the global one where both exist, and an
// iCalendar file per club when a round has a date. What the spec's club endpoints do not
// publish gets nothing: drafts, unpublished tournaments and the catalogs of disabled clubs.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import fg from "fast-glob";
import { beforeAll, describe, expect, it } from "vitest";
import { hostRules } from "../../../src/hosting/rules.ts";
import { resolveRequest } from "../../../src/hosting/resolve.ts";
import { buildSample } from "../../support/e2e.ts";
import { tempDir } from "../../support/temp.ts";

const TAILS = ["crosstable", "players", "progression", "schedule"];
let out: string;
let files: string[];
let store: { drafts: string[]; unpublished: string[]; disabledSlugs: string[]; clubOnly: string[] };

beforeAll(async () => {
  const built = await buildSample(tempDir("club-extensions"));
  out = built.out;
  files = fg.sync("**/*", { cwd: out, dot: false });
  const d = new Database(built.db, { readonly: true });
  const ids = (sql: string) => (d.prepare(sql).pluck().all() as (number | bigint)[]).map(String);
  d.defaultSafeIntegers(true);
  store = {
    drafts: ids("SELECT external_id FROM tournaments WHERE is_draft = 1"),
    unpublished: ids(
      `SELECT external_id FROM tournaments t WHERE is_draft = 0
         AND tournament_id NOT IN (SELECT tournament_id FROM publications)
         AND tournament_id NOT IN (SELECT ct.tournament_id FROM club_tournaments ct
                                   JOIN clubs c USING (club_id) WHERE c.enabled = 1)`,
    ),
    disabledSlugs: d.prepare("SELECT slug FROM clubs WHERE enabled = 0").pluck().all() as string[],
    clubOnly: ids(
      `SELECT external_id FROM tournaments WHERE is_draft = 0
         AND tournament_id NOT IN (SELECT tournament_id FROM publications)
         AND tournament_id IN (SELECT ct.tournament_id FROM club_tournaments ct
                               JOIN clubs c USING (club_id) WHERE c.enabled = 1)`,
    ),
  };
  d.close();
}, 60_000);

const read = (rel: string) => readFileSync(path.join(out, rel), "utf8");
const json = (rel: string) => JSON.parse(read(rel)) as unknown;

/** (slug, id) of every tournament detail the spec's club surface publishes. */
function clubListings(): [string, string][] {
  return files
    .map((f) => /^api\/clubs\/([^/]+)\/tournaments\/(\d+)\/index\.json$/.exec(f))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => [m[1]!, m[2]!]);
}

describe("extensions on the club surface", () => {
  it("exist exactly for the tournaments the spec's club endpoints publish, per club", () => {
    const listings = clubListings();
    expect(listings.length).toBeGreaterThan(3);
    const withExtensions = new Set(
      files
        .map((f) => /^api\/clubs\/([^/]+)\/tournaments\/(\d+)\/crosstable\/index\.json$/.exec(f))
        .filter((m): m is RegExpExecArray => m !== null)
        .map((m) => `${m[1]}/${m[2]}`),
    );
    expect([...withExtensions].sort()).toEqual(listings.map(([s, id]) => `${s}/${id}`).sort());
    for (const [slug, id] of listings)
      for (const tail of TAILS)
        expect(files, `${slug}/${id}/${tail}`).toContain(
          `api/clubs/${slug}/tournaments/${id}/${tail}/index.json`,
        );
  });

  it("hold the global extension's body where the tournament is published on both surfaces", () => {
    let compared = 0;
    for (const [slug, id] of clubListings()) {
      const global = `api/public/v1/tournaments/${id}`;
      if (!existsSync(path.join(out, global, "index.json"))) continue;
      for (const tail of ["crosstable", "players", "progression"])
        expect(
          json(`api/clubs/${slug}/tournaments/${id}/${tail}/index.json`),
          `${slug}/${id}/${tail}`,
        ).toEqual(json(`${global}/${tail}/index.json`));
      for (const f of files.filter((x) => x.startsWith(`${global}/standings/rounds/`)))
        expect(json(f.replace(global, `api/clubs/${slug}/tournaments/${id}`))).toEqual(json(f));
      compared++;
    }
    expect(compared).toBeGreaterThan(0);
  });

  it("give a club-only tournament its crosstable, cards and earlier standings, and nothing global", () => {
    expect(store.clubOnly.length).toBeGreaterThan(0);
    for (const id of store.clubOnly) {
      const mine = files.filter((f) => f.includes(`/${id}/`) || f.includes(`/${id}.`));
      expect(mine.some((f) => /^api\/clubs\/[^/]+\/tournaments\/\d+\/standings\/rounds\/1\//.test(f))).toBe(
        true,
      );
      expect(mine.filter((f) => !f.startsWith("api/clubs/") && !f.startsWith("calendar/clubs/"))).toEqual([]);
      // The schedule names the club's calendar exactly when the file exists.
      for (const [slug] of clubListings().filter(([, x]) => x === id)) {
        const s = json(`api/clubs/${slug}/tournaments/${id}/schedule/index.json`) as {
          calendarPath: string | null;
        };
        expect(existsSync(path.join(out, `calendar/clubs/${slug}/${id}.ics`))).toBe(s.calendarPath !== null);
        if (s.calendarPath) expect(s.calendarPath).toBe(`/calendar/clubs/${slug}/${id}.ics`);
      }
    }
  });

  it("give drafts, unpublished tournaments and disabled clubs nothing", () => {
    const hidden = [...store.drafts, ...store.unpublished];
    expect(store.drafts.length).toBeGreaterThan(0);
    expect(store.unpublished.length).toBeGreaterThan(0);
    expect(store.disabledSlugs.length).toBeGreaterThan(0);
    for (const id of hidden)
      expect(
        files.filter((f) => f.includes(id)),
        id,
      ).toEqual([]);
    for (const slug of store.disabledSlugs)
      expect(
        files.filter((f) => f.includes(`/${slug}/`)),
        slug,
      ).toEqual([]);
  });

  it("are served by the host rules: JSON cross-origin in the current class, calendars as text/calendar", () => {
    const rules = hostRules();
    const has = new Set(files);
    const calendar = files.find((f) => f.startsWith("calendar/clubs/"))!;
    const [slug, id] = clubListings()[0]!;
    const headerOf = (r: ReturnType<typeof resolveRequest>, name: string) =>
      r.kind === "file" ? r.headers.find(([k]) => k.toLowerCase() === name)?.[1] : undefined;
    for (const tail of TAILS) {
      const r = resolveRequest(rules, `/api/clubs/${slug}/tournaments/${id}/${tail}`, "", (f) => has.has(f));
      expect(r.kind, tail).toBe("file");
      expect(headerOf(r, "content-type"), tail).toMatch(/^application\/json/);
      expect(headerOf(r, "access-control-allow-origin"), tail).toBe("*");
    }
    expect(calendar).toBeDefined();
    const r = resolveRequest(rules, `/${calendar}`, "", (f) => has.has(f));
    expect(r.kind).toBe("file");
    expect(headerOf(r, "content-type")).toBe("text/calendar; charset=utf-8");
    expect(headerOf(r, "access-control-allow-origin")).toBe("*");
    const unknown = resolveRequest(rules, `/api/clubs/${slug}/tournaments/${id}/players/1`, "", (f) =>
      has.has(f),
    );
    expect(unknown.kind).toBe("error");
  });
});
