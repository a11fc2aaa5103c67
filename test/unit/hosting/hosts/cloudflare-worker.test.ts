// `_worker.js` for Cloudflare Pages, loaded as a module and run against a model of env.ASSETS:
// every case answers as the model says, ETags and 304 pass through, other methods get a 405.
import { describe, expect, it } from "vitest";
import { CACHE_POLICY } from "../../../../src/routes/cache.ts";
import { problemJson } from "../../../../src/output/problem.ts";
import { hostFile, assetsFetch, CASES, answerOf } from "../../../support/host-files.ts";

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
