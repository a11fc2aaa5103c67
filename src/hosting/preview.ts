// `build-api preview`: serves a snapshot on a local port, answering exactly what the hosts answer:
// every request goes through the rule list (hosting/resolve.ts), so only API responses, the OpenAPI
// document, pages, assets and the embed are reachable, and everything else is a 404. It serves
// only regular files whose real path lies inside the snapshot (never a symlink, never out of it),
// and every error is a problem body (JSON) or, for a page path that does not exist, the HTML page.
import { createHash } from "node:crypto";
import { existsSync, readFileSync, realpathSync, statSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import path from "node:path";
import { errorPage, problemJson, type ErrorStatus } from "../output/problem.ts";
import {
  errorResolution,
  errorUnderBase,
  malformedPath,
  resolveRequest,
  type ErrorAnswer,
} from "./resolve.ts";
import { EDGE_FILE, hostRules, type HostRules } from "./rules.ts";
import type { EdgeFacts, ErrorPageWords } from "../routes/pagination.ts";
import { parseBasePath } from "../routes/urls.ts";
import { BuildError, EXIT } from "../shared/errors.ts";
import { withLiveScript, type LiveReload } from "./live-reload.ts";

export interface PreviewOptions {
  dir: string;
  port: number;
  host: string;
  /** `preview --watch`: the live-reload stream and script (hosting/live-reload.ts). */
  live?: LiveReload;
}

/** The longest path segment any file system here accepts; a longer one can name nothing. */
const MAX_SEGMENT = 255;

/**
 * The real root of the snapshot now. `dist` is a symlink that a build swaps atomically, so it is
 * resolved once per request: each request sees one complete version.
 */
function realRoot(dir: string): string {
  return realpathSync(dir);
}

/** The absolute path of `rel` when it is a regular file inside root reached through no symlink. */
export function snapshotFile(root: string, rel: string): string | null {
  const full = path.join(root, rel);
  if (!full.startsWith(root + path.sep)) return null;
  try {
    // Any symlink on the way makes the real path differ from the joined one.
    if (realpathSync(full) !== full) return null;
    return statSync(full).isFile() ? full : null;
  } catch {
    return null; // missing, ENAMETOOLONG, ENOTDIR, EACCES: no such file
  }
}

function send(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  headers: [string, string][],
  body: Buffer,
) {
  for (const [k, v] of headers) res.setHeader(k, v);
  res.setHeader("Content-Length", body.length);
  res.writeHead(status);
  res.end(req.method === "HEAD" ? undefined : body);
}

/** An error answer; its HTML page in the snapshot's language (`words`: its facts' errorPage). */
function sendError(req: IncomingMessage, res: ServerResponse, r: ErrorAnswer, words?: ErrorPageWords) {
  const body = Buffer.from(r.json ? problemJson(r.status) : errorPage(r.status, r.home, words));
  send(req, res, r.status, r.headers, body);
}

/** The edge facts of a snapshot's EDGE_FILE, or undefined when the text is not such facts. */
export function edgeFacts(text: string): EdgeFacts | undefined {
  try {
    const v = JSON.parse(text) as Partial<EdgeFacts> | null;
    const links = v?.links;
    const archived = v?.archived;
    if (!links || typeof links !== "object" || Array.isArray(links)) return undefined;
    if (!Object.values(links).every((l) => typeof l === "string")) return undefined;
    if (!Array.isArray(archived) || !archived.every((a) => typeof a === "string")) return undefined;
    const basePath = factsBasePath(v?.basePath);
    if (basePath === null) return undefined;
    const errorPage = errorPageWordsOf(v?.errorPage);
    if (errorPage === null) return undefined;
    return { links, archived, ...(basePath && { basePath }), ...(errorPage && { errorPage }) };
  } catch {
    return undefined;
  }
}

/** The error page's words of the facts: undefined when absent, null when not such words. */
function errorPageWordsOf(value: unknown): ErrorPageWords | undefined | null {
  if (value === undefined) return undefined;
  const v = value as Partial<ErrorPageWords> | null;
  const strings = (o: unknown) =>
    !!o && typeof o === "object" && Object.values(o).every((x) => typeof x === "string");
  return v &&
    typeof v.lang === "string" &&
    typeof v.home === "string" &&
    strings(v.titles) &&
    strings(v.texts)
    ? (v as ErrorPageWords)
    : null;
}

/**
 * The base path a snapshot was built for (issue 24.7): the preview serves it under that path, as
 * the hosts do; "" when absent, null when it is not a valid base path (routes/urls.ts).
 */
function factsBasePath(value: unknown): string | null {
  if (value === undefined) return "";
  if (typeof value !== "string") return null;
  try {
    return parseBasePath(value) === value ? value : null;
  } catch {
    return null;
  }
}

/** The language the snapshot in `dir` was built in (its facts' error page words; "en" without):
 * what `preview --watch` rebuilds it in. */
export function snapshotLanguage(dir: string): string {
  const file = snapshotFile(realRoot(path.resolve(dir)), EDGE_FILE);
  return (file && edgeFacts(readFileSync(file, "utf8"))?.errorPage?.lang) || "en";
}

/** The base path the snapshot in `dir` was built for ("" at the root): where the preview serves it. */
export function snapshotBasePath(dir: string): string {
  const root = realRoot(path.resolve(dir));
  const file = snapshotFile(root, EDGE_FILE);
  return (file && edgeFacts(readFileSync(file, "utf8"))?.basePath) || "";
}

/** True when the answer's headers say it is an HTML page. */
function isHtml(headers: [string, string][]): boolean {
  return headers.some(([k, v]) => k.toLowerCase() === "content-type" && v.startsWith("text/html"));
}

export function createPreviewServer(dir: string, live?: LiveReload): Server {
  const root = path.resolve(dir);
  if (!existsSync(path.join(root, "404.json"))) {
    throw new BuildError(
      `No snapshot in ${root}: 404.json is missing.`,
      [{ what: "the directory is not a build-api snapshot", fix: "run build-api build --out " + dir }],
      EXIT.usage,
    );
  }
  // The rules of each snapshot version: its edge facts (Link headers, archived tournaments) are
  // its own, read once per version (a version's files never change after the switch).
  let current: { root: string; rules: HostRules } | null = null;
  const rulesOf = (base: string): HostRules => {
    if (current?.root !== base) {
      const file = snapshotFile(base, EDGE_FILE);
      const facts = file ? edgeFacts(readFileSync(file, "utf8")) : undefined;
      // A damaged facts file costs the Link headers and the archive class, never an answer.
      if (file && !facts) console.error(`preview: ${EDGE_FILE} is not valid: served without its facts`);
      current = { root: base, rules: hostRules(facts) };
    }
    return current.rules;
  };

  const answer = (req: IncomingMessage, res: ServerResponse) => {
    let url: URL;
    try {
      url = requestUrl(req.url ?? "/");
    } catch {
      return sendError(req, res, errorResolution(400, "/api/"));
    }
    const base = realRoot(root);
    const rules = rulesOf(base);
    const error = (status: ErrorStatus) =>
      sendError(req, res, errorUnderBase(status, url.pathname, rules.base), rules.facts.errorPage);
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.setHeader("Allow", "GET, HEAD");
      return error(405);
    }
    // Only a watching preview has these paths: no host rule names them.
    if (live?.handle(req, res, url.pathname)) return;
    if (malformedPath(url.pathname)) return error(400);
    if (url.pathname.split("/").some((s) => s.length > MAX_SEGMENT)) return error(404);
    const r = resolveRequest(rules, url.pathname, url.search, (rel) => snapshotFile(base, rel) !== null);
    if (r.kind === "error") return sendError(req, res, r, rules.facts.errorPage);
    if (r.kind === "redirect") {
      res.setHeader("Location", r.location);
      return send(
        req,
        res,
        308,
        [["Content-Type", "text/plain; charset=utf-8"]],
        Buffer.from(`${r.location}\n`),
      );
    }
    const file = snapshotFile(base, r.file);
    if (!file) return error(404);
    const bytes = readFileSync(file);
    const body = live && isHtml(r.headers) ? withLiveScript(bytes) : bytes;
    const etag = `"${createHash("sha1").update(body).digest("base64url")}"`;
    res.setHeader("ETag", etag);
    const inm = req.headers["if-none-match"];
    if (inm && inm.split(/\s*,\s*/).some((t) => t === etag || t === `W/${etag}` || t === "*")) {
      for (const [k, v] of r.headers) res.setHeader(k, v);
      res.writeHead(304);
      return res.end();
    }
    send(req, res, 200, r.headers, body);
  };

  return createServer((req, res) => {
    try {
      answer(req, res);
    } catch (err) {
      // A bug or an I/O failure: a problem body, one log line, never a stack trace to the client.
      console.error(`preview: ${req.method} ${req.url}: ${(err as Error).message}`);
      if (!res.headersSent) sendError(req, res, errorResolution(500, "/api/"));
      else res.destroy();
    }
  });
}

export function preview(opts: PreviewOptions): Promise<Server> {
  const server = createPreviewServer(opts.dir, opts.live);
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port, opts.host, () => resolve(server));
  });
}

/**
 * The request target as a URL. An origin-form target is a path, even one that starts with `//`:
 * parsed against a base, `//evil.example/` would name another host and leave the path `/` (the
 * index page), where the hosts look up the key `//evil.example/` and answer 404. An absolute-form
 * target (as a proxy sends it) is the same request.
 */
export function requestUrl(target: string): URL {
  return target.startsWith("/")
    ? new URL(`http://preview.invalid${target}`)
    : new URL(target, "http://preview.invalid");
}
