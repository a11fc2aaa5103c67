// What a request answers, from the rule list alone: a file of the snapshot with its headers, a
// redirect to a page's slash form, or an error. Anything no rule names is a 404: that is the
// allow-list. The steps are written once, as a generator that asks whether a file exists and is
// told; resolveRequest answers it synchronously (the preview, over the file system) and
// resolveRequestAsync asynchronously (edge code, over a store it asks through fetch: the
// Cloudflare worker is this module bundled, src/hosting/edge/).
import { CORS_PREFIX, isApiPath } from "../routes/urls.ts";
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

/** The decision steps: yields each question, takes the answer, returns the resolution. */
function* steps(
  rules: HostRules,
  pathname: string,
  rawSearch: string,
): Generator<FileQuery, Resolution, boolean> {
  const c = compile(rules);
  const search = new URLSearchParams(rawSearch);
  function* found(file: string, url: string, headers: [string, string][]) {
    const there: boolean = yield { file, url };
    return there ? { kind: "file" as const, file, url, headers } : errorResolution(404, pathname);
  }
  /** A file of a rule: with its purge tags filled, its Link header, its archive class. */
  function answer(
    file: string,
    url: string,
    r: { headers: [string, string][]; names: string[]; tournament: boolean },
    m: RegExpExecArray,
  ) {
    const id = r.tournament ? m[r.names.indexOf("id") + 1] : undefined;
    return found(
      file,
      url,
      instanceHeaders(rules.facts, c.archived, fillHeaders(r.headers, r.names, m), file, id),
    );
  }
  // Query forms, in the order of the rules, each on the path the ones before it made:
  // `<list>?tag=x&page=2` is `<list>/tag/x`, then `<list>/tag/x/page/2`.
  let path = pathname;
  for (const q of c.queries) {
    const m = q.re.exec(path);
    const value = search.get(q.param);
    if (!m || value === null) continue;
    // An empty value (`?tag=`, `?tag`) names no tag and no language: a 404, never the list.
    if (value === "") return errorResolution(404, pathname);
    const target = q.value.test(value) ? fill(q.target, q.names, m, { [q.param]: value }) : null;
    if (target && (yield { file: `${target.slice(1)}/index.json`, url: target })) path = target;
    // The list no tag matches is empty: it has no numbered page.
    else if (q.fallback && search.get("page") === null) {
      const url = fill(q.fallback, q.names, m, {});
      const list = { headers: q.fallbackHeaders, names: q.listNames, tournament: false };
      return yield* answer(`${url.slice(1)}/index.json`, url, list, m);
    } else return errorResolution(404, pathname);
  }

  for (const p of c.paths) {
    const m = p.re.exec(path);
    if (!m) continue;
    const url = path.replace(/\/$/, "");
    return yield* answer(`${url.slice(1)}/index.json`, url, p, m);
  }
  for (const f of c.files) if (f.url === path) return yield* found(f.url.slice(1), f.url, f.headers);
  for (const p of c.pages) {
    const m = p.re.exec(path);
    if (m) return yield* answer(`${path.slice(1)}index.html`, path, p, m);
    if (p.bare?.test(path)) {
      if (!(yield { file: `${path.slice(1)}/index.html`, url: `${path}/` }))
        return errorResolution(404, pathname);
      // The query as it was sent, as nginx's $is_args$args and the hosts' own redirects keep it.
      return { kind: "redirect", location: `${path}/${rawSearch}` };
    }
  }
  for (const s of c.statics) if (s.re.test(path)) return yield* found(path.slice(1), path, s.headers);
  return errorResolution(404, pathname);
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
  const it = steps(rules, pathname, search);
  for (let n = it.next(); ;) {
    if (n.done) return n.value;
    n = it.next(exists(n.value.file, n.value.url));
  }
}

/** resolveRequest for a store that answers asynchronously (edge code asking its assets). */
export async function resolveRequestAsync(
  rules: HostRules,
  pathname: string,
  search: string,
  exists: (file: string, url: string) => Promise<boolean>,
): Promise<Resolution> {
  const it = steps(rules, pathname, search);
  for (let n = it.next(); ;) {
    if (n.done) return n.value;
    n = it.next(await exists(n.value.file, n.value.url));
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
