// The deploy lease against the local S3 server with S3's conditional writes (s3-conditional.ts):
// two deploys racing for one prefix (one runs, the other stops with exit 11 naming the holder),
// a lease kept alive past its lifetime by renewal, a lapsed lease taken over, and the conditional
// writes themselves as S3 answers them.
import { hostname, userInfo } from "node:os";
import { PutObjectCommand } from "@aws-sdk/client-s3";
import { describe, expect, it } from "vitest";
import { openBucket, type Bucket } from "../../../src/deploy/bucket.ts";
import { deploy, type DeployOptions } from "../../../src/deploy/deploy.ts";
import { decodeLease, encodeLease, LEASE_KEY } from "../../../src/deploy/lease.ts";
import { objectSpec } from "../../../src/deploy/objects.ts";
import { RECORD_KEY } from "../../../src/deploy/record.ts";
import { readSnapshotFiles } from "../../../src/deploy/snapshot-files.ts";
import { BuildError, EXIT } from "../../../src/shared/errors.ts";
import { sampleOnLocalS3 } from "../../support/deploy-fixture.ts";
import { localDeploy } from "../../support/s3-server.ts";

// One tournament: the lease does not depend on how many objects a deploy sends.
const fixture = sampleOnLocalS3("deploy-lease", true, [1]);

const options = (prefix: string, more: Partial<DeployOptions> = {}): DeployOptions =>
  localDeploy(fixture.s3, fixture.out, prefix, { concurrency: 4, retries: 0, ...more });

const served = () =>
  [...readSnapshotFiles(fixture.out).files.keys()].filter((p) => objectSpec(p) !== undefined);

async function putRaw(key: string, body: string, condition: { IfNoneMatch?: string; IfMatch?: string } = {}) {
  return fixture.s3.client.send(
    new PutObjectCommand({ Bucket: fixture.s3.bucket, Key: key, Body: body, ...condition }),
  );
}

describe("the local server's conditional writes (what the lease relies on)", () => {
  it("refuses If-None-Match: * over an object and If-Match with another ETag, with 412", async () => {
    const first = await putRaw("cond/a", "one", { IfNoneMatch: "*" });
    await expect(putRaw("cond/a", "two", { IfNoneMatch: "*" })).rejects.toMatchObject({
      $metadata: { httpStatusCode: 412 },
    });
    await expect(putRaw("cond/a", "two", { IfMatch: '"0123"' })).rejects.toMatchObject({
      $metadata: { httpStatusCode: 412 },
    });
    await putRaw("cond/a", "two", { IfMatch: first.ETag! });
    expect((await fixture.s3.get("cond/a"))!.body.toString()).toBe("two");
    // Of many writers racing with If-None-Match: * for one key, exactly one wins.
    const race = await Promise.allSettled(
      Array.from({ length: 8 }, (_, i) => putRaw("cond/b", String(i), { IfNoneMatch: "*" })),
    );
    expect(race.filter((r) => r.status === "fulfilled")).toHaveLength(1);
  });
});

