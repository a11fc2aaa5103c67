// Every host configuration file of the snapshot, rendered from the one rule list. Netlify can
// only enumerate query values, so the stored vocabulary makes its ?tag=/?language= rules exact.
import { hostRules, type Vocabulary } from "../rules.ts";
import { renderCloudflareWorker } from "./cloudflare-worker.ts";
import { renderHeaders } from "./headers.ts";
import { renderNginx, renderNginxHttp } from "./nginx.ts";
import { renderNotFoundPage } from "./not-found-page.ts";
import { renderRedirects } from "./redirects.ts";

export function hostFiles(vocab?: Vocabulary): Map<string, string> {
  const rules = hostRules();
  return new Map([
    ["_redirects", renderRedirects(rules, vocab)],
    ["_headers", renderHeaders(rules)],
    ["_worker.js", renderCloudflareWorker()],
    ["404.html", renderNotFoundPage()],
    ["nginx.conf", renderNginx(rules)],
    ["nginx-http.conf", renderNginxHttp(rules)],
  ]);
}
