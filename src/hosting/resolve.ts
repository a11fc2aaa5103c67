// What a request answers, from the rule list alone: a file of the snapshot with its headers, a
// redirect to a page's slash form, or an error. Anything no rule names is a 404: that is the
// allow-list. The steps are written once, as a plain function that asks `exists` whether a file
// is there: resolveRequest answers it synchronously (the preview, over the file system; the
// CloudFront Function, from what the deploy wrote into it) and resolveRequestAsync asynchronously
// by running the steps again with each answer learnt (edge workers over a store they ask through
// fetch or a bucket binding: src/hosting/edge/, src/deploy/edge/). Not a generator: CloudFront
// Functions (cloudfront-js-2.0) do not support generators, and esbuild cannot lower them.
import { CORS_PREFIX, isApiPath } from "../routes/urls.ts";
import type { ErrorStatus } from "../output/problem.ts";
import {
  errorHeaders,
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
  }[];
  paths: { re: RegExp; headers: [string, string][] }[];
  files: { url: string; headers: [string, string][] }[];
  pages: { re: RegExp; bare: RegExp | null; headers: [string, string][] }[];
  statics: { re: RegExp; headers: [string, string][] }[];
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
      })),
      paths: rules.paths.map((r) => ({
        re: new RegExp(urlRegExpSource(r.url)),
        headers: responseHeaders(r),
      })),
      files: rules.files.map((f) => ({ url: f.url, headers: responseHeaders(f) })),
      pages: rules.pages.map((p) => {
        const bare = pageBareRegExpSource(p);
        return {
          re: new RegExp(pageRegExpSource(p)),
          bare: bare ? new RegExp(bare) : null,
          headers: pageHeaders(p),
        };
      }),
      statics: rules.statics.map((s) => ({
        re: new RegExp(staticRegExpSource(s)),
        headers: staticHeaders(s),
      })),
    };
    cache.set(rules, c);
  }
  return c;
}

export function errorResolution(status: ErrorStatus, pathname: string): ErrorAnswer {
  // Only a 404 outside the API is an HTML page; every other error is the problem JSON.
  const json = status !== 404 || isApiPath(pathname);
  return { kind: "error", status, json, headers: errorHeaders(json, pathname.startsWith(CORS_PREFIX)) };
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

/** The decision steps: asks `exists` about each file it needs and returns the resolution. */
export function resolveWith(
  rules: HostRules,
  pathname: string,
  query: QueryView,
  exists: (q: FileQuery) => boolean,
): Resolution {
  const c = compile(rules);
  let path = pathname;
  for (const q of c.queries) {
    const m = q.re.exec(pathname);
    const value = query.get(q.param);
    if (!m || value === null) continue;
    const target = q.value.test(value) ? fill(q.target, q.names, m, { [q.param]: value }) : null;
    if (target && exists({ file: `${target.slice(1)}/index.json`, url: target })) path = target;
    else if (q.fallback) path = fill(q.fallback, q.names, m, {});
    else return errorResolution(404, pathname);
    break;
  }
  const found = (file: string, url: string, headers: [string, string][]): Resolution =>
    exists({ file, url }) ? { kind: "file", file, url, headers } : errorResolution(404, pathname);

  for (const p of c.paths) {
    if (!p.re.test(path)) continue;
    const url = path.replace(/\/$/, "");
    return found(`${url.slice(1)}/index.json`, url, p.headers);
  }
  for (const f of c.files) if (f.url === path) return found(f.url.slice(1), f.url, f.headers);
  for (const p of c.pages) {
    if (p.re.test(path)) return found(`${path.slice(1)}index.html`, path, p.headers);
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
  return resolveWith(rules, pathname, queryView(search), (q) => exists(q.file, q.url));
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
    const r = resolveWith(rules, pathname, query, (q) => {
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
