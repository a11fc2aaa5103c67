// The preview answers every URL form of the spec, through real HTTP requests on 127.0.0.1.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CACHE_POLICY } from "../src/emit/cache.ts";
import { hostFiles } from "../src/emit/hosts/index.ts";
import { toJson } from "../src/emit/json.ts";
import { NOT_FOUND } from "../src/emit/problem.ts";
import { preview } from "../src/preview.ts";

const PUB = "/api/public/v1/tournaments";
const CLUB = "/api/clubs/gros/tournaments";
const BODIES: Record<string, unknown> = {
  [PUB]: [{ id: 42 }, { id: 7 }],
  [`${PUB}/tag`]: [],
  [`${PUB}/tag/rapid`]: [{ id: 7 }],
  [`${PUB}/42`]: { id: 42 },
  [`${PUB}/42/standings`]: { rows: [] },
  [`${PUB}/42/rounds/1`]: { roundNumber: 1 },
  [`${PUB}/42/live`]: { roundNumber: 1, live: true },
  [`${PUB}/42/recaps`]: { language: "es" },
  [`${PUB}/42/recaps/language/es`]: { language: "es" },
  [`${PUB}/42/recaps/language/en`]: { language: "en" },
  [CLUB]: { slug: "gros", tournaments: [1, 2] },
  [`${CLUB}/tag`]: { slug: "gros", tournaments: [] },
  [`${CLUB}/tag/open`]: { slug: "gros", tournaments: [1] },
  [`${CLUB}/42`]: { externalId: 42 },
  [`${CLUB}/42/standings`]: { afterRound: 1 },
  [`${CLUB}/42/rounds/1`]: { games: [] },
  [`${CLUB}/42/live`]: { status: "Live" },
};

let dir: string;
let server: Server;
let base: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "preview-test-"));
  for (const [url, body] of Object.entries(BODIES)) {
    mkdirSync(path.join(dir, url), { recursive: true });
    writeFileSync(path.join(dir, url, "index.json"), toJson(body));
  }
  writeFileSync(path.join(dir, "404.json"), toJson(NOT_FOUND));
  const vocab = { clubTags: ["open"], globalTags: ["rapid"], languages: ["en", "es"] };
  for (const [name, text] of hostFiles(vocab)) writeFileSync(path.join(dir, name), text);
  server = await preview({ dir, port: 0, host: "127.0.0.1" });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => {
  server?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function get(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(base + url, { redirect: "manual", headers, signal: AbortSignal.timeout(5000) });
  return { status: res.status, headers: res.headers, body: await res.text() };
}

describe("preview", () => {
  it("answers every path form, bare and with a trailing slash, with no redirect", async () => {
    for (const [url, body] of Object.entries(BODIES)) {
      for (const u of [url, `${url}/`]) {
        const r = await get(u);
        expect([u, r.status, r.body]).toEqual([u, 200, toJson(body)]);
        expect(r.headers.get("content-type")).toMatch(/^application\/json/);
      }
    }
  });

  it("answers the query forms from their path forms", async () => {
    const cases: [string, string][] = [
      [`${PUB}?tag=rapid`, `${PUB}/tag/rapid`],
      [`${PUB}/?tag=rapid`, `${PUB}/tag/rapid`],
      [`${PUB}?tag=no-such-tag`, `${PUB}/tag`],
      [`${CLUB}?tag=open`, `${CLUB}/tag/open`],
      [`${CLUB}?tag=nope`, `${CLUB}/tag`],
      [`${PUB}/42/recaps`, `${PUB}/42/recaps/language/es`],
      [`${PUB}/42/recaps?language=en`, `${PUB}/42/recaps/language/en`],
      [`${PUB}/42/recaps/?language=es`, `${PUB}/42/recaps/language/es`],
    ];
    for (const [url, from] of cases) {
      const r = await get(url);
      expect([url, r.status, r.body]).toEqual([url, 200, toJson(BODIES[from])]);
    }
  });

  it("sends CORS on club endpoints only, and the cache policy of each class", async () => {
    const club = await get(`${CLUB}/42/live`);
    expect(club.headers.get("access-control-allow-origin")).toBe("*");
    expect(club.headers.get("cache-control")).toBe(CACHE_POLICY.live);
    const pub = await get(`${PUB}/42`);
    expect(pub.headers.get("access-control-allow-origin")).toBeNull();
    expect(pub.headers.get("cache-control")).toBe(CACHE_POLICY.current);
  });

  it("answers unknown slugs, ids, rounds, tags, languages and paths with the JSON problem", async () => {
    for (const url of [
      "/api/clubs/nope/tournaments",
      `${PUB}/43`,
      `${PUB}/42/rounds/9`,
      `${PUB}/tag/nope`,
      `${PUB}/42/recaps?language=zz`,
      `${PUB}/42/recaps/language/zz`,
      "/api/anything/else",
      "/api/public/v1",
    ]) {
      const r = await get(url, { Accept: "application/json" });
      expect([url, r.status, r.headers.get("content-type"), JSON.parse(r.body)]).toEqual([
        url,
        404,
        "application/json; charset=utf-8",
        NOT_FOUND,
      ]);
    }
  });

  it("answers If-None-Match with 304", async () => {
    const first = await get(`${PUB}/42`);
    const etag = first.headers.get("etag");
    expect(etag).toBeTruthy();
    expect((await get(`${PUB}/42`, { "If-None-Match": etag! })).status).toBe(304);
  });
});
