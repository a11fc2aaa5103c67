// Issue 47: a player across every event. In the sample, each FIDE-rated player of two globally
// published tournaments has one resource and one page listing both, and a feed and a calendar
// holding their games of both (parsed with @xmldom/xmldom and ical.js). Drafts, unpublished and
// club-only tournaments count nowhere: not in the resources, pages, feeds, calendars nor the
// search index. A tick that renames one player rewrites their files and one search chunk, and no
// other file across tournaments.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { DOMParser } from "@xmldom/xmldom";
import fg from "fast-glob";
import ICAL from "ical.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build, type BuildReport } from "../../../src/pipeline/build.ts";
import { makeSampleStore, SAMPLE_NOW } from "../../support/e2e.ts";
import { removeTempDirs, tempDir } from "../../support/temp.ts";

afterAll(removeTempDirs);

const ATOM = "http://www.w3.org/2005/Atom";
const dir = tempDir("fide-players");
const out = path.join(dir, "dist");
let db: string;
let files: string[];
/** FIDE id → the external ids of the globally published tournaments they play in. */
let published: Map<string, Set<string>>;
/** FIDE ids and names of players of drafts, unpublished and club-only tournaments only. */
let hidden: { fideId: string; name: string }[];
let hiddenTournaments: string[];
let tick: BuildReport;
const before = new Map<string, string>();

const read = (rel: string): string => readFileSync(path.join(out, rel), "utf8");
const ACROSS = [
  "api/public/v1/players/**",
  "players/**",
  "feeds/players/**",
  "calendar/players/**",
  "search/**",
];

beforeAll(async () => {
  db = makeSampleStore(dir);
  await build({ db, out, now: SAMPLE_NOW });
  files = fg.sync("**/*", { cwd: out, followSymbolicLinks: true });
  const d = new Database(db, { readonly: true });
  d.defaultSafeIntegers(true);
  const rows = d
    .prepare(
      `SELECT x.fide_id AS fid, x.name AS name, t.external_id AS id,
         (t.is_draft = 0 AND t.tournament_id IN (SELECT tournament_id FROM publications)) AS global
       FROM players x JOIN tournaments t USING (tournament_id) WHERE x.fide_id IS NOT NULL`,
    )
    .all() as { fid: bigint; name: string; id: bigint; global: bigint }[];
  d.close();
  published = new Map();
  for (const r of rows.filter((r) => r.global === 1n))
    published.set(String(r.fid), new Set([...(published.get(String(r.fid)) ?? []), String(r.id)]));
  hidden = rows
    .filter((r) => r.global === 0n && !published.has(String(r.fid)))
    .map((r) => ({ fideId: String(r.fid), name: r.name }));
  hiddenTournaments = [...new Set(rows.filter((r) => r.global === 0n).map((r) => String(r.id)))];
  for (const f of fg.sync(ACROSS, { cwd: out, followSymbolicLinks: true })) before.set(f, read(f));
}, 120_000);

function parseXml(xml: string) {
  const errors: string[] = [];
  const doc = new DOMParser({ onError: (_level: string, msg: string) => errors.push(msg) }).parseFromString(
    xml,
    "application/xml",
  );
  expect(errors).toEqual([]);
  return doc.documentElement!;
}

