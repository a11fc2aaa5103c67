// What a request answers, from the rule list alone: a file of the snapshot with its headers, a
// redirect to a page's slash form, or an error. Anything no rule names is a 404: that is the
// allow-list. The steps are written once, as a plain function that asks `exists` whether a file
// is there: resolveRequest answers it synchronously (the preview, over the file system; the
// CloudFront Function, from what the deploy wrote into it) and resolveRequestAsync asynchronously
// by running the steps again with each answer learnt (edge workers over a store they ask through
// fetch or a bucket binding: src/hosting/hosts/*/runtime/). Not a generator: CloudFront
// Functions (cloudfront-js-2.0) do not support generators, and esbuild cannot lower them.
import { CORS_PREFIX, href, isApiPath } from "../routes/urls.ts";
import type { ErrorStatus } from "../output/problem.ts";
import {
  errorHeaders,
  fillHeaders,
  instanceHeaders,
  isTournamentRule,
  pageBareRegExpSource,
  pageHeaders,
  pageRegExpSource,
  paramsOf,
  responseHeaders,
  SEGMENT_PATTERN,
  staticHeaders,
  staticRegExpSource,
  urlRegExpSource,
  type HostRules,
} from "./rules.ts";

export interface ErrorAnswer {
  kind: "error";
  status: ErrorStatus;
  /** The problem JSON, or (a 404 outside the API) the HTML page. */
  json: boolean;
  headers: [string, string][];
  /** Where the HTML page's "All tournaments" link goes under a base path (absent: "/"). */
  home?: string;
}

export type Resolution =
  /** `file` relative to the snapshot; `url` the path that serves it (`/x` for `x/index.json`). */
  | { kind: "file"; file: string; url: string; headers: [string, string][] }
  | { kind: "redirect"; location: string }
  | ErrorAnswer;

interface Compiled {
  queries: {
    re: RegExp;
    names: string[];
    param: string;
    value: RegExp;
    target: string;
    fallback: string | null;
    /** The headers of the list the fallback answers for (its own path is no URL). */
    fallbackHeaders: [string, string][];
    /** The list rule's parameter names (its tags are filled from the list's own URL). */
    listNames: string[];
  }[];
  paths: { re: RegExp; names: string[]; headers: [string, string][]; tournament: boolean }[];
  files: { url: string; headers: [string, string][] }[];
  pages: {
    re: RegExp;
    names: string[];
    bare: RegExp | null;
    headers: [string, string][];
    tournament: boolean;
  }[];
  statics: { re: RegExp; headers: [string, string][] }[];
  archived: Set<string>;
}

const cache = new WeakMap<HostRules, Compiled>();

function compile(rules: HostRules): Compiled {
  let c = cache.get(rules);
  if (!c) {
    c = {
      queries: rules.queries.map((q) => ({
        re: new RegExp(urlRegExpSource(q.url)),
        names: paramsOf(q.url),
        param: q.param,
        value: new RegExp(`^(?:${SEGMENT_PATTERN[q.param]})$`),
        target: q.target,
        fallback: q.fallback,
        fallbackHeaders: responseHeaders(rules.paths.find((p) => p.url === q.url)!),
        listNames: paramsOf(q.url),
      })),
      paths: rules.paths.map((r) => ({
        re: new RegExp(urlRegExpSource(r.url)),
        names: paramsOf(r.url),
        headers: responseHeaders(r),
        tournament: isTournamentRule(r),
      })),
      files: rules.files.map((f) => ({ url: f.url, headers: responseHeaders(f) })),
      pages: rules.pages.map((p) => {
        const bare = pageBareRegExpSource(p);
        return {
          re: new RegExp(pageRegExpSource(p)),
          names: paramsOf(p.url),
          bare: bare ? new RegExp(bare) : null,
          headers: pageHeaders(p),
          tournament: isTournamentRule(p),
        };
      }),
      statics: rules.statics.map((s) => ({
        re: new RegExp(staticRegExpSource(s)),
        headers: staticHeaders(s),
      })),
      archived: new Set(rules.facts.archived),
    };
    cache.set(rules, c);
  }
  return c;
}

