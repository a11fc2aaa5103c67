// The CloudFront Function (viewer request, runtime cloudfront-js-2.0) for S3 + CloudFront, bundled
// by `npm run gen-edge` (scripts/lib/edge-bundle.ts) into edge/generated/cloudfront-function.ts.
// It runs hosting/resolve.ts (resolveUnderBase over resolveWith: plain functions, since the
// runtime has no generators and no URLSearchParams) over the rule list, under the snapshot's base
// path when it has one: query forms become their path-form keys, a page URL without its slash
// redirects, what no rule names is answered here with the problem body (CORS on club paths), and
// anything else is rewritten to its object key for the S3 origin. A function cannot ask S3
// whether a key exists, so `exists` is true for every key except the targets of query forms that
// fall back to a list (`?tag=` on a catalog): those are asked of the CloudFront KeyValueStore
// associated with the function, which the deploy keeps equal to the snapshot's such files
// (deploy/kvs.ts). A key that is missing at S3 is answered by the distribution's custom error
// response (/404.json, status 404): see docs/guide/object-storage.md.
import { englishErrorPage, problemJson } from "../../../../output/problem.ts";
import {
  errorUnderBase,
  malformedPath,
  resolveUnderBase,
  type ErrorAnswer,
  type QueryView,
  type Resolution,
} from "../../../resolve.ts";
import type { HostRules } from "../../../rules.ts";
import { CORS_PREFIX } from "../../../../routes/urls.ts";

/** CloudFront's viewer-request event, the parts used here. */
export interface CfValue {
  value: string;
  multiValue?: { value: string }[];
}
export interface CfRequest {
  method: string;
  uri: string;
  querystring: Record<string, CfValue>;
  headers: Record<string, CfValue>;
}
export interface CfEvent {
  version: string;
  context?: { eventType?: string };
  request: CfRequest;
}
export interface CfResponse {
  statusCode: number;
  statusDescription: string;
  headers: Record<string, CfValue>;
  body?: { encoding: "text"; data: string };
}

/** Targets of a query form with a fallback, as `^<key up to the value>[^/]+/index.json$`. */
function decidedPatterns(rules: HostRules): RegExp[] {
  return rules.queries
    .filter((q) => q.fallback !== null)
    .map((q) => new RegExp(`^${q.target.slice(1).replace(/\{\w+\}/g, "[^/]+")}/index\\.json$`));
}

/**
 * The files of a snapshot the function asks the KeyValueStore about: the targets of the query
 * forms with a fallback (`?tag=` on a catalog: `…/tag/<tag>/index.json`). Each is one key of the
 * store, the file's path as it is (the value is unused: KVS_VALUE), so the function asks
 * `exists(file)` and the deploy (deploy/kvs.ts) puts and deletes exactly these.
 */
export function kvsKeysOf(rules: HostRules, files: Iterable<string>): string[] {
  const patterns = decidedPatterns(rules);
  const out: string[] = [];
  for (const file of files) if (patterns.some((re) => re.test(file))) out.push(file);
  return out.sort();
}

/** The value of every key the deploy writes (a key's presence is what the function reads). */
export const KVS_VALUE = "1";

/** The part of CloudFront's KeyValueStore handle (`cf.kvs()`) the function uses. */
export interface KvsHandle {
  exists(key: string): Promise<boolean>;
}

/**
 * The path patterns of the distribution's cache behaviours whose response headers policy adds
 * `Access-Control-Allow-Origin: *` (under the snapshot's base path; a function at viewer request cannot add response headers, and
 * S3 cannot store them): every club path, then each other CORS rule of the list. A behaviour is
 * chosen by the viewer's path, so each pattern ends in `*` to take the trailing slash and the
 * `index.json` forms too. Named in docs/guide/object-storage.md; the edge test's distribution
 * applies exactly these.
 */
export function corsPathPatterns(rules: HostRules): string[] {
  const out = [`${CORS_PREFIX}*`];
  const star = (url: string) => url.replace(/\{\w+\}/g, "*");
  for (const r of [...rules.paths, ...rules.files])
    if (r.cors && !r.url.startsWith(CORS_PREFIX)) out.push(`${star(r.url)}*`.replace(/\*\*$/, "*"));
  for (const s of rules.statics) if (s.cors) out.push(`${s.prefix}*.${s.ext}`);
  // Under a base path the viewer's paths, which behaviours match, start with it.
  return [...new Set(out)].map((p) => rules.base + p);
}

