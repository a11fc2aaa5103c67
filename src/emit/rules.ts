// One rule list, derived from the route table, that every host renderer (serve.json, _headers,
// _redirects, nginx, the Cloudflare worker) and the preview translate into their own syntax.
import { CACHE_POLICY } from "./cache.ts";
import { OPENAPI_PATH, ROUTES, type CacheClass, type ParamName, type Route } from "../routes.ts";
import { LANGUAGE_PATTERN, SLUG_PATTERN, TAG_PATTERN } from "../store/patterns.ts";

/** A URL pattern that serves `<url>/index.json`. Parameters are written {name}. */
export interface PathRule {
  routeId: string;
  url: string;
  file: string;
  cors: boolean;
  cache: CacheClass;
}

/** A query form (`?tag=`, `?language=`) that the static snapshot answers from a path form. */
export interface QueryRule {
  routeId: string;
  url: string;
  param: "tag" | "language";
  /** The path form holding the answer for a given value: `<url>/tag/{tag}`. */
  target: string;
  /** Where an unknown value is answered from; null when it is a 404 (unknown languages). */
  fallback: string | null;
}

export interface HostRules {
  /** Most specific first: a literal segment sorts before a parameter at the same level. */
  paths: PathRule[];
  queries: QueryRule[];
  /** Files served as they are (the OpenAPI document). */
  files: { url: string; cache: CacheClass; cors: boolean }[];
}

/** The stored values that query forms can name; hosts that cannot test for a file enumerate them. */
export interface Vocabulary {
  clubTags: string[];
  globalTags: string[];
  languages: string[];
}

/** A pattern without its anchors, to embed in a larger one. */
function inner(re: RegExp): string {
  return re.source.replace(/^\^/, "").replace(/\$$/, "");
}

/**
 * What one path segment of each parameter may be. Ids and rounds are digits only, and slugs, tags
 * and languages can never be a reserved word (the store rejects those), so `/tournaments/tag/x`
 * can never be read as a tournament id, nor `/tournaments/42` as a tag path.
 */
export const SEGMENT_PATTERN: Record<ParamName, string> = {
  slug: inner(SLUG_PATTERN),
  id: "[0-9]+",
  round: "[0-9]+",
  tag: inner(TAG_PATTERN),
  language: inner(LANGUAGE_PATTERN),
};

export function pathRulesOf(route: Route): PathRule[] {
  const base = { routeId: route.id, cors: route.surface === "club", cache: route.cache };
  const urls = [route.path];
  const q = route.query;
  if (q) {
    urls.push(`${route.path}/${q.segment}/{${q.name}}`);
    if (q.name === "tag") urls.push(`${route.path}/${q.segment}`);
  }
  return urls.map((url) => ({ ...base, url, file: `${url}/index.json` }));
}

/** Orders URL patterns so that, segment by segment, a literal comes before a parameter. */
export function compareSpecificity(a: string, b: string): number {
  const sa = a.split("/");
  const sb = b.split("/");
  for (let i = 0; i < Math.min(sa.length, sb.length); i++) {
    const pa = sa[i]!.startsWith("{");
    const pb = sb[i]!.startsWith("{");
    if (pa !== pb) return pa ? 1 : -1;
  }
  return 0;
}

export function hostRules(): HostRules {
  const paths = ROUTES.flatMap(pathRulesOf).sort((a, b) => compareSpecificity(a.url, b.url));
  const queries: QueryRule[] = ROUTES.flatMap((route) => {
    const q = route.query;
    if (!q) return [];
    return [
      {
        routeId: route.id,
        url: route.path,
        param: q.name,
        target: `${route.path}/${q.segment}/{${q.name}}`,
        fallback: q.name === "tag" ? `${route.path}/${q.segment}` : null,
      },
    ];
  });
  return { paths, queries, files: [{ url: OPENAPI_PATH, cache: "meta", cors: false }] };
}

/** Parameter names of a URL pattern, in order. */
export function paramsOf(url: string): ParamName[] {
  return [...url.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as ParamName);
}

/** An anchored regular expression source for a URL pattern; a trailing slash is optional. */
export function urlRegExpSource(url: string): string {
  const source = url
    .split(/(\{\w+\})/)
    .map((part) => {
      const m = /^\{(\w+)\}$/.exec(part);
      return m ? `(${SEGMENT_PATTERN[m[1] as ParamName]})` : part.replace(/[.*+?^$()|[\]\\{}]/g, "\\$&");
    })
    .join("");
  return `^${source}/?$`;
}

/** The response headers a host adds to a JSON body of this rule. */
export function responseHeaders(rule: { cache: CacheClass; cors: boolean }): [string, string][] {
  const h: [string, string][] = [
    ["Content-Type", JSON_TYPE],
    ["Cache-Control", CACHE_POLICY[rule.cache]],
    ["X-Content-Type-Options", "nosniff"],
  ];
  if (rule.cors) h.push(["Access-Control-Allow-Origin", "*"]);
  return h;
}

export const JSON_TYPE = "application/json; charset=utf-8";

/** Club endpoints are the only cross-origin surface (spec §5). */
export const CORS_PREFIX = "/api/clubs/";
