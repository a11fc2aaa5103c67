// `build-api preview`: serves a snapshot with serve-handler and the snapshot's own serve.json.
// serve-handler ignores query strings, so the query forms (?tag=, ?language=) are mapped onto
// their path forms here first, from the same rule list the hosts get.
import { existsSync, readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import path from "node:path";
import handler from "serve-handler";
import { ERROR_CACHE_POLICY } from "./emit/cache.ts";
import { NOT_FOUND_FILE } from "./emit/problem.ts";
import { hostRules, type QueryRule } from "./emit/rules.ts";
import { BuildError, EXIT } from "./errors.ts";

export interface PreviewOptions {
  dir: string;
  port: number;
  host: string;
}

/** A URL pattern with {params} as a regular expression over one path segment each. */
function patternRegExp(url: string): RegExp {
  const source = url
    .split(/\{\w+\}/)
    .map((part) => part.replace(/[.*+?^$()|[\]\\{}]/g, "\\$&"))
    .join("([^/]+)");
  return new RegExp(`^${source}/?$`);
}

/** Maps a query form onto its path form; returns null when the request has none. */
export function queryToPath(
  pathname: string,
  search: URLSearchParams,
  rules: QueryRule[],
  exists: (urlPath: string) => boolean,
): string | null {
  for (const rule of rules) {
    const value = search.get(rule.param);
    if (value === null) continue;
    const m = patternRegExp(rule.url).exec(pathname);
    if (!m) continue;
    const names = [...rule.url.matchAll(/\{(\w+)\}/g)].map((x) => x[1]);
    const fill = (template: string, extra: Record<string, string>) =>
      template.replace(/\{(\w+)\}/g, (_, n: string) => extra[n] ?? m[names.indexOf(n) + 1]);
    // A value that cannot be a path segment can never match a stored tag or language.
    const safe = /^[A-Za-z0-9-]+$/.test(value);
    const target = safe ? fill(rule.target, { [rule.param]: value }) : null;
    if (target && exists(target)) return target;
    if (rule.fallback && exists(fill(rule.fallback, {}))) return fill(rule.fallback, {});
    // No such value and no fallback: a path that no file answers, hence the JSON 404.
    return `${pathname.replace(/\/$/, "")}/${rule.param}/-unknown-`;
  }
  return null;
}

export function createPreviewServer(dir: string): Server {
  const root = path.resolve(dir);
  if (!existsSync(path.join(root, "serve.json"))) {
    throw new BuildError(
      `No snapshot in ${root}: serve.json is missing.`,
      [{ what: "the directory is not a build-api snapshot", fix: "run build-api build --out " + dir }],
      EXIT.usage,
    );
  }
  const config = { ...JSON.parse(readFileSync(path.join(root, "serve.json"), "utf8")), public: root };
  const { queries } = hostRules();
  const exists = (urlPath: string) => existsSync(path.join(root, urlPath, "index.json"));
  const notFound = readFileSync(path.join(root, NOT_FOUND_FILE));

  const sendProblem = (res: ServerResponse, status: number, title: string) => {
    const body =
      status === 404
        ? notFound
        : Buffer.from(JSON.stringify({ type: "about:blank", title, status, detail: title }));
    res.writeHead(status, {
      "Content-Type": "application/json; charset=utf-8",
      "Cache-Control": ERROR_CACHE_POLICY,
      "Content-Length": body.length,
    });
    res.end(body);
  };

  return createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.setHeader("Allow", "GET, HEAD");
      sendProblem(res, 405, "Method Not Allowed");
      return;
    }
    const url = new URL(req.url ?? "/", "http://preview.invalid");
    const mapped = queryToPath(url.pathname, url.searchParams, queries, exists);
    if (mapped) req.url = mapped;
    // Temporary until the route model serves pages on every host (issue 13, item 7): a page
    // URL, a directory with a trailing slash, is answered by its index.html.
    else if (url.pathname.endsWith("/") && existsSync(path.join(root, url.pathname, "index.html")))
      req.url = `${url.pathname}index.html`;
    void handler(req, res, config, {
      // Every error is a problem+JSON body, whatever the Accept header says.
      sendError: async (_abs, response, _json, _current, _handlers, _config, spec) => {
        sendProblem(response ?? res, spec.statusCode, spec.statusCode === 404 ? "Not Found" : spec.message);
      },
    });
  });
}

export function preview(opts: PreviewOptions): Promise<Server> {
  const server = createPreviewServer(opts.dir);
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port, opts.host, () => resolve(server));
  });
}
