// serve.json for `npx serve dist` (serve-handler), for whoever serves the snapshot with it; the
// preview no longer uses it (it resolves every request from the rule list itself, and serve
// cannot refuse internal files: see docs/deployment.md). Rewrites chain in serve-handler, so every
// parameter is constrained to one segment without a dot: the rewritten ".../index.json" can then
// never match another rule. Symlinks are never followed.
import { CACHE_POLICY, ERROR_CACHE_POLICY } from "../../routes/cache.ts";
import { NOT_FOUND_FILE } from "../../output/problem.ts";
import { securityHeaders, type HostRules } from "../rules.ts";

const SEGMENT = "([^/.]+)";

function toServePattern(url: string): string {
  return url.replace(/\{(\w+)\}/g, (_, name: string) => `:${name}${SEGMENT}`);
}

function toServeTarget(url: string): string {
  return url.replace(/\{(\w+)\}/g, (_, name: string) => `:${name}`);
}

/** Header sources match the resolved file path relative to the root, without a leading slash. */
function toFileGlob(file: string): string {
  return file.slice(1).replace(/\{\w+\}/g, "*");
}

export function renderServeJson(rules: HostRules): string {
  const headers: { source: string; headers: { key: string; value: string }[] }[] = [
    {
      source: "**/*.json",
      headers: [
        { key: "Content-Type", value: "application/json; charset=utf-8" },
        { key: "X-Content-Type-Options", value: "nosniff" },
        ...securityHeaders(false).map(([key, value]) => ({ key, value })),
      ],
    },
    {
      source: "**/*.html",
      headers: securityHeaders(true).map(([key, value]) => ({ key, value })),
    },
    {
      source: "{assets,embed}/**",
      headers: securityHeaders(false).map(([key, value]) => ({ key, value })),
    },
    { source: NOT_FOUND_FILE, headers: [{ key: "Cache-Control", value: ERROR_CACHE_POLICY }] },
  ];
  for (const rule of [...rules.paths, ...rules.files.map((f) => ({ ...f, file: f.url }))]) {
    const h = [{ key: "Cache-Control", value: CACHE_POLICY[rule.cache] }];
    if (rule.cors) h.push({ key: "Access-Control-Allow-Origin", value: "*" });
    headers.push({ source: toFileGlob(rule.file), headers: h });
  }
  for (const p of rules.pages)
    headers.push({
      source: toFileGlob(p.file),
      headers: [{ key: "Cache-Control", value: CACHE_POLICY[p.cache] }],
    });
  for (const s of rules.statics) {
    const h = [{ key: "Cache-Control", value: CACHE_POLICY[s.cache] }];
    if (s.cors) h.push({ key: "Access-Control-Allow-Origin", value: "*" });
    headers.push({ source: `${s.prefix.slice(1)}**/*.${s.ext}`, headers: h });
  }
  const config = {
    cleanUrls: false,
    directoryListing: false,
    trailingSlash: undefined,
    etag: true,
    symlinks: false,
    rewrites: rules.paths.map((r) => ({ source: toServePattern(r.url), destination: toServeTarget(r.file) })),
    headers,
  };
  return JSON.stringify(config, null, 2) + "\n";
}
