// Conformance probe: sends the same requests to a served snapshot on any host and checks every
// answer against the snapshot's own files. Loopback only, bounded, one line per check.
//   node scripts/probe.ts --base http://127.0.0.1:PORT --dir dist [--host-kind KIND]
// A snapshot built with --base-path (its edge facts say so) is probed under that path: every
// check's URL is a site path that the probe requests, and expects redirects, at base path + it.
import { lstatSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { exitWithUsage, scriptArgs } from "./lib/args.ts";
import { CACHE_POLICY } from "../src/routes/cache.ts";
import { NOT_FOUND_FILE, NOT_FOUND_PAGE, problemJson } from "../src/output/problem.ts";
import {
  EDGE_FILE,
  hostRules,
  pageRegExpSource,
  staticRegExpSource,
  urlRegExpSource,
  type HostRules,
  type PathRule,
} from "../src/hosting/rules.ts";
import { resolveRequest } from "../src/hosting/resolve.ts";
import type { EdgeFacts } from "../src/routes/pagination.ts";
import { CORS_PREFIX, isApiPath } from "../src/routes/urls.ts";

export type HostKind = "preview" | "nginx" | "wrangler" | "netlify";

/** What each host is documented not to do (docs/guide/deploying.md); the probe skips only these. */
interface HostLimits {
  /** The host sets its own Cache-Control (netlify dev: `public, max-age=0`). */
  ownCacheControl: boolean;
  /** A 404 from a rewrite whose target is missing is the root 404.html, sent as text/html. */
  htmlNotFoundType: boolean;
  /** A query rewrite whose target is missing answers 404.html with status 200 (netlify). */
  queryMissingIs200: boolean;
  /** Files are also served under their own names (`.../index.json`, `.../index.html`). */
  servesFilesByName: boolean;
  /** netlify dev serves a page without its slash directly (production Netlify redirects: 301). */
  pageWithoutSlashServed: boolean;
  /** netlify dev serves what a symlink in the site points to (a deploy uploads it as a file). */
  followsSymlinks: boolean;
  /** netlify dev drops the connection on a malformed percent-escape. */
  dropsMalformedEscape: boolean;
  /** The server refuses a malformed path (`%00`) itself, with its own 400 page. */
  ownBadRequestPage: boolean;
  /** netlify dev answers POST itself: the file (200), or its own 405 text for a page. */
  ownMethodAnswer: boolean;
  /**
   * `_headers` names files, not instances: purge tags carry no URL parameter (no tournament,
   * club or list tag) and no tournament takes the archive class (Netlify empties its CDN on each
   * deploy anyway).
   */
  staticHeadersOnly: boolean;
}

const STRICT: HostLimits = {
  ownCacheControl: false,
  htmlNotFoundType: false,
  queryMissingIs200: false,
  servesFilesByName: false,
  pageWithoutSlashServed: false,
  followsSymlinks: false,
  dropsMalformedEscape: false,
  ownBadRequestPage: false,
  ownMethodAnswer: false,
  staticHeadersOnly: false,
};

const LIMITS: Record<HostKind, HostLimits> = {
  preview: STRICT,
  // nginx refuses `%00` itself, but its error_page sends the 400 problem body (nginx.conf).
  nginx: STRICT,
  // The generated _worker.js answers every request, so wrangler's own ACAO * is not added.
  wrangler: STRICT,
  netlify: {
    ownCacheControl: true,
    htmlNotFoundType: true,
    queryMissingIs200: true,
    servesFilesByName: true,
    pageWithoutSlashServed: true,
    followsSymlinks: true,
    dropsMalformedEscape: true,
    ownBadRequestPage: true,
    ownMethodAnswer: true,
    staticHeadersOnly: true,
  },
};

const MAX_REQUESTS = 3000;
const TIMEOUT_MS = 10_000;
const CONCURRENCY = 6;

interface Snapshot {
  dir: string;
  /** URL path (no trailing slash) → file text, for every `<url>/index.json` under api/. */
  bodies: Map<string, string>;
  /** Every other file and symlink of the snapshot, relative, with its bytes (null: a symlink). */
  files: Map<string, Buffer | null>;
  notFound: string;
  notFoundPage: string;
  /** The rules with this snapshot's edge facts (Link headers, archived tournaments). */
  rules: HostRules;
}

/** Every file under dir (symlinks listed, never followed). */
function walk(dir: string, rel = ""): string[] {
  const out: string[] = [];
  for (const name of readdirSync(path.join(dir, rel)).sort()) {
    const r = rel ? `${rel}/${name}` : name;
    if (lstatSync(path.join(dir, r)).isDirectory()) out.push(...walk(dir, r));
    else out.push(r);
  }
  return out;
}

export function readSnapshot(dir: string): Snapshot {
  const bodies = new Map<string, string>();
  const files = new Map<string, Buffer | null>();
  for (const rel of walk(dir)) {
    const full = path.join(dir, rel);
    if (lstatSync(full).isSymbolicLink()) files.set(rel, null);
    else if (rel.startsWith("api/") && rel.endsWith("/index.json"))
      bodies.set(`/${rel.slice(0, -"/index.json".length)}`, readFileSync(full, "utf8"));
    else files.set(rel, readFileSync(full));
  }
  return {
    dir,
    bodies,
    files,
    notFound: readFileSync(path.join(dir, NOT_FOUND_FILE), "utf8"),
    notFoundPage: readFileSync(path.join(dir, NOT_FOUND_PAGE), "utf8"),
    rules: hostRules(
      files.has(EDGE_FILE) ? (JSON.parse(files.get(EDGE_FILE)!.toString("utf8")) as EdgeFacts) : undefined,
    ),
  };
}

/** Whether the snapshot holds a regular file at `rel`. */
function hasFile(snap: Snapshot, rel: string): boolean {
  if (rel.startsWith("api/") && rel.endsWith("/index.json"))
    return snap.bodies.has(`/${rel.slice(0, -"/index.json".length)}`);
  return Boolean(snap.files.get(rel));
}

/** The headers the rule list predicts for a URL of this snapshot (the preview's own answer). */
function predictedHeaders(snap: Snapshot, url: string): Map<string, string> {
  const u = new URL(`http://probe.invalid${snap.rules.base}${url}`);
  const r = resolveRequest(snap.rules, u.pathname, u.search, (f) => hasFile(snap, f));
  return new Map(r.kind === "redirect" ? [] : r.headers.map(([k, v]) => [k.toLowerCase(), v]));
}

/** Headers every answer carries, checked against the prediction (a missing Link must be absent). */
const PREDICTED = [
  "content-security-policy",
  "x-frame-options",
  "referrer-policy",
  "cache-tag",
  "surrogate-key",
  "link",
] as const;
/** Of those, the ones `_headers` can only send per file (see HostLimits.staticHeadersOnly). */
const INSTANCE_HEADERS = new Set(["cache-tag", "surrogate-key"]);

const RULES = hostRules();
const MATCHERS = RULES.paths.map((rule) => ({ rule, re: new RegExp(urlRegExpSource(rule.url)) }));

function ruleOf(urlPath: string): PathRule | undefined {
  return MATCHERS.find((m) => m.re.test(urlPath))?.rule;
}

interface Expect {
  /** "redirect": 301 or 308 to `location`; "bad": 400 or 404, never a 5xx nor a 200. */
  status: 200 | 304 | 404 | 405 | "redirect" | "bad";
  /** The snapshot URL path whose index.json the body must equal (200 only). */
  body?: string;
  /** The snapshot file (relative) whose bytes the body must equal (200 only): pages, assets. */
  file?: string;
  rule?: Pick<PathRule, "cache" | "cors"> & { type?: string };
  /** The 404 comes from a path rule whose target is missing (see HostLimits). */
  missingTarget?: boolean;
  /** The URL is a file's own name, which some hosts serve (see HostLimits). */
  byName?: boolean;
  /** The URL is a symlink planted in the snapshot (see HostLimits). */
  symlink?: boolean;
  location?: string;
  ifNoneMatch?: string;
}

/** Pages, assets, the embed, and every file no rule names (each must be a 404). */
export function planFileChecks(snap: Snapshot): Check[] {
  const checks: Check[] = [];
  const pages = RULES.pages.map((rule) => ({ rule, re: new RegExp(pageRegExpSource(rule)) }));
  const statics = RULES.statics.map((rule) => ({ rule, re: new RegExp(staticRegExpSource(rule)) }));
  const openApi = new Set(RULES.files.map((f) => f.url.slice(1)));
  const byNameSeen = new Set<string>();
  for (const [rel, bytes] of snap.files) {
    const url = `/${rel}`;
    const pageUrl =
      rel === "index.html" ? "/" : rel.endsWith("/index.html") ? url.slice(0, -"index.html".length) : null;
    const page = pageUrl === null ? undefined : pages.find((p) => p.re.test(pageUrl));
    const stat = statics.find((s) => s.re.test(url));
    if (bytes && page && pageUrl) {
      const rule = { cache: page.rule.cache, cors: false, type: "text/html; charset=utf-8" };
      checks.push({
        url: pageUrl,
        what: `page (${page.rule.routeId})`,
        expect: { status: 200, file: rel, rule },
      });
      if (pageUrl !== "/")
        checks.push({
          url: pageUrl.slice(0, -1),
          what: `page without its slash (${page.rule.routeId})`,
          expect: { status: "redirect", location: pageUrl },
        });
      if (!byNameSeen.has(page.rule.routeId)) {
        byNameSeen.add(page.rule.routeId);
        checks.push({ url, what: "page file by its name → 404", expect: { status: 404, byName: true } });
      }
    } else if (bytes && stat) {
      const rule = { cache: stat.rule.cache, cors: stat.rule.cors, type: stat.rule.type };
      checks.push({
        url,
        what: `static file (${stat.rule.prefix})`,
        expect: { status: 200, file: rel, rule },
      });
    } else if (!openApi.has(rel) && rel !== NOT_FOUND_FILE && rel !== NOT_FOUND_PAGE) {
      checks.push({
        url,
        what: `not public (${bytes ? "file" : "symlink"}) → 404`,
        expect: { status: 404, symlink: !bytes },
      });
    }
  }
  // API bodies under their file names, one per route.
  const seen = new Set<string>();
  for (const url of snap.bodies.keys()) {
    const rule = ruleOf(url);
    if (!rule || seen.has(rule.url)) continue;
    seen.add(rule.url);
    checks.push({
      url: `${url}/index.json`,
      what: "API file by its name → 404",
      expect: { status: 404, byName: true },
    });
  }
  checks.push(
    {
      url: "/tournaments/9999999999999/",
      what: "unknown page → HTML 404",
      expect: { status: 404, missingTarget: true },
    },
    { url: "/no/such/page/", what: "unknown page → HTML 404", expect: { status: 404, missingTarget: true } },
    {
      url: "/assets/no-such-file.css",
      what: "unknown asset → HTML 404",
      expect: { status: 404, missingTarget: true },
    },
    {
      url: "/api/clubs/no-such-club/tournaments/1/standings",
      what: "club error keeps CORS",
      expect: { status: 404, missingTarget: true },
    },
    { url: "/api/public/v1/tournaments/%00", what: "NUL in the path", expect: { status: "bad" } },
    { url: "/", what: "POST to a page → 405 problem", expect: { status: 405 } },
    { url: "/api/public/v1/tournaments/%zz", what: "malformed escape", expect: { status: "bad" } },
    { url: "/api/clubs/no-such-club/tournaments/%00", what: "NUL in a club path", expect: { status: "bad" } },
    { url: `/api/public/v1/${"a".repeat(300)}`, what: "300-character segment", expect: { status: "bad" } },
    { url: `/${"a".repeat(300)}/`, what: "300-character page segment", expect: { status: "bad" } },
  );
  // Under a base path, the base without its slash is the index's URL without it: a redirect.
  if (snap.rules.base)
    checks.push({
      url: "",
      what: "base path without its slash → the index",
      expect: { status: "redirect", location: "/" },
    });
  return checks;
}

interface Check {
  url: string;
  what: string;
  expect: Expect;
}

/** Every request the probe sends, derived from the files of the snapshot. */
export function planChecks(snap: Snapshot): Check[] {
  const checks: Check[] = [];
  const urls = [...snap.bodies.keys()].sort();
  const firstOfRoute = new Set<string>();
  for (const url of urls) {
    const rule = ruleOf(url);
    if (!rule) continue;
    checks.push({ url, what: `path form (${rule.routeId})`, expect: { status: 200, body: url, rule } });
    const key = `${rule.routeId}|${rule.url}`;
    if (!firstOfRoute.has(key)) {
      firstOfRoute.add(key);
      checks.push({
        url: `${url}/`,
        what: `trailing slash (${rule.routeId})`,
        expect: { status: 200, body: url, rule },
      });
    }
  }

  // Query forms, from the path forms that exist.
  const lists = urls.filter((u) =>
    /^\/api\/clubs\/[^/]+\/tournaments$|^\/api\/public\/v1\/tournaments$/.test(u),
  );
  for (const list of lists) {
    const rule = ruleOf(list)!;
    checks.push({ url: list, what: "POST → 405 problem", expect: { status: 405 } });
    const tags = urls
      .filter((u) => u.startsWith(`${list}/tag/`))
      .map((u) => u.slice(list.length + 5))
      .filter((t) => !t.includes("/"));
    for (const tag of tags) {
      checks.push({
        url: `${list}?tag=${tag}`,
        what: "query tag",
        expect: { status: 200, body: `${list}/tag/${tag}`, rule },
      });
    }
    checks.push({
      url: `${list}?tag=no-such-tag-zz`,
      what: "query unknown tag → empty list",
      expect: { status: 200, body: `${list}/tag`, rule },
    });
    // An empty tag names no list: a 404 problem in every form (docs/design/lists-and-caching.md).
    // (Netlify answers a club one with its root 404.html, to keep CORS: a documented limit.)
    const club = list.startsWith(CORS_PREFIX);
    for (const url of [`${list}?tag=`, `${list}?tag`, `${list}/tag`, `${list}/tag/`])
      checks.push({ url, what: "empty tag → 404 problem", expect: { status: 404, missingTarget: club } });
    // Pages of a long list (an extension): `?page=N` beside `/page/N`, alone and with a tag.
    for (const paged of urls.filter((u) => u.startsWith(`${list}/`) && /\/page\/\d+$/.test(u))) {
      const m = /^(.*)\/page\/(\d+)$/.exec(paged)!;
      const tag = m[1]!.startsWith(`${list}/tag/`) ? m[1]!.slice(list.length + 5) : null;
      checks.push({
        url: tag === null ? `${list}?page=${m[2]}` : `${list}?tag=${tag}&page=${m[2]}`,
        what: "query page",
        expect: { status: 200, body: paged, rule },
      });
    }
    checks.push(
      {
        url: `${list}?page=`,
        what: "empty page → 404 problem",
        expect: { status: 404, missingTarget: club },
      },
      {
        url: `${list}?page=999999`,
        what: "page that does not exist → 404",
        expect: { status: 404, missingTarget: true },
      },
      { url: `${list}?page=0`, what: "page 0 → 404", expect: { status: 404, missingTarget: true } },
      {
        url: `${list}?tag=no-such-tag-zz&page=1`,
        what: "page of the empty list → 404",
        expect: { status: 404, missingTarget: true },
      },
    );
    if (tags[0]) {
      checks.push({
        url: `${list}/?tag=${tags[0]}`,
        what: "query tag, trailing slash",
        expect: { status: 200, body: `${list}/tag/${tags[0]}`, rule },
      });
    }
  }
  const recaps = urls.filter((u) => /\/recaps$/.test(u));
  for (const r of recaps) {
    const rule = ruleOf(r)!;
    const langs = urls.filter((u) => u.startsWith(`${r}/language/`)).map((u) => u.slice(r.length + 10));
    checks.push({
      url: r,
      what: "recaps default = es",
      expect: { status: 200, body: `${r}/language/es`, rule },
    });
    for (const l of langs)
      checks.push({
        url: `${r}?language=${l}`,
        what: "query language",
        expect: { status: 200, body: `${r}/language/${l}`, rule },
      });
    checks.push({ url: `${r}?language=zz`, what: "query unknown language → 404", expect: { status: 404 } });
    checks.push({
      url: `${r}/?language=es`,
      what: "query language, trailing slash",
      expect: { status: 200, body: `${r}/language/es`, rule },
    });
  }

  // Unknown resources: a 404 with the problem body.
  const pubId = urls.find((u) => /^\/api\/public\/v1\/tournaments\/\d+$/.test(u));
  const club = urls.find((u) => /^\/api\/clubs\/[^/]+\/tournaments\/\d+$/.test(u));
  const missing: [string, boolean][] = [
    ["/api/clubs/no-such-club/tournaments", true],
    ["/api/clubs/no-such-club/tournaments?tag=open", true],
    ["/api/public/v1/tournaments/9999999999999", true],
    ["/api/public/v1/tournaments/tag/no-such-tag-zz", true],
    ["/api/public/v1/tournaments/not-an-id", true],
    ["/api/nothing/here", false],
    ["/api/public/v1", false],
    ["/api/public/v2/tournaments", false],
  ];
  if (pubId) {
    missing.push(
      [`${pubId}/rounds/9999`, true],
      [`${pubId}/recaps/language/zz`, true],
      [`${pubId}/unknown`, false],
    );
  }
  if (club) {
    const list = club.replace(/\/\d+$/, "");
    missing.push(
      [`${list}/9999999999999`, true],
      [`${list}/tag/no-such-tag-zz`, true],
      [`${club}/rounds/9999`, true],
    );
  }
  for (const [url, missingTarget] of missing)
    checks.push({ url, what: "unknown → 404 problem", expect: { status: 404, missingTarget } });

  // Conditional GET, one URL per surface, and the first page.
  const page = planFileChecks(snap).find((c) => c.expect.status === 200)?.url;
  for (const url of [pubId, club, lists[0], page].filter((u): u is string => Boolean(u))) {
    checks.push({ url, what: "If-None-Match → 304", expect: { status: 304, ifNoneMatch: "?" } });
  }
  checks.push(...planFileChecks(snap));
  return checks;
}

interface Outcome {
  ok: boolean;
  skipped?: string;
  detail: string;
}

async function get(base: string, url: string, headers: Record<string, string> = {}, method = "GET") {
  const res = await fetch(base + url, {
    method,
    redirect: "manual",
    headers,
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  const bytes = Buffer.from(await res.arrayBuffer());
  return { status: res.status, headers: res.headers, bytes, text: bytes.toString("utf8") };
}

/** Media types compared without spaces or case; the obsolete JavaScript alias counts as itself. */
function sameType(got: string, want: string): boolean {
  const norm = (t: string) =>
    t
      .toLowerCase()
      .replace(/\s/g, "")
      .replace(/^application\/javascript/, "text/javascript");
  return norm(got) === norm(want);
}

function sameJson(a: string, b: string): boolean {
  try {
    return JSON.stringify(JSON.parse(a)) === JSON.stringify(JSON.parse(b));
  } catch {
    return false;
  }
}

export async function runCheck(
  base: string,
  c: Check,
  snap: Snapshot,
  limits: HostLimits,
): Promise<Outcome[]> {
  const e = c.expect;
  if (e.status === 304) {
    const first = await get(base, c.url);
    const etag = first.headers.get("etag");
    if (!etag) return [{ ok: false, detail: "no ETag" }];
    const second = await get(base, c.url, { "If-None-Match": etag });
    return [{ ok: second.status === 304, detail: `ETag ${etag} → ${second.status}` }];
  }
  if (e.status === 405) {
    const res = await get(base, c.url, {}, "POST");
    if (limits.ownMethodAnswer)
      return [
        {
          ok: true,
          skipped: "host answers POST itself",
          detail: `status ${res.status} ${res.text.slice(0, 40)}`,
        },
      ];
    const type = res.headers.get("content-type") ?? "";
    const out: Outcome[] = [
      { ok: res.status === 405, detail: `status ${res.status}` },
      {
        ok: res.headers.get("allow") === "GET, HEAD",
        detail: `Allow ${res.headers.get("allow") ?? "absent"}`,
      },
      {
        ok: res.text === problemJson(405) && /^application\/json\b/.test(type),
        detail:
          res.text === problemJson(405)
            ? `405 problem body, ${type}`
            : `not the 405 problem body (${res.text.slice(0, 60)})`,
      },
    ];
    if (c.url.startsWith(CORS_PREFIX)) {
      const acao = res.headers.get("access-control-allow-origin");
      out.push({ ok: acao === "*", detail: `CORS on a club 405: ${acao ?? "absent"}` });
    }
    return out;
  }
  const res = await get(base, c.url);
  const location = res.headers.get("location");
  if (e.status === "redirect") {
    if (limits.pageWithoutSlashServed && res.status === 200 && e.location) {
      const same = res.bytes.equals(snap.files.get(`${e.location.slice(1)}index.html`)!);
      return [
        {
          ok: same,
          skipped: same ? "host serves a page without its slash" : undefined,
          detail: `status 200, ${same ? "the page" : "another body"}`,
        },
      ];
    }
    const target = location ? new URL(location, base + c.url) : null;
    const ok =
      (res.status === 301 || res.status === 308) && target?.pathname === snap.rules.base + e.location;
    return [{ ok, detail: `status ${res.status} → ${location ?? "no Location"}` }];
  }
  const out: Outcome[] = [];
  const type = res.headers.get("content-type") ?? "";
  // The site path (without the base path): whether it is the API, whether club CORS applies.
  const pathname = new URL(`http://probe.invalid${c.url}`).pathname;
  const api = isApiPath(pathname);
  if (e.status === "bad") {
    out.push({ ok: res.status === 400 || res.status === 404, detail: `status ${res.status}` });
    // The preview's and the worker's errors are problem bodies; nginx answers a malformed path itself.
    if (res.status === 400 && limits.ownBadRequestPage) {
      out.push({ ok: true, skipped: "the host's own 400 page", detail: `content-type ${type}` });
    } else if (res.status === 400) {
      // The same bytes as the preview's 400, from the one builder of problem bodies.
      const same = res.text === problemJson(400);
      out.push({
        ok: same && /^application\/json\b/.test(type),
        detail: same
          ? `400 problem body, ${type}`
          : `not the 400 problem body (${res.text.slice(0, 60)}), ${type}`,
      });
      if (pathname.startsWith(CORS_PREFIX)) {
        const acao = res.headers.get("access-control-allow-origin");
        out.push({ ok: acao === "*", detail: `CORS on a club 400: ${acao ?? "absent"}` });
      }
    } else {
      const ok = api ? sameJson(res.text, snap.notFound) : res.text === snap.notFoundPage;
      out.push({ ok, detail: ok ? "404 body" : `not the 404 body (${res.text.slice(0, 60)})` });
    }
    return out;
  }
  const queryMiss = e.status === 404 && c.url.includes("?") && limits.queryMissingIs200 && res.status === 200;
  const byNameServed =
    (e.byName && limits.servesFilesByName && res.status !== 404) ||
    (e.symlink === true && limits.followsSymlinks && res.status === 200);
  if (queryMiss || byNameServed) {
    return [
      {
        ok: true,
        skipped: queryMiss
          ? "host answers a missing query target with 200"
          : e.symlink
            ? "host serves what a symlink points to"
            : "host serves files under their own names",
        detail: `status ${res.status}`,
      },
    ];
  }
  out.push({
    ok: res.status === e.status,
    detail: `status ${res.status}${location ? ` → ${location}` : ""}`,
  });
  if (e.status === 200 && e.file !== undefined) {
    const want = snap.files.get(e.file)!;
    const same = res.bytes.equals(want);
    out.push({
      ok: same,
      detail: same ? `body = ${e.file}` : `body differs from ${e.file} (${res.text.slice(0, 60)})`,
    });
  } else if (e.status === 200) {
    const want = snap.bodies.get(e.body!)!;
    out.push({
      ok: res.text === want,
      detail:
        res.text === want
          ? `body = ${e.body}/index.json`
          : `body differs from ${e.body}/index.json (${res.text.slice(0, 60)})`,
    });
  } else {
    const wantJson = api;
    const isProblem = sameJson(res.text, snap.notFound);
    const isPage = res.text === snap.notFoundPage;
    if (wantJson && !isProblem && isPage && e.missingTarget && limits.htmlNotFoundType)
      out.push({
        ok: true,
        skipped: "host serves the root 404.html for a missing target",
        detail: "HTML 404 page",
      });
    else
      out.push({
        ok: wantJson ? isProblem : isPage,
        detail: (wantJson ? isProblem : isPage)
          ? wantJson
            ? "problem body"
            : "HTML 404 page"
          : `not the ${wantJson ? "problem body" : "HTML 404 page"} (${res.text.slice(0, 60)})`,
      });
  }
  if (e.status === 404) {
    const jsonType = /^application\/json\b/.test(type);
    const htmlType = /^text\/html\b/.test(type);
    if (api && !jsonType && e.missingTarget && limits.htmlNotFoundType)
      out.push({ ok: true, skipped: "host serves 404.html as text/html", detail: `content-type ${type}` });
    else out.push({ ok: api ? jsonType : htmlType, detail: `content-type ${type}` });
    if (pathname.startsWith(CORS_PREFIX)) {
      const acao = res.headers.get("access-control-allow-origin");
      out.push({ ok: acao === "*", detail: `CORS on a club error: ${acao ?? "absent"}` });
    }
  } else {
    const want = e.rule?.type;
    out.push({
      ok: want ? sameType(type, want) : /^application\/json\b/.test(type),
      detail: `content-type ${type}`,
    });
  }
  if (res.status === 200 || res.status === 404) {
    const want = predictedHeaders(snap, c.url);
    for (const name of PREDICTED) {
      const got = res.headers.get(name);
      const expected = want.get(name) ?? null;
      // A host that answers a missing target itself sends its 404 page's headers.
      const hostOwn404 = res.status === 404 && e.missingTarget && limits.htmlNotFoundType;
      if ((limits.staticHeadersOnly && INSTANCE_HEADERS.has(name) && got !== expected) || hostOwn404)
        out.push({
          ok: true,
          skipped: hostOwn404 ? "host serves the root 404.html" : "_headers names no instance",
          detail: `${name} ${got ?? "absent"}`,
        });
      else
        out.push({
          ok: got === expected,
          detail: `${name} ${got ?? "absent"}${got === expected ? "" : ` (want ${expected ?? "absent"})`}`,
        });
    }
  }
  if (e.rule && res.status === 200) {
    const acao = res.headers.get("access-control-allow-origin");
    out.push({
      ok: e.rule.cors ? acao === "*" : acao === null,
      detail: `CORS ${acao ?? "absent"}${e.rule.cors ? "" : " (global)"}`,
    });
    const cc = res.headers.get("cache-control");
    // The rule's class, or the archive class the snapshot's facts give an archived tournament.
    const want = predictedHeaders(snap, c.url).get("cache-control") ?? CACHE_POLICY[e.rule.cache];
    if (limits.ownCacheControl)
      out.push({ ok: true, skipped: "host sets its own Cache-Control", detail: `cache-control ${cc}` });
    else out.push({ ok: cc === want, detail: `cache-control ${cc}${cc === want ? "" : ` (want ${want})`}` });
  }
  return out;
}

function assertLoopback(base: string): void {
  const host = new URL(base).hostname;
  if (!["127.0.0.1", "localhost", "[::1]"].includes(host))
    throw new Error(`--base must be a loopback address, not ${host}`);
}

async function main(): Promise<void> {
  const values = scriptArgs(import.meta.url, {
    base: { type: "string" },
    dir: { type: "string" },
    "host-kind": { type: "string", default: "preview" },
  });
  if (!values.base || !values.dir)
    exitWithUsage(import.meta.url, "--base <url> and --dir <snapshot> are required");
  const kind = values["host-kind"] as HostKind;
  if (!(kind in LIMITS))
    exitWithUsage(import.meta.url, `unknown --host-kind ${kind}: use ${Object.keys(LIMITS).join(", ")}`);
  const origin = values.base.replace(/\/$/, "");
  assertLoopback(origin);
  const snap = readSnapshot(values.dir);
  // Every request goes to the snapshot's base path (routes/urls.ts; "" at the root).
  const base = origin + snap.rules.base;
  const checks = planChecks(snap).slice(0, MAX_REQUESTS);
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  const queue = [...checks];
  const lines: string[] = [];
  const worker = async () => {
    for (let c = queue.shift(); c; c = queue.shift()) {
      let outcomes: Outcome[];
      try {
        outcomes = await runCheck(base, c, snap, LIMITS[kind]);
      } catch (err) {
        const dropped = c.expect.status === "bad" && c.url.includes("%") && LIMITS[kind].dropsMalformedEscape;
        outcomes = [
          dropped
            ? { ok: true, skipped: "host drops the connection on a malformed escape", detail: "no answer" }
            : { ok: false, detail: `request failed: ${(err as Error).message}` },
        ];
      }
      for (const o of outcomes) {
        const tag = o.skipped ? "skip" : o.ok ? "ok  " : "FAIL";
        if (o.skipped) skipped++;
        else if (o.ok) passed++;
        else failed++;
        lines.push(
          `${tag} [${kind}] ${c.expect.status === 405 ? "POST" : "GET"} ${c.url} — ${c.what}: ${o.detail}${o.skipped ? ` (${o.skipped})` : ""}`,
        );
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  for (const l of lines.sort()) console.log(l);
  console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
  process.exitCode = failed > 0 ? 1 : 0;
}

if (process.argv[1] && import.meta.url.endsWith(path.basename(process.argv[1]))) {
  main().catch((err: unknown) => {
    console.error(`probe: ${(err as Error).message}`);
    process.exitCode = 2;
  });
}
