// The URL paths a CDN must purge when snapshot files change: each file mapped, through the route
// table's model of paths (hosting/rules.ts), to every URL that serves its bytes. Pure.
import { hostRules, urlPatternSource, type HostRules } from "./rules.ts";
import type { ParamName } from "../routes/urls.ts";

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
    });
  }
  for (const page of rules.pages) {
    list.push({
      re: new RegExp(`^${urlPatternSource(page.file)}$`),
      params: paramNames(page.file),
      urls: (p) => [fill(page.url, p)],
    });
  }
  for (const file of rules.files)
    list.push({ re: new RegExp(`^${urlPatternSource(file.url)}$`), params: [], urls: () => [file.url] });
  for (const s of rules.statics) {
    const re = new RegExp(`^${s.prefix.replace(/[.*+?^$()|[\]\\{}]/g, "\\$&")}.+\\.${s.ext}$`);
    list.push({ re, params: [], urls: (_p, file) => [file] });
  }
  return list;
}

let cached: Matcher[] | null = null;

/** The URL paths that serve the snapshot file `relPath` (none for internal and host files). */
export function urlsOfFile(relPath: string): string[] {
  cached ??= matchers(hostRules());
  const abs = `/${relPath}`;
  for (const m of cached) {
    const hit = m.re.exec(abs);
    if (!hit) continue;
    const p: Partial<Record<ParamName, string>> = {};
    m.params.forEach((name, i) => (p[name] = hit[i + 1]));
    return m.urls(p, abs);
  }
  return [];
}

/** The changed files of a publish report → the URL paths to purge, capped. */
export function changedUrls(changed: { count: number; paths: readonly string[] }): ChangedUrls {
  const all = new Set<string>();
  for (const file of changed.paths) for (const url of urlsOfFile(file)) all.add(url);
  const sorted = [...all].sort();
  return {
    count: sorted.length,
    paths: sorted.slice(0, MAX_CHANGED_URLS),
    complete: changed.count <= changed.paths.length,
  };
}
