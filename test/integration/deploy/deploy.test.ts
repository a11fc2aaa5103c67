// deploy against a real S3-compatible server on loopback: a first deploy puts every served file
// with its metadata from the rule list; after a one-tournament change exactly the changed objects
// are written; an unchanged snapshot sends nothing; a removed tournament's objects go, after the
// uploads; host configs and bookkeeping never reach the bucket.
import { readFileSync, writeFileSync } from "node:fs";
import vm from "node:vm";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build } from "../../../src/pipeline/build.ts";
import { deploy, type DeployOptions } from "../../../src/deploy/deploy.ts";
import { objectSpec } from "../../../src/deploy/objects.ts";
import { r2WorkerText } from "../../../src/deploy/edge-code.ts";
import type { Env } from "../../../src/hosting/hosts/r2/runtime/r2-worker.ts";
import { CLOUDFRONT_RESPONSE_FUNCTION } from "../../../src/hosting/hosts/cloudfront/runtime/generated/cloudfront-response.ts";
import { ARCHIVE_CACHE_CONTROL } from "../../../src/hosting/rules.ts";
import { PENDING_KEY, RECORD_KEY } from "../../../src/deploy/record.ts";
import { LEASE_KEY } from "../../../src/deploy/lease.ts";
import { readSnapshotFiles } from "../../../src/deploy/snapshot-files.ts";
import { buildSample, SAMPLE_NOW } from "../../support/e2e.ts";
import { removeTempDirs, tempDir } from "../../support/temp.ts";
import { EDGE_FILE } from "../../../src/hosting/rules.ts";
import { S3_ENV, startS3, type LocalS3 } from "../../support/s3-server.ts";

let s3: LocalS3;
let work: string;
let db: string;
let out: string;

beforeAll(async () => {
  Object.assign(process.env, S3_ENV);
  s3 = await startS3();
  work = tempDir("deploy");
  ({ db, out } = await buildSample(work));
}, 60_000);

afterAll(async () => {
  await s3?.close();
  removeTempDirs();
});

const options = (prefix: string): DeployOptions => ({
  dir: out,
  bucket: s3.bucket,
  prefix,
  endpoint: s3.endpoint,
  pathStyle: true,
  concurrency: 8,
});

/** The served files of the snapshot now: what the bucket must hold. */
function served(): Map<string, string> {
  const m = new Map<string, string>();
  for (const [p, f] of readSnapshotFiles(out).files) if (objectSpec(p)) m.set(p, f.sha256);
  return m;
}

const puts = () => s3.events.filter((e) => e.name === "ObjectCreated:Put").map((e) => e.key);
const deletes = () => s3.events.filter((e) => e.name === "ObjectRemoved:Delete").map((e) => e.key);

