// The preview answers every URL form of the spec, through real HTTP requests on 127.0.0.1, and
// nothing else: pages and assets by their rules, internal files and symlinks never, every error a
// problem body (or the HTML page for an unknown page path).
import { mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import type { Server } from "node:http";
import { connect, type AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CACHE_POLICY } from "../../../src/routes/cache.ts";
import { hostFiles } from "../../../src/hosting/hosts/index.ts";
import { toJson } from "../../../src/output/json.ts";
import { errorPage, NOT_FOUND } from "../../../src/output/problem.ts";
import { INTERNAL_FILES } from "../../../src/hosting/rules.ts";
import { preview } from "../../../src/hosting/preview.ts";
import { tempDir } from "../../support/temp.ts";

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

const PAGES: Record<string, string> = {
  "index.html": "<!doctype html><title>index</title>",
  "page/1/index.html": "<!doctype html><title>index page 1</title>",
  "tournaments/42/index.html": "<!doctype html><title>42</title>",
  "tournaments/42/standings/index.html": "<!doctype html><title>standings</title>",
  "tournaments/42/rounds/1/index.html": "<!doctype html><title>round 1</title>",
  "tournaments/42/live/index.html": "<!doctype html><title>live</title>",
  "tournaments/42/recaps/en/index.html": "<!doctype html><title>recaps en</title>",
  "assets/site.css": "body{margin:0}",
  "assets/app.js": "console.log(1)",
  "embed/embed.js": "customElements.define('x-y', class extends HTMLElement {})",
  // Files a rule does not name: never served.
  "assets/notes.txt": "private notes",
  "tournaments/42/draft.html": "<!doctype html>draft",
};

let dir: string;
let outside: string;
let server: Server;
let base: string;

beforeAll(async () => {
  dir = tempDir("preview-test");
  for (const [url, body] of Object.entries(BODIES)) {
    mkdirSync(path.join(dir, url), { recursive: true });
    writeFileSync(path.join(dir, url, "index.json"), toJson(body));
  }
  writeFileSync(path.join(dir, "404.json"), toJson(NOT_FOUND));
  const vocab = { clubTags: ["open"], globalTags: ["rapid"], languages: ["en", "es"] };
  for (const [name, text] of hostFiles(vocab)) writeFileSync(path.join(dir, name), text);
  for (const name of INTERNAL_FILES) writeFileSync(path.join(dir, name), `internal ${name}`, { flag: "a" });
  for (const [rel, text] of Object.entries(PAGES)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  }
  // Symlinks planted inside the snapshot: one out of it, one to a file inside it, one directory.
  outside = tempDir("preview-outside");
  writeFileSync(path.join(outside, "secret.css"), "SECRET OUTSIDE");
  symlinkSync(path.join(outside, "secret.css"), path.join(dir, "assets/leak.css"));
  symlinkSync("/etc/hostname", path.join(dir, "assets/hostname.css"));
  symlinkSync(path.join(dir, "assets/site.css"), path.join(dir, "assets/alias.css"));
  symlinkSync(outside, path.join(dir, "assets/out"));
  mkdirSync(path.join(dir, "tournaments/43"), { recursive: true });
  symlinkSync(path.join(dir, "tournaments/42/standings"), path.join(dir, "tournaments/43/standings"));
  server = await preview({ dir, port: 0, host: "127.0.0.1" });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => {
  server?.close();
  rmSync(dir, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

async function get(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(base + url, { redirect: "manual", headers, signal: AbortSignal.timeout(5000) });
  return { status: res.status, headers: res.headers, body: await res.text() };
}

/** A request with a raw target fetch would normalize (`%00`, `..`): written on a socket. */
function raw(target: string, method = "GET"): Promise<{ status: number; head: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect((server.address() as AddressInfo).port, "127.0.0.1", () => {
      socket.write(`${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
    });
    let data = "";
    socket.setEncoding("utf8");
    socket.on("data", (d: string) => (data += d));
    socket.on("error", reject);
    socket.on("end", () => {
      const [head = "", body = ""] = data.split("\r\n\r\n");
      resolve({ status: Number(head.split(" ")[1]), head, body });
    });
  });
}

const problemOf = (status: number) => expect.objectContaining({ type: "about:blank", status });

describe("preview", () => {
  it("answers every path form, bare and with a trailing slash, with no redirect", async () => {
    for (const [url, body] of Object.entries(BODIES)) {
      // The empty list's file answers unknown tags only: `<list>/tag` names no tag (a 404).
      if (url.endsWith("/tag")) continue;
      for (const u of [url, `${url}/`]) {
        const r = await get(u);
        expect([u, r.status, r.body]).toEqual([u, 200, toJson(body)]);
        expect(r.headers.get("content-type")).toMatch(/^application\/json/);
      }
    }
  });

  it("answers an empty tag, in every spelling, with the 404 problem (CORS on a club)", async () => {
    for (const u of [
      `${PUB}/tag`,
      `${PUB}/tag/`,
      `${PUB}?tag=`,
      `${PUB}?tag`,
      `${CLUB}/tag`,
      `${CLUB}?tag=`,
    ]) {
      const r = await get(u);
      expect([u, r.status, JSON.parse(r.body)]).toEqual([u, 404, problemOf(404)]);
      expect(r.headers.get("access-control-allow-origin"), u).toBe(u.startsWith(CLUB) ? "*" : null);
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

  it("sends CORS on every club answer, errors included", async () => {
    for (const url of [
      `${CLUB}/99`,
      "/api/clubs/nope/tournaments",
      `${CLUB}/42/rounds/9`,
      "/api/clubs/nope/tournaments?tag=open",
    ]) {
      const r = await get(url);
      expect([url, r.status, r.headers.get("access-control-allow-origin")]).toEqual([url, 404, "*"]);
    }
    expect((await get(`${PUB}/99`)).headers.get("access-control-allow-origin")).toBeNull();
    // A malformed club path (400) and another method (405) keep CORS too; a global one does not.
    for (const [target, method, status] of [
      [`${CLUB}/%00`, "GET", 400],
      [`${CLUB}/%zz`, "GET", 400],
      [`${CLUB}/42`, "POST", 405],
    ] as const) {
      const r = await raw(target, method);
      expect([target, r.status, /access-control-allow-origin: \*/i.test(r.head)]).toEqual([
        target,
        status,
        true,
      ]);
      expect(JSON.parse(r.body)).toEqual(problemOf(status));
    }
    const global = await raw(`${PUB}/%00`);
    expect([global.status, /access-control-allow-origin/i.test(global.head)]).toEqual([400, false]);
  });

  it("serves pages at their slash URL, redirects the bare URL, with the cache of their JSON", async () => {
    const pages: [string, string, string][] = [
      ["/", "index.html", CACHE_POLICY.list],
      ["/page/1/", "page/1/index.html", CACHE_POLICY.list],
      ["/tournaments/42/", "tournaments/42/index.html", CACHE_POLICY.current],
      ["/tournaments/42/standings/", "tournaments/42/standings/index.html", CACHE_POLICY.current],
      ["/tournaments/42/rounds/1/", "tournaments/42/rounds/1/index.html", CACHE_POLICY.current],
      ["/tournaments/42/live/", "tournaments/42/live/index.html", CACHE_POLICY.live],
      ["/tournaments/42/recaps/en/", "tournaments/42/recaps/en/index.html", CACHE_POLICY.current],
    ];
    for (const [url, file, cache] of pages) {
      const r = await get(url);
      expect([url, r.status, r.body, r.headers.get("content-type"), r.headers.get("cache-control")]).toEqual([
        url,
        200,
        PAGES[file],
        "text/html; charset=utf-8",
        cache,
      ]);
      if (url === "/") continue;
      const bare = await get(`${url.slice(0, -1)}?x=1`);
      expect([bare.status, bare.headers.get("location")]).toEqual([308, `${url}?x=1`]);
    }
  });

  it("serves assets and the embed by extension, the embed cross-origin", async () => {
    const css = await get("/assets/site.css");
    expect([css.status, css.body, css.headers.get("content-type")]).toEqual([
      200,
      PAGES["assets/site.css"],
      "text/css; charset=utf-8",
    ]);
    expect(css.headers.get("cache-control")).toBe(CACHE_POLICY.asset);
    expect(css.headers.get("access-control-allow-origin")).toBeNull();
    const embed = await get("/embed/embed.js");
    expect([embed.status, embed.headers.get("access-control-allow-origin")]).toEqual([200, "*"]);
    expect(embed.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
  });

  it("answers an unknown page path with the HTML 404 page, an unknown /api path with JSON", async () => {
    for (const url of [
      "/tournaments/99/",
      "/tournaments/99/standings",
      "/page/2/",
      "/page/0/",
      "/page/",
      "/nothing",
      "/tournaments/42/draft.html",
    ]) {
      const r = await get(url);
      expect([url, r.status, r.headers.get("content-type"), r.body]).toEqual([
        url,
        404,
        "text/html; charset=utf-8",
        errorPage(404),
      ]);
    }
  });

  it("never serves internal files, files a rule does not name, or files under their own names", async () => {
    const urls = [
      ...INTERNAL_FILES.map((f) => `/${f}`),
      "/assets/notes.txt",
      "/tournaments/42/standings/index.html",
      `${PUB}/42/index.json`,
      `${CLUB}/index.json`,
      "/api/",
      "/api",
      "/assets/",
    ];
    for (const url of urls) {
      const r = await get(url);
      expect([url, r.status], r.body).toEqual([url, 404]);
      expect(r.body).not.toMatch(/internal|private notes|Generated by build-api/);
    }
  });

  it("serves no symlink: not out of the snapshot, not even to a file inside it", async () => {
    for (const url of [
      "/assets/leak.css",
      "/assets/hostname.css",
      "/assets/alias.css",
      "/assets/out/secret.css",
      "/tournaments/43/standings/",
    ]) {
      const r = await get(url);
      expect([url, r.status]).toEqual([url, 404]);
      expect(r.body).not.toContain("SECRET OUTSIDE");
    }
  });

  it("follows the dist link per request, as a build swaps it", async () => {
    const parent = tempDir("preview-link");
    try {
      for (const v of ["1", "2"]) {
        mkdirSync(path.join(parent, v));
        writeFileSync(path.join(parent, v, "404.json"), toJson(NOT_FOUND));
        writeFileSync(path.join(parent, v, "index.html"), `version ${v}`);
      }
      symlinkSync("1", path.join(parent, "dist"));
      const s = await preview({ dir: path.join(parent, "dist"), port: 0, host: "127.0.0.1" });
      const at = `http://127.0.0.1:${(s.address() as AddressInfo).port}/`;
      try {
        expect(await (await fetch(at)).text()).toBe("version 1");
        symlinkSync("2", path.join(parent, "next"));
        renameSync(path.join(parent, "next"), path.join(parent, "dist"));
        expect(await (await fetch(at)).text()).toBe("version 2");
      } finally {
        s.close();
      }
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });

  it("answers malformed and hostile paths with a problem body, never a 500", async () => {
    const cases: [string, number][] = [
      [`${PUB}/%00`, 400],
      ["/tournaments/%00/", 400],
      ["/api/%zz", 400],
      ["/%E0%A4%A", 400],
      [`${PUB}/%5c..%5c`, 400],
      [`${PUB}/${"a".repeat(300)}`, 404],
      [`${PUB}/${"9".repeat(300)}`, 404],
      [`${PUB}/42/rounds/${"1".repeat(300)}`, 404],
      [`/api/${"x".repeat(5000)}`, 404],
      [`${PUB}/../../../etc/hostname`, 404],
      ["/api/..%2f..%2f..%2fetc%2fhostname", 404],
    ];
    for (const [target, status] of cases) {
      const r = await raw(target);
      expect([target, r.status]).toEqual([target, status]);
      expect(r.head).toMatch(/content-type: application\/json; charset=utf-8/i);
      expect(JSON.parse(r.body)).toEqual(problemOf(status));
    }
    // An absolute-form target (as a proxy sends it) is the same request.
    const absolute = await raw(`http://127.0.0.1${PUB}/42`);
    expect([absolute.status, absolute.body]).toEqual([200, toJson(BODIES[`${PUB}/42`])]);
    // A path that starts with `//` is a path, not another host: 404 as on the hosts, never the
    // index page.
    for (const target of ["//evil.example/", "//evil.example", "///", `//${PUB.slice(1)}/42`]) {
      const r = await raw(target);
      expect([target, r.status]).toEqual([target, 404]);
      expect(r.body).not.toContain("<title>index</title>");
    }
    // A long page segment is an unknown page: the HTML page.
    const page = await raw(`/tournaments/${"4".repeat(300)}/`);
    expect([page.status, page.body]).toEqual([404, errorPage(404)]);
  });

  it("answers other methods with 405 and Allow, HEAD without a body", async () => {
    const post = await raw(`${PUB}/42`, "POST");
    expect(post.status).toBe(405);
    expect(post.head).toMatch(/allow: GET, HEAD/i);
    expect(JSON.parse(post.body)).toEqual(problemOf(405));
    const head = await fetch(`${base}${PUB}/42`, { method: "HEAD" });
    expect([head.status, await head.text()]).toEqual([200, ""]);
    expect(Number(head.headers.get("content-length"))).toBe(toJson(BODIES[`${PUB}/42`]).length);
  });
});
