// The deploy's writes to the CloudFront KeyValueStore (deploy/kvs.ts): in O(change) when the
// store's marker is the generation the bucket held (only the tag files sent or removed are put or
// deleted), in full otherwise (listed once, brought to the snapshot, keys no tag rule names left
// alone), in batches within CloudFront's 50 keys, each over the ETag before it; and the SDK's
// requests, against a local endpoint that answers as the service documents.
import { Agent, createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MARKER_KEY, syncKeyValueStore } from "../../../src/deploy/kvs.ts";
import { openKeyValueStore } from "../../../src/deploy/kvs-client.ts";
import { MemoryKvs } from "../../support/kvs-memory.ts";

const tag = (club: number, t: string) => `api/clubs/club-${club}/tournaments/tag/${t}/index.json`;
const snapshot = (clubs: number) => {
  const out = [
    "index.html",
    "api/public/v1/tournaments/index.json",
    "api/public/v1/tournaments/tag/open/index.json",
  ];
  for (let c = 0; c < clubs; c++)
    out.push(`api/clubs/club-${c}/tournaments/index.json`, tag(c, "a"), tag(c, "b"));
  return out;
};
const g = (generation: number) => ({ log: "L1", generation });

describe("syncKeyValueStore", () => {
  it("fills an empty store in full, in batches of at most 50 keys, the marker last", async () => {
    const kvs = new MemoryKvs();
    kvs.data.set("someone-else", "x");
    const r = await syncKeyValueStore(kvs, {
      from: undefined,
      to: g(3),
      written: [],
      removed: [],
      allFiles: () => snapshot(100),
    });
    expect(r).toMatchObject({ full: true, puts: 201, deletes: 0 });
    expect(kvs.lists).toBe(1);
    expect(Math.max(...kvs.updates)).toBeLessThanOrEqual(50);
    expect(kvs.updates.reduce((a, b) => a + b, 0)).toBe(202); // and the marker
    expect(kvs.data.get(MARKER_KEY)).toBe("L1 3");
    expect(kvs.data.get(tag(99, "b"))).toBe("1");
    expect(kvs.data.has("api/clubs/club-0/tournaments/index.json")).toBe(false);
    expect(kvs.data.get("someone-else")).toBe("x");
  });

  it("on a tick puts and deletes only the tag files sent and removed, without listing", async () => {
    const kvs = new MemoryKvs();
    await syncKeyValueStore(kvs, {
      from: undefined,
      to: g(3),
      written: [],
      removed: [],
      allFiles: () => snapshot(3000),
    });
    const lists = kvs.lists;
    const updates = kvs.updates.length;
    const r = await syncKeyValueStore(kvs, {
      from: g(3),
      to: g(4),
      written: [tag(5, "new"), "api/clubs/club-5/tournaments/index.json", "tournaments/9/index.html"],
      removed: [tag(6, "a"), "tournaments/8/index.html"],
      allFiles: () => {
        throw new Error("a tick reads no snapshot listing");
      },
    });
    expect(r).toEqual({ full: false, puts: 1, deletes: 1, requests: 3 });
    expect(kvs.lists).toBe(lists);
    expect(kvs.updates.slice(updates)).toEqual([3]); // put, delete, marker: one request
    expect(kvs.data.has(tag(5, "new"))).toBe(true);
    expect(kvs.data.has(tag(6, "a"))).toBe(false);
    expect(kvs.data.get(MARKER_KEY)).toBe("L1 4");
  });

  it("compares in full when the marker is not the record's generation (a kill between the two)", async () => {
    const kvs = new MemoryKvs();
    await syncKeyValueStore(kvs, {
      from: undefined,
      to: g(5),
      written: [],
      removed: [],
      allFiles: () => snapshot(4),
    });
    kvs.data.set(tag(1, "stale"), "1");
    const r = await syncKeyValueStore(kvs, {
      from: g(4),
      to: g(6),
      written: [],
      removed: [],
      allFiles: () => snapshot(3),
    });
    expect(r).toMatchObject({ full: true, puts: 0, deletes: 3 });
    expect(kvs.data.has(tag(1, "stale"))).toBe(false);
    expect(kvs.data.has(tag(3, "a"))).toBe(false);
    // Asked to (a resumed deploy, a full plan): compared in full though the marker matches.
    const lists = kvs.lists;
    const forced = await syncKeyValueStore(kvs, {
      from: g(6),
      to: g(6),
      written: [],
      removed: [],
      allFiles: () => snapshot(3),
      full: true,
    });
    expect(forced).toMatchObject({ full: true, puts: 0, deletes: 0 });
    expect(kvs.lists).toBe(lists + 1);
    // Up to date: nothing written.
    const n = kvs.updates.length;
    const again = await syncKeyValueStore(kvs, {
      from: g(6),
      to: g(6),
      written: [],
      removed: [],
      allFiles: () => [],
    });
    expect(again).toEqual({ full: false, puts: 0, deletes: 0, requests: 2 });
    expect(kvs.updates.length).toBe(n);
  });
});

