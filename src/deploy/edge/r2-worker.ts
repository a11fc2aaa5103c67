// The Worker for R2 + Cloudflare (module syntax, an R2 binding named BUCKET, an optional PREFIX
// variable), bundled by `npm run gen-edge` (scripts/lib/edge-bundle.ts) into
// edge/generated/r2-worker.ts. It is the edge handler of hosting/edge/handler.ts (the preview's
// resolver, the same refusals and error bodies as the Cloudflare Pages worker) over an origin
// that reads objects from the bucket: each object is read once per request, and its ETag and its
// purge tags (Cache-Tag, from the metadata the deploy wrote) go on the answer.
import { answer, type EdgeOrigin } from "../../hosting/edge/handler.ts";
import { hostRules } from "../../hosting/rules.ts";
import { NO_EDGE_FACTS, type EdgeFacts } from "../../routes/pagination.ts";

/** The snapshot's edge facts (Link headers, archived tournaments), put in front by edge/write.ts. */
declare const EDGE_FACTS: EdgeFacts | undefined;

/** The rule list with this snapshot's facts; without a prefix (the bare bundle), none. */
const RULES = hostRules(typeof EDGE_FACTS === "undefined" ? NO_EDGE_FACTS : EDGE_FACTS);

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

function matches(inm: string | null, etag: string): boolean {
  if (!inm) return false;
  return inm.split(/\s*,\s*/).some((t) => t === "*" || t === etag || t === `W/${etag}`);
}

function bucket(env: Env): EdgeOrigin {
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

export default {
  fetch(request: Request, env: Env): Promise<Response> {
    return answer(request, bucket(env), RULES);
  },
};
