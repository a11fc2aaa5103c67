// The request handler of edge code that speaks the Fetch API (Request in, Response out): the
// Cloudflare Pages worker today, an R2 or other object-store worker tomorrow. It refuses what no
// snapshot can answer (other methods, malformed paths), resolves the rest with the preview's
// resolver (../resolve.ts) and asks an origin for the file. An entry adapts its platform's
// storage to EdgeOrigin and is bundled into a self-contained file (scripts/gen-edge.ts).
import { errorPage, problemJson, type ErrorStatus } from "../../output/problem.ts";
import { errorUnderBase, malformedPath, resolveRequestAsync, type FileQuery } from "../resolve.ts";
import type { HostRules } from "../rules.ts";
import type { EdgeFacts } from "../../routes/pagination.ts";

/** Where the snapshot's files are, as an edge runtime reaches them. */
export interface EdgeOrigin {
  /** Whether the snapshot holds the file. */
  exists(query: FileQuery, request: Request): Promise<boolean>;
  /**
   * The file for this GET or HEAD: status 200 (with its ETag when the origin has one) or 304 when
   * the request's If-None-Match matches it; any other status means the file is not there.
   */
  get(query: FileQuery, request: Request): Promise<Response>;
}

const ALLOW = "GET, HEAD";

function error(
  request: Request,
  status: ErrorStatus,
  pathname: string,
  base: string,
  facts: Pick<EdgeFacts, "errorPage">,
): Response {
  const r = errorUnderBase(status, pathname, base);
  const headers = new Headers(r.headers);
  if (status === 405) headers.set("Allow", ALLOW);
  const body = r.json ? problemJson(status) : errorPage(status, r.home, facts.errorPage);
  return new Response(request.method === "HEAD" ? null : body, { status, headers });
}

/** The answer to one request: a file with the rule's headers, a redirect, or an error body. */
export async function answer(request: Request, origin: EdgeOrigin, rules: HostRules): Promise<Response> {
  const url = new URL(request.url);
  if (request.method !== "GET" && request.method !== "HEAD")
    return error(request, 405, url.pathname, rules.base, rules.facts);
  if (malformedPath(url.pathname)) return error(request, 400, url.pathname, rules.base, rules.facts);
  const r = await resolveRequestAsync(rules, url.pathname, url.search, (file, at) =>
    origin.exists({ file, url: at }, request),
  );
  if (r.kind === "redirect") return new Response(null, { status: 308, headers: { Location: r.location } });
  if (r.kind === "error") return error(request, r.status, url.pathname, rules.base, rules.facts);
  const res = await origin.get(r, request);
  if (res.status !== 200 && res.status !== 304)
    return error(request, 404, url.pathname, rules.base, rules.facts);
  const headers = new Headers(r.headers);
  // What the origin knows of the file: its ETag, and its purge tags when the rule has none (the
  // rule's tags name the tournament; a Pages origin's `_headers` tags cannot).
  const etag = res.headers.get("ETag");
  if (etag) headers.set("ETag", etag);
  const tags = res.headers.get("Cache-Tag");
  if (tags && !headers.has("Cache-Tag")) headers.set("Cache-Tag", tags);
  return new Response(res.status === 304 || request.method === "HEAD" ? null : res.body, {
    status: res.status,
    headers,
  });
}
