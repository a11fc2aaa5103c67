// The entry of `_worker.js` for Cloudflare Pages (advanced mode): it answers every request. Pages
// drops query rules from _redirects and would answer `?tag=` with the unfiltered list, and would
// serve every file of the snapshot, so the worker maps query forms onto path forms, serves only
// what a rule names and answers anything else with the error bodies of output/problem.ts.
// Files come from env.ASSETS by URL: API path forms (the _redirects path rules rewrite them to
// their index.json; fetching index.json directly would be caught by a `/:id` rule), pages by their
// slash URL (Pages answers it with index.html), assets as they are.
// The snapshot's edge facts (Link headers of paged lists, archived tournaments) are not in the
// bundle: the host renderer (hosts/cloudflare-pages/cloudflare-worker.ts) writes them in front of it as the
// constant EDGE_FACTS, so the bundle stays one checked-in text for every snapshot.
import { answer, type EdgeOrigin } from "../../edge-handler.ts";
import type { FileQuery } from "../../../resolve.ts";
import { hostRules } from "../../../rules.ts";
import { NO_EDGE_FACTS, type EdgeFacts } from "../../../../routes/pagination.ts";

declare const EDGE_FACTS: EdgeFacts | undefined;

/** The rule list with this snapshot's facts; without a prefix (the bare bundle), none. */
const RULES = hostRules(typeof EDGE_FACTS === "undefined" ? NO_EDGE_FACTS : EDGE_FACTS);

interface PagesEnv {
  ASSETS: { fetch(request: Request): Promise<Response> };
}

/** A request to the assets for `url`, without the query; If-None-Match only on the real fetch. */
function assetRequest(request: Request, at: FileQuery, method: "HEAD" | null): Request {
  const headers = new Headers();
  const inm = request.headers.get("If-None-Match");
  if (inm && !method) headers.set("If-None-Match", inm);
  const url = new URL(at.url, request.url);
  return new Request(url.origin + url.pathname, { method: method ?? request.method, headers });
}

function assets(env: PagesEnv): EdgeOrigin {
  return {
    exists: async (at, request) => (await env.ASSETS.fetch(assetRequest(request, at, "HEAD"))).status === 200,
    get: (at, request) => env.ASSETS.fetch(assetRequest(request, at, null)),
  };
}

export default {
  fetch(request: Request, env: PagesEnv): Promise<Response> {
    return answer(request, assets(env), RULES);
  },
};
