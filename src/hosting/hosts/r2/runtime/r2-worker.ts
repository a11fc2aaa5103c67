// The Worker for R2 + Cloudflare (module syntax, an R2 binding named BUCKET, optional PREFIX and
// BASE_PATH variables: the snapshot's base path when it was built with --base-path), bundled by `npm run gen-edge` (scripts/lib/edge-bundle.ts) into
// edge/generated/r2-worker.ts. It is the edge handler of hosting/hosts/edge-handler.ts (the preview's
// resolver, the same refusals and error bodies as the Cloudflare Pages worker) over an origin
// that reads objects from the bucket: each object is read once per request, and its ETag, its
// purge tags (Cache-Tag), its Cache-Control and its Link header, all as the deploy wrote them
// (deploy/objects.ts), go on the answer. So the Worker needs nothing from the snapshot: an
// archived tournament's cache class and a paged list's Link come with the object, and a deploy that
// changes only them replaces the objects' metadata, not the Worker.
import { answer, type EdgeOrigin } from "../../edge-handler.ts";
import { hostRules, type HostRules } from "../../../rules.ts";
import { parseBasePath } from "../../../../routes/urls.ts";

/** The rule list without a snapshot's facts: those come with each object. */
const RULES = hostRules();
const UNDER_BASE = new Map<string, HostRules>();

/** The rule list under the Worker's BASE_PATH (the snapshot's --base-path; the root without one). */
function rulesOf(env: Env): HostRules {
  const base = parseBasePath(env.BASE_PATH ?? "");
  if (!base) return RULES;
  let rules = UNDER_BASE.get(base);
  if (!rules) UNDER_BASE.set(base, (rules = { ...RULES, base }));
  return rules;
}

/** The parts of Cloudflare's R2 binding used here. */
export interface R2ObjectLike {
  httpEtag: string;
  httpMetadata?: { cacheControl?: string };
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
  /** The base path the snapshot was built with (`/chess/`); absent or "" at the root. */
  BASE_PATH?: string;
}

function matches(inm: string | null, etag: string): boolean {
  if (!inm) return false;
  return inm.split(/\s*,\s*/).some((t) => t === "*" || t === etag || t === `W/${etag}`);
}

function bucket(env: Env, served: { object?: R2ObjectLike }): EdgeOrigin {
  const objects = new Map<string, Promise<R2ObjectLike | null>>();
  const read = (file: string): Promise<R2ObjectLike | null> => {
    let o = objects.get(file);
    if (!o) objects.set(file, (o = env.BUCKET.get(`${env.PREFIX ?? ""}${file}`)));
    return o;
  };
  return {
    exists: async (q) => (await read(q.file)) !== null,
    async get(q, request) {
      const object = await read(q.file);
      if (!object) return new Response(null, { status: 404 });
      served.object = object;
      const headers = new Headers({ ETag: object.httpEtag });
      const tags = object.customMetadata?.["cache-tag"];
      if (tags) headers.set("Cache-Tag", tags);
      const fresh = matches(request.headers.get("If-None-Match"), object.httpEtag);
      if (fresh || request.method === "HEAD") {
        await object.body?.cancel();
        return new Response(null, { status: fresh ? 304 : 200, headers });
      }
      return new Response(object.body ?? null, { status: 200, headers });
    },
  };
}

/** The object's own headers over the rule's: its Cache-Control (the archive class) and Link. */
function withObjectHeaders(res: Response, object: R2ObjectLike | undefined): Response {
  const cacheControl = object?.httpMetadata?.cacheControl;
  const link = object?.customMetadata?.link;
  if (!object || (res.status !== 200 && res.status !== 304) || (!cacheControl && !link)) return res;
  const headers = new Headers(res.headers);
  if (cacheControl) headers.set("Cache-Control", cacheControl);
  if (link) headers.set("Link", link);
  return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const served: { object?: R2ObjectLike } = {};
    return withObjectHeaders(await answer(request, bucket(env, served), rulesOf(env)), served.object);
  },
};
