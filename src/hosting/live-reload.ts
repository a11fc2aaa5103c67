// Live reload for `build-api preview --watch` only: a Server-Sent Events stream that says "a new
// build is live", a small script file that listens to it and reloads the page, and the <script>
// element the watching preview adds to each HTML page it serves. The pages send a strict
// Content-Security-Policy (script-src 'self', connect-src 'self': hosting/rules.ts), so the script
// is a file of the same origin, never inline. These paths exist only in a watching preview: no
// host rule names them, a built snapshot holds nothing of this, and a plain preview answers 404.
import type { IncomingMessage, ServerResponse } from "node:http";

/** The event stream: one `build` event per new snapshot that went live. */
export const LIVE_EVENTS_PATH = "/_build-api/events";
/** The script the watching preview adds to every page. */
export const LIVE_SCRIPT_PATH = "/_build-api/live-reload.js";

/**
 * Reloads the page when a build event arrives. EventSource reconnects by itself when the preview
 * restarts; the page then reloads on the next build.
 */
export const LIVE_SCRIPT = `// build-api preview --watch: reload this page when a new build is live.
"use strict";
new EventSource(${JSON.stringify(LIVE_EVENTS_PATH)}).addEventListener("build", function () {
  location.reload();
});
`;

const SCRIPT_TAG = `<script src="${LIVE_SCRIPT_PATH}" defer></script>`;

/** A comment line every so often keeps proxies and browsers from dropping an idle stream. */
const KEEP_ALIVE_MS = 15_000;

/** The HTML page with the live-reload script added before `</head>` (or at the end). */
export function withLiveScript(html: Buffer): Buffer {
  const text = html.toString("utf8");
  const at = text.lastIndexOf("</head>");
  const out = at < 0 ? text + SCRIPT_TAG : text.slice(0, at) + SCRIPT_TAG + text.slice(at);
  return Buffer.from(out, "utf8");
}

export class LiveReload {
  private readonly clients = new Set<ServerResponse>();
  private readonly keepAlive: NodeJS.Timeout;

  constructor() {
    this.keepAlive = setInterval(() => {
      for (const res of this.clients) res.write(": keep-alive\n\n");
    }, KEEP_ALIVE_MS);
    this.keepAlive.unref();
  }

  /** Answers the two live-reload paths; false for any other path (the host rules answer it). */
  handle(req: IncomingMessage, res: ServerResponse, pathname: string): boolean {
    if (pathname === LIVE_SCRIPT_PATH) {
      const body = Buffer.from(LIVE_SCRIPT, "utf8");
      res.writeHead(200, {
        "Content-Type": "text/javascript; charset=utf-8",
        "Content-Length": body.length,
        "Cache-Control": "no-store",
        "X-Content-Type-Options": "nosniff",
      });
      res.end(req.method === "HEAD" ? undefined : body);
      return true;
    }
    if (pathname !== LIVE_EVENTS_PATH) return false;
    res.writeHead(200, {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    });
    if (req.method === "HEAD") {
      res.end();
      return true;
    }
    // The first bytes tell the client the stream is open (and flush the headers).
    res.write(": build-api preview --watch\n\n");
    this.clients.add(res);
    req.on("close", () => this.clients.delete(res));
    return true;
  }

  /** Tells every open page that `version` (the live snapshot's directory name) is live. */
  built(version: string): void {
    const data = JSON.stringify({ version });
    for (const res of this.clients) res.write(`event: build\ndata: ${data}\n\n`);
  }

  /** The open event streams (a test and the log count them). */
  get listeners(): number {
    return this.clients.size;
  }

  close(): void {
    clearInterval(this.keepAlive);
    for (const res of this.clients) res.end();
    this.clients.clear();
  }
}
