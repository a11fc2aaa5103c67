// `build-api publish` against the local S3 server: every run is a fresh runner (a new temporary
// folder, no snapshot, only the store), and the bucket it leaves must equal what `build` +
// `deploy` of the same store give, object for object. After a first publication a one-tournament
// change sends only that change's objects; a second publisher at once is refused by the lease; a
// run killed mid-way or between its record and its ledger is settled by the next; a bucket that
// fails mid-way leaves the previous publication serving and the error names the fix.
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { build } from "../../../src/pipeline/build.ts";
import { deploy } from "../../../src/deploy/deploy.ts";
import { openBucket, type Bucket } from "../../../src/deploy/bucket.ts";
import { LEDGER_KEY } from "../../../src/deploy/publish-run.ts";
import { PENDING_KEY, RECORD_KEY } from "../../../src/deploy/record.ts";
import { DeployStopped } from "../../../src/deploy/types.ts";
import { publishToBucket, type PublishToBucketOptions } from "../../../src/cli/publish.ts";
import { BuildError } from "../../../src/shared/errors.ts";
import { SAMPLE_NOW } from "../../support/e2e.ts";
import { publishOptions, sampleOnLocalS3 } from "../../support/deploy-fixture.ts";
import { localDeploy, servedObjects } from "../../support/s3-server.ts";
import { tempDir } from "../../support/temp.ts";

// The tournaments the tests change, the others drafts: what is compared is the same either way.
const fixture = sampleOnLocalS3("publish", true, [1, 2, 3]);

function options(prefix: string, more: Partial<PublishToBucketOptions> = {}): PublishToBucketOptions {
  return publishOptions(fixture, prefix, 8, more);
}

let refOut: string | undefined;

/** `build` (one snapshot folder, built on) and `deploy` to `prefix`: what publish must equal. */
async function buildAndDeploy(prefix: string): Promise<void> {
  const out = (refOut ??= path.join(tempDir("publish-reference"), "dist"));
  await build({ db: fixture.db, out, now: SAMPLE_NOW, jobs: 1 });
  await deploy(localDeploy(fixture.s3, out, prefix));
}

async function expectSameBucket(a: string, b: string): Promise<void> {
  const [x, y] = await Promise.all([servedObjects(fixture.s3, a), servedObjects(fixture.s3, b)]);
  expect([...x.keys()]).toEqual([...y.keys()]);
  const differ = [...x].filter(([k, v]) => y.get(k) !== v).map(([k]) => k);
  expect(differ).toEqual([]);
}

const puts = () =>
  fixture.s3.events.filter((e) => e.name === "ObjectCreated:Put" || e.name === "ObjectCreated:Copy");

function renameTournament(id: number, suffix: string): void {
  const d = new Database(fixture.db);
  d.prepare("UPDATE tournaments SET name = name || ? WHERE tournament_id = ?").run(suffix, id);
  d.close();
}

/** A bucket whose `fail(key, nth)` rule throws on the nth put of a key (a network failure). */
function faultyBucket(prefix: string, failPut: (key: string) => boolean): Bucket {
  const s3 = fixture.s3;
  const real = openBucket({
    bucket: s3.bucket,
    prefix,
    endpoint: s3.endpoint,
    pathStyle: true,
    concurrency: 8,
  });
  const fail = (key: string) => {
    if (failPut(key)) {
      const e = new Error("connect ECONNRESET") as Error & { code: string };
      e.code = "ECONNRESET";
      throw e;
    }
  };
  return {
    ...real,
    put: async (o) => (fail(o.key), real.put(o)),
    putIf: async (o, c) => (fail(o.key), real.putIf(o, c)),
    get: (k) => real.get(k),
    getTagged: (k) => real.getTagged(k),
    remove: (k) => real.remove(k),
    removeIf: (k, e) => real.removeIf(k, e),
    replaceMetadata: (o) => real.replaceMetadata(o),
    ...(real.list && { list: () => real.list!() }),
    close: () => real.close(),
  };
}

