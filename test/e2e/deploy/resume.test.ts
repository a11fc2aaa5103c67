// A deploy killed (SIGKILL) part-way leaves its pending mark and its lease in the bucket: a rerun
// while the lease lasts stops with exit 11 naming the dead deploy; after it lapses (its expiry
// moved into the past in the bucket, as time would), and after the snapshot
// changes again (a tournament unpublished, some of whose objects the dead run had sent), a rerun
// leaves the bucket equal to the snapshot: every served file with its bytes and Content-Type,
// nothing else but the record.
import { readFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build } from "../../../src/pipeline/build.ts";
import { r2WorkerText } from "../../../src/deploy/edge-code.ts";
import { objectSpec } from "../../../src/deploy/objects.ts";
import { EDGE_FILE } from "../../../src/hosting/rules.ts";
import { PENDING_KEY, RECORD_KEY } from "../../../src/deploy/record.ts";
import { LEASE_KEY } from "../../../src/deploy/lease.ts";
import { readSnapshotFiles } from "../../../src/deploy/snapshot-files.ts";
import { buildSample, SAMPLE_NOW } from "../../support/e2e.ts";
import { removeTempDirs, tempDir } from "../../support/temp.ts";
import { runCli } from "../../support/run.ts";
import { inPool } from "../../support/run-child.ts";
import { lapseLease } from "../../support/lapsed-lease.ts";
import { localDeployArgs, S3_ENV, startS3, type LocalS3 } from "../../support/s3-server.ts";

let s3: LocalS3;
let db: string;
let out: string;

beforeAll(async () => {
  s3 = await startS3();
  ({ db, out } = await buildSample(tempDir("deploy-kill")));
}, 240_000);

afterAll(async () => {
  await s3?.close();
  removeTempDirs();
});

const env = { ...process.env, ...S3_ENV };
/** One upload at a time for the run that is killed (so it dies part-way); the rerun at 8. */
const args = (concurrency = 1) => [
  ...localDeployArgs(s3, out, "k/"),
  "--concurrency",
  String(concurrency),
  "--lease-seconds",
  // Long beside the loaded machine's CLI start-up: the blocked run must see it live (the rerun
  // does not wait for it: the test lapses it in the bucket).
  "30",
];

/** Runs the deploy and SIGKILLs it once it reports its second upload step. */
const deployKilled = () => runCli(args(), { env, interrupt: { when: /deploy step 2\//, signal: "SIGKILL" } });

describe("an interrupted deploy", () => {
  it("is finished by a rerun, even after the snapshot changed meanwhile", async () => {
    const killed = await deployKilled();
    expect(killed.signal).toBe("SIGKILL");
    const partial = await s3.list("k/");
    expect(partial).toContain(PENDING_KEY);
    expect(partial).toContain(LEASE_KEY);
    expect(partial).not.toContain(RECORD_KEY);
    expect(partial.length).toBeGreaterThan(1);

    // The dead deploy's lease still holds the prefix under an opaque id, which the dead deploy's
    // own output named with who ran it.
    const holder = /deploy lease of \S+ held as deploy ([0-9a-f]{16}) \(\S+@\S+ pid \d+/.exec(killed.stderr);
    expect(holder, killed.stderr).not.toBeNull();
    const blocked = await runCli([...args(), "--json"], { env });
    expect(blocked.code).toBe(11);
    expect(blocked.stderr).toContain(`k/ is being deployed by deploy ${holder![1]} (since `);
    expect(blocked.stderr).toContain(LEASE_KEY);

    // Unpublish a tournament: whatever the dead run sent of it must go.
    const d = new Database(db);
    d.prepare("UPDATE tournaments SET is_draft = 1 WHERE tournament_id = 2").run();
    d.close();
    await build({ db, out, now: SAMPLE_NOW });

    // Past the dead lease's expiry (lapsed in the bucket rather than waited out), the next deploy
    // takes it over.
    const lease = await lapseLease(s3, "k/");
    expect(lease.id).toBe(holder![1]);

    const edge = path.join(path.dirname(out), "edge");
    const rerun = await runCli([...args(8), "--json", "--edge-out", edge], { env });
    expect(rerun.code).toBe(0);
    const report = JSON.parse(rerun.stdout) as { resumed: boolean; lease: { tookOverFrom?: string } };
    expect(report.resumed).toBe(true);
    expect(report.lease.tookOverFrom).toBe(holder![1]);

    // The edge code for this snapshot: the function within CloudFront's 10 KB, the worker as
    // bundled with the snapshot's edge facts in front.
    expect(readFileSync(path.join(edge, "cloudfront-function.js")).length).toBeLessThanOrEqual(10 * 1024);
    expect(readFileSync(path.join(edge, "r2-worker.js"), "utf8")).toBe(r2WorkerText(out));

    const want = [...readSnapshotFiles(out).files.keys()].filter((p) => objectSpec(p) !== undefined);
    const archived = new Set(
      JSON.parse(readFileSync(path.join(out, EDGE_FILE), "utf8")).archived as string[],
    );
    expect(await s3.list("k/")).toEqual([...want, RECORD_KEY].sort());
    const got = await inPool(
      8,
      want.map((file) => () => s3.get(`k/${file}`)),
    );
    want.forEach((file, i) => {
      const o = got[i]!;
      expect(o.body.equals(readFileSync(path.join(out, file))), file).toBe(true);
      expect(o.contentType, file).toBe(objectSpec(file)!.contentType);
      expect(o.cacheControl, file).toBe(objectSpec(file, archived)!.cacheControl);
    });
  }, 300_000);
});
