// Conformance probe: sends the same requests to a served snapshot on any host and checks every
// answer against the snapshot's own files. Loopback only, bounded, one line per check.
//   node scripts/probe.ts --base http://127.0.0.1:PORT --dir dist [--host-kind KIND]
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { CACHE_POLICY } from "../src/emit/cache.ts";
import { hostRules, urlRegExpSource, type PathRule } from "../src/emit/rules.ts";

export type HostKind = "preview" | "nginx" | "wrangler" | "netlify";

/** What each host is documented not to do (docs/deployment.md); the probe skips only these. */
interface HostLimits {
  /** The host sets its own Cache-Control (netlify dev: `public, max-age=0`). */
  ownCacheControl: boolean;
  /** A 404 from a rewrite whose target is missing is the root 404.html, sent as text/html. */
  htmlNotFoundType: boolean;
  /** A query rewrite whose target is missing answers 404.html with status 200 (netlify). */
  queryMissingIs200: boolean;
}

const LIMITS: Record<HostKind, HostLimits> = {
  preview: { ownCacheControl: false, htmlNotFoundType: false, queryMissingIs200: false },
  nginx: { ownCacheControl: false, htmlNotFoundType: false, queryMissingIs200: false },
  // The generated _worker.js answers every /api request, so wrangler's own ACAO * is not added.
  wrangler: { ownCacheControl: false, htmlNotFoundType: false, queryMissingIs200: false },
  netlify: { ownCacheControl: true, htmlNotFoundType: true, queryMissingIs200: true },
};

const MAX_REQUESTS = 3000;
const TIMEOUT_MS = 10_000;
const CONCURRENCY = 6;

interface Snapshot {
  dir: string;
  /** URL path (no trailing slash) → file text, for every `<url>/index.json` under api/. */
  bodies: Map<string, string>;
  notFound: string;
}

function walk(dir: string, rel = ""): string[] {
  const out: string[] = [];
  for (const name of readdirSync(path.join(dir, rel))) {
    const r = rel ? `${rel}/${name}` : name;
    if (statSync(path.join(dir, r)).isDirectory()) out.push(...walk(dir, r));
    else out.push(r);
  }
  return out;
}

export function readSnapshot(dir: string): Snapshot {
  const bodies = new Map<string, string>();
  for (const rel of walk(dir, "api")) {
    if (rel.endsWith("/index.json"))
      bodies.set(`/${rel.slice(0, -"/index.json".length)}`, readFileSync(path.join(dir, rel), "utf8"));
  }
  return { dir, bodies, notFound: readFileSync(path.join(dir, "404.json"), "utf8") };
}

const RULES = hostRules();
const MATCHERS = RULES.paths.map((rule) => ({ rule, re: new RegExp(urlRegExpSource(rule.url)) }));

function ruleOf(urlPath: string): PathRule | undefined {
  return MATCHERS.find((m) => m.re.test(urlPath))?.rule;
}

interface Expect {
  status: 200 | 304 | 404;
  /** The snapshot URL path whose index.json the body must equal (200 only). */
  body?: string;
  rule?: Pick<PathRule, "cache" | "cors">;
  /** The 404 comes from a path rule whose target is missing (see HostLimits). */
  missingTarget?: boolean;
  ifNoneMatch?: string;
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
    const tags = urls.filter((u) => u.startsWith(`${list}/tag/`)).map((u) => u.slice(list.length + 5));
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

  // Conditional GET, one URL per surface.
  for (const url of [pubId, club, lists[0]].filter((u): u is string => Boolean(u))) {
    checks.push({ url, what: "If-None-Match → 304", expect: { status: 304, ifNoneMatch: "?" } });
  }
  return checks;
}

interface Outcome {
  ok: boolean;
  skipped?: string;
  detail: string;
}

async function get(base: string, url: string, headers: Record<string, string> = {}) {
  const res = await fetch(base + url, {
    redirect: "manual",
    headers,
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
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
  const res = await get(base, c.url);
  const out: Outcome[] = [];
  const type = res.headers.get("content-type") ?? "";
  const queryMiss = e.status === 404 && c.url.includes("?") && limits.queryMissingIs200 && res.status === 200;
  if (queryMiss) {
    out.push({
      ok: true,
      skipped: "host answers a missing query target with 200",
      detail: `status ${res.status}`,
    });
  } else
    out.push({
      ok: res.status === e.status,
      detail: `status ${res.status}${res.headers.get("location") ? ` → ${res.headers.get("location")}` : ""}`,
    });
  if (e.status === 200) {
    const want = snap.bodies.get(e.body!)!;
    out.push({
      ok: res.text === want,
      detail:
        res.text === want
          ? `body = ${e.body}/index.json`
          : `body differs from ${e.body}/index.json (${res.text.slice(0, 60)})`,
    });
  } else {
    out.push({
      ok: sameJson(res.text, snap.notFound),
      detail: sameJson(res.text, snap.notFound)
        ? "problem body"
        : `not the problem body (${res.text.slice(0, 60)})`,
    });
  }
  const jsonType = /^application\/json\b/.test(type);
  if (!jsonType && e.status === 404 && e.missingTarget && limits.htmlNotFoundType) {
    out.push({ ok: true, skipped: "host serves 404.html as text/html", detail: `content-type ${type}` });
  } else {
    out.push({ ok: jsonType, detail: `content-type ${type}` });
  }
  if (e.rule && res.status === 200) {
    const acao = res.headers.get("access-control-allow-origin");
    out.push({
      ok: e.rule.cors ? acao === "*" : acao === null,
      detail: `CORS ${acao ?? "absent"}${e.rule.cors ? "" : " (global)"}`,
    });
    const cc = res.headers.get("cache-control");
    if (limits.ownCacheControl)
      out.push({ ok: true, skipped: "host sets its own Cache-Control", detail: `cache-control ${cc}` });
    else out.push({ ok: cc === CACHE_POLICY[e.rule.cache], detail: `cache-control ${cc}` });
  }
  return out;
}

function assertLoopback(base: string): void {
  const host = new URL(base).hostname;
  if (!["127.0.0.1", "localhost", "[::1]"].includes(host))
    throw new Error(`--base must be a loopback address, not ${host}`);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      base: { type: "string" },
      dir: { type: "string" },
      "host-kind": { type: "string", default: "preview" },
    },
  });
  if (!values.base || !values.dir)
    throw new Error(
      "usage: probe.ts --base http://127.0.0.1:PORT --dir DIR [--host-kind preview|nginx|wrangler|netlify]",
    );
  const kind = values["host-kind"] as HostKind;
  if (!(kind in LIMITS)) throw new Error(`unknown --host-kind ${kind}`);
  const base = values.base.replace(/\/$/, "");
  assertLoopback(base);
  const snap = readSnapshot(values.dir);
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
        outcomes = [{ ok: false, detail: `request failed: ${(err as Error).message}` }];
      }
      for (const o of outcomes) {
        const tag = o.skipped ? "skip" : o.ok ? "ok  " : "FAIL";
        if (o.skipped) skipped++;
        else if (o.ok) passed++;
        else failed++;
        lines.push(
          `${tag} [${kind}] GET ${c.url} — ${c.what}: ${o.detail}${o.skipped ? ` (${o.skipped})` : ""}`,
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
