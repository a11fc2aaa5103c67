// `_worker.js` for Cloudflare Pages, loaded as a module and run against a model of env.ASSETS:
// every case answers as the model says, ETags and 304 pass through, other methods get a 405.
import { describe, expect, it } from "vitest";
import { CACHE_POLICY } from "../../../../../src/routes/cache.ts";
import { problemJson } from "../../../../../src/output/problem.ts";
import {
  hostFile,
  assetsFetch,
  CASES,
  answerOf,
  ASSET_FILES,
  HOST_VOCAB,
} from "../../../../support/host-files.ts";
import { hostFiles } from "../../../../../src/hosting/hosts/index.ts";
import { resolveRequest } from "../../../../../src/hosting/resolve.ts";
import { hostRules, OTHER_CSP, PAGE_CSP } from "../../../../../src/hosting/rules.ts";
import { pageLinksOf } from "../../../../../src/routes/page-links.ts";

describe("_worker.js", () => {
  const env = { ASSETS: { fetch: async (req: Request) => assetsFetch(req) } };
  const load = async () => {
    const src = hostFile("_worker.js");
    const mod = (await import(`data:text/javascript;base64,${Buffer.from(src).toString("base64")}`)) as {
      default: { fetch(r: Request, e: typeof env): Promise<Response> };
    };
    return (path: string, init: RequestInit = {}) =>
      mod.default.fetch(new Request(`http://pages.test${path}`, init), env);
  };

  it("answers every case as the model says: API, query forms, pages, assets, errors, allow-list", async () => {
    const get = await load();
    for (const [url, want] of CASES) expect([url, await answerOf(await get(url))]).toEqual([url, want]);
  });

  it("passes ETag and 304 through, sends the cache policy, answers HEAD without a body", async () => {
    const get = await load();
    const pub = await get("/api/public/v1/tournaments/42");
    expect(pub.headers.get("cache-control")).toBe(CACHE_POLICY.current);
    const etag = pub.headers.get("etag")!;
    expect((await get("/api/public/v1/tournaments/42", { headers: { "If-None-Match": etag } })).status).toBe(
      304,
    );
    expect((await get("/tournaments/42/live/")).headers.get("cache-control")).toBe(CACHE_POLICY.live);
    const head = await get("/api/clubs/gros/tournaments/99", { method: "HEAD" });
    expect([head.status, await head.text(), head.headers.get("access-control-allow-origin")]).toEqual([
      404,
      "",
      "*",
    ]);
  });

  it("sends the purge tags of the URL and the security headers, as the preview's resolver does", async () => {
    const get = await load();
    const rules = hostRules();
    const cases: [string, string][] = [
      ["/api/clubs/gros/tournaments/42", "tournament-42,club-gros,build-api"],
      ["/api/public/v1/tournaments/42/recaps?language=en", "tournament-42,build-api"],
      ["/api/public/v1/tournaments?tag=rapid", "list-public,build-api"],
      ["/api/public/v1/tournaments?tag=nope", "list-public,build-api"],
      ["/tournaments/42/live/", "tournament-42,build-api"],
      ["/", "list-public,build-api"],
      ["/assets/site.css", "build-api-assets,build-api"],
      ["/api/public/v1/tournaments/43", "build-api-errors,build-api"],
    ];
    for (const [url, tags] of cases) {
      const res = await get(url);
      expect([url, res.headers.get("cache-tag"), res.headers.get("surrogate-key")]).toEqual([
        url,
        tags,
        tags.replaceAll(",", " "),
      ]);
      const u = new URL(`http://x${url}`);
      const r = resolveRequest(rules, u.pathname, u.search, (f) => ASSET_FILES.has(f));
      expect([url, new Map(r.kind === "redirect" ? [] : r.headers).get("Cache-Tag")]).toEqual([url, tags]);
      const html = (res.headers.get("content-type") ?? "").startsWith("text/html");
      expect(res.headers.get("content-security-policy"), url).toBe(html ? PAGE_CSP : OTHER_CSP);
      expect([res.headers.get("x-frame-options"), res.headers.get("referrer-policy")], url).toEqual([
        "DENY",
        "no-referrer",
      ]);
    }
  });

  it("sends a snapshot's edge facts: Link on a paged list's files and index parts, the archive class by id", async () => {
    const facts = {
      links: {
        "api/public/v1/tournaments/index.json": '</api/public/v1/tournaments>; rel="first"',
        // A split index page: its head and page 1, as pageLinksOf names them.
        ...pageLinksOf(["index.html", "page/1/index.html"]),
      },
      archived: ["42"],
    };
    const src = hostFiles(HOST_VOCAB, facts).get("_worker.js")!;
    const mod = (await import(`data:text/javascript;base64,${Buffer.from(src).toString("base64")}`)) as {
      default: { fetch(r: Request, e: typeof env): Promise<Response> };
    };
    const get = (p: string) => mod.default.fetch(new Request(`http://pages.test${p}`), env);
    const rules = hostRules(facts);
    for (const [url, link, cache] of [
      ["/api/public/v1/tournaments", facts.links["api/public/v1/tournaments/index.json"], CACHE_POLICY.list],
      ["/api/public/v1/tournaments/?tag=nope", null, CACHE_POLICY.list],
      ["/api/public/v1/tournaments/42", null, CACHE_POLICY.archive],
      ["/api/clubs/gros/tournaments/42", null, CACHE_POLICY.archive],
      ["/tournaments/42/live/", null, CACHE_POLICY.archive],
      ["/api/public/v1/tournaments?page=2", null, null],
      ["/", '</>; rel="first", </page/1/>; rel="next", </page/1/>; rel="last"', CACHE_POLICY.list],
      ["/page/1/", '</>; rel="first", </>; rel="prev", </page/1/>; rel="last"', CACHE_POLICY.list],
      ["/page/1", null, null],
      ["/tournaments/42/", null, CACHE_POLICY.archive],
    ] as const) {
      const res = await get(url);
      const got = [
        url,
        res.headers.get("link"),
        res.status === 200 ? res.headers.get("cache-control") : null,
      ];
      expect(got).toEqual([url, link, cache]);
      const u = new URL(`http://x${url}`);
      const r = resolveRequest(rules, u.pathname, u.search, (f) => ASSET_FILES.has(f));
      const h = new Map(r.kind === "file" ? r.headers : []);
      expect([url, h.get("Link") ?? null, r.kind === "file" ? h.get("Cache-Control") : null]).toEqual(got);
    }
  });

  it("answers other methods with 405 and Allow", async () => {
    const get = await load();
    const post = await get("/api/public/v1/tournaments", { method: "POST" });
    expect([post.status, post.headers.get("allow"), await post.text()]).toEqual([
      405,
      "GET, HEAD",
      problemJson(405),
    ]);
  });
});