describe("openKeyValueStore (the SDK) against a local endpoint", () => {
  const data = new Map<string, string>([["a", "1"]]);
  let etag = 1;
  const seen: { method: string; url: string; ifMatch?: string; auth?: string; body?: unknown }[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      // The ARN holds a slash, sent encoded: match first, decode each part after.
      const raw = req.url ?? "";
      const url = decodeURIComponent(raw);
      seen.push({
        method: req.method!,
        url,
        ...(req.headers["if-match"] && { ifMatch: String(req.headers["if-match"]) }),
        auth: String(req.headers.authorization ?? ""),
        ...(body && { body: JSON.parse(body) as unknown }),
      });
      const json = (status: number, o: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { "content-type": "application/json", ...headers });
        res.end(JSON.stringify(o));
      };
      const m = /^\/key-value-stores\/([^/?]+)(\/keys(?:\/([^?]+))?)?(\?.*)?$/
        .exec(raw)
        ?.map((p) => (p === undefined ? p : decodeURIComponent(p)));
      if (!m) return json(400, { Message: "bad path" });
      if (req.method === "GET" && !m[2])
        return json(
          200,
          { ItemCount: data.size, TotalSizeInBytes: 10, KvsARN: m[1], Created: 0 },
          { etag: `E${etag}` },
        );
      if (req.method === "GET" && m[3]) {
        const v = data.get(m[3]);
        if (v === undefined)
          return json(404, { Message: "no key" }, { "x-amzn-errortype": "ResourceNotFoundException" });
        return json(200, { Key: m[3], Value: v, ItemCount: data.size, TotalSizeInBytes: 10 });
      }
      if (req.method === "GET")
        return json(200, { Items: [...data].map(([Key, Value]) => ({ Key, Value })) });
      if (req.method === "POST") {
        if (req.headers["if-match"] !== `E${etag}`)
          return json(409, { Message: "etag" }, { "x-amzn-errortype": "ConflictException" });
        const b = JSON.parse(body) as {
          Puts?: { Key: string; Value: string }[];
          Deletes?: { Key: string }[];
        };
        for (const d of b.Deletes ?? []) data.delete(d.Key);
        for (const p of b.Puts ?? []) data.set(p.Key, p.Value);
        etag++;
        return json(200, { ItemCount: data.size, TotalSizeInBytes: 10 }, { etag: `E${etag}` });
      }
      json(400, { Message: "unexpected" });
    });
  });
  let endpoint = "";
  const arn = "arn:aws:cloudfront::123456789012:key-value-store/0123abcd-0000-0000-0000-000000000000";
  beforeAll(async () => {
    Object.assign(process.env, { AWS_ACCESS_KEY_ID: "test", AWS_SECRET_ACCESS_KEY: "test" });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((r) => server.close(r)));

  it("describes, reads, lists and updates over the store's ETag, signed with SigV4A", async () => {
    // The SDK puts the ARN's account in front of the endpoint's host: this agent sends every host
    // to the local server.
    const httpAgent = new Agent({
      lookup: ((_host: string, opts: { all?: boolean }, cb: (...a: unknown[]) => void) =>
        opts.all ? cb(null, [{ address: "127.0.0.1", family: 4 }]) : cb(null, "127.0.0.1", 4)) as never,
    });
    const kvs = openKeyValueStore(arn, { endpoint: endpoint.replace("127.0.0.1", "kvs.test"), httpAgent });
    try {
      const r = await syncKeyValueStore(kvs, {
        from: undefined,
        to: g(2),
        written: [],
        removed: [],
        allFiles: () => [tag(1, "x"), "api/clubs/club-1/tournaments/index.json"],
      });
      expect(r).toMatchObject({ full: true, puts: 1, deletes: 0 });
      expect(data.get(tag(1, "x"))).toBe("1");
      expect(data.get(MARKER_KEY)).toBe("L1 2");
      expect(data.get("a")).toBe("1"); // not a tag key: left alone
      const update = seen.find((s) => s.method === "POST")!;
      expect(update.url).toBe(`/key-value-stores/${arn}/keys`);
      expect(update.ifMatch).toBe("E1");
      expect(update.body).toEqual({
        Puts: [
          { Key: tag(1, "x"), Value: "1" },
          { Key: MARKER_KEY, Value: "L1 2" },
        ],
      });
      expect(update.auth).toMatch(/^AWS4-ECDSA-P256-SHA256 /);
      expect(await kvs.get("missing")).toBeUndefined();
      expect(await kvs.etag()).toBe("E2");
    } finally {
      kvs.close();
    }
  });
});
