// Every host configuration file of the snapshot, rendered from the one rule list. Netlify can
// only enumerate query values, so the stored vocabulary makes its ?tag=/?language= rules exact.
import { EDGE_FILE, hostRules, servedUnder, type Vocabulary } from "../rules.ts";
import { href } from "../../routes/urls.ts";
import { NO_EDGE_FACTS, type EdgeFacts } from "../../routes/pagination.ts";
import { renderCloudflareWorker } from "./cloudflare-pages/cloudflare-worker.ts";
import { renderHeaders } from "./netlify/headers.ts";
import { renderNginx, renderNginxHttp } from "./nginx/nginx.ts";
import { renderNotFoundPage } from "./not-found-page.ts";
import { renderRedirects } from "./netlify/redirects.ts";

/**
 * `facts` (Link headers of paged lists, archived tournaments) make the host files depend on the
 * snapshot's data; the preview and the probe read the same facts from EDGE_FILE.
 */
export function hostFiles(vocab?: Vocabulary, facts: EdgeFacts = NO_EDGE_FACTS): Map<string, string> {
  // Under a base path the file hosts serve the snapshot as that folder of their document root.
  const rules = servedUnder(hostRules(facts));
  return new Map([
    [EDGE_FILE, JSON.stringify(facts, null, 1) + "\n"],
    ["_redirects", renderRedirects(rules, vocab)],
    ["_headers", renderHeaders(rules)],
    ["_worker.js", renderCloudflareWorker(facts)],
    ["404.html", renderNotFoundPage(href(rules.base, "/"), facts.errorPage)],
    ["nginx.conf", renderNginx(rules)],
    ["nginx-http.conf", renderNginxHttp(rules)],
  ]);
}
