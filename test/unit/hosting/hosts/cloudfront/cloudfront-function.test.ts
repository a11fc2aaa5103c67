// The CloudFront Function as deployed (the bundle with the lines deploy/edge-code.ts puts in front), run
// in a bare V8 context (no Node, no URL, no Buffer) with CloudFront's viewer-request event and a
// KeyValueStore stand-in fed by kvsKeysOf, the keys the deploy writes: a known `?tag=` is its
// list's key, an unknown one the empty list, errors carry club CORS, at the root and under a base
// path, and 5,000 clubs cost the function nothing (the keys are in the store, not in its 10 KB).
import vm from "node:vm";
import { describe, expect, it } from "vitest";
import type {
  CfEvent,
  CfRequest,
  CfResponse,
} from "../../../../../src/hosting/hosts/cloudfront/runtime/cloudfront-function.ts";
import {
  KVS_VALUE,
  kvsKeysOf,
} from "../../../../../src/hosting/hosts/cloudfront/runtime/cloudfront-function.ts";
import {
  CLOUDFRONT_KVS_IMPORT,
  CLOUDFRONT_MAX_BYTES,
  cloudfrontFunctionText,
} from "../../../../../src/deploy/edge-code.ts";
import { hostRules } from "../../../../../src/hosting/rules.ts";
import { MemoryKvs } from "../../../../support/kvs-memory.ts";

const CLUBS = 5000;

/** A snapshot's files: CLUBS clubs, each with a catalog and two tags of its own; two global tags. */
function files(): string[] {
  const out = [
    "api/public/v1/tournaments/index.json",
    "api/public/v1/tournaments/tag/open/index.json",
    "api/public/v1/tournaments/tag/rapid/index.json",
  ];
  for (let c = 0; c < CLUBS; c++) {
    const slug = `club-${String(c).padStart(5, "0")}`;
    out.push(`api/clubs/${slug}/tournaments/index.json`);
    for (let t = 0; t < 2; t++) out.push(`api/clubs/${slug}/tournaments/tag/t${c}-${t}/index.json`);
  }
  return out;
}

const store = new MemoryKvs();
for (const key of kvsKeysOf(hostRules(), files())) store.data.set(key, KVS_VALUE);

type Handler = (e: CfEvent) => Promise<CfRequest | CfResponse>;

function load(base: string): { handler: Handler; kvs: ReturnType<MemoryKvs["handle"]> } {
  const text = cloudfrontFunctionText(base);
  // CloudFront's runtime provides the module the first line imports; a script context cannot
  // import, so the stand-in takes its place (the line itself is checked).
  const [first, ...rest] = text.split("\n");
  expect(first).toBe(CLOUDFRONT_KVS_IMPORT);
  const kvs = store.handle();
  const context = vm.createContext({ cf: { kvs: () => kvs } });
  vm.runInContext(rest.join("\n"), context);
  return { handler: context.handler as Handler, kvs };
}

function event(uri: string, query: Record<string, string> = {}, method = "GET"): CfEvent {
  const querystring = Object.fromEntries(Object.entries(query).map(([k, v]) => [k, { value: v }]));
  return {
    version: "1.0",
    context: { eventType: "viewer-request" },
    request: { method, uri, querystring, headers: {} },
  };
}

const uriOf = (r: CfRequest | CfResponse) => ("uri" in r ? r.uri : `status ${r.statusCode}`);