describe("deploy to an S3-compatible bucket", () => {
  it("puts every served file once, with Content-Type, Cache-Control and tags from the rule list", async () => {
    s3.events.length = 0;
    const report = await deploy(options("site/"));
    const want = served();
    const archived = new Set(
      JSON.parse(readFileSync(path.join(out, EDGE_FILE), "utf8")).archived as string[],
    );
    expect(report.sent).toBe(want.size);
    expect(report.full).toBe(true);
    expect(await s3.list("site/")).toEqual([...want.keys(), RECORD_KEY].sort());
    // Host configs and bookkeeping are in the snapshot but never in the bucket.
    for (const internal of ["_worker.js", "_headers", "nginx.conf", ".build-api-manifest.json"])
      expect(want.has(internal)).toBe(false);
    const keys = puts().filter((k) => !k.includes("_build-api-deploy"));
    expect(keys.length).toBe(want.size);
    for (const file of ["api/clubs/hobsons-bay/tournaments/index.json", "index.html", "assets/site.css"]) {
      if (!want.has(file)) continue;
      const o = (await s3.get(`site/${file}`))!;
      const spec = objectSpec(file, archived)!;
      expect(o.body.equals(readFileSync(path.join(out, file)))).toBe(true);
      expect(o.contentType).toBe(spec.contentType);
      expect(o.cacheControl).toBe(spec.cacheControl);
      expect(o.metadata["cache-tag"]).toBe(spec.tags.join(","));
      expect(o.metadata.sha256).toBe(want.get(file));
    }
    const catalog = (await s3.get("site/api/clubs/hobsons-bay/tournaments/index.json"))!;
    expect(catalog.contentType).toBe("application/json; charset=utf-8");
    expect(catalog.metadata.cors).toBe("*");
    expect(catalog.metadata["cache-tag"]).toBe("list-club-hobsons-bay,club-hobsons-bay,build-api");
    expect(await s3.get(`site/${PENDING_KEY}`)).toBeUndefined();
  }, 240_000);

  it("after a one-tournament change writes exactly the changed objects, lists after the tournament", async () => {
    const before = served();
    const d = new Database(db);
    d.prepare("UPDATE tournaments SET name = name || ' (renamed)' WHERE tournament_id = 1").run();
    d.close();
    await build({ db, out, now: SAMPLE_NOW });
    const after = served();
    const changed = [...after].filter(([p, h]) => before.get(p) !== h).map(([p]) => p);
    expect(changed.length).toBeGreaterThan(0);
    expect(changed.length).toBeLessThan(after.size / 2);

    s3.events.length = 0;
    const report = await deploy(options("site/"));
    expect(report.sent).toBe(changed.length);
    expect(report.full).toBe(false);
    // The objects, plus two reads (record, pending mark), the pending mark, the record, removing
    // the mark, and the lease taken and given back: a constant 7.
    expect(report.requests).toBe(changed.length + 2 + 3 + 2);
    const written = puts().filter((k) => !k.includes("_build-api-deploy"));
    expect(written.map((k) => k.slice("site/".length)).sort()).toEqual(changed.sort());
    expect(deletes()).toEqual([`site/${PENDING_KEY}`, `site/${LEASE_KEY}`]);
    // Order: every tournament file (group 1) before any list (group 2).
    const groups = written.map((k) => objectSpec(k.slice("site/".length))!.group);
    const lastTournament = groups.lastIndexOf(1);
    const firstList = groups.indexOf(2);
    if (lastTournament !== -1 && firstList !== -1) expect(lastTournament).toBeLessThan(firstList);
    for (const file of changed) {
      const o = (await s3.get(`site/${file}`))!;
      expect(o.metadata.sha256).toBe(after.get(file));
      expect(o.contentType).toBe(objectSpec(file)!.contentType);
    }
  }, 240_000);

  it("sends nothing when the snapshot is what the bucket holds", async () => {
    s3.events.length = 0;
    const report = await deploy(options("site/"));
    expect(report.sent).toBe(0);
    // The lease taken and given back, the record and the pending mark read.
    expect(report.requests).toBe(4);
    expect(s3.events.map((e) => e.key)).toEqual([`site/${LEASE_KEY}`, `site/${LEASE_KEY}`]);
  }, 240_000);

  it("on a change of headers alone (archive class, Link) replaces metadata in place, bytes not sent", async () => {
    // The snapshot's edge facts change while no file's bytes do: a tournament enters the archive
    // cache class, and the public list and the index page get a Link header (as when they grow a
    // page).
    const factsFile = path.join(out, EDGE_FILE);
    const factsBefore = readFileSync(factsFile, "utf8");
    const facts = JSON.parse(factsBefore) as { links: Record<string, string>; archived: string[] };
    const id = [...served().keys()]
      .map((k) => /^api\/public\/v1\/tournaments\/([0-9]+)\/index\.json$/.exec(k)?.[1])
      .find((x) => x !== undefined && !facts.archived.includes(x))!;
    const list = "api/public/v1/tournaments/index.json";
    const link = '</api/public/v1/tournaments>; rel="first", </api/public/v1/tournaments/page/1>; rel="last"';
    const index = "index.html";
    const indexLink = '</>; rel="first", </page/1/>; rel="next", </page/1/>; rel="last"';
    writeFileSync(
      factsFile,
      JSON.stringify({
        links: { ...facts.links, [list]: link, [index]: indexLink },
        archived: [...facts.archived, id].sort(),
      }),
    );
    try {
      const ofTournament = [...served().keys()].filter((k) =>
        new RegExp(`(^|/)tournaments/${id}(/|$)`).test(k),
      );
      expect(ofTournament.length).toBeGreaterThan(5);
      const before = new Map(
        await Promise.all(ofTournament.map(async (k) => [k, (await s3.get(`site/${k}`))!.etag] as const)),
      );
      s3.events.length = 0;
      const report = await deploy(options("site/"));
      expect(report.sent).toBe(0);
      expect(report.retagged).toBe(ofTournament.length + 2);
      expect(report.requests).toBe(ofTournament.length + 2 + 7);
      // CopyObject onto itself: no object was put, and the record is written with the new facts.
      expect(s3.events.filter((e) => e.name === "ObjectCreated:Put").map((e) => e.key)).toEqual(
        [PENDING_KEY, RECORD_KEY, LEASE_KEY]
          .map((k) => `site/${k}`)
          .sort((a, b) =>
            a === `site/${LEASE_KEY}`
              ? -1
              : b === `site/${LEASE_KEY}`
                ? 1
                : a === `site/${PENDING_KEY}`
                  ? -1
                  : 1,
          ),
      );
      expect(s3.events.filter((e) => e.name === "ObjectCreated:Copy")).toHaveLength(ofTournament.length + 2);
      for (const k of ofTournament) {
        const o = (await s3.get(`site/${k}`))!;
        expect(o.cacheControl, k).toBe(ARCHIVE_CACHE_CONTROL);
        expect(o.etag, k).toBe(before.get(k)); // the same bytes
        expect(o.body.equals(readFileSync(path.join(out, k))), k).toBe(true);
        expect(o.metadata.sha256, k).toBe(served().get(k));
      }
      const listed = (await s3.get(`site/${list}`))!;
      expect(listed.metadata.link).toBe(link);
      expect(listed.cacheControl).toBe(objectSpec(list)!.cacheControl);
      expect((await s3.get(`site/${index}`))!.metadata.link).toBe(indexLink);

      // The R2 Worker sends both from the object, with no facts of its own.
      const mod = (await import(`data:text/javascript,${encodeURIComponent(r2WorkerText())}`)) as {
        default: { fetch(request: Request, env: Env): Promise<Response> };
      };
      const env: Env = {
        PREFIX: "site/",
        BUCKET: {
          async get(key) {
            const o = await s3.get(key);
            return o
              ? {
                  httpEtag: o.etag!,
                  httpMetadata: { cacheControl: o.cacheControl },
                  customMetadata: o.metadata,
                  body: new Blob([new Uint8Array(o.body)]).stream(),
                }
              : null;
          },
        },
      };
      const r1 = await mod.default.fetch(new Request("http://x/api/public/v1/tournaments"), env);
      expect(r1.headers.get("link")).toBe(link);
      const home = await mod.default.fetch(new Request("http://x/"), env);
      expect([home.status, home.headers.get("link")]).toEqual([200, indexLink]);
      const r2 = await mod.default.fetch(new Request(`http://x/api/public/v1/tournaments/${id}`), env);
      expect(r2.headers.get("cache-control")).toBe(ARCHIVE_CACHE_CONTROL);

      // The CloudFront viewer-response function turns S3's metadata headers into Link.
      const context = vm.createContext({});
      vm.runInContext(CLOUDFRONT_RESPONSE_FUNCTION, context);
      const headers: Record<string, { value: string }> = { "cache-control": { value: listed.cacheControl! } };
      for (const [k, v] of Object.entries(listed.metadata)) headers[`x-amz-meta-${k}`] = { value: v };
      const answered = (context.handler as (e: unknown) => { headers: typeof headers })({
        version: "1.0",
        request: { method: "GET", uri: `/${list}` },
        response: { statusCode: 200, headers },
      });
      expect(answered.headers.link).toEqual({ value: link });
      expect(Object.keys(answered.headers).filter((k) => k.startsWith("x-amz-meta-"))).toEqual([]);

      // Again with nothing changed: nothing sent, nothing retagged.
      expect((await deploy(options("site/"))).retagged).toBe(0);
    } finally {
      writeFileSync(factsFile, factsBefore);
    }
  }, 240_000);

  it("removes the objects of a tournament that is gone, after the lists that named it", async () => {
    const before = served();
    const d = new Database(db);
    d.prepare("UPDATE tournaments SET is_draft = 1 WHERE tournament_id = 2").run();
    d.close();
    await build({ db, out, now: SAMPLE_NOW });
    const after = served();
    const gone = [...before.keys()].filter((p) => !after.has(p));
    expect(gone.length).toBeGreaterThan(0);
    s3.events.length = 0;
    const report = await deploy(options("site/"));
    expect(report.removed).toBe(gone.length);
    const removedAt = s3.events.findIndex((e) => e.name === "ObjectRemoved:Delete");
    const lastPut = s3.events.map((e) => e.key).lastIndexOf(`site/${RECORD_KEY}`);
    // Every object write but the record's comes before the first removal.
    expect(
      s3.events
        .slice(removedAt)
        .filter((e) => e.name === "ObjectCreated:Put")
        .map((e) => e.key),
    ).toEqual([`site/${RECORD_KEY}`]);
    expect(lastPut).toBeGreaterThan(removedAt);
    expect(await s3.list("site/")).toEqual([...after.keys(), RECORD_KEY].sort());
  }, 240_000);
});

