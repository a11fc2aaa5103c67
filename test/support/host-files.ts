// What the host tests share: the host files of a small vocabulary, and the requests whose answers
// the Cloudflare worker and the preview's resolver must agree on, over a model of Pages' assets.
import { hostFiles } from "../../src/hosting/hosts/index.ts";
import { errorPage, problemJson } from "../../src/output/problem.ts";
import { HTML_TYPE, INTERNAL_FILES, JSON_TYPE } from "../../src/hosting/rules.ts";

export const HOST_VOCAB = { clubTags: ["open", "juniors"], globalTags: ["rapid"], languages: ["es", "en"] };
const files = hostFiles(HOST_VOCAB);

/** A host file of a snapshot whose store holds the tags open, juniors (clubs), rapid (global). */
export function hostFile(name: string): string {
  const text = files.get(name);
  if (text === undefined) throw new Error(`no ${name}`);
  return text;
}

// env.ASSETS as Pages has it: _redirects rewrites an API path form to its index.json, a slash
// URL answers its index.html, a file answers itself.
export const ASSET_FILES = new Map<string, string>([
  ["api/public/v1/tournaments/index.json", "[1,2]"],
  ["api/public/v1/tournaments/tag/index.json", "[]"],
  ["api/public/v1/tournaments/tag/rapid/index.json", "[2]"],
  ["api/public/v1/tournaments/42/index.json", '{"id":42}'],
  ["api/public/v1/tournaments/42/recaps/index.json", '"es"'],
  ["api/public/v1/tournaments/42/recaps/language/en/index.json", '"en"'],
  ["api/public/v1/openapi.json", '{"openapi":"3.1.0"}'],
  ["api/clubs/gros/tournaments/42/index.json", '{"club":42}'],
  // A team event's own team resource beside its team standings (issue 46): `{team}` is digits.
  ["api/public/v1/tournaments/42/teams/7/index.json", '{"team":7}'],
  ["api/public/v1/tournaments/42/teams/standings/index.json", '{"teams":[7]}'],
  ["api/clubs/gros/tournaments/42/teams/7/index.json", '{"clubTeam":7}'],
  ["tournaments/42/teams/7/index.html", "<p>team 7"],
  ["index.html", "<p>index"],
  ["tournaments/42/index.html", "<p>42"],
  ["page/1/index.html", "<p>index page 1"],
  ["tournaments/42/live/index.html", "<p>live"],
  ["tournaments/42/recaps/en/index.html", "<p>recaps en"],
  ["assets/site.css", "body{}"],
  ["embed/embed.js", "x"],
  ["assets/notes.txt", "private"],
  ["404.json", problemJson(404)],
  ["404.html", errorPage(404)],
  ...INTERNAL_FILES.map((f) => [f, `internal ${f}`] as [string, string]),
]);

export function assetsFetch(req: Request): Response {
  const p = new URL(req.url).pathname.slice(1);
  const key = [p, `${p}/index.json`, `${p}index.html`].find((k) => ASSET_FILES.has(k));
  if (key === undefined) return new Response("not found", { status: 404 });
  if (req.headers.get("If-None-Match") === `"${key}"`) return new Response(null, { status: 304 });
  return new Response(req.method === "HEAD" ? null : ASSET_FILES.get(key)!, {
    status: 200,
    headers: { ETag: `"${key}"` },
  });
}

export type Answer = [number, string, string | null, string | null];