describe("the deploy lease", () => {
  it("lets one of two racing deploys run; the other stops with exit 11 naming the holder", async () => {
    const results = await Promise.allSettled([deploy(options("race/")), deploy(options("race/"))]);
    const ok = results.filter((r) => r.status === "fulfilled");
    const refused = results.filter((r) => r.status === "rejected");
    expect(ok).toHaveLength(1);
    expect(refused).toHaveLength(1);
    const e = refused[0]!.reason as BuildError;
    expect(e).toBeInstanceOf(BuildError);
    expect(e.exitCode).toBe(EXIT.deploy);
    // The bucket shows only the holder's id; the winner's report names it with who ran it.
    const winner = (ok[0] as PromiseFulfilledResult<Awaited<ReturnType<typeof deploy>>>).value;
    expect(winner.lease!.holder).toMatch(/^[0-9a-f]{16}$/);
    expect(winner.lease!.owner).toMatch(/\S+@\S+ pid \d+/);
    expect(e.message).toContain(`is being deployed by deploy ${winner.lease!.holder} (since `);
    expect(e.problems[0]!.where).toBe(`s3://${fixture.s3.bucket}/race/${LEASE_KEY}`);
    expect(e.problems[0]!.fix).toMatch(/concurrency group/);
    expect(e.problems[0]!.fix).toMatch(/lapses/);
    // The winner finished alone and gave the lease back.
    expect(await fixture.s3.list("race/")).toEqual([...served(), RECORD_KEY].sort());
    expect(await fixture.s3.get(`race/${LEASE_KEY}`)).toBeUndefined();
  }, 120_000);

  it("is renewed while its deploy runs, so a deploy past the lease's lifetime still holds it", async () => {
    // A 1 s lease, and a deploy whose uploads are held back until the test has seen the lease
    // outlive its lifetime and refuse a second deploy: longer than 1 s whatever the machine's speed.
    const real = openBucket(options("renew/"));
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const slow: Bucket = {
      ...real,
      put: async (o) => {
        await held;
        return real.put(o);
      },
      close: () => real.close(),
    };
    let finished = false;
    const long = deploy(options("renew/", { leaseSeconds: 1, bucketImpl: slow })).finally(
      () => (finished = true),
    );
    await new Promise((r) => setTimeout(r, 1600));
    expect(finished, "the first deploy is still running").toBe(false);
    const lease = await fixture.s3.get(`renew/${LEASE_KEY}`);
    expect(lease, "the first deploy holds its lease").toBeDefined();
    const holder = decodeLease(lease!.body)!;
    expect(Date.parse(holder.expires) - Date.parse(holder.acquired)).toBeGreaterThan(1000);
    await expect(deploy(options("renew/"))).rejects.toMatchObject({ exitCode: EXIT.deploy });
    release();
    const report = await long;
    real.close();
    expect(report.sent).toBe(served().length);
  }, 120_000);

  it("shows a reader of the bucket only an opaque holder id, never who deploys", async () => {
    const real = openBucket(options("opaque/"));
    const leases: string[] = [];
    const watching: Bucket = {
      ...real,
      putIf: async (o, c) => {
        if (o.key === LEASE_KEY) leases.push(o.body.toString("utf8"));
        return real.putIf(o, c);
      },
      close: () => real.close(),
    };
    const report = await deploy(options("opaque/", { bucketImpl: watching }));
    real.close();
    expect(leases.length).toBeGreaterThan(0);
    let user = "";
    try {
      user = userInfo().username;
    } catch {
      // no passwd entry: the host name is checked alone
    }
    for (const text of leases) {
      const o = JSON.parse(text) as Record<string, unknown>;
      expect(Object.keys(o).sort()).toEqual(["acquired", "expires", "format", "id", "version"]);
      expect(o.id).toBe(report.lease!.holder);
      expect(text).not.toContain(hostname());
      if (user) expect(text).not.toContain(`${user}@`);
      expect(text).not.toMatch(/pid|run/i);
    }
  }, 120_000);

  it("refuses a prefix whose lease has not lapsed, and takes a lapsed one over", async () => {
    const other = {
      id: "feedfacefeedface",
      acquired: new Date(Date.now() - 60_000).toISOString(),
      expires: new Date(Date.now() + 60_000).toISOString(),
    };
    await putRaw(`held/${LEASE_KEY}`, encodeLease(other).toString());
    const busy = deploy(options("held/"));
    await expect(busy).rejects.toMatchObject({ exitCode: EXIT.deploy });
    await expect(busy).rejects.toThrow(/held\/ is being deployed by deploy feedfacefeedface \(since /);
    expect(await fixture.s3.list("held/")).toEqual([LEASE_KEY]); // nothing written, the lease untouched
    expect(decodeLease((await fixture.s3.get(`held/${LEASE_KEY}`))!.body)).toEqual(other);

    // A lease an older build-api wrote (version 1: it named its owner) is read, and named so.
    const v1 = {
      format: "build-api-deploy-lease",
      version: 1,
      owner: "ci@runner-7 pid 4242 (GitHub Actions run 99)",
      token: "0123456789abcdef",
      acquired: other.acquired,
      expires: other.expires,
    };
    await putRaw(`held/${LEASE_KEY}`, JSON.stringify(v1));
    await expect(deploy(options("held/"))).rejects.toThrow(
      /is being deployed by deploy 0123456789abcdef \(ci@runner-7 pid 4242 \(GitHub Actions run 99\)\)/,
    );

    // The same holder, lapsed: a dead deploy's lease.
    await putRaw(
      `held/${LEASE_KEY}`,
      encodeLease({ ...other, expires: new Date(Date.now() - 1000).toISOString() }).toString(),
    );
    const report = await deploy(options("held/"));
    expect(report.lease?.tookOverFrom).toBe(other.id);
    expect(await fixture.s3.list("held/")).toEqual([...served(), RECORD_KEY].sort());
  }, 120_000);
});
