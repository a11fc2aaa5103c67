// What each snapshot file becomes in the bucket, from the rule list the host configs come from
// (hosting/rules.ts): its Content-Type (explicit, since most keys have no extension), Cache-Control,
// whether it is a cross-origin (club) resource, its purge tags, and where it goes in the upload
// order. Files no rule serves (host configs, build bookkeeping) are never uploaded: a bucket is
// often readable as it is, and the allow-list must hold there too.
import { createHash } from "node:crypto";
import { CACHE_POLICY, ERROR_CACHE_POLICY } from "../routes/cache.ts";
import { endpoint, type EndpointId, PAGE_ROUTES } from "../routes/urls.ts";
import {
  ARCHIVE_CACHE_CONTROL,
  ERROR_TAG,
  isTournamentRule,
  HTML_TYPE,
  hostRules,
  SITE_TAG,
  JSON_TYPE,
  paramsOf,
  staticRegExpSource,
  urlPatternSource,
  type HostRules,
} from "../hosting/rules.ts";
import { NOT_FOUND_FILE, NOT_FOUND_PAGE } from "../output/problem.ts";

export interface ObjectSpec {
  contentType: string;
  cacheControl: string;
  /** Served with Access-Control-Allow-Origin: * (club endpoints, the embed). */
  cors: boolean;
  /** Purge tags (Cloudflare Cache-Tag, Fastly Surrogate-Key): the rule list's, most specific first. */
  tags: string[];
  /**
   * Upload order: lower groups first. 0: assets, the OpenAPI document, error bodies (pages and
   * lists point to them); 1: a tournament's files and pages; 2: lists, catalogs and the index.
   */
  group: 0 | 1 | 2;
  /** Path segments of the URL pattern: deeper files go up first (a round before its tournament). */
  depth: number;
  /**
   * The Link header of a paged list's file (the snapshot's edge facts), stored as the object's
   * metadata `link`: the R2 Worker and the CloudFront viewer-response function send it.
   */
  link?: string;
}

interface Matcher {
  re: RegExp;
  names: string[];
  spec: (params: Record<string, string>, archived: ReadonlySet<string>) => ObjectSpec;
}

/** A rule's purge tags (hosting/rules.ts, the one tag scheme) with `{param}` filled from the file. */
function tagsOf(templates: readonly string[], params: Record<string, string>): string[] {
  return templates.map((t) => t.replace(/\{(\w+)\}/g, (_, n: string) => params[n] ?? ""));
}

/** A rule's Cache-Control; an archived tournament's answers take the archive class (edge facts). */
function cacheControlOf(
  rule: { cache: keyof typeof CACHE_POLICY; tags: readonly string[] },
  params: Record<string, string>,
  archived: ReadonlySet<string>,
): string {
  if (isTournamentRule(rule) && params.id !== undefined && archived.has(params.id))
    return ARCHIVE_CACHE_CONTROL;
  return CACHE_POLICY[rule.cache];
}

const depthOf = (url: string): number => url.split("/").filter(Boolean).length;

function groupOf(id: EndpointId): 1 | 2 {
  return endpoint(id).scope === "tournament" ? 1 : 2;
}