/** Requests whose answers the worker and the preview's resolver must agree on. */
export const CASES: [string, Answer][] = [
  ["/api/public/v1/tournaments", [200, "[1,2]", JSON_TYPE, null]],
  ["/api/public/v1/tournaments/?tag=rapid", [200, "[2]", JSON_TYPE, null]],
  ["/api/public/v1/tournaments?tag=nope", [200, "[]", JSON_TYPE, null]],
  ["/api/public/v1/tournaments?tag=../x", [200, "[]", JSON_TYPE, null]],
  // An empty tag names no list: a 404 problem, in every form (docs/design/lists-and-caching.md).
  ["/api/public/v1/tournaments?tag=", [404, problemJson(404), JSON_TYPE, null]],
  ["/api/public/v1/tournaments/?tag", [404, problemJson(404), JSON_TYPE, null]],
  ["/api/public/v1/tournaments/tag", [404, problemJson(404), JSON_TYPE, null]],
  ["/api/public/v1/tournaments/tag/", [404, problemJson(404), JSON_TYPE, null]],
  ["/api/public/v1/tournaments/tag/index.json", [404, problemJson(404), JSON_TYPE, null]],
  ["/api/clubs/gros/tournaments?tag=", [404, problemJson(404), JSON_TYPE, "*"]],
  ["/api/clubs/gros/tournaments/tag", [404, problemJson(404), JSON_TYPE, "*"]],
  ["/api/public/v1/tournaments/42/recaps?language=", [404, problemJson(404), JSON_TYPE, null]],
  ["/api/public/v1/tournaments/42/recaps", [200, '"es"', JSON_TYPE, null]],
  ["/api/public/v1/tournaments/42/recaps?language=en", [200, '"en"', JSON_TYPE, null]],
  ["/api/public/v1/tournaments/42/recaps?language=zz", [404, problemJson(404), JSON_TYPE, null]],
  ["/api/public/v1/openapi.json", [200, '{"openapi":"3.1.0"}', JSON_TYPE, null]],
  ["/api/clubs/gros/tournaments/42/", [200, '{"club":42}', JSON_TYPE, "*"]],
  ["/api/clubs/gros/tournaments/43", [404, problemJson(404), JSON_TYPE, "*"]],
  ["/api/clubs/nope/tournaments?tag=x", [404, problemJson(404), JSON_TYPE, "*"]],
  ["/api/public/v1/tournaments/43", [404, problemJson(404), JSON_TYPE, null]],
  ["/api/public/v1/tournaments/tag/nope", [404, problemJson(404), JSON_TYPE, null]],
  ["/api/public/v1/tournaments/42/index.json", [404, problemJson(404), JSON_TYPE, null]],
  ["/api/nothing", [404, problemJson(404), JSON_TYPE, null]],
  ["/api/public/v1/tournaments/%00", [400, problemJson(400), JSON_TYPE, null]],
  ["/api/%zz", [400, problemJson(400), JSON_TYPE, null]],
  // One team of a team event, on both surfaces (the public team resources allow CORS).
  ["/api/public/v1/tournaments/42/teams/7", [200, '{"team":7}', JSON_TYPE, "*"]],
  ["/api/public/v1/tournaments/42/teams/7/", [200, '{"team":7}', JSON_TYPE, "*"]],
  ["/api/public/v1/tournaments/42/teams/standings", [200, '{"teams":[7]}', JSON_TYPE, "*"]],
  ["/api/clubs/gros/tournaments/42/teams/7", [200, '{"clubTeam":7}', JSON_TYPE, "*"]],
  ["/api/public/v1/tournaments/42/teams/8", [404, problemJson(404), JSON_TYPE, null]],
  ["/api/public/v1/tournaments/42/teams/x7", [404, problemJson(404), JSON_TYPE, null]],
  ["/api/public/v1/tournaments/42/teams/matches", [404, problemJson(404), JSON_TYPE, null]],
  ["/tournaments/42/teams/7/", [200, "<p>team 7", HTML_TYPE, null]],
  ["/tournaments/42/teams/x7/", [404, errorPage(404), HTML_TYPE, null]],
  ["/", [200, "<p>index", HTML_TYPE, null]],
  ["/tournaments/42/", [200, "<p>42", HTML_TYPE, null]],
  // The index's numbered pages (a long list): a page number is [1-9][0-9]*, and only a page the
  // snapshot holds is served.
  ["/page/1/", [200, "<p>index page 1", HTML_TYPE, null]],
  ["/page/1?x=1", [308, "", null, "/page/1/?x=1"]],
  ["/page/2/", [404, errorPage(404), HTML_TYPE, null]],
  ["/page/2", [404, errorPage(404), HTML_TYPE, null]],
  ["/page/0/", [404, errorPage(404), HTML_TYPE, null]],
  ["/page/01/", [404, errorPage(404), HTML_TYPE, null]],
  ["/page/x/", [404, errorPage(404), HTML_TYPE, null]],
  ["/page/", [404, errorPage(404), HTML_TYPE, null]],
  ["/page/1/index.html", [404, errorPage(404), HTML_TYPE, null]],
  ["/tournaments/42/live/", [200, "<p>live", HTML_TYPE, null]],
  ["/tournaments/42/recaps/en/", [200, "<p>recaps en", HTML_TYPE, null]],
  ["/tournaments/42/live?x=1", [308, "", null, "/tournaments/42/live/?x=1"]],
  ["/tournaments/42", [308, "", null, "/tournaments/42/"]],
  // The query as sent, not re-encoded (a space stays %20, a bare name gets no "=").
  ["/tournaments/42?a=b%20c&x", [308, "", null, "/tournaments/42/?a=b%20c&x"]],
  ["/tournaments/43", [404, errorPage(404), HTML_TYPE, null]],
  ["/tournaments/43/standings/", [404, errorPage(404), HTML_TYPE, null]],
  ["/tournaments/42/index.html", [404, errorPage(404), HTML_TYPE, null]],
  ["/index.html", [404, errorPage(404), HTML_TYPE, null]],
  ["/assets/site.css", [200, "body{}", "text/css; charset=utf-8", null]],
  ["/embed/embed.js", [200, "x", "text/javascript; charset=utf-8", "*"]],
  ["/assets/notes.txt", [404, errorPage(404), HTML_TYPE, null]],
  ["/assets/.hidden.css", [404, errorPage(404), HTML_TYPE, null]],
  ...INTERNAL_FILES.map((f): [string, Answer] => [`/${f}`, [404, errorPage(404), HTML_TYPE, null]]),
  ["/404.json", [404, errorPage(404), HTML_TYPE, null]],
];

/** status, body, Content-Type, and CORS (or Location for a redirect). */
export async function answerOf(res: Response): Promise<Answer> {
  const last =
    res.status === 308 ? res.headers.get("location") : res.headers.get("access-control-allow-origin");
  return [res.status, await res.text(), res.status === 308 ? null : res.headers.get("content-type"), last];
}
