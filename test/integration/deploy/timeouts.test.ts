// A deploy against a server that misbehaves, through a front on loopback (faulty-front.ts): one
// that accepts requests and never answers ends the deploy with a timeout (exit 11) instead of
// holding it and its lease forever, and a stop ends a deploy whose requests hang; a server error,
// a refused credential and a timeout are each reported as what they are, the SDK's error kept as
// the cause.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deploy, DeployStopped, type DeployOptions } from "../../../src/deploy/deploy.ts";
import { LEASE_KEY } from "../../../src/deploy/lease.ts";
import { PENDING_KEY } from "../../../src/deploy/record.ts";
import { BuildError, EXIT } from "../../../src/shared/errors.ts";
import { sampleOnLocalS3 } from "../../support/deploy-fixture.ts";
import { startFaultyFront, type FaultyFront } from "../../support/faulty-front.ts";
import { localDeploy } from "../../support/s3-server.ts";

const fixture = sampleOnLocalS3("deploy-faults", true);
let front: FaultyFront;
beforeAll(async () => {
  front = await startFaultyFront(fixture.s3.endpoint);
});
afterAll(() => front?.close());

const options = (prefix: string, more: Partial<DeployOptions> = {}): DeployOptions => ({
  ...localDeploy(fixture.s3, fixture.out, prefix, { concurrency: 4, retries: 0, ...more }),
  endpoint: front.endpoint,
});

/** A PUT of one of the snapshot's objects (not the lease, record or pending mark). */
const isUpload = (method: string, url: string) => method === "PUT" && !url.includes("_build-api-deploy");

async function failure(run: Promise<unknown>): Promise<unknown> {
  return run.then(
    () => expect.fail("the deploy should have failed"),
    (e: unknown) => e,
  );
}

describe("a server that accepts requests and never answers", () => {
  it("ends the deploy with a timeout, exit 11, the SDK's TimeoutError its cause", async () => {
    front.rule = () => "hang";
    front.hung = 0;
    const e = (await failure(deploy(options("hang-all/", { requestSeconds: 0.2 })))) as BuildError;
    expect(e).toBeInstanceOf(BuildError);
    expect(e.exitCode).toBe(EXIT.deploy);
    expect(e.problems[0]!.what).toMatch(/^taking the deploy lease: the request timed out/);
    expect(e.problems[0]!.fix).toMatch(/--request-timeout/);
    expect((e.cause as Error).name).toBe("TimeoutError");
    // The SDK tried again before giving up: every attempt hung.
    expect(front.hung).toBeGreaterThan(1);
  }, 120_000);

  it("hung uploads: the deploy fails as a timeout, gives its lease back, leaves the pending mark", async () => {
    front.rule = (method, url) => (isUpload(method, url) ? "hang" : "pass");
    const e = (await failure(deploy(options("hang-put/", { requestSeconds: 0.2 })))) as BuildError;
    expect(e.exitCode).toBe(EXIT.deploy);
    expect(e.problems[0]!.what).toMatch(/^uploading \S+: the request timed out/);
    front.rule = () => "pass";
    const left = await fixture.s3.list("hang-put/");
    expect(left).toContain(PENDING_KEY);
    expect(left).not.toContain(LEASE_KEY);
  }, 120_000);

  it("a stop during hung uploads aborts them after the grace and gives the lease back", async () => {
    front.hung = 0;
    front.rule = (method, url) => (isUpload(method, url) ? "hang" : "pass");
    const controller = new AbortController();
    const stopWhenHung = setInterval(() => {
      if (front.hung > 0) controller.abort("SIGTERM");
    }, 20);
    // Requests may take a minute: only the stop can end this deploy soon.
    const run = deploy(
      options("hang-stop/", { requestSeconds: 60, stopGraceMs: 200, signal: controller.signal }),
    );
    const e = (await failure(run)) as DeployStopped;
    clearInterval(stopWhenHung);
    front.rule = () => "pass";
    expect(e).toBeInstanceOf(DeployStopped);
    expect(e.reason).toBe("SIGTERM");
    expect(e.stage).toBe("changing");
    expect(e.leaseReleased).toBe(true);
    expect(e.abandoned).toBeGreaterThan(0);
    expect(await fixture.s3.list("hang-stop/")).not.toContain(LEASE_KEY);
  }, 120_000);
});

describe("a failed request is reported as what happened", () => {
  it.each([
    [500, "InternalError", /the server failed on its side \(an HTTP 5xx\)/, /provider's status/],
    [403, "AccessDenied", /refused the credentials or their permission/, /AWS_ACCESS_KEY_ID/],
  ])(
    "HTTP %i %s",
    async (status, code, what, fix) => {
      front.rule = (method, url) => (isUpload(method, url) ? { status, code } : "pass");
      const e = (await failure(deploy(options(`answer-${status}/`)))) as BuildError;
      front.rule = () => "pass";
      expect(e.exitCode).toBe(EXIT.deploy);
      expect(e.problems[0]!.what).toMatch(what);
      expect(e.problems[0]!.what).toContain(`${code} (HTTP ${status})`);
      expect(e.problems[0]!.fix).toMatch(fix);
      const cause = e.cause as { name?: string; $metadata?: { httpStatusCode?: number } };
      expect(cause.name).toBe(code);
      expect(cause.$metadata?.httpStatusCode).toBe(status);
      if (status === 500) expect(e.problems[0]!.fix).not.toMatch(/credentials/);
    },
    120_000,
  );
});

describe("a prefix with '.' or '..' segments", () => {
  it.each(["../", "./", "site/../../"])("%s: refused before any request (exit 2)", async (prefix) => {
    front.hung = 0;
    front.rule = () => "hang";
    const e = (await failure(deploy(options(prefix)))) as BuildError;
    front.rule = () => "pass";
    expect(e.exitCode).toBe(EXIT.usage);
    expect(e.problems[0]!.what).toMatch(/outside the prefix/);
    expect(front.hung).toBe(0);
  });
});