function matchers(rules: HostRules): Matcher[] {
  const list: Matcher[] = [];
  for (const r of rules.paths) {
    list.push({
      re: new RegExp(`^${urlPatternSource(`/${r.file.replace(/^\//, "")}`)}$`),
      names: paramsOf(r.file),
      spec: (p, archived) => ({
        contentType: JSON_TYPE,
        cacheControl: cacheControlOf(r, p, archived),
        cors: r.cors,
        tags: tagsOf(r.tags, p),
        group: groupOf(r.routeId as EndpointId),
        depth: depthOf(r.url),
      }),
    });
  }
  // The list an unknown tag answers (`<list>/tag/index.json`): no URL of its own, served for the
  // query form with the list's headers (hosting/resolve.ts).
  for (const q of rules.queries) {
    const owner = rules.paths.find((r) => r.url === q.url);
    if (!q.fallback || !owner || rules.paths.some((r) => r.url === q.fallback)) continue;
    const o = owner;
    list.push({
      re: new RegExp(`^${urlPatternSource(`${q.fallback}/index.json`)}$`),
      names: paramsOf(q.fallback),
      spec: (p, archived) => ({
        contentType: JSON_TYPE,
        cacheControl: cacheControlOf(o, p, archived),
        cors: o.cors,
        tags: tagsOf(o.tags, p),
        group: groupOf(o.routeId as EndpointId),
        depth: depthOf(q.fallback!),
      }),
    });
  }
  for (const f of rules.files) {
    list.push({
      re: new RegExp(`^${urlPatternSource(f.url)}$`),
      names: [],
      spec: () => ({
        contentType: JSON_TYPE,
        cacheControl: CACHE_POLICY[f.cache],
        cors: f.cors,
        tags: f.tags,
        group: 0,
        depth: depthOf(f.url),
      }),
    });
  }
  for (const page of rules.pages) {
    const route = PAGE_ROUTES.find((p) => p.id === page.routeId)!;
    list.push({
      re: new RegExp(`^${urlPatternSource(page.file)}$`),
      names: paramsOf(page.file),
      spec: (p, archived) => ({
        contentType: HTML_TYPE,
        cacheControl: cacheControlOf(page, p, archived),
        cors: false,
        tags: tagsOf(page.tags, p),
        group: groupOf(route.follows),
        depth: depthOf(page.url),
      }),
    });
  }
  for (const s of rules.statics) {
    list.push({
      re: new RegExp(staticRegExpSource(s)),
      names: [],
      spec: () => ({
        contentType: s.type,
        cacheControl: CACHE_POLICY[s.cache],
        cors: s.cors,
        tags: s.tags,
        group: 0,
        depth: 0,
      }),
    });
  }
  // The error bodies: the CloudFront set-up answers a missing object with 404.json.
  for (const [file, type] of [
    [NOT_FOUND_FILE, JSON_TYPE],
    [NOT_FOUND_PAGE, HTML_TYPE],
  ] as const) {
    list.push({
      re: new RegExp(`^/${file.replace(/\./g, "\\.")}$`),
      names: [],
      spec: () => ({
        contentType: type,
        cacheControl: ERROR_CACHE_POLICY,
        cors: false,
        tags: [ERROR_TAG, SITE_TAG],
        group: 0,
        depth: 0,
      }),
    });
  }
  return list;
}

let cached: Matcher[] | undefined;

const NONE: ReadonlySet<string> = new Set();

/**
 * The object a snapshot file becomes, or undefined for a file no host serves. `archived`: the
 * snapshot's archived tournaments (its edge facts), whose answers take the archive cache class.
 */
export function objectSpec(file: string, archived: ReadonlySet<string> = NONE): ObjectSpec | undefined {
  cached ??= matchers(hostRules());
  const abs = `/${file}`;
  for (const m of cached) {
    const hit = m.re.exec(abs);
    if (!hit) continue;
    const params: Record<string, string> = {};
    m.names.forEach((n, i) => (params[n] = hit[i + 1]!));
    return m.spec(params, archived);
  }
  return undefined;
}

/**
 * The user metadata an object is written with: its sha256 (a check of the bytes without reading
 * them), its purge tags (the R2 Worker sends them as Cache-Tag), and `cors` for a cross-origin one.
 */
export function objectMetadata(sha256: string, spec: ObjectSpec): Record<string, string> {
  const metadata: Record<string, string> = { sha256, "cache-tag": spec.tags.join(",") };
  if (spec.cors) metadata.cors = "*";
  if (spec.link !== undefined) metadata.link = spec.link;
  return metadata;
}

/**
 * A digest of everything that decides an object's metadata. The deploy record keeps it: when it
 * changes (a new build-api with other cache lifetimes), every object is sent again.
 */
export function metadataDigest(): string {
  const facts = JSON.stringify({
    // Not bumped for the `link` metadata: the record's edge facts find the objects that lack it.
    scheme: 1,
    rules: hostRules(),
    cache: CACHE_POLICY,
    error: ERROR_CACHE_POLICY,
  });
  return createHash("sha256").update(facts).digest("hex");
}

/** What a snapshot file is stored as: its headers and metadata (the deploy's, and test runners'). */
export function storedObject(
  file: string,
  sha256: string,
  facts: { archived: readonly string[]; links: Readonly<Record<string, string>> },
): { contentType: string; cacheControl: string; metadata: Record<string, string> } | undefined {
  const spec = objectSpec(file, new Set(facts.archived));
  if (!spec) return undefined;
  const link = facts.links[file];
  const full = link === undefined ? spec : { ...spec, link };
  return {
    contentType: spec.contentType,
    cacheControl: spec.cacheControl,
    metadata: objectMetadata(sha256, full),
  };
}
