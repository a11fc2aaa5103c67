// `404.html`, the HTML page for a page path that does not exist: Cloudflare Pages serves the
// nearest 404.html for a missing file (the worker answers first there), Netlify the root one for
// any missing file, nginx and the preview the same bytes. API paths get `404.json` instead.
import { errorPage } from "../../output/problem.ts";
import type { ErrorPageWords } from "../../routes/pagination.ts";

/** `home`: the index's URL under the snapshot's base path; `words`: the build's language
 * (the edge facts' errorPage), English when absent. */
export function renderNotFoundPage(home = "/", words?: ErrorPageWords): string {
  return errorPage(404, home, words);
}