/**
 * The site path of a request path under the base path (routes/urls.ts): `/chess/api/x` is
 * `/api/x` under `/chess`; null when the path is outside it. The base itself is no site path.
 */
export function sitePathOf(base: string, pathname: string): string | null {
  return !base ? pathname : pathname.startsWith(`${base}/`) ? pathname.slice(base.length) : null;
}

export function errorResolution(status: ErrorStatus, pathname: string): ErrorAnswer {
  // Only a 404 outside the API is an HTML page; every other error is the problem JSON.
  const json = status !== 404 || isApiPath(pathname);
  return { kind: "error", status, json, headers: errorHeaders(json, pathname.startsWith(CORS_PREFIX)) };
}

/** errorResolution for a request path under `base` (the snapshot's base path; "" at the root). */
export function errorUnderBase(status: ErrorStatus, pathname: string, base: string): ErrorAnswer {
  if (!base) return errorResolution(status, pathname);
  return { ...errorResolution(status, sitePathOf(base, pathname) ?? "/"), home: href(base, "/") };
}

function fill(template: string, names: string[], m: RegExpExecArray, extra: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, n: string) => extra[n] ?? m[names.indexOf(n) + 1]!);
}

/**
 * A question the resolver asks: does the snapshot hold `file` (relative, no leading slash), which
 * a host that serves by URL reaches at `url` (an API path form, a page's slash URL, or the file)?
 */
export interface FileQuery {
  file: string;
  url: string;
}

/** The query of a request, as the steps read it: its first value by name, and its raw form. */
export interface QueryView {
  get(name: string): string | null;
  /** "" or "?..." as sent: a redirect keeps it. */
  raw: string;
}

/**
 * Under a base path (rules.base, issue 24.7) a request path is read as base + site path: the steps
 * (resolveWith) run on the site path, and the URLs they answer with (a redirect, the `url` a host
 * fetches by) are under the base again; files stay relative to the snapshot. The base without its
 * slash redirects to the index; any path outside it is a 404. Kept apart from resolveWith so that
 * code which serves the root only (the CloudFront Function, within its 10 KB) does not carry it.
 */
export function resolveUnderBase(
  rules: HostRules,
  pathname: string,
  query: QueryView,
  exists: (q: FileQuery) => boolean,
): Resolution {
  const base = rules.base;
  if (!base) return resolveWith(rules, pathname, query, exists);
  if (pathname === base) return { kind: "redirect", location: `${base}/${query.raw}` };
  const site = sitePathOf(base, pathname);
  if (site === null) return errorUnderBase(404, pathname, base);
  const r = resolveWith(rules, site, query, (q) => exists({ file: q.file, url: href(base, q.url) }));
  if (r.kind === "redirect") return { kind: "redirect", location: href(base, r.location) };
  if (r.kind === "file") return { ...r, url: href(base, r.url) };
  return errorUnderBase(r.status, pathname, base);
}

