// The URL paths and purge tags a CDN must purge when snapshot files change: each file mapped,
// through the route table's model of paths (hosting/rules.ts), to every URL that serves its bytes
// and to the most specific purge tag those answers carry. Pure.
import { NOT_FOUND_FILE, NOT_FOUND_PAGE } from "../output/problem.ts";
import { ERROR_TAG, hostRules, SITE_TAG, urlPatternSource, type HostRules } from "./rules.ts";
import { href, type ParamName } from "../routes/urls.ts";

/** At most this many URL paths are listed; `count` says how many there are. */
export const MAX_CHANGED_URLS = 1000;

export interface ChangedUrls {
  /** How many URL paths serve the changed files listed (all of them, not only those listed). */
  count: number;
  /** Sorted, without duplicates; at most MAX_CHANGED_URLS. */
  paths: string[];
  /** False when the publish report listed only some of the changed files. */
  complete: boolean;
}

interface Matcher {
  re: RegExp;
  params: ParamName[];
  /** The URL paths, from the file's parameters and its own URL path (`/` + relPath). */
  urls: (p: Partial<Record<ParamName, string>>, file: string) => string[];
  /** The most specific purge tag of the answers that send this file, a `{param}` template. */
  tag: string;
}

function fill(pattern: string, p: Partial<Record<ParamName, string>>): string {
  return pattern.replace(/\{(\w+)\}/g, (_, name: ParamName) => p[name] ?? "");
}

function paramNames(pattern: string): ParamName[] {
  return [...pattern.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as ParamName);
}

function matchers(rules: HostRules): Matcher[] {
  const list: Matcher[] = [];
  for (const rule of rules.paths) {
    // A query form whose answer is this file: `<route>?tag=v` is `<route>/tag/v/index.json`.
    const queries = rules.queries.filter((q) => q.target === rule.url);
    list.push({
      re: new RegExp(`^${urlPatternSource(rule.file)}$`),
      params: paramNames(rule.file),
      urls: (p) => {
        const url = fill(rule.url, p);
        const out = [url, `${url}/`];
        for (const q of queries) out.push(`${fill(q.url, p)}?${q.param}=${p[q.param] ?? ""}`);
        return out;
      },
      tag: rule.tags[0]!,
    });
  }
  // The answer to an unknown tag: none of its URLs can be listed (any unknown value), its tag can.
  for (const q of rules.queries) {
    if (!q.fallback) continue;
    const file = `${q.fallback}/index.json`;
    const tag = rules.paths.find((r) => r.url === q.url)!.tags[0]!;
    list.push({
      re: new RegExp(`^${urlPatternSource(file)}$`),
      params: paramNames(file),
      urls: () => [],
      tag,
    });
  }
  for (const page of rules.pages) {
    list.push({
      re: new RegExp(`^${urlPatternSource(page.file)}$`),
      params: paramNames(page.file),
      urls: (p) => [fill(page.url, p)],
      tag: page.tags[0]!,
    });
  }
  for (const file of rules.files)
    list.push({
      re: new RegExp(`^${urlPatternSource(file.url)}$`),
      params: [],
      urls: () => [file.url],
      tag: file.tags[0]!,
    });
  for (const s of rules.statics) {
    const re = new RegExp(`^${s.prefix.replace(/[.*+?^$()|[\]\\{}]/g, "\\$&")}.+\\.${s.ext}$`);
    list.push({ re, params: [], urls: (_p, file) => [file], tag: s.tags[0]! });
  }
  return list;
}

let cached: Matcher[] | null = null;

/** The matcher of a snapshot file with its parameters, or null (internal and host files). */
function matchFile(relPath: string): { m: Matcher; p: Partial<Record<ParamName, string>> } | null {
  cached ??= matchers(hostRules());
  const abs = `/${relPath}`;
  for (const m of cached) {
    const hit = m.re.exec(abs);
    if (!hit) continue;
    const p: Partial<Record<ParamName, string>> = {};
    m.params.forEach((name, i) => (p[name] = hit[i + 1]));
    return { m, p };
  }
  return null;
}

/** The URL paths that serve the snapshot file `relPath` (none for internal and host files). */
export function urlsOfFile(relPath: string): string[] {
  const hit = matchFile(relPath);
  return hit ? hit.m.urls(hit.p, `/${relPath}`) : [];
}

/**
 * Host configuration files: a change to one changes the headers of every answer. The build's
 * bookkeeping files are served by no host and change no answer.
 */
const HOST_CONFIG_FILES = new Set(["_headers", "_redirects", "_worker.js", "nginx.conf", "nginx-http.conf"]);

/**
 * The purge tag a CDN must forget when `relPath` changes: the most specific tag of the answers
 * that send it (a tournament, a list, the assets), the error tag for the error bodies, the site's
 * tag for a host configuration file; null for bookkeeping files.
 */
export function purgeTagOfFile(relPath: string): string | null {
  if (relPath === NOT_FOUND_FILE || relPath === NOT_FOUND_PAGE) return ERROR_TAG;
  if (HOST_CONFIG_FILES.has(relPath)) return SITE_TAG;
  const hit = matchFile(relPath);
  return hit ? fill(hit.m.tag, hit.p) : null;
}

export interface ChangedTags {
  /** Sorted, without duplicates. With SITE_TAG present, purging it alone is enough. */
  tags: string[];
  /** False when the publish report listed only some of the changed files: purge SITE_TAG. */
  complete: boolean;
}

/** The changed files of a publish report → the purge tags to purge (not capped: tags are few). */
export function changedTags(changed: { count: number; paths: readonly string[] }): ChangedTags {
  const all = new Set<string>();
  for (const file of changed.paths) {
    const tag = purgeTagOfFile(file);
    if (tag) all.add(tag);
  }
  return { tags: [...all].sort(), complete: changed.count <= changed.paths.length };
}

/**
 * The changed files of a publish report → the URL paths to purge, capped; under the snapshot's
 * base path (routes/urls.ts href, "" at the root), where the host serves them.
 */
export function changedUrls(
  changed: { count: number; paths: readonly string[] },
  basePath = "",
): ChangedUrls {
  const all = new Set<string>();
  for (const file of changed.paths) for (const url of urlsOfFile(file)) all.add(href(basePath, url));
  const sorted = [...all].sort();
  return {
    count: sorted.length,
    paths: sorted.slice(0, MAX_CHANGED_URLS),
    complete: changed.count <= changed.paths.length,
  };
}
