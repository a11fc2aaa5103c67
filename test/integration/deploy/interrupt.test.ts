// A deploy asked to stop (its `signal` aborted: the CLI's Ctrl-C) against the local S3 server:
// it issues no request after the stop, lets the ones in flight finish, gives the lease back,
// leaves the pending mark and throws DeployStopped saying how far it got; the next deploy resumes
// and leaves the bucket equal to the snapshot. A stop before anything was written writes nothing.
import { describe, expect, it } from "vitest";
import { openBucket, type Bucket } from "../../../src/deploy/bucket.ts";
import { deploy, DeployStopped, type DeployOptions } from "../../../src/deploy/deploy.ts";
import { LEASE_KEY } from "../../../src/deploy/lease.ts";
import { objectSpec } from "../../../src/deploy/objects.ts";
import { PENDING_KEY, RECORD_KEY } from "../../../src/deploy/record.ts";
import { readSnapshotFiles } from "../../../src/deploy/snapshot-files.ts";
import { sampleOnLocalS3 } from "../../support/deploy-fixture.ts";
import { localDeploy } from "../../support/s3-server.ts";

// Three tournaments published, the others drafts: the stop comes after the tenth object either way.
const fixture = sampleOnLocalS3("deploy-stop", true, [1, 2, 3]);

const options = (prefix: string, more: Partial<DeployOptions> = {}): DeployOptions =>
  localDeploy(fixture.s3, fixture.out, prefix, { concurrency: 4, retries: 0, ...more });

const served = () =>
  [...readSnapshotFiles(fixture.out).files.keys()].filter((p) => objectSpec(p) !== undefined);

async function stopped(run: Promise<unknown>): Promise<DeployStopped> {
  const e = await run.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(DeployStopped);
  return e as DeployStopped;
}

describe("a deploy asked to stop", () => {
  it("stops issuing requests, lets those in flight finish, gives the lease back; a rerun finishes", async () => {
    const controller = new AbortController();
    const real = openBucket(options("stop/"));
    // Every request to the bucket, with whether it started after the stop and whether it ended.
    const log: { key: string; afterStop: boolean; done: boolean }[] = [];
    const track =
      <A extends unknown[], R>(f: (...a: A) => Promise<R>, keyOf: (...a: A) => string) =>
      async (...a: A): Promise<R> => {
        const entry = { key: keyOf(...a), afterStop: controller.signal.aborted, done: false };
        log.push(entry);
        // Each upload takes a while, so that several are in flight when the stop comes.
        await new Promise((r) => setTimeout(r, 20));
        const result = await f(...a);
        entry.done = true;
        return result;
      };
    let puts = 0;
    const bucket: Bucket = {
      ...real,
      put: track(
        async (o) => {
          await real.put(o);
          // The stop comes while the 10th object's upload is in flight, with others beside it.
          if (o.key !== PENDING_KEY && ++puts === 10) controller.abort("SIGINT");
        },
        (o) => o.key,
      ),
      get: track(real.get, (k) => k),
      getTagged: track(real.getTagged, (k) => k),
      putIf: track(real.putIf, (o) => o.key),
      remove: track(real.remove, (k) => k),
      removeIf: track(real.removeIf, (k) => k),
      replaceMetadata: track(real.replaceMetadata, (o) => o.key),
      close: () => real.close(),
    };
    const e = await stopped(deploy(options("stop/", { bucketImpl: bucket, signal: controller.signal })));
    real.close();
    expect(e.reason).toBe("SIGINT");
    expect(e.stage).toBe("changing");
    expect(e.leaseReleased).toBe(true);
    const want = served();
    expect(e.progress!.toSend).toBe(want.length);
    expect(e.progress!.first).toBe(true); // no deploy had finished into stop/
    // The requests in flight at the stop finished; no new one started but the lease's release.
    expect(log.filter((r) => !r.done)).toEqual([]);
    expect(log.filter((r) => r.afterStop).map((r) => r.key)).toEqual([LEASE_KEY]);
    expect(e.progress!.sent).toBeGreaterThanOrEqual(10);
    expect(e.progress!.sent).toBeLessThan(10 + 4);
    expect(e.progress!.sent).toBe(log.filter((r) => r.key !== PENDING_KEY && objectSpec(r.key)).length);

    // In the bucket: what was sent, the pending mark, no record, no lease.
    const partial = await fixture.s3.list("stop/");
    expect(partial).toContain(PENDING_KEY);
    expect(partial).not.toContain(LEASE_KEY);
    expect(partial).not.toContain(RECORD_KEY);
    expect(partial.filter((k) => objectSpec(k))).toHaveLength(e.progress!.sent);

    // The same deploy again, at once (the lease is free): it resumes and finishes.
    const report = await deploy(options("stop/"));
    expect(report.resumed).toBe(true);
    expect(report.lease?.tookOverFrom).toBeUndefined();
    expect(await fixture.s3.list("stop/")).toEqual([...want, RECORD_KEY].sort());
  }, 120_000);

  it("stopped before it starts: no request, nothing in the bucket", async () => {
    const controller = new AbortController();
    controller.abort("SIGTERM");
    fixture.s3.events.length = 0;
    const e = await stopped(deploy(options("early/", { signal: controller.signal })));
    expect(e.stage).toBe("before-changes");
    expect(e.progress).toBeUndefined();
    expect(e.leaseReleased).toBeUndefined();
    expect(await fixture.s3.list("early/")).toEqual([]);
    expect(fixture.s3.events).toEqual([]);
  }, 60_000);
});
