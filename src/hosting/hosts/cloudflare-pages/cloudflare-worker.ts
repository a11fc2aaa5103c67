// `_worker.js` for Cloudflare Pages (advanced mode): the edge entry src/hosting/hosts/cloudflare-pages/runtime/cloudflare-pages.ts
// bundled with the resolver the preview runs (hosting/resolve.ts) and the rule list it computes
// itself, checked in under edge/generated/ (`npm run gen-edge`), so the build writes the same
// bytes whether it runs from src/ or lib/ and needs no bundler at run time.
// The snapshot's edge facts go in front of the bundle as the constant EDGE_FACTS that the entry
// reads (runtime/cloudflare-pages.ts): the same facts the preview reads from EDGE_FILE.
import { CLOUDFLARE_PAGES_WORKER } from "./runtime/generated/cloudflare-pages.ts";
import type { EdgeFacts } from "../../../routes/pagination.ts";

export function renderCloudflareWorker(facts: EdgeFacts): string {
  const nl = CLOUDFLARE_PAGES_WORKER.indexOf("\n") + 1;
  const header = CLOUDFLARE_PAGES_WORKER.slice(0, nl);
  // The base path only when there is one: a root snapshot's worker keeps its bytes.
  const base = facts.basePath ? `,\n "basePath": ${JSON.stringify(facts.basePath)}` : "";
  // The error page's words only in another language than English: an English worker keeps its bytes.
  const words = facts.errorPage ? `,\n "errorPage": ${JSON.stringify(facts.errorPage)}` : "";
  const prefix = `const EDGE_FACTS = {\n "links": ${JSON.stringify(facts.links)},\n "archived": ${JSON.stringify(facts.archived)}${base}${words}\n};\n`;
  return header + prefix + CLOUDFLARE_PAGES_WORKER.slice(nl);
}
