// A publication that renders every file streams it to the bucket as it renders (issue 48): with a
// small budget it sends many batches and never holds more than the budget (and one tournament's
// files) on the disk, measured both by its own count and by the rendered files' bytes sampled in
// its folder at each batch; the bucket then equals build + deploy. SIGKILLed mid-stream it leaves
// its pending mark and the parts naming what it sent; the next run settles it (sending only what
// differs when the bucket's ledger describes it), and the bucket equals a fresh full build.
// The streamed runs with a small budget run in a child process (support/child-publish.ts): their
// main thread blocks while the upload thread catches up, and the local S3 server lives in this one.
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { build } from "../../../src/pipeline/build.ts";
import { BOOKKEEPING_NAME } from "../../../src/ledger/bookkeeping.ts";
import { deploy } from "../../../src/deploy/deploy.ts";
import { PENDING_KEY, RECORD_KEY } from "../../../src/deploy/record.ts";
import { DeployStopped } from "../../../src/deploy/types.ts";
import type { PublishToBucketReport } from "../../../src/cli/publish.ts";
import { publishToBucket, type PublishToBucketOptions } from "../../../src/cli/publish.ts";
import { SAMPLE_NOW } from "../../support/e2e.ts";
import { publishOptions, sampleOnLocalS3 } from "../../support/deploy-fixture.ts";
import { localDeploy, S3_ENV, type LocalS3 } from "../../support/s3-server.ts";
import { tempDir } from "../../support/temp.ts";

// The tournaments the tests change, the others drafts: the stream still cuts many batches (an
// owner a batch at this budget) and sends more than twice what it may hold.
const fixture = sampleOnLocalS3("publish-stream", true, [1, 2, 3]);
const BUDGET = 96 * 1024;

function options(prefix: string, more: Partial<PublishToBucketOptions> = {}): PublishToBucketOptions {
  return publishOptions(fixture, prefix, 4, more);
}

const CHILD = fileURLToPath(new URL("../../support/child-publish.ts", import.meta.url));