describe("publish: a store straight to a bucket", () => {
  it("a first publication equals build + deploy, object for object", async () => {
    const first = await publishToBucket(options("pub/"));
    expect(first.fallback).toBe("no ledger in the bucket");
    expect(first.deploy.full).toBe(true);
    await buildAndDeploy("ref/");
    await expectSameBucket("pub/", "ref/");
    const keys = await fixture.s3.list("pub/");
    expect(keys).toContain(LEDGER_KEY);
    expect(keys).toContain(RECORD_KEY);
    expect(keys).not.toContain(PENDING_KEY);
  }, 240_000);

  it("from a fresh runner, after one tournament changed, sends only that change's objects", async () => {
    renameTournament(1, " (renamed)");
    // The reference: build + deploy of the same change, whose sent objects are the changed ones.
    fixture.s3.events.length = 0;
    await buildAndDeploy("ref/");
    const changed = puts()
      .map((e) => e.key)
      .filter((k) => !k.includes("_build-api"))
      .map((k) => k.slice("ref/".length))
      .sort();
    expect(changed.length).toBeGreaterThan(0);

    fixture.s3.events.length = 0;
    const r = await publishToBucket(options("pub/"));
    expect(r.fallback).toBeUndefined();
    expect(r.deploy.full).toBe(false);
    const sent = puts()
      .map((e) => e.key)
      .filter((k) => !k.includes("_build-api"))
      .map((k) => k.slice("pub/".length))
      .sort();
    expect(sent).toEqual(changed);
    expect(r.deploy.sent).toBe(changed.length);
    // Rendered: only the changed tournament (and the lists), not the whole store.
    expect(r.build!.render.rendered?.tournaments).toBe(1);
    // The objects, plus a constant: lease (2), record and pending mark read, ledger index read,
    // index put twice, pending mark put and removed, record put; plus the ledger's group objects
    // read (the changed tournament's and its players'), written anew and the replaced removed.
    const l = r.ledger;
    expect(r.deploy.requests).toBe(changed.length + 10 + l.objectsRead + l.objectsWritten + l.objectsRemoved);
    expect(l.objectsRead).toBeGreaterThan(0);
    expect(l.objectsRemoved).toBe(l.objectsWritten);
    expect(r.deploy.purge.tags.length).toBeGreaterThan(0);
    await expectSameBucket("pub/", "ref/");
  }, 240_000);

  it("sends nothing when the bucket already serves the store", async () => {
    fixture.s3.events.length = 0;
    const r = await publishToBucket(options("pub/"));
    expect(r.build).toBeUndefined();
    expect(r.deploy.sent).toBe(0);
    // The lease taken and given back; nothing else written.
    expect(puts().filter((e) => !e.key.includes("lease"))).toEqual([]);
  }, 240_000);

  it("refuses a second publisher while one holds the prefix's lease", async () => {
    renameTournament(2, " (again)");
    const results = await Promise.allSettled([
      publishToBucket(options("pub/")),
      publishToBucket(options("pub/")),
    ]);
    const refused = results.filter((r) => r.status === "rejected");
    expect(refused).toHaveLength(1);
    const e = (refused[0] as PromiseRejectedResult).reason as BuildError;
    expect(e).toBeInstanceOf(BuildError);
    expect(e.message).toContain("is being deployed by deploy");
    await buildAndDeploy("ref/");
    await expectSameBucket("pub/", "ref/");
  }, 240_000);

  it("a run stopped mid-upload is settled by the next, which sends what it touched", async () => {
    renameTournament(1, " (stopped)");
    const stop = new AbortController();
    const stopped = await publishToBucket(
      options("pub/", {
        signal: stop.signal,
        onStep: () => stop.abort("test"),
      }),
    ).catch((e: unknown) => e);
    expect(stopped).toBeInstanceOf(DeployStopped);
    expect(await fixture.s3.get(`pub/${PENDING_KEY}`)).toBeDefined();
    const next = await publishToBucket(options("pub/"));
    expect(next.deploy.resumed).toBe(true);
    expect(next.fallback).toContain("interrupted");
    expect(await fixture.s3.get(`pub/${PENDING_KEY}`)).toBeUndefined();
    await buildAndDeploy("ref/");
    await expectSameBucket("pub/", "ref/");
    // Settled: the run after it is a plain tick again.
    renameTournament(2, " (then)");
    const tick = await publishToBucket(options("pub/"));
    expect(tick.fallback).toBeUndefined();
    await buildAndDeploy("ref/");
    await expectSameBucket("pub/", "ref/");
  }, 240_000);

  it("a run that died after its record, before its ledger, has its delta applied by the next", async () => {
    renameTournament(3, " (died)");
    let ledgerPuts = 0;
    const bucketImpl = faultyBucket("pub/", (k) => k === LEDGER_KEY && ++ledgerPuts === 2);
    const failed = await publishToBucket(options("pub/", { bucketImpl, retries: 0 })).catch(
      (e: unknown) => e,
    );
    expect(failed).toBeInstanceOf(BuildError);
    expect((failed as BuildError).message).toContain("did not finish");
    // The objects and the record are there; the ledger in the bucket holds the staged delta.
    fixture.s3.events.length = 0;
    const next = await publishToBucket(options("pub/"));
    expect(next.fallback).toBeUndefined();
    expect(next.build).toBeUndefined(); // applied: the bucket already serves this store
    await buildAndDeploy("ref/");
    await expectSameBucket("pub/", "ref/");
  }, 240_000);

  it("a bucket failing mid-way leaves the previous publication serving, and says what to do", async () => {
    const before = await servedObjects(fixture.s3, "pub/");
    renameTournament(1, " (failed)");
    let objectPuts = 0;
    const bucketImpl = faultyBucket("pub/", (k) => !k.startsWith("_build-api") && ++objectPuts === 3);
    const failed = await publishToBucket(options("pub/", { bucketImpl, retries: 0, concurrency: 1 })).catch(
      (e: unknown) => e,
    );
    expect(failed).toBeInstanceOf(BuildError);
    const problem = (failed as BuildError).problems[0]!;
    expect(problem.what).toMatch(/^uploading /);
    expect(problem.fix).toBeTruthy();
    // Two objects went up (new bytes under the same keys, ahead of what links to them); every
    // other object, and every list, is the previous publication's.
    const after = await servedObjects(fixture.s3, "pub/");
    expect([...after.keys()]).toEqual([...before.keys()]);
    expect([...after].filter(([k, v]) => before.get(k) !== v)).toHaveLength(2);
    const next = await publishToBucket(options("pub/"));
    expect(next.deploy.resumed).toBe(true);
    await buildAndDeploy("ref/");
    await expectSameBucket("pub/", "ref/");
  }, 240_000);
});
