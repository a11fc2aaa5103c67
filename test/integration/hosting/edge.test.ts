// The edge code, as deployed (the bundled texts under src/hosting/hosts/*/runtime/generated/),
// answering the host probe's cases (scripts/probe.ts, built from the rule list) over a bucket filled by a real deploy:
// - the R2 Worker, run under Node with an R2-like binding that reads the local S3-compatible server
//   (wrangler's local runtime is not used here: see docs/guide/object-storage.md);
// - the CloudFront Function, run in a bare V8 context (no Node, no URL, no Buffer: CloudFront's
//   runtime has none of them) with CloudFront's viewer-request event, in front of an origin that
//   behaves as the documented distribution does: the object from S3 with its Content-Type and
//   Cache-Control, a missing key answered by the custom error response (/404.json, status 404),
//   and the response headers policies (nosniff everywhere, CORS on /api/clubs/* and /embed/*), and
//   the viewer-response function over S3's answer (its metadata as x-amz-meta-* headers).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import vm from "node:vm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deploy } from "../../../src/deploy/deploy.ts";
import { CLOUDFRONT_FUNCTION } from "../../../src/hosting/hosts/cloudfront/runtime/generated/cloudfront-function.ts";
import type {
  CfEvent,
  CfRequest,
  CfResponse,
  CfValue,
} from "../../../src/hosting/hosts/cloudfront/runtime/cloudfront-function.ts";
import type { Env } from "../../../src/hosting/hosts/r2/runtime/r2-worker.ts";
import type { CfResponseEvent } from "../../../src/hosting/hosts/cloudfront/runtime/cloudfront-response.ts";
import { CLOUDFRONT_RESPONSE_FUNCTION } from "../../../src/hosting/hosts/cloudfront/runtime/generated/cloudfront-response.ts";
import { corsPathPatterns } from "../../../src/hosting/hosts/cloudfront/runtime/cloudfront-function.ts";
import { securityHeaders } from "../../../src/hosting/rules.ts";
import { hostRules } from "../../../src/hosting/rules.ts";
import { CLOUDFRONT_MAX_BYTES, cloudfrontFunctionText, r2WorkerText } from "../../../src/deploy/edge-code.ts";
import { readSnapshotFiles } from "../../../src/deploy/snapshot-files.ts";
import { planChecks, readSnapshot, runCheck } from "../../../scripts/probe.ts";
import path from "node:path";
import { build } from "../../../src/pipeline/build.ts";
import { buildSample, makeSampleStore, SAMPLE_NOW } from "../../support/e2e.ts";
import { removeTempDirs, tempDir } from "../../support/temp.ts";
import { S3_ENV, startS3, type LocalS3 } from "../../support/s3-server.ts";
import { MemoryKvs } from "../../support/kvs-memory.ts";
import { CLOUDFRONT_KVS_IMPORT } from "../../../src/deploy/edge-code.ts";

const PREFIX = "site/";
const STRICT = {
  ownCacheControl: false,
  htmlNotFoundType: false,
  queryMissingIs200: false,
  servesFilesByName: false,
  pageWithoutSlashServed: false,
  followsSymlinks: false,
  dropsMalformedEscape: false,
  ownBadRequestPage: false,
  ownMethodAnswer: false,
  staticHeadersOnly: false,
};

let s3: LocalS3;
let out: string;
/** The sample built with --base-path /chess/, deployed under its own prefix with its own store. */
let outBase: string;
const BASE = "/chess";
const PREFIX_BASE = "chess-site/";
const kvsBase = new MemoryKvs();
/** The CloudFront Function's KeyValueStore, as the deploy wrote it. */
const kvs = new MemoryKvs();
const servers: Server[] = [];

beforeAll(async () => {
  Object.assign(process.env, S3_ENV);
  s3 = await startS3();
  ({ out } = await buildSample(tempDir("deploy-edge")));
  await deploy({
    dir: out,
    bucket: s3.bucket,
    prefix: PREFIX,
    endpoint: s3.endpoint,
    pathStyle: true,
    concurrency: 8,
    kvs,
  });
  const dir = tempDir("deploy-edge-base");
  outBase = path.join(dir, "dist");
  await build({ db: makeSampleStore(dir), out: outBase, now: SAMPLE_NOW, basePath: BASE });
  await deploy({
    dir: outBase,
    bucket: s3.bucket,
    prefix: PREFIX_BASE,
    endpoint: s3.endpoint,
    pathStyle: true,
    concurrency: 8,
    kvs: kvsBase,
  });
}, 360_000);

afterAll(async () => {
  for (const s of servers) await new Promise((r) => s.close(r));
  await s3?.close();
  removeTempDirs();
});