/** The decision steps: asks `exists` about each file it needs and returns the resolution. */
export function resolveWith(
  rules: HostRules,
  pathname: string,
  query: QueryView,
  exists: (q: FileQuery) => boolean,
): Resolution {
  const c = compile(rules);
  const found = (file: string, url: string, headers: [string, string][]): Resolution =>
    exists({ file, url }) ? { kind: "file", file, url, headers } : errorResolution(404, pathname);
  /** A file of a rule: with its purge tags filled, its Link header, its archive class. */
  const answer = (
    file: string,
    url: string,
    r: { headers: [string, string][]; names: string[]; tournament: boolean },
    m: RegExpExecArray,
  ): Resolution => {
    const id = r.tournament ? m[r.names.indexOf("id") + 1] : undefined;
    return found(
      file,
      url,
      instanceHeaders(rules.facts, c.archived, fillHeaders(r.headers, r.names, m), file, id),
    );
  };
  // Query forms, in the order of the rules, each on the path the ones before it made:
  // `<list>?tag=x&page=2` is `<list>/tag/x`, then `<list>/tag/x/page/2`.
  let path = pathname;
  for (const q of c.queries) {
    const m = q.re.exec(path);
    const value = query.get(q.param);
    if (!m || value === null) continue;
    // An empty value (`?tag=`, `?tag`) names no tag and no language: a 404, never the list.
    if (value === "") return errorResolution(404, pathname);
    const target = q.value.test(value) ? fill(q.target, q.names, m, { [q.param]: value }) : null;
    if (target && exists({ file: `${target.slice(1)}/index.json`, url: target })) path = target;
    // The list no tag matches is empty: it has no numbered page.
    else if (q.fallback && query.get("page") === null) {
      const url = fill(q.fallback, q.names, m, {});
      const list = { headers: q.fallbackHeaders, names: q.listNames, tournament: false };
      return answer(`${url.slice(1)}/index.json`, url, list, m);
    } else return errorResolution(404, pathname);
  }

  for (const p of c.paths) {
    const m = p.re.exec(path);
    if (!m) continue;
    const url = path.replace(/\/$/, "");
    return answer(`${url.slice(1)}/index.json`, url, p, m);
  }
  for (const f of c.files) if (f.url === path) return found(f.url.slice(1), f.url, f.headers);
  for (const p of c.pages) {
    const m = p.re.exec(path);
    if (m) return answer(`${path.slice(1)}index.html`, path, p, m);
    if (p.bare?.test(path)) {
      if (!exists({ file: `${path.slice(1)}/index.html`, url: `${path}/` }))
        return errorResolution(404, pathname);
      // The query as it was sent, as nginx's $is_args$args and the hosts' own redirects keep it.
      return { kind: "redirect", location: `${path}/${query.raw}` };
    }
  }
  for (const s of c.statics) if (s.re.test(path)) return found(path.slice(1), path, s.headers);
  return errorResolution(404, pathname);
}

function queryView(search: string): QueryView {
  const params = new URLSearchParams(search);
  return { get: (name) => params.get(name), raw: search };
}

/**
 * Resolves a GET of `pathname` (as sent, percent-encoded) with its query (`search`: "" or "?...",
 * as sent). `exists(file, url)` says whether the snapshot holds a regular file at that path
 * (relative, no leading slash).
 */
export function resolveRequest(
  rules: HostRules,
  pathname: string,
  search: string,
  exists: (file: string, url: string) => boolean,
): Resolution {
  return resolveUnderBase(rules, pathname, queryView(search), (q) => exists(q.file, q.url));
}

/**
 * resolveRequest for a store that answers asynchronously (edge code asking its assets): the steps
 * run with what is known so far; the first file they asked about and nobody knew is asked, and
 * they run again. A request asks about at most three files (a query target, a page's slash form
 * or the file itself), so this runs the (cheap, compiled) steps at most four times.
 */
export async function resolveRequestAsync(
  rules: HostRules,
  pathname: string,
  search: string,
  exists: (file: string, url: string) => Promise<boolean>,
): Promise<Resolution> {
  const query = queryView(search);
  const known = new Map<string, boolean>();
  for (;;) {
    let unknown: FileQuery | undefined;
    const r = resolveUnderBase(rules, pathname, query, (q) => {
      const answer = known.get(q.file);
      if (answer === undefined) unknown ??= q;
      return answer ?? false;
    });
    if (!unknown) return r;
    known.set(unknown.file, await exists(unknown.file, unknown.url));
  }
}

/**
 * A malformed request target: not decodable, or naming a character no snapshot path holds. Every
 * server refuses it with a 400 before resolving.
 */
export function malformedPath(pathname: string): boolean {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return true;
  }
  // eslint-disable-next-line no-control-regex
  return /[\u0000-\u001f\u007f\\]/.test(decoded);
}
