// The Worker for R2 + Cloudflare (module syntax, an R2 binding named BUCKET, an optional PREFIX
// variable), bundled by scripts/gen-edge.ts into edge/bundled.ts. It answers every request with
// hosting/resolve.ts over the rule list, exactly as the preview does: the resolver asks whether a
// file exists, and here that is a read of the object from R2. The resolver is synchronous, so it is
// run again with each answer learnt (at most a query target and the file itself: three runs).
// Headers come from the rule the resolver matched; the object adds its ETag and its purge tags
// (Cache-Tag, from the metadata deploy wrote).
import { errorPage, problemJson } from "../../output/problem.ts";
import { errorResolution, resolveRequest, type ErrorAnswer, type Resolution } from "../../hosting/resolve.ts";
import { hostRules } from "../../hosting/rules.ts";
import { precheck } from "./request-checks.ts";

/** The parts of Cloudflare's R2 binding used here. */
export interface R2ObjectLike {
  httpEtag: string;
  customMetadata?: Record<string, string>;
  body?: ReadableStream | null;
}
export interface R2BucketLike {
  get(key: string): Promise<R2ObjectLike | null>;
}
export interface Env {
  BUCKET: R2BucketLike;
  /** Key prefix the deploy used ("" or ending with "/"). */
  PREFIX?: string;
}

const rules = hostRules();
const MAX_RUNS = 8;

/** Thrown by `exists` for a file not read yet: the caller reads it and runs the resolver again. */
class Unknown {
  readonly file: string;
  constructor(file: string) {
    this.file = file;
  }
}

function errorResponse(r: ErrorAnswer, method: string): Response {
  const headers = new Headers(r.headers);
  if (r.status === 405) headers.set("Allow", "GET, HEAD");
  const body = method === "HEAD" ? null : r.json ? problemJson(r.status) : errorPage(r.status);
  return new Response(body, { status: r.status, headers });
}

async function resolveWithBucket(
  env: Env,
  url: URL,
): Promise<{ r: Resolution; objects: Map<string, R2ObjectLike | null> }> {
  const objects = new Map<string, R2ObjectLike | null>();
  const exists = (file: string): boolean => {
    if (!objects.has(file)) throw new Unknown(file);
    return objects.get(file) !== null;
  };
  for (let run = 0; run < MAX_RUNS; run++) {
    try {
      return { r: resolveRequest(rules, url.pathname, url.searchParams, exists), objects };
    } catch (e) {
      if (!(e instanceof Unknown)) throw e;
      objects.set(e.file, await env.BUCKET.get(`${env.PREFIX ?? ""}${e.file}`));
    }
  }
  return { r: errorResolution(404, url.pathname), objects };
}

function matches(inm: string | null, etag: string): boolean {
  if (!inm) return false;
  return inm.split(/\s*,\s*/).some((t) => t === "*" || t === etag || t === `W/${etag}`);
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const url = new URL(request.url);
    const bad = precheck(request.method, url.pathname);
    if (bad) return errorResponse(errorResolution(bad, url.pathname), request.method);
    const { r, objects } = await resolveWithBucket(env, url);
    if (r.kind === "error") return errorResponse(r, request.method);
    if (r.kind === "redirect") {
      return new Response(`${r.location}\n`, {
        status: 308,
        headers: { Location: r.location, "Content-Type": "text/plain; charset=utf-8" },
      });
    }
    const object = objects.get(r.file);
    if (!object) return errorResponse(errorResolution(404, url.pathname), request.method);
    const headers = new Headers(r.headers);
    headers.set("ETag", object.httpEtag);
    const tags = object.customMetadata?.["cache-tag"];
    if (tags) headers.set("Cache-Tag", tags);
    if (matches(request.headers.get("If-None-Match"), object.httpEtag)) {
      await object.body?.cancel();
      return new Response(null, { status: 304, headers });
    }
    if (request.method === "HEAD") {
      await object.body?.cancel();
      return new Response(null, { status: 200, headers });
    }
    return new Response(object.body ?? null, { status: 200, headers });
  },
};