describe.each([
  ["the root", ""],
  ["a base path", "/chess"],
])("the CloudFront Function at %s, 5,000 clubs in its KeyValueStore", (_, base) => {
  const { handler, kvs } = load(base);

  it("fits CloudFront's 10 KB whatever the clubs", () => {
    expect(store.data.size).toBe(CLUBS * 2 + 2);
    expect(Buffer.byteLength(cloudfrontFunctionText(base))).toBeLessThanOrEqual(CLOUDFRONT_MAX_BYTES);
  });

  it("rewrites a known tag to its list's key, asking the store once", async () => {
    const before = kvs.reads;
    const r = await handler(event(`${base}/api/clubs/club-04999/tournaments`, { tag: "t4999-1" }));
    expect(uriOf(r)).toBe("/api/clubs/club-04999/tournaments/tag/t4999-1/index.json");
    expect((r as CfRequest).querystring).toEqual({});
    expect(kvs.reads - before).toBe(1);
    expect(uriOf(await handler(event(`${base}/api/public/v1/tournaments/`, { tag: "rapid" })))).toBe(
      "/api/public/v1/tournaments/tag/rapid/index.json",
    );
  });

  it("answers an unknown tag with the empty list, and its numbered page with the 404 problem", async () => {
    // Another club's tag is unknown to this club.
    expect(uriOf(await handler(event(`${base}/api/clubs/club-00007/tournaments`, { tag: "t8-0" })))).toBe(
      "/api/clubs/club-00007/tournaments/tag/index.json",
    );
    expect(uriOf(await handler(event(`${base}/api/public/v1/tournaments`, { tag: "blitz" })))).toBe(
      "/api/public/v1/tournaments/tag/index.json",
    );
    const r = (await handler(
      event(`${base}/api/clubs/club-00007/tournaments`, { tag: "t8-0", page: "2" }),
    )) as CfResponse;
    expect(r.statusCode).toBe(404);
    expect(r.headers["content-type"]!.value).toMatch(/^application\/json/);
    expect(r.headers["access-control-allow-origin"]!.value).toBe("*");
  });

  it("answers club errors with CORS, others without, and refuses other methods", async () => {
    const club = (await handler(event(`${base}/api/clubs/club-00001/nothing`))) as CfResponse;
    expect(club.statusCode).toBe(404);
    expect(JSON.parse(club.body!.data)).toMatchObject({ status: 404 });
    expect(club.headers["access-control-allow-origin"]!.value).toBe("*");
    const pub = (await handler(event(`${base}/api/public/v1/nothing`))) as CfResponse;
    expect(pub.statusCode).toBe(404);
    expect(pub.headers["access-control-allow-origin"]).toBeUndefined();
    const post = (await handler(event(`${base}/api/clubs/club-00001/tournaments`, {}, "POST"))) as CfResponse;
    expect(post.statusCode).toBe(405);
    expect(post.headers.allow!.value).toBe("GET, HEAD");
    expect(post.headers["access-control-allow-origin"]!.value).toBe("*");
  });

  it("rewrites path forms and pages to their keys, and redirects a page without its slash", async () => {
    expect(uriOf(await handler(event(`${base}/api/clubs/club-00001/tournaments/`)))).toBe(
      "/api/clubs/club-00001/tournaments/index.json",
    );
    expect(uriOf(await handler(event(`${base}/tournaments/7/`)))).toBe("/tournaments/7/index.html");
    const r = (await handler(event(`${base}/tournaments/7`, { a: "1" }))) as CfResponse;
    expect(r.statusCode).toBe(308);
    expect(r.headers.location!.value).toBe(`${base}/tournaments/7/?a=1`);
  });

  it("rewrites one team of a team event (`{team}` digits only) beside the team standings", async () => {
    const uri = async (u: string) => uriOf(await handler(event(`${base}${u}`)));
    expect(await uri("/api/public/v1/tournaments/4600/teams/7")).toBe(
      "/api/public/v1/tournaments/4600/teams/7/index.json",
    );
    expect(await uri("/api/clubs/club-00001/tournaments/4600/teams/7/")).toBe(
      "/api/clubs/club-00001/tournaments/4600/teams/7/index.json",
    );
    expect(await uri("/api/public/v1/tournaments/4600/teams/standings")).toBe(
      "/api/public/v1/tournaments/4600/teams/standings/index.json",
    );
    expect(await uri("/api/public/v1/tournaments/4600/teams/x7")).toBe("status 404");
    expect(await uri("/tournaments/4600/teams/7/")).toBe("/tournaments/4600/teams/7/index.html");
  });

  it("answers an unknown page with the HTML 404 linking the index", async () => {
    const r = (await handler(event(`${base}/nothing/here`))) as CfResponse;
    expect(r.statusCode).toBe(404);
    expect(r.headers["content-type"]!.value).toMatch(/^text\/html/);
    expect(r.body!.data).toContain(`<a href="${base}/">All tournaments</a>`);
  });
});

describe("the CloudFront Function under a base path, outside it", () => {
  const { handler } = load("/chess");

  it("redirects the base without its slash to the index", async () => {
    const r = (await handler(event("/chess", { tag: "x" }))) as CfResponse;
    expect(r.statusCode).toBe(308);
    expect(r.headers.location!.value).toBe("/chess/?tag=x");
  });

  it("answers any path outside the base 404, the API at the root included", async () => {
    for (const uri of ["/", "/api/public/v1/tournaments", "/chessboard/"]) {
      const r = (await handler(event(uri))) as CfResponse;
      expect(r.statusCode, uri).toBe(404);
    }
  });
});
