// `404.html` holding the problem JSON: Cloudflare Pages serves the nearest 404.html for a missing
// file (and index.html with 200 when there is none), Netlify the root one when a rewrite target
// is missing. Either way the body is the same problem document as 404.json.
import { toJson } from "../json.ts";
import { NOT_FOUND } from "../problem.ts";

export function renderNotFoundPage(): string {
  return toJson(NOT_FOUND);
}
