// The CloudFront Function (viewer request, runtime cloudfront-js-2.0) for S3 + CloudFront, bundled
// by `npm run gen-edge` (scripts/lib/edge-bundle.ts) into edge/generated/cloudfront-function.ts.
// It runs hosting/resolve.ts (resolveWith: a plain function, since the runtime has no generators
// and no URLSearchParams) over the rule list:
// query forms become their path-form keys, a page URL without its slash redirects, what no rule
// names is answered here with the problem body (CORS on club paths), and anything else is
// rewritten to its object key for the S3 origin. A function cannot ask S3 whether a key exists,
// so `exists` is true for every key except the targets of query forms that fall back to a list
// (`?tag=` on a catalog): those are decided from the list of such keys the snapshot holds, which
// the deploy writes in front of the bundle (QUERY_KEYS). A key that is missing at S3 is answered
// by the distribution's custom error response (/404.json, status 404): see
// docs/guide/object-storage.md.
import { errorPage, problemJson } from "../../output/problem.ts";
import {
  errorResolution,
  malformedPath,
  resolveWith,
  type ErrorAnswer,
  type QueryView,
} from "../../hosting/resolve.ts";
import type { HostRules } from "../../hosting/rules.ts";
import { CORS_PREFIX } from "../../routes/urls.ts";

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

/** Targets of a query form with a fallback, as `^(<key up to the value>)([^/]+)/index.json$`. */
function decidedPatterns(rules: HostRules): RegExp[] {
  // One capture per parameter: the last is the query value, the others (a club's slug) name the list.
  return rules.queries
    .filter((q) => q.fallback !== null)
    .map((q) => new RegExp(`^${q.target.slice(1).replace(/\{\w+\}/g, "([^/]+)")}/index\\.json$`));
}

/**
 * The query-form targets a snapshot holds, compact enough for the function's 10 KB: `v` the
 * distinct value lists (each value between spaces), `k[i]` for the i-th query form with a fallback
 * maps a list's other parameters (a club's slug; "" for the global list) to its index in `v`. Clubs
 * with the same tags share one entry of `v`. The deploy writes them in front of the bundle.
 */
export interface QueryKeys {
  v: string[];
  k: Record<string, number>[];
}

export function queryKeys(rules: HostRules, files: Iterable<string>): QueryKeys {
  const patterns = decidedPatterns(rules);
  const lists = patterns.map(() => new Map<string, string[]>());
  for (const file of files) {
    patterns.forEach((re, i) => {
      const m = re.exec(file);
      if (!m) return;
      const key = m.slice(1, -1).join("/");
      const values = lists[i]!.get(key) ?? [];
      values.push(m[m.length - 1]!);
      lists[i]!.set(key, values);
    });
  }
  const v: string[] = [];
  const k = lists.map((list) => {
    const out: Record<string, number> = {};
    for (const key of [...list.keys()].sort()) {
      const joined = ` ${list.get(key)!.sort().join(" ")} `;
      let at = v.indexOf(joined);
      if (at === -1) at = v.push(joined) - 1;
      out[key] = at;
    }
    return out;
  });
  return { v, k };
}

/**
 * The path patterns of the distribution's cache behaviours whose response headers policy adds
 * `Access-Control-Allow-Origin: *` (a function at viewer request cannot add response headers, and
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
  return [...new Set(out)];
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
    res.body = { encoding: "text", data: r.json ? problemJson(r.status) : errorPage(r.status) };
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
 * The viewer-request handler over `rules`. The bundle (cloudfront-entry.ts) passes the rule list
 * as a literal, the tests hostRules(): a function may be at most 10 KB, and the URL model's code
 * with its descriptions is larger than the rules it makes.
 */
export function viewerRequest(
  rules: HostRules,
  known: QueryKeys,
): (event: CfEvent) => CfRequest | CfResponse {
  const decided = decidedPatterns(rules);
  return (event) => handle(rules, decided, known, event);
}

function handle(
  rules: HostRules,
  decided: RegExp[],
  known: QueryKeys,
  event: CfEvent,
): CfRequest | CfResponse {
  const request = event.request;
  const pathname = request.uri;
  // The checks every server makes before resolving (as the preview and the workers do).
  if (request.method !== "GET" && request.method !== "HEAD")
    return errorResponse(errorResolution(405, pathname), request.method);
  if (malformedPath(pathname)) return errorResponse(errorResolution(400, pathname), request.method);
  const exists = ({ file }: { file: string }): boolean => {
    for (let i = 0; i < decided.length; i++) {
      const m = decided[i]!.exec(file);
      if (!m) continue;
      const at = known.k[i]?.[m.slice(1, -1).join("/")];
      return at !== undefined && (known.v[at] ?? "").indexOf(` ${m[m.length - 1]} `) !== -1;
    }
    return true;
  };
  const r = resolveWith(rules, pathname, searchOf(request.querystring), exists);
  if (r.kind === "error") return errorResponse(r, request.method);
  if (r.kind === "redirect") {
    return {
      statusCode: 308,
      statusDescription: DESCRIPTIONS[308]!,
      // No body, as the workers' redirects (hosting/edge/handler.ts): every byte counts here.
      headers: { location: { value: r.location } },
    };
  }
  request.uri = `/${r.file}`;
  // The answer is the object: its cache key must not vary with the query string.
  request.querystring = {};
  return request;
}