describe("deploy through a throttling endpoint", () => {
  it("retries SlowDown answers with backoff and still leaves the bucket equal to the snapshot", async () => {
    const { createServer, request } = await import("node:http");
    let puts = 0;
    let throttled = 0;
    // A burst of throttling, as S3 answers a sudden load: every third of the first 90 PUTs gets a
    // 503 SlowDown; the rest go to the server.
    const proxy = createServer((req, res) => {
      if (req.method === "PUT" && ++puts <= 90 && puts % 3 === 0) {
        throttled++;
        req.resume();
        res.writeHead(503, { "Content-Type": "application/xml" });
        res.end(
          '<?xml version="1.0" encoding="UTF-8"?><Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>',
        );
        return;
      }
      const target = new URL(s3.endpoint);
      const up = request(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
        (r) => {
          res.writeHead(r.statusCode ?? 502, r.headers);
          r.pipe(res);
        },
      );
      req.pipe(up);
    });
    await new Promise<void>((r) => proxy.listen(0, "127.0.0.1", r));
    try {
      const port = (proxy.address() as { port: number }).port;
      const report = await deploy({ ...options("throttled/"), endpoint: `http://127.0.0.1:${port}` });
      expect(throttled).toBe(30);
      expect(report.sent).toBe(served().size);
      expect(await s3.list("throttled/")).toEqual([...served().keys(), RECORD_KEY].sort());
    } finally {
      await new Promise((r) => proxy.close(r));
    }
  }, 120_000);
});
