// A client that knows only the spec crawls every endpoint of the sample through the preview.
import { readdirSync, realpathSync } from "node:fs";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import * as C from "../../src/contracts/index.ts";
import { TOURNAMENT_STATUSES } from "../../src/domain/types.ts";
import { createPreviewServer } from "../../src/hosting/preview.ts";
import { buildSample } from "../support/e2e.ts";
import { removeTempDirs, tempDir } from "../support/temp.ts";

afterAll(removeTempDirs);

let server: Server;
let base: string;
let db: string;
let out: string;

beforeAll(async () => {
  const built = await buildSample(tempDir("crawl"));
  db = built.db;
  out = built.out;
  server = createPreviewServer(built.out);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function get<S extends z.ZodType>(path: string, schema: S): Promise<z.output<S>> {
  const res = await fetch(base + path);
  expect(res.status, `GET ${path}`).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  const cors = res.headers.get("access-control-allow-origin");
  expect(cors, `CORS on ${path}`).toBe(path.startsWith("/api/clubs/") ? "*" : null);
  const parsed = schema.safeParse(await res.json());
  expect(parsed.error, `GET ${path} matches the contract`).toBeUndefined();
  return parsed.data as z.output<S>;
}

async function expect404(path: string): Promise<void> {
  const res = await fetch(base + path);
  expect(res.status, `GET ${path}`).toBe(404);
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  expect(C.ProblemResponse.parse(await res.json()).status).toBe(404);
}

function enabledSlugs(): string[] {
  const d = new Database(db, { readonly: true });
  try {
    return d.prepare("SELECT slug FROM clubs WHERE enabled = 1 ORDER BY slug").pluck().all() as string[];
  } finally {
    d.close();
  }
}

describe("crawl of the sample through the preview", () => {
  it("every club endpoint answers, matches the contract and agrees with the others", async () => {
    for (const slug of enabledSlugs()) {
      const catalog = await get(`/api/clubs/${slug}/tournaments`, C.ClubCatalogResponse);
      expect(catalog.slug).toBe(slug);
      const orders = catalog.tournaments.map((e) => e.displayOrder);
      expect(orders).toEqual([...orders].sort((a, b) => a - b));
      for (const entry of catalog.tournaments) {
        const s = entry.tournament;
        const id = String(s.tournamentId);
        const t = await get(`/api/clubs/${slug}/tournaments/${id}`, C.TournamentResponse);
        expect(String(t.externalId)).toBe(id);
        expect(t.players.length).toBe(s.playerCount);
        expect(t.currentRound).toBe(s.currentRound);
        const numbers = new Set(t.players.map((p) => p.sourcePlayerNumber));

        const standings = await get(
          `/api/clubs/${slug}/tournaments/${id}/standings`,
          C.CurrentStandingsResponse,
        );
        expect(String(standings.tournamentId)).toBe(id);
        for (const row of standings.rows) {
          expect(numbers.has(row.sourcePlayerNumber)).toBe(true);
          expect(row.tieBreakValues.length).toBe(standings.tieBreakLabels.length);
        }

        if (t.currentRound === null) {
          await expect404(`/api/clubs/${slug}/tournaments/${id}/live`);
          continue;
        }
        const live = await get(`/api/clubs/${slug}/tournaments/${id}/live`, C.LiveRoundResponse);
        expect(live.roundNumber).toBe(t.currentRound);
        expect(live.status).toBe(s.status);
        // Player display values come from the tournament's directory.
        const byNumber = new Map(t.players.map((p) => [p.sourcePlayerNumber, p]));
        for (const g of live.games) {
          for (const side of [g.white, g.black]) {
            if (side === null) continue;
            const p = byNumber.get(side.sourcePlayerNumber)!;
            expect(side).toEqual({
              sourcePlayerNumber: p.sourcePlayerNumber,
              name: p.name,
              rating: p.rating,
              title: p.title,
              federation: p.federation,
            });
          }
        }
        for (let r = 1; r <= t.currentRound; r++) {
          const res = await fetch(`${base}/api/clubs/${slug}/tournaments/${id}/rounds/${r}`);
          if (res.status === 404) continue; // a round without pairings
          const round = C.RoundResponse.parse(await res.json());
          expect(round.roundNumber).toBe(r);
          const boards = round.games.map((g) => g.boardNumber);
          expect(new Set(boards).size).toBe(boards.length);
          for (const g of round.games) {
            for (const n of [g.whitePlayerNumber, g.blackPlayerNumber])
              if (n !== null) expect(numbers.has(n)).toBe(true);
          }
          if (r === t.currentRound) {
            expect(live.games.map((g) => g.boardNumber)).toEqual(boards);
            expect(live.isComplete).toBe(round.isComplete);
          }
        }
        await expect404(`/api/clubs/${slug}/tournaments/${id}/rounds/${t.currentRound + 1}`);
      }
    }
  });

  it("every global endpoint answers, matches the contract and agrees with the others", async () => {
    const list = await get("/api/public/v1/tournaments", C.PublicTournamentList);
    expect(list.length).toBeGreaterThan(0);
    for (const s of list) {
      const id = String(s.id);
      const d = await get(`/api/public/v1/tournaments/${id}`, C.PublicTournamentDetailResponse);
      expect({ ...d, sourceUrl: undefined, availableRounds: undefined }).toEqual({
        ...s,
        sourceUrl: undefined,
        availableRounds: undefined,
      });
      expect(d.currentRound).toBe(d.availableRounds.length ? Math.max(...d.availableRounds) : null);
      const standings = await get(`/api/public/v1/tournaments/${id}/standings`, C.PublicStandingsResponse);
      expect(String(standings.tournamentId)).toBe(id);
      for (const r of d.availableRounds) {
        const round = await get(`/api/public/v1/tournaments/${id}/rounds/${r}`, C.PublicRoundResponse);
        expect(round.roundNumber).toBe(r);
        const paired = round.games
          .flatMap((g) => [g.white, g.black])
          .filter((p) => p !== null)
          .map((p) => p.sourcePlayerNumber);
        for (const u of round.unpairedPlayers) expect(paired).not.toContain(u.sourcePlayerNumber);
        expect(paired.length + round.unpairedPlayers.length).toBe(d.playerCount);
        for (const g of round.games) expect(g.isBye).toBe(g.result === "Bye");
      }
      if (d.currentRound === null) await expect404(`/api/public/v1/tournaments/${id}/live`);
      else
        expect((await get(`/api/public/v1/tournaments/${id}/live`, C.PublicRoundResponse)).roundNumber).toBe(
          d.currentRound,
        );
      const es = await get(`/api/public/v1/tournaments/${id}/recaps`, C.PublicRecapsResponse);
      expect(es.language).toBe("es");
      expect(
        await get(`/api/public/v1/tournaments/${id}/recaps?language=es`, C.PublicRecapsResponse),
      ).toEqual(es);
      expect(
        (await get(`/api/public/v1/tournaments/${id}/recaps?language=en`, C.PublicRecapsResponse)).language,
      ).toBe("en");
    }
  });

  it("the sample shows every status", async () => {
    const list = await get("/api/public/v1/tournaments", C.PublicTournamentList);
    const statuses = new Set(list.map((s) => s.status));
    for (const slug of enabledSlugs()) {
      const catalog = await get(`/api/clubs/${slug}/tournaments`, C.ClubCatalogResponse);
      for (const e of catalog.tournaments) statuses.add(e.tournament.status);
    }
    expect([...statuses].sort()).toEqual([...TOURNAMENT_STATUSES].sort());
  });

  it("query forms give the filtered lists; unknown tags an empty list", async () => {
    const all = await get("/api/public/v1/tournaments", C.PublicTournamentList);
    const tags = [...new Set(all.flatMap((s) => s.tags))];
    expect(tags.length).toBeGreaterThan(0);
    for (const tag of tags) {
      const filtered = await get(`/api/public/v1/tournaments?tag=${tag}`, C.PublicTournamentList);
      expect(filtered).toEqual(all.filter((s) => s.tags.includes(tag)));
      expect(await get(`/api/public/v1/tournaments/tag/${tag}`, C.PublicTournamentList)).toEqual(filtered);
    }
    expect(await get("/api/public/v1/tournaments?tag=no-such-tag", C.PublicTournamentList)).toEqual([]);
    for (const slug of enabledSlugs()) {
      const catalog = await get(`/api/clubs/${slug}/tournaments`, C.ClubCatalogResponse);
      for (const tag of new Set(catalog.tournaments.flatMap((e) => e.tags))) {
        const filtered = await get(`/api/clubs/${slug}/tournaments?tag=${tag}`, C.ClubCatalogResponse);
        expect(filtered.tournaments).toEqual(catalog.tournaments.filter((e) => e.tags.includes(tag)));
      }
      const none = await get(`/api/clubs/${slug}/tournaments?tag=no-such-tag`, C.ClubCatalogResponse);
      expect(none).toEqual({ ...catalog, tournaments: [] });
    }
  });

  it("unknown slugs, ids, rounds and paths are JSON 404s", async () => {
    const [slug] = enabledSlugs();
    const [first] = await get("/api/public/v1/tournaments", C.PublicTournamentList);
    await expect404("/api/clubs/no-such-club/tournaments");
    await expect404(`/api/clubs/${slug}/tournaments/999999999`);
    await expect404("/api/public/v1/tournaments/999999999");
    await expect404(`/api/public/v1/tournaments/${first.id}/rounds/99`);
    await expect404("/api/public/v1/nothing-here");
    await expect404(`/api/public/v1/tournaments/${first.id}/recaps?language=xx`);
  });

  it("answers bare and trailing-slash paths alike, and supports conditional GET", async () => {
    const a = await fetch(`${base}/api/public/v1/tournaments`);
    const b = await fetch(`${base}/api/public/v1/tournaments/`, { redirect: "manual" });
    expect(b.status).toBe(200);
    expect(await b.text()).toBe(await a.text());
    const etag = a.headers.get("etag");
    expect(etag).toBeTruthy();
    const c = await fetch(`${base}/api/public/v1/tournaments`, { headers: { "If-None-Match": etag! } });
    expect(c.status).toBe(304);
  });

  it("serves no file of the built snapshot that is not public: bookkeeping, host files, files by name", async () => {
    const root = realpathSync(out);
    const internal = readdirSync(root).filter((f) => !["api", "404.json", "404.html"].includes(f));
    expect(internal).toEqual(expect.arrayContaining(["_build-api.json", "_redirects", "_worker.js"]));
    const byName = ["/api/public/v1/tournaments/index.json", "/api/public/v1/tournaments/tag/index.json"];
    for (const url of [...internal.map((f) => `/${f}`), ...byName]) {
      const res = await fetch(base + url);
      const body = await res.text();
      expect([url, res.status]).toEqual([url, 404]);
      expect(body).not.toMatch(/sha256|Generated by build-api|build-api snapshot/);
    }
  });
});
