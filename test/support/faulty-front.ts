// A front on loopback for a deploy's faults: it passes requests on to an S3 server, except those a
// rule picks, which it answers with an error of its choosing, or accepts and never answers (a hung
// gateway). The sockets it holds open are destroyed when it closes.
import { createServer, request, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/** What the front does with one request. */
export type Fault = "pass" | "hang" | { status: number; code: string };

export interface FaultyFront {
  endpoint: string;
  /** Decides each request's fate; default: pass everything. */
  rule: (method: string, url: string) => Fault;
  /** Requests held without an answer so far. */
  hung: number;
  close(): Promise<void>;
}

function pass(upstream: URL, req: IncomingMessage, res: ServerResponse): void {
  const up = request(
    { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
    (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    },
  );
  up.on("error", () => res.writeHead(502).end());
  req.pipe(up);
}

function refuse(res: ServerResponse, status: number, code: string): void {
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${code} from the faulty front</Message></Error>`;
  res.writeHead(status, { "content-type": "application/xml", "content-length": Buffer.byteLength(body) });
  res.end(body);
}

export async function startFaultyFront(upstream: string): Promise<FaultyFront> {
  const target = new URL(upstream);
  const sockets = new Set<Socket>();
  const front: FaultyFront = { endpoint: "", rule: () => "pass", hung: 0, close: async () => {} };
  const server = createServer((req, res) => {
    const fault = front.rule(req.method ?? "GET", req.url ?? "/");
    if (fault === "pass") return pass(target, req, res);
    // Read the body either way, so the client's upload is not what stalls.
    req.resume();
    if (fault === "hang") {
      front.hung++;
      return;
    }
    req.on("end", () => refuse(res, fault.status, fault.code));
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  front.endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  front.close = () =>
    new Promise<void>((r) => {
      for (const s of sockets) s.destroy();
      server.close(() => r());
    });
  return front;
}
