// What a request answers, from the rule list alone: a file of the snapshot with its headers, a
// redirect to a page's slash form, or an error. The preview serves with it and the probe predicts
// with it; the Cloudflare worker (hosts/cloudflare-worker.ts) runs the same steps over the same
// rules, generated into its tables. Anything no rule names is a 404: that is the allow-list.
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
  | { kind: "file"; file: string; headers: [string, string][] }
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
 * Resolves a GET of `pathname` (as sent, percent-encoded) with its query. `exists(file)` says
 * whether the snapshot holds a regular file at that path (relative, no leading slash).
 */
export function resolveRequest(
  rules: HostRules,
  pathname: string,
  search: URLSearchParams,
  exists: (file: string) => boolean,
): Resolution {
  const c = compile(rules);
  const found = (file: string, headers: [string, string][]): Resolution =>
    exists(file) ? { kind: "file", file, headers } : errorResolution(404, pathname);
  /** A file of a rule: with its purge tags filled, its Link header, its archive class. */
  const answer = (
    file: string,
    r: { headers: [string, string][]; names: string[]; tournament: boolean },
    m: RegExpExecArray,
  ): Resolution => {
    const id = r.tournament ? m[r.names.indexOf("id") + 1] : undefined;
    return found(
      file,
      instanceHeaders(rules.facts, c.archived, fillHeaders(r.headers, r.names, m), file, id),
    );
  };
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
    if (target && exists(`${target.slice(1)}/index.json`)) path = target;
    // The list no tag matches is empty: it has no numbered page.
    else if (q.fallback && search.get("page") === null) {
      const file = `${fill(q.fallback, q.names, m, {}).slice(1)}/index.json`;
      return answer(file, { headers: q.fallbackHeaders, names: q.listNames, tournament: false }, m);
    } else return errorResolution(404, pathname);
  }

  for (const p of c.paths) {
    const m = p.re.exec(path);
    if (m) return answer(`${path.replace(/\/$/, "").slice(1)}/index.json`, p, m);
  }
  for (const f of c.files) if (f.url === path) return found(f.url.slice(1), f.headers);
  for (const p of c.pages) {
    const m = p.re.exec(path);
    if (m) return answer(`${path.slice(1)}index.html`, p, m);
    if (p.bare?.test(path)) {
      if (!exists(`${path.slice(1)}/index.html`)) return errorResolution(404, pathname);
      const query = search.toString();
      return { kind: "redirect", location: `${path}/${query ? `?${query}` : ""}` };
    }
  }
  for (const s of c.statics) if (s.re.test(path)) return found(path.slice(1), s.headers);
  return errorResolution(404, pathname);
}