/** A publication with the small budget in a child process; its report, or how it was killed. */
async function childPublish(
  prefix: string,
  more: { killAtBatch?: number; tmpDir?: string; leaseSeconds?: number } = {},
): Promise<{
  report?: PublishToBucketReport & { sampledBytes: number };
  signal: string | null;
  stderr: string;
}> {
  const { killAtBatch, tmpDir, leaseSeconds } = more;
  const input = {
    options: options(prefix, {
      stream: { budget: BUDGET },
      ...(tmpDir && { tmpDir }),
      ...(leaseSeconds && { leaseSeconds }),
    }),
    killAtBatch,
    sample: tmpDir,
  };
  const child = spawn(process.execPath, [CHILD, JSON.stringify(input)], {
    env: { ...process.env, ...S3_ENV },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const [code, signal] = await new Promise<[number | null, string | null]>((r) =>
    child.on("close", (c, s) => r([c, s])),
  );
  if (code === 0) return { report: JSON.parse(stdout), signal, stderr };
  return { signal, stderr };
}

/** Waits until a killed run's lease (of `seconds`) has lapsed. */
const lapse = (seconds: number) => new Promise((r) => setTimeout(r, seconds * 1000 + 1500));

async function objects(s3: LocalS3, prefix: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const key of await s3.list(prefix)) {
    if (key.startsWith("_build-api")) continue;
    const o = (await s3.get(`${prefix}${key}`))!;
    out.set(key, JSON.stringify([o.body.toString("base64"), o.contentType, o.cacheControl, o.metadata]));
  }
  return out;
}

async function expectSameBucket(a: string, b: string): Promise<void> {
  const [x, y] = await Promise.all([objects(fixture.s3, a), objects(fixture.s3, b)]);
  expect([...x.keys()]).toEqual([...y.keys()]);
  expect([...x].filter(([k, v]) => y.get(k) !== v).map(([k]) => k)).toEqual([]);
}

/** A fresh full build of the store deployed to `prefix` (its first deploy): the reference. */
async function freshBuildAndDeploy(prefix: string): Promise<string> {
  const out = path.join(tempDir("publish-stream-ref"), "dist");
  await build({ db: fixture.db, out, now: SAMPLE_NOW, jobs: 1 });
  await deploy(localDeploy(fixture.s3, out, prefix));
  return out;
}

function renameTournament(id: number, suffix: string): void {
  const d = new Database(fixture.db);
  d.prepare("UPDATE tournaments SET name = name || ? WHERE tournament_id = ?").run(suffix, id);
  d.close();
}

/** The most bytes one owner's files take (a tournament's), from the reference build's bookkeeping. */
function largestOwner(out: string): number {
  const file = path.join(path.dirname(out), `.${path.basename(out)}.snapshots`, BOOKKEEPING_NAME);
  const d = new Database(file, { readonly: true });
  try {
    return d.prepare<[], number>("SELECT max(bytes) FROM owners WHERE owner LIKE 't/%'").pluck().get()!;
  } finally {
    d.close();
  }
}

describe("publish: a first publication streams to the bucket as it renders", () => {
  it("holds at most the budget (and one tournament) on disk, and equals build + deploy", async () => {
    const tmpDir = mkdtempSync(path.join(tempDir("publish-stream-tmp"), "t-"));
    const { report: r, stderr } = await childPublish("s/", { tmpDir });
    expect(r, stderr).toBeDefined();
    expect(r!.fallback).toBe("no ledger in the bucket");
    const s = r!.stream!;
    expect(s.budget).toBe(BUDGET);
    const ref = await freshBuildAndDeploy("s-ref/");
    const bound = BUDGET + largestOwner(ref);
    // Streamed in many batches: most objects went up while rendering, more than twice the most
    // it may hold (the budget and the largest tournament).
    expect(s.batches).toBeGreaterThan(5);
    expect(s.sent).toBeGreaterThan(r!.deploy.sent / 2);
    expect(r!.deploy.sentBytes).toBeGreaterThan(2 * bound);
    expect(s.maxStagedBytes).toBeGreaterThan(0);
    expect(s.maxStagedBytes).toBeLessThanOrEqual(bound);
    // The rendered files found on disk at each batch (the lists', kept for the end, included).
    expect(r!.sampledBytes).toBeGreaterThan(0);
    expect(r!.sampledBytes).toBeLessThanOrEqual(bound + 256 * 1024);
    await expectSameBucket("s/", "s-ref/");
    const keys = await fixture.s3.list("s/");
    expect(keys).toContain(RECORD_KEY);
    expect(keys.filter((k) => k.startsWith("_build-api-deploy.pending"))).toEqual([]);
  }, 240_000);

  it("a first publication killed mid-stream is settled by the next: the bucket equals a fresh build", async () => {
    const killed = await childPublish("k/", { killAtBatch: 3, leaseSeconds: 3 });
    expect(killed.signal, killed.stderr).toBe("SIGKILL");
    const left = await fixture.s3.list("k/");
    expect(left).toContain(PENDING_KEY);
    expect(left).not.toContain(RECORD_KEY);
    // The parts naming what the stream sent, one per batch handed over (at least those sent).
    const parts = left.filter((k) => /^_build-api-deploy\.pending\.[0-9a-f]+\.\d+\.json\.gz$/.test(k));
    expect(parts.length).toBeGreaterThanOrEqual(3);
    expect((await objects(fixture.s3, "k/")).size).toBeGreaterThan(0);

    await lapse(3);
    const next = await publishToBucket(options("k/"));
    expect(next.deploy.resumed).toBe(true);
    expect(next.fallback).toBe("no ledger in the bucket");
    await freshBuildAndDeploy("k-ref/");
    await expectSameBucket("k/", "k-ref/");
    const keys = await fixture.s3.list("k/");
    expect(keys.filter((k) => k.startsWith("_build-api-deploy.pending"))).toEqual([]);
    // Settled: a run after it sends nothing.
    const again = await publishToBucket(options("k/"));
    expect(again.build).toBeUndefined();
    expect(again.deploy.sent).toBe(0);
  }, 240_000);

  it("a run that renders everything over a ledger, killed mid-stream, is settled sending only what differs", async () => {
    await publishToBucket(options("w/"));
    // A tick stopped mid-upload leaves a pending mark: the next run renders every file (streamed).
    renameTournament(1, " (stopped)");
    const tick = new AbortController();
    const e1 = await publishToBucket(
      options("w/", { signal: tick.signal, onStep: () => tick.abort("test") }),
    ).catch((e: unknown) => e);
    expect(e1).toBeInstanceOf(DeployStopped);
    const killed = await childPublish("w/", { killAtBatch: 3, leaseSeconds: 3 });
    expect(killed.signal, killed.stderr).toBe("SIGKILL");
    // Another change meanwhile; the next run settles both.
    renameTournament(2, " (meanwhile)");
    await lapse(3);
    const next = await publishToBucket(options("w/"));
    expect(next.deploy.resumed).toBe(true);
    expect(next.fallback).toContain("interrupted");
    const all = (await objects(fixture.s3, "w/")).size;
    // The keys the dead runs touched and the changed files: far fewer than every object.
    expect(next.deploy.sent).toBeGreaterThan(0);
    expect(next.deploy.sent).toBeLessThan(all / 2);
    await freshBuildAndDeploy("w-ref/");
    await expectSameBucket("w/", "w-ref/");
    const keys = await fixture.s3.list("w/");
    expect(keys.filter((k) => k.startsWith("_build-api-deploy.pending"))).toEqual([]);
    const after = await publishToBucket(options("w/"));
    expect(after.build).toBeUndefined();
  }, 300_000);
});
