// `_worker.js` for Cloudflare Pages (advanced mode): the edge entry src/hosting/edge/cloudflare-pages.ts
// bundled with the resolver the preview runs (hosting/resolve.ts) and the rule list it computes
// itself, checked in under edge/generated/ (`npm run gen-edge`), so the build writes the same
// bytes whether it runs from src/ or lib/ and needs no bundler at run time.
import { CLOUDFLARE_PAGES_WORKER } from "../edge/generated/cloudflare-pages.ts";

export function renderCloudflareWorker(): string {
  return CLOUDFLARE_PAGES_WORKER;
}