describe("players across events (sample)", () => {
  it("has a resource, page, feed and calendar for each FIDE-rated player of a published tournament, and no other", () => {
    const ids = (re: RegExp) =>
      files
        .map((f) => re.exec(f)?.[1])
        .filter((x): x is string => x !== undefined)
        .sort();
    const want = [...published.keys()].sort();
    expect(want.length).toBeGreaterThan(100);
    expect(ids(/^api\/public\/v1\/players\/(\d+)\/index\.json$/)).toEqual(want);
    expect(ids(/^players\/(\d+)\/index\.html$/)).toEqual(want);
    expect(ids(/^feeds\/players\/(\d+)\.atom$/)).toEqual(want);
    expect(ids(/^calendar\/players\/(\d+)\.ics$/)).toEqual(want);
  });

  it("lists both tournaments of each player of two, in the resource, the page, the feed and the calendar", () => {
    const twice = [...published].filter(([, ts]) => ts.size >= 2);
    expect(twice.length).toBeGreaterThan(5);
    for (const [fid, ts] of twice) {
      const body = JSON.parse(read(`api/public/v1/players/${fid}/index.json`)) as {
        tournaments: { tournamentId: number | string; tournamentPath: string }[];
      };
      expect(body.tournaments.map((t) => String(t.tournamentId)).sort(), fid).toEqual([...ts].sort());
      for (const t of body.tournaments) expect(files).toContain(`${t.tournamentPath.slice(1)}/index.json`);
      const page = read(`players/${fid}/index.html`);
      for (const id of ts) expect(page, fid).toContain(`href="/tournaments/${id}/"`);
      // Games: every round the player has in each tournament's cards is in the feed and calendar.
      const feed = parseXml(read(`feeds/players/${fid}.atom`));
      const links = Array.from(feed.getElementsByTagNameNS(ATOM, "entry")).map((e) =>
        e.getElementsByTagNameNS(ATOM, "link")[0]!.getAttribute("href")!,
      );
      const cal = new ICAL.Component(ICAL.parse(read(`calendar/players/${fid}.ics`)));
      const uids = cal.getAllSubcomponents("vevent").map((v) => String(v.getFirstPropertyValue("uid")));
      for (const id of ts) {
        const cards = JSON.parse(read(`api/public/v1/tournaments/${id}/players/index.json`)) as {
          players: {
            fideId: number | string | null;
            sourcePlayerNumber: number;
            rounds: { round: number }[];
          }[];
        };
        for (const card of cards.players.filter((c) => String(c.fideId) === fid)) {
          for (const r of card.rounds) {
            expect(links, `${fid} ${id} ${r.round}`).toContain(`/tournaments/${id}/rounds/${r.round}/`);
            expect(uids).toContain(
              `round-${r.round}.player-${card.sourcePlayerNumber}.tournament-${id}@build-api`,
            );
          }
        }
      }
    }
  });

  it("names no player nor tournament that is a draft, unpublished or club-only, in any file type", () => {
    expect(hidden.length).toBeGreaterThan(0);
    const across = fg.sync(ACROSS, { cwd: out, followSymbolicLinks: true });
    const text = across.map(read).join("\n");
    for (const h of hidden) {
      expect(existsSync(path.join(out, `api/public/v1/players/${h.fideId}/index.json`))).toBe(false);
      expect(existsSync(path.join(out, `players/${h.fideId}/index.html`))).toBe(false);
      expect(existsSync(path.join(out, `feeds/players/${h.fideId}.atom`))).toBe(false);
      expect(existsSync(path.join(out, `calendar/players/${h.fideId}.ics`))).toBe(false);
      expect(text, h.name).not.toContain(h.name);
      expect(text).not.toContain(h.fideId);
    }
    for (const id of hiddenTournaments) {
      expect(text).not.toContain(`"${id}"`);
      expect(text).not.toContain(`/${id}/`);
      expect(text).not.toContain(`tournament-${id}@`);
    }
  });

  it("indexes every published tournament and FIDE-rated player by each folded word of the name", () => {
    const root = JSON.parse(read("search/root.json")) as { sections: string[] };
    const chunks = root.sections.flatMap(
      (b) => (JSON.parse(read(`search/s-${b}.json`)) as { chunks: string[] }).chunks,
    );
    const items = chunks.flatMap(
      (b) => (JSON.parse(read(`search/w-${b}.json`)) as { items: [string, string, string, string][] }).items,
    );
    const players = new Set(items.filter((i) => i[1] === "p").map((i) => i[2]));
    expect([...players].sort()).toEqual([...published.keys()].sort());
    // Accents stripped and lower case: "Torneo Rápido de Navidad" is found by "rapido".
    expect(items.some((i) => i[0] === "rapido" && i[1] === "t")).toBe(true);
    expect(items.every((i) => /^[a-z0-9]+$/.test(i[0]))).toBe(true);
  });
});

describe("a tick that renames one player", () => {
  const FID = "2201836";
  beforeAll(async () => {
    // Renamed in their newest tournament: the name as last published changes.
    const d = new Database(db);
    const n = d
      .prepare(
        `UPDATE players SET name = 'Lakunza Oyarbide, Juan Karlos' WHERE fide_id = ? AND tournament_id =
           (SELECT tournament_id FROM tournaments WHERE external_id = 1281735)`,
      )
      .run(Number(FID)).changes;
    d.close();
    expect(n).toBe(1);
    tick = await build({ db, out, now: SAMPLE_NOW });
    // A tick: only the renamed player's tournament was read.
    expect(tick.render.storeCheck?.scope).toBe("changed");
    expect(tick.render.rendered?.tournaments).toBe(1);
  }, 120_000);

  it("rewrites their four files and one search chunk, nothing else across tournaments", () => {
    const after = new Map(fg.sync(ACROSS, { cwd: out, followSymbolicLinks: true }).map((f) => [f, read(f)]));
    const changed = [...after].filter(([f, t]) => before.get(f) !== t).map(([f]) => f);
    expect([...before.keys()].sort()).toEqual([...after.keys()].sort());
    const chunks = changed.filter((f) => f.startsWith("search/"));
    expect(chunks).toHaveLength(1);
    expect(changed.filter((f) => !f.startsWith("search/")).sort()).toEqual(
      [
        `api/public/v1/players/${FID}/index.json`,
        `calendar/players/${FID}.ics`,
        `feeds/players/${FID}.atom`,
        `players/${FID}/index.html`,
      ].sort(),
    );
    // The build wrote exactly those of them (the purge list names what was written).
    const written = tick.changedUrls!.paths.filter((p) =>
      /^\/(api\/public\/v1\/players|players|feeds\/players|calendar\/players|search)\//.test(p),
    );
    // (the purge list names a JSON answer by both its URL forms).
    expect(written.sort()).toEqual(
      [
        `/api/public/v1/players/${FID}`,
        `/api/public/v1/players/${FID}/`,
        `/calendar/players/${FID}.ics`,
        `/feeds/players/${FID}.atom`,
        `/players/${FID}/`,
        `/${chunks[0]!}`,
      ].sort(),
    );
    expect(JSON.parse(after.get(`api/public/v1/players/${FID}/index.json`)!)).toMatchObject({
      name: "Lakunza Oyarbide, Juan Karlos",
    });
    expect(after.get(chunks[0]!)).toContain("karlos");
  });
});
