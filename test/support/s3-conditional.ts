// A front for the local S3 server (s3rver) adding what it lacks and the deploy lease relies on:
// S3's conditional writes. PutObject and CopyObject with `If-None-Match: *` or `If-Match: <etag>`,
// and DeleteObject with `If-Match`, get 412 PreconditionFailed when the condition does not hold,
// as AWS S3, R2 and MinIO answer. To make the check and the write one atomic step, as S3 does,
// every write and delete of a key waits its turn in a queue for that key, and a condition is
// checked (a HEAD to s3rver) inside that turn. Everything else passes through untouched.
import { createServer, request, type IncomingHttpHeaders, type Server } from "node:http";

export interface ConditionalFront {
  endpoint: string;
  /** Conditional requests refused with 412 so far. */
  refused: number;
  close(): Promise<void>;
}

function headEtag(target: URL, path: string): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const r = request({ host: target.hostname, port: target.port, method: "HEAD", path }, (res) => {
      res.resume();
      resolve(res.statusCode === 200 ? String(res.headers.etag ?? "") : undefined);
    });
    r.on("error", reject);
    r.end();
  });
}

const bare = (etag: string) => etag.replace(/^W\//, "").replace(/"/g, "");

/** Whether the request's conditions hold over the object's current ETag (undefined: no object). */
function holds(h: IncomingHttpHeaders, current: string | undefined): boolean {
  const noneMatch = h["if-none-match"];
  if (noneMatch !== undefined && noneMatch.trim() === "*" && current !== undefined) return false;
  const match = h["if-match"];
  if (match !== undefined) {
    if (current === undefined) return false;
    if (match.trim() !== "*" && !match.split(",").some((t) => bare(t.trim()) === bare(current))) return false;
  }
  return true;
}

/**
 * A ListObjectsV2 request, as s3rver's version-1 listing: s3rver makes its continuation tokens with
 * DES, which OpenSSL 3 refuses, so a listing longer than a page (1,000 keys: the sample's snapshot
 * since issue 47) failed with InternalError. The front asks s3rver with a marker instead and gives
 * the page's last key back as the continuation token. Signatures are not checked (s3-server.ts).
 */
function listV1(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  const q = url.indexOf("?");
  const params = new URLSearchParams(q === -1 ? "" : url.slice(q + 1));
  if (params.get("list-type") !== "2") return undefined;
  const token = params.get("continuation-token") ?? params.get("start-after");
  params.delete("list-type");
  params.delete("continuation-token");
  params.delete("start-after");
  if (token) params.set("marker", token);
  return `${url.slice(0, q)}?${params.toString()}`;
}

/** A version-1 page as version 2's: the last key as NextContinuationToken when truncated. */
function asV2(body: string): string {
  const keys = [...body.matchAll(/<Key>([^<]*)<\/Key>/g)].map((m) => m[1]!);
  const extra =
    `<KeyCount>${keys.length}</KeyCount>` +
    (/<IsTruncated>true<\/IsTruncated>/.test(body) && keys.length > 0
      ? `<NextContinuationToken>${keys.at(-1)!}</NextContinuationToken>`
      : "");
  return body.replace("</ListBucketResult>", `${extra}</ListBucketResult>`);
}

export async function startConditionalFront(upstream: string): Promise<ConditionalFront> {
  const target = new URL(upstream);
  const turns = new Map<string, Promise<void>>();
  const front: ConditionalFront = { endpoint: "", refused: 0, close: async () => {} };

  const forward = (req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse) =>
    new Promise<void>((done) => {
      const v1 = listV1(req.url);
      const up = request(
        {
          host: target.hostname,
          port: target.port,
          method: req.method,
          path: v1 ?? req.url,
          headers: req.headers,
        },
        (r) => {
          if (v1 === undefined || r.statusCode !== 200) {
            res.writeHead(r.statusCode ?? 502, r.headers);
            r.pipe(res);
            r.on("end", done);
            r.on("error", done);
            return;
          }
          const chunks: Buffer[] = [];
          r.on("data", (c: Buffer) => chunks.push(c));
          r.on("error", done);
          r.on("end", () => {
            const body = Buffer.from(asV2(Buffer.concat(chunks).toString("utf8")), "utf8");
            res.writeHead(200, { ...r.headers, "content-length": String(body.length) }).end(body);
            done();
          });
        },
      );
      up.on("error", () => {
        res.writeHead(502).end();
        done();
      });
      req.pipe(up);
    });

  const server: Server = createServer((req, res) => {
    const isWrite = req.method === "PUT" || req.method === "DELETE";
    const path = (req.url ?? "/").split("?")[0]!;
    if (!isWrite) {
      void forward(req, res);
      return;
    }
    const previous = turns.get(path) ?? Promise.resolve();
    const turn = previous.then(async () => {
      const conditional = req.headers["if-none-match"] !== undefined || req.headers["if-match"] !== undefined;
      if (conditional && !holds(req.headers, await headEtag(target, path))) {
        front.refused++;
        req.resume();
        res.writeHead(412, { "Content-Type": "application/xml" });
        res.end(
          '<?xml version="1.0" encoding="UTF-8"?><Error><Code>PreconditionFailed</Code>' +
            "<Message>At least one of the pre-conditions you specified did not hold</Message></Error>",
        );
        return;
      }
      // The condition and the write it guards happen in this key's one turn.
      const h = { ...req.headers };
      delete h["if-none-match"];
      delete h["if-match"];
      req.headers = h;
      await forward(req, res);
    });
    const settled = turn.catch(() => undefined);
    turns.set(path, settled);
    void settled.then(() => {
      if (turns.get(path) === settled) turns.delete(path);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  front.endpoint = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  front.close = () =>
    new Promise((r) => {
      server.closeAllConnections();
      server.close(() => r());
    });
  return front;
}