async function listen(
  handler: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
): Promise<string> {
  const server = createServer((req, res) => {
    handler(req, res).catch((e: unknown) => {
      res.writeHead(599);
      res.end(String(e));
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Runs every probe case of the snapshot `dir` (default: the root one) against `base`; returns the failures. */
async function probe(base: string, limits = STRICT, dir = out): Promise<string[]> {
  const snap = readSnapshot(dir);
  const failures: string[] = [];
  let passed = 0;
  for (const c of planChecks(snap)) {
    for (const o of await runCheck(base, c, snap, limits)) {
      if (!o.ok && !o.skipped) failures.push(`${c.url} (${c.what}): ${o.detail}`);
      else passed++;
    }
  }
  expect(passed).toBeGreaterThan(100);
  return failures;
}

/** The R2 Worker as deployed, under Node, its binding reading `prefix` of the S3 server; its address. */
async function r2Site(prefix: string, basePath?: string): Promise<string> {
  const mod = (await import(`data:text/javascript,${encodeURIComponent(r2WorkerText(out))}`)) as {
    default: { fetch(request: Request, env: Env): Promise<Response> };
  };
  const env: Env = {
    PREFIX: prefix,
    ...(basePath && { BASE_PATH: basePath }),
    BUCKET: {
      async get(key) {
        const o = await s3.get(key);
        if (!o) return null;
        return {
          httpEtag: o.etag!,
          httpMetadata: { cacheControl: o.cacheControl },
          customMetadata: o.metadata,
          body: new Blob([new Uint8Array(o.body)]).stream(),
        };
      },
    },
  };
  return listen(async (req, res) => {
    const request = new Request(`http://127.0.0.1${req.url}`, {
      method: req.method,
      headers: req.headers as Record<string, string>,
    });
    const response = await mod.default.fetch(request, env);
    const body = Buffer.from(await response.arrayBuffer());
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(body);
  });
}

describe("the R2 Worker", () => {
  it("answers every probe case from the bucket exactly as the preview does", async () => {
    const base = await r2Site(PREFIX);
    expect(await probe(base)).toEqual([]);
    // Purge tags come from the object's metadata.
    const r = await fetch(`${base}/api/clubs/hobsons-bay/tournaments`);
    expect(r.headers.get("cache-tag")).toBe("list-club-hobsons-bay,club-hobsons-bay,build-api");
  }, 120_000);

  it("answers every probe case of a snapshot built with --base-path, given BASE_PATH", async () => {
    const base = await r2Site(PREFIX_BASE, `${BASE}/`);
    expect(await probe(base + BASE, STRICT, outBase)).toEqual([]);
    expect((await fetch(`${base}/api/public/v1/tournaments`)).status).toBe(404);
  }, 120_000);
});

/** CloudFront path patterns as regular expressions: `*` is any characters, `/` included. */
const behaviours = (base: string) =>
  corsPathPatterns(hostRules({ links: {}, archived: [], ...(base && { basePath: base }) })).map(
    (p) => new RegExp(`^${p.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*")}$`),
  );

/**
 * A distribution as the guide documents it, in front of the local S3 server: the CloudFront
 * Function as `--edge-out` writes it for `base` over `store` (the store the deploy wrote), origin
 * path `prefix`, the response headers policies, the custom error response, the viewer-response
 * function. Returns its address.
 */
async function distribution(prefix: string, store: MemoryKvs, baseArg = ""): Promise<string> {
  // The runtime's module (the text's first line imports it) is the store the deploy wrote.
  const [first, ...rest] = cloudfrontFunctionText(baseArg).split("\n");
  expect(first).toBe(CLOUDFRONT_KVS_IMPORT);
  const context = vm.createContext({ cf: { kvs: () => store.handle() } });
  vm.runInContext(rest.join("\n"), context);
  const handler = context.handler as (e: CfEvent) => Promise<CfRequest | CfResponse>;
  const CORS_BEHAVIOURS = behaviours(baseArg);
  const PREFIX = prefix;
  // The viewer-response function, over what S3 answers (its metadata as x-amz-meta-* headers).
  const responseContext = vm.createContext({});
  vm.runInContext(CLOUDFRONT_RESPONSE_FUNCTION, responseContext);
  const onResponse = responseContext.handler as (e: CfResponseEvent) => CfResponseEvent["response"];
  return listen(async (req, res) => {
    const raw = req.url ?? "/";
    const q = raw.indexOf("?");
    const uri = q === -1 ? raw : raw.slice(0, q);
    const querystring: Record<string, CfValue> = {};
    for (const part of (q === -1 ? "" : raw.slice(q + 1)).split("&").filter(Boolean)) {
      const [k, v = ""] = part.split("=") as [string, string?];
      const prev = querystring[k];
      if (prev) (prev.multiValue ??= [{ value: prev.value }]).push({ value: v });
      else querystring[k] = { value: v };
    }
    const headers: Record<string, CfValue> = {};
    for (const [k, v] of Object.entries(req.headers)) headers[k] = { value: String(v) };
    const event: CfEvent = {
      version: "1.0",
      context: { eventType: "viewer-request" },
      request: { method: req.method ?? "GET", uri, querystring, headers },
    };
    const r = await handler(event);
    // Response headers policies, by the viewer's path: the behaviours the guide lists.
    const policy: Record<string, string> = { "x-content-type-options": "nosniff" };
    if (CORS_BEHAVIOURS.some((re) => re.test(uri))) policy["access-control-allow-origin"] = "*";
    // The security headers policies: the pages' behaviours (/, /tournaments/* and /players/*) and
    // the default.
    const page =
      uri === `${baseArg}/` ||
      uri.startsWith(`${baseArg}/tournaments/`) ||
      uri.startsWith(`${baseArg}/players/`);
    for (const [k, v] of securityHeaders(page)) policy[k.toLowerCase()] = v;
    if ("statusCode" in r) {
      const h: Record<string, string> = {};
      for (const [k, v] of Object.entries(r.headers)) h[k] = v.value;
      res.writeHead(r.statusCode, { ...h, ...policy });
      res.end(r.body?.data ?? "");
      return;
    }
    let key: string;
    try {
      key = decodeURIComponent(r.uri.slice(1));
    } catch {
      key = r.uri.slice(1);
    }
    let o = await s3.get(PREFIX + key);
    let status = 200;
    if (!o) {
      o = (await s3.get(`${PREFIX}404.json`))!;
      status = 404;
    }
    const fromS3: Record<string, CfValue> = {
      "content-type": { value: o.contentType! },
      "cache-control": { value: o.cacheControl! },
    };
    for (const [k, v] of Object.entries(o.metadata)) fromS3[`x-amz-meta-${k}`] = { value: v };
    const viewed = onResponse({
      version: "1.0",
      context: { eventType: "viewer-response" },
      request: { method: req.method ?? "GET", uri: r.uri },
      response: { statusCode: status, headers: fromS3 },
    });
    const h: Record<string, string> = { ...policy };
    for (const [k, v] of Object.entries(viewed.headers)) h[k] = v.value;
    if (status === 200) {
      h.etag = o.etag!;
      if (req.headers["if-none-match"] === o.etag) {
        res.writeHead(304, h);
        res.end();
        return;
      }
    }
    res.writeHead(status, h);
    res.end(req.method === "HEAD" ? undefined : o.body);
  });
}

/**
 * The documented differences of the distribution: one custom error response per status, so a page
 * or asset whose object is missing is answered 404 with the problem JSON, not the HTML page (its
 * status is right: no failure names a status); and CloudFront purges by path (invalidations), not
 * by tag: no answer carries the purge tags. The probe names checks by site path, under a base too.
 */
const DOCUMENTED = [
  /^\/(tournaments|assets)\/[^ ]* \(unknown (page|asset) → HTML 404\): (not the HTML 404 page|content-type application\/json)/,
  /: (cache-tag|surrogate-key) absent \(want /,
  // The same one-error-response-per-status: a 404 outside /api/ carries the problem JSON's
  // CSP, not the HTML error page's.
  /^\/(?!api\/)[^ ]* \(.*→ (HTML )?404\): content-security-policy default-src 'none'; frame-ancestors 'none' \(want default-src 'none'; script-src /,
];

describe("the CloudFront Function", () => {
  it("fits CloudFront's 10 KB; the deploy wrote the sample's ?tag= keys to its KeyValueStore", () => {
    const text = cloudfrontFunctionText();
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(CLOUDFRONT_MAX_BYTES);
    expect(text.endsWith(CLOUDFRONT_FUNCTION)).toBe(true);
    const tagFiles = [...readSnapshotFiles(out).files.keys()].filter((f) =>
      /\/tag\/[^/]+\/index\.json$/.test(f),
    );
    expect(tagFiles.length).toBeGreaterThan(0);
    expect([...kvs.data.keys()].filter((k) => !k.startsWith("_")).sort()).toEqual(tagFiles.sort());
  });

  it("answers every probe case in front of S3 as the documented distribution", async () => {
    const base = await distribution(PREFIX, kvs);
    // The one documented difference: a distribution has one custom error response per status, so
    // a page or asset whose object is missing is answered 404 with the problem JSON, not the HTML
    // page (its status is right: no failure names a status).
    const failures = await probe(base);
    expect(failures.filter((f) => !DOCUMENTED.some((re) => re.test(f)))).toEqual([]);
  }, 120_000);

  it("answers every probe case of a snapshot built with --base-path as the root's", async () => {
    const text = cloudfrontFunctionText(BASE);
    expect(text.split("\n")[1]).toBe(`var BUILD_API_BASE="${BASE}";`);
    // The store's keys are the snapshot's files, as at the root: no base in a key.
    expect([...kvsBase.data.keys()].filter((k) => !k.startsWith("_")).sort()).toEqual(
      [...kvs.data.keys()].filter((k) => !k.startsWith("_")).sort(),
    );
    const base = await distribution(PREFIX_BASE, kvsBase, BASE);
    // The probe takes the site's address: the origin and the base path (as scripts/probe.ts does).
    const failures = await probe(base + BASE, STRICT, outBase);
    expect(failures.filter((f) => !DOCUMENTED.some((re) => re.test(f)))).toEqual([]);
    // The base without its slash, and a path outside it.
    const r = await fetch(`${base}${BASE}?tag=open`, { redirect: "manual" });
    expect([r.status, r.headers.get("location")]).toEqual([308, `${BASE}/?tag=open`]);
    expect((await fetch(`${base}/api/public/v1/tournaments`)).status).toBe(404);
  }, 120_000);
});
