// One rule list, flattened from the URL model (routes/urls.ts), that every host renderer
// (_headers, _redirects, nginx) translates into its own syntax and that resolve.ts interprets for
// the preview and the edge workers (hosting/hosts/: the Cloudflare Pages and R2 workers, the CloudFront Function). Nothing here knows a route by name.
import { ERROR_PAGE_STYLE_HASH } from "../output/problem.ts";
import { CACHE_POLICY, ERROR_CACHE_POLICY } from "../routes/cache.ts";
import {
  endpoint,
  ENDPOINTS,
  OPENAPI_PATH,
  PAGE_ROUTES,
  pageCache,
  pagePath,
  pathForms,
  queryFormPath,
  STATIC_DIRS,
  type CacheClass,
  type Endpoint,
  type ParamName,
} from "../routes/urls.ts";
import { LANGUAGE_PATTERN, SLUG_PATTERN, TAG_PATTERN } from "../shared/segments.ts";
import { NO_EDGE_FACTS, type EdgeFacts } from "../routes/pagination.ts";

export const JSON_TYPE = "application/json; charset=utf-8";
export const HTML_TYPE = "text/html; charset=utf-8";

/** A URL pattern that serves `<url>/index.json`. Parameters are written {name}. */
export interface PathRule {
  routeId: string;
  url: string;
  file: string;
  cors: boolean;
  cache: CacheClass;
  /** Purge tags, most specific first; `{param}` is filled from the URL (see purgeTagsOf). */
  tags: string[];
}

/** A query form (`?tag=`, `?language=`) that the static snapshot answers from a path form. */
export interface QueryRule {
  routeId: string;
  url: string;
  param: "tag" | "language" | "page";
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
  tags: string[];
}

/** Files of a static directory with one extension, served as they are. */
export interface StaticRule {
  prefix: string;
  ext: string;
  type: string;
  cors: boolean;
  cache: CacheClass;
  tags: string[];
}

export interface HostRules {
  /** Most specific first: a literal segment sorts before a parameter at the same level. */
  paths: PathRule[];
  queries: QueryRule[];
  /** Files served as they are (the OpenAPI document). */
  files: { url: string; cache: CacheClass; cors: boolean; tags: string[] }[];
  pages: PageRule[];
  statics: StaticRule[];
  /** This snapshot's Link headers and archived tournaments (empty without a snapshot). */
  facts: EdgeFacts;
  /**
   * The base path the snapshot is served under (facts.basePath; "" at the root). The rules' URLs
   * above are site paths: the resolver strips the base first, the host renderers read the rules
   * servedUnder() gives, whose URLs carry it.
   */
  base: string;
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
  "_build-api-edge.json",
  "_build-api-state.json",
  "_build-api.json",
  "_headers",
  "_redirects",
  "_worker.js",
  "nginx-http.conf",
  "nginx.conf",
] as const;

/** The snapshot's edge facts, for the preview and the probe (an internal file: never served). */
export const EDGE_FILE = "_build-api-edge.json";

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
  page: "[1-9][0-9]{0,8}",
  player: "[0-9]+",
  team: "[0-9]+",
  fideId: "[0-9]+",
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

/** The tag every response carries: purging it forgets the whole site. */
export const SITE_TAG = "build-api";
/** The tag of every error answer (404.json, 404.html, 400, 405). */
export const ERROR_TAG = "build-api-errors";

/**
 * The purge tags of an endpoint's responses, most specific first, as templates whose `{param}`
 * the host fills from the URL: per tournament (`tournament-{id}`), per list (`list-public`,
 * `list-club-{slug}`: a list's tag forms share their list's tag), per club (`club-{slug}`), and
 * the site. The first tag is the one a build names when the file changes (hosting/purge.ts).
 */
export function purgeTagsOf(e: Pick<Endpoint, "scope" | "surface">): string[] {
  const club = e.surface === "club" ? ["club-{slug}"] : [];
  if (e.scope === "tournament") return ["tournament-{id}", ...club, SITE_TAG];
  if (e.scope === "player") return ["player-{fideId}", SITE_TAG];
  return [e.surface === "club" ? "list-club-{slug}" : "list-public", ...club, SITE_TAG];
}

/** A rule's purge tags as the two headers CDNs read: Cache-Tag (Cloudflare, Netlify, Akamai:
 * comma-separated) and Surrogate-Key (Fastly and others: space-separated). */
