// One rule list, flattened from the URL model (routes/urls.ts), that every host renderer
// (_headers, _redirects, nginx) translates into its own syntax and that resolve.ts interprets for
// the preview and the edge workers (hosting/edge/). Nothing here knows a route by name.
import { CACHE_POLICY, ERROR_CACHE_POLICY } from "../routes/cache.ts";
import {
  ENDPOINTS,
  OPENAPI_PATH,
  PAGE_ROUTES,
  pageCache,
  pathForms,
  queryFormPath,
  STATIC_DIRS,
  type CacheClass,
  type ParamName,
} from "../routes/urls.ts";
import { LANGUAGE_PATTERN, SLUG_PATTERN, TAG_PATTERN } from "../shared/segments.ts";

export const JSON_TYPE = "application/json; charset=utf-8";
export const HTML_TYPE = "text/html; charset=utf-8";

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

/** A page: `<url>index.html`, url ending with a slash; the url without it redirects there. */
export interface PageRule {
  routeId: string;
  url: string;
  file: string;
  cache: CacheClass;
}

/** Files of a static directory with one extension, served as they are. */
export interface StaticRule {
  prefix: string;
  ext: string;
  type: string;
  cors: boolean;
  cache: CacheClass;
}

export interface HostRules {
  /** Most specific first: a literal segment sorts before a parameter at the same level. */
  paths: PathRule[];
  queries: QueryRule[];
  /** Files served as they are (the OpenAPI document). */
  files: { url: string; cache: CacheClass; cors: boolean }[];
  pages: PageRule[];
  statics: StaticRule[];
}

/** The stored values that query forms can name; hosts that cannot test for a file enumerate them. */
export interface Vocabulary {
  clubTags: string[];
  globalTags: string[];
  languages: string[];
}

/**
 * Files the build writes at the root that are not for the public: host configurations and build
 * bookkeeping. Every host answers 404 for them (the allow-list does; Netlify, which serves every
 * file it does not consume, gets one forced rule each).
 */
export const INTERNAL_FILES = [
  ".build-api-manifest.json",
  ".build-api-snapshot",
  "_build-api-state.json",
  "_build-api.json",
  "_headers",
  "_redirects",
  "_worker.js",
  "nginx-http.conf",
  "nginx.conf",
] as const;

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
  player: "[0-9]+",
};

/** A static file name: segments that never start with a dot, so never `..` nor a dotfile. */
const STATIC_NAME = "(?:[A-Za-z0-9_-][A-Za-z0-9._-]*/)*[A-Za-z0-9_-][A-Za-z0-9._-]*";

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
  const paths = ENDPOINTS.flatMap((route) =>
    pathForms(route).map((url) => ({
      routeId: route.id,
      url,
      file: `${url}/index.json`,
      cors: route.cors ?? route.surface === "club",
      cache: route.cache,
    })),
  ).sort((a, b) => compareSpecificity(a.url, b.url));
  const queries: QueryRule[] = ENDPOINTS.flatMap((route) => {
    const q = route.query;
    if (!q) return [];
    return [
      {
        routeId: route.id,
        url: route.path,
        param: q.name,
        target: queryFormPath(route.path, q, `{${q.name}}`),
        fallback: q.unknown === "empty" ? queryFormPath(route.path, q, "") : null,
      },
    ];
  });
  const pages = PAGE_ROUTES.map((p) => ({
    routeId: p.id,
    url: p.path,
    file: `${p.path}index.html`,
    cache: pageCache(p),
  }));
  const statics = STATIC_DIRS.flatMap((d) =>
    Object.entries(d.types).map(([ext, type]) => ({
      prefix: d.prefix,
      ext,
      type,
      cors: d.cors,
      cache: d.cache ?? ("asset" as const),
    })),
  );
  return {
    paths,
    queries,
    files: [{ url: OPENAPI_PATH, cache: "meta", cors: false }],
    pages,
    statics,
  };
}

/** Parameter names of a URL pattern, in order. */
export function paramsOf(url: string): ParamName[] {
  return [...url.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as ParamName);
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^$()|[\]\\{}]/g, "\\$&");
}

/** A URL pattern as a regular expression source, one capture per parameter, unanchored. */
export function urlPatternSource(url: string): string {
  return url
    .split(/(\{\w+\})/)
    .map((part) => {
      const m = /^\{(\w+)\}$/.exec(part);
      return m ? `(${SEGMENT_PATTERN[m[1] as ParamName]})` : escapeRegExp(part);
    })
    .join("");
}

/** An anchored regular expression source for an API URL pattern; a trailing slash is optional. */
export function urlRegExpSource(url: string): string {
  return `^${urlPatternSource(url)}/?$`;
}

/** A page URL exactly (with its trailing slash). */
export function pageRegExpSource(rule: PageRule): string {
  return `^${urlPatternSource(rule.url)}$`;
}

/** The page URL without its trailing slash (null for `/`): it redirects to the slash form. */
export function pageBareRegExpSource(rule: PageRule): string | null {
  return rule.url === "/" ? null : `^${urlPatternSource(rule.url.slice(0, -1))}$`;
}

export function staticRegExpSource(rule: StaticRule): string {
  return `^${escapeRegExp(rule.prefix)}${STATIC_NAME}\\.${escapeRegExp(rule.ext)}$`;
}

type Headers = [string, string][];

function withCommon(type: string, cacheControl: string, cors: boolean): Headers {
  const h: Headers = [
    ["Content-Type", type],
    ["Cache-Control", cacheControl],
    ["X-Content-Type-Options", "nosniff"],
  ];
  if (cors) h.push(["Access-Control-Allow-Origin", "*"]);
  return h;
}

/** The response headers of a JSON body of this rule. */
export function responseHeaders(rule: { cache: CacheClass; cors: boolean }): Headers {
  return withCommon(JSON_TYPE, CACHE_POLICY[rule.cache], rule.cors);
}

export function pageHeaders(rule: PageRule): Headers {
  return withCommon(HTML_TYPE, CACHE_POLICY[rule.cache], false);
}

export function staticHeaders(rule: StaticRule): Headers {
  return withCommon(rule.type, CACHE_POLICY[rule.cache], rule.cors);
}

/** An error answer: the problem JSON under /api (CORS on club paths), the HTML page elsewhere. */
export function errorHeaders(json: boolean, cors: boolean): Headers {
  return withCommon(json ? JSON_TYPE : HTML_TYPE, ERROR_CACHE_POLICY, cors);
}