const DESCRIPTIONS: Record<number, string> = {
  308: "Permanent Redirect",
  400: "Bad Request",
  404: "Not Found",
  405: "Method Not Allowed",
};

function headerMap(pairs: [string, string][]): Record<string, CfValue> {
  const out: Record<string, CfValue> = {};
  for (const [k, v] of pairs) out[k.toLowerCase()] = { value: v };
  return out;
}

function errorResponse(r: ErrorAnswer, method: string): CfResponse {
  const headers = headerMap(r.headers);
  if (r.status === 405) headers.allow = { value: "GET, HEAD" };
  const res: CfResponse = {
    statusCode: r.status,
    statusDescription: DESCRIPTIONS[r.status] ?? "Error",
    headers,
  };
  if (method !== "HEAD")
    res.body = {
      encoding: "text",
      data: r.json ? problemJson(r.status) : englishErrorPage(r.status, r.home),
    };
  return res;
}

function decode(v: string): string {
  try {
    return decodeURIComponent(v.replace(/\+/g, " "));
  } catch {
    return v;
  }
}

/** The query string as the resolver reads it: get() gives the first value, like URLSearchParams. */
function searchOf(qs: Record<string, CfValue>): QueryView {
  const pairs: [string, string][] = [];
  for (const name of Object.keys(qs)) {
    const q = qs[name]!;
    const values = q.multiValue && q.multiValue.length > 0 ? q.multiValue.map((m) => m.value) : [q.value];
    for (const v of values) pairs.push([decode(name), decode(v)]);
  }
  const raw = pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&");
  return {
    get: (name: string) => {
      for (const [k, v] of pairs) if (k === name) return v;
      return null;
    },
    raw: raw === "" ? "" : `?${raw}`,
  };
}

/**
 * The viewer-request handler over `rules` (rules.base: the snapshot's base path, "" at the root),
 * asking `kvs` whether a `?tag=` target exists. The bundle (cloudfront-entry.ts) passes the rule
 * list as a literal and `cf.kvs()`, the tests hostRules() and a stand-in: a function may be at
 * most 10 KB, and the URL model's code with its descriptions is larger than the rules it makes.
 */
export function viewerRequest(
  rules: HostRules,
  kvs: KvsHandle,
): (event: CfEvent) => Promise<CfRequest | CfResponse> {
  const decided = decidedPatterns(rules);
  return (event) => handle(rules, decided, kvs, event);
}

async function handle(
  rules: HostRules,
  decided: RegExp[],
  kvs: KvsHandle,
  event: CfEvent,
): Promise<CfRequest | CfResponse> {
  const request = event.request;
  const pathname = request.uri;
  const base = rules.base;
  // The checks every server makes before resolving (as the preview and the workers do).
  if (request.method !== "GET" && request.method !== "HEAD")
    return errorResponse(errorUnderBase(405, pathname, base), request.method);
  if (malformedPath(pathname)) return errorResponse(errorUnderBase(400, pathname, base), request.method);
  const query = searchOf(request.querystring);
  // The resolver is synchronous (no generators here): it runs with what the store has answered
  // so far, and again after each answer (resolve.ts resolveRequestAsync does the same). Only a
  // `?tag=` target is asked (at most one per query form); any other file is taken to exist, and
  // a missing object is the distribution's custom error response.
  const known: Record<string, boolean> = {};
  for (;;) {
    let ask: string | undefined;
    const r = resolveUnderBase(rules, pathname, query, ({ file }) => {
      if (!decided.some((re) => re.test(file))) return true;
      if (file in known) return known[file]!;
      ask = ask ?? file;
      return false;
    });
    if (ask === undefined) return answerOf(r, request);
    known[ask] = await kvs.exists(ask);
  }
}

function answerOf(r: Resolution, request: CfRequest): CfRequest | CfResponse {
  if (r.kind === "error") return errorResponse(r, request.method);
  if (r.kind === "redirect") {
    return {
      statusCode: 308,
      statusDescription: DESCRIPTIONS[308]!,
      // No body, as the workers' redirects (hosting/hosts/edge-handler.ts): every byte counts here.
      headers: { location: { value: r.location } },
    };
  }
  // The object's key, relative to the snapshot (under a base path too: the deploy's keys are).
  request.uri = `/${r.file}`;
  // The answer is the object: its cache key must not vary with the query string.
  request.querystring = {};
  return request;
}