export function tagHeaders(tags: readonly string[]): Headers {
  return [
    ["Cache-Tag", tags.join(",")],
    ["Surrogate-Key", tags.join(" ")],
  ];
}

/** Fills `{param}` in header values from a match of a URL pattern with these parameter names. */
export function fillHeaders(headers: Headers, names: readonly string[], m: RegExpExecArray): Headers {
  return headers.map(([k, v]) => [
    k,
    v.replace(/\{(\w+)\}/g, (_, n: string) => m[names.indexOf(n) + 1] ?? ""),
  ]);
}

export function hostRules(facts: EdgeFacts = NO_EDGE_FACTS): HostRules {
  const paths = ENDPOINTS.flatMap((route) =>
    pathForms(route).map((url) => ({
      routeId: route.id,
      url,
      file: `${url}/index.json`,
      cors: route.cors ?? route.surface === "club",
      cache: route.cache,
      tags: purgeTagsOf(route),
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
  // `?page=N` on a list or its tag form: after the tag, so `?tag=x&page=2` is `/tag/x/page/2`.
  // No fallback: a page that does not exist is a 404.
  for (const route of ENDPOINTS) {
    if (!route.paged) continue;
    for (const url of pathForms({ ...route, paged: undefined }))
      queries.push({ routeId: route.id, url, param: "page", target: pagePath(url), fallback: null });
  }
  const pages = PAGE_ROUTES.map((p) => ({
    routeId: p.id,
    url: p.path,
    file: `${p.path}index.html`,
    cache: pageCache(p),
    tags: purgeTagsOf({ ...endpoint(p.follows), surface: "public" }),
  }));
  const statics = STATIC_DIRS.flatMap((d) =>
    Object.entries(d.types).map(([ext, type]) => ({
      prefix: d.prefix,
      ext,
      type,
      cors: d.cors,
      cache: d.cache ?? ("asset" as const),
      tags: ["build-api-assets", SITE_TAG],
    })),
  );
  return {
    paths,
    queries,
    files: [{ url: OPENAPI_PATH, cache: "meta", cors: false, tags: ["build-api-meta", SITE_TAG] }],
    pages,
    statics,
    facts,
    base: facts.basePath ?? "",
  };
}

/**
 * The rules as a host that serves files by URL reads them (nginx, `_headers`, `_redirects`):
 * every URL and file under the base path, since there the snapshot is the folder named by the
 * base path inside the document root (docs/guide/subpath.md). The same rules at the root.
 */
export function servedUnder(rules: HostRules): HostRules {
  const b = rules.base;
  if (!b) return rules;
  const at = (u: string): string => b + u;
  return {
    ...rules,
    paths: rules.paths.map((r) => ({ ...r, url: at(r.url), file: at(r.file) })),
    queries: rules.queries.map((q) => ({
      ...q,
      url: at(q.url),
      target: at(q.target),
      fallback: q.fallback === null ? null : at(q.fallback),
    })),
    files: rules.files.map((f) => ({ ...f, url: at(f.url) })),
    pages: rules.pages.map((p) => ({ ...p, url: at(p.url), file: at(p.file) })),
    statics: rules.statics.map((s) => ({ ...s, prefix: at(s.prefix) })),
    // Link header keys are snapshot files: under the base like every file here.
    facts: {
      ...rules.facts,
      links: Object.fromEntries(Object.entries(rules.facts.links).map(([f, l]) => [`${b.slice(1)}/${f}`, l])),
    },
  };
}

/** The cache policy of the archive class, which replaces a tournament answer's own. */
export const ARCHIVE_CACHE_CONTROL = CACHE_POLICY.archive;

/** Whether a rule's answers belong to one tournament (they may take the archive class). */
export function isTournamentRule(rule: { tags: readonly string[] }): boolean {
  return rule.tags[0] === "tournament-{id}";
}

/**
 * The headers of one answer beyond its rule's: the Link header of a paged list's file, and the
 * archive cache class for an archived tournament's answers.
 */
export function instanceHeaders(
  facts: EdgeFacts,
  archived: ReadonlySet<string>,
  headers: Headers,
  file: string,
  id: string | undefined,
): Headers {
  let out = headers;
  if (id !== undefined && archived.has(id))
    out = out.map(([k, v]) => [k, k === "Cache-Control" ? ARCHIVE_CACHE_CONTROL : v]);
  const link = facts.links[file];
  return link === undefined ? out : [...out, ["Link", link]];
}

/** Parameter names of a URL pattern, in order. */
export function paramsOf(url: string): ParamName[] {
  return [...url.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as ParamName);
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^$()|[\]\\{}]/g, "\\$&");
}

/**
 * A URL pattern as a regular expression source, one capture per parameter, unanchored. With
 * `named`, each capture is named (nginx reads named captures as variables).
 */
export function urlPatternSource(url: string, named?: (param: ParamName) => string): string {
  return url
    .split(/(\{\w+\})/)
    .map((part) => {
      const m = /^\{(\w+)\}$/.exec(part);
      if (!m) return escapeRegExp(part);
      const name = m[1] as ParamName;
      return `(${named ? `?<${named(name)}>` : ""}${SEGMENT_PATTERN[name]})`;
    })
    .join("");
}

/** An anchored regular expression source for an API URL pattern; a trailing slash is optional. */
export function urlRegExpSource(url: string, named?: (param: ParamName) => string): string {
  return `^${urlPatternSource(url, named)}/?$`;
}

/** A page URL exactly (with its trailing slash). */
export function pageRegExpSource(rule: PageRule, named?: (param: ParamName) => string): string {
  return `^${urlPatternSource(rule.url, named)}$`;
}

/** The page URL without its trailing slash (null for `/`): it redirects to the slash form. */
export function pageBareRegExpSource(rule: PageRule): string | null {
  return rule.url === "/" ? null : `^${urlPatternSource(rule.url.slice(0, -1))}$`;
}

export function staticRegExpSource(rule: StaticRule): string {
  return `^${escapeRegExp(rule.prefix)}${STATIC_NAME}\\.${escapeRegExp(rule.ext)}$`;
}

type Headers = [string, string][];

/**
 * The Content-Security-Policy of every HTML page: only the site's own files (the stylesheets and
 * the script under /assets/), the live page's fetch of its own JSON, and the error page's inline
 * style by its hash; no frame may hold a page. See docs/design/lists-and-caching.md.
 */
export const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  `style-src 'self' '${ERROR_PAGE_STYLE_HASH}'`,
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

/** Everything else (JSON, scripts, stylesheets) is never a document that runs or shows anything. */
export const OTHER_CSP = "default-src 'none'; frame-ancestors 'none'";

/** Sent with every answer, errors included; the CSP depends on whether the body is a page. */
export function securityHeaders(html: boolean): Headers {
  return [
    ["Content-Security-Policy", html ? PAGE_CSP : OTHER_CSP],
    ["X-Frame-Options", "DENY"],
    ["Referrer-Policy", "no-referrer"],
  ];
}

function withCommon(type: string, cacheControl: string, cors: boolean): Headers {
  const h: Headers = [
    ["Content-Type", type],
    ["Cache-Control", cacheControl],
    ["X-Content-Type-Options", "nosniff"],
    ...securityHeaders(type === HTML_TYPE),
  ];
  if (cors) h.push(["Access-Control-Allow-Origin", "*"]);
  return h;
}

/** The response headers of a JSON body of this rule; tag values hold `{param}` templates. */
export function responseHeaders(rule: { cache: CacheClass; cors: boolean; tags: string[] }): Headers {
  return [...withCommon(JSON_TYPE, CACHE_POLICY[rule.cache], rule.cors), ...tagHeaders(rule.tags)];
}

export function pageHeaders(rule: PageRule): Headers {
  return [...withCommon(HTML_TYPE, CACHE_POLICY[rule.cache], false), ...tagHeaders(rule.tags)];
}

export function staticHeaders(rule: StaticRule): Headers {
  return [...withCommon(rule.type, CACHE_POLICY[rule.cache], rule.cors), ...tagHeaders(rule.tags)];
}

/** An error answer: the problem JSON under /api (CORS on club paths), the HTML page elsewhere. */
export function errorHeaders(json: boolean, cors: boolean): Headers {
  return [
    ...withCommon(json ? JSON_TYPE : HTML_TYPE, ERROR_CACHE_POLICY, cors),
    ...tagHeaders([ERROR_TAG, SITE_TAG]),
  ];
}
