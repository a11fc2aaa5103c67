// `build-api publish` as a CI runner runs it: no snapshot on disk, only the store. A first run fills
// the prefix; a run SIGKILLed part-way leaves its pending mark and lease; after a tournament is
// unpublished and the lease lapses, the next run settles it; the prefix then holds exactly what
// `build` + `deploy` of the store give, byte for byte, with the same Content-Type and Cache-Control.
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build } from "../../../src/pipeline/build.ts";
import { deploy } from "../../../src/deploy/deploy.ts";
import { LEASE_KEY } from "../../../src/deploy/lease.ts";
import { LEDGER_KEY } from "../../../src/deploy/publish-run.ts";
import { PENDING_KEY, RECORD_KEY } from "../../../src/deploy/record.ts";
import { makeSampleStore, SAMPLE_NOW } from "../../support/e2e.ts";
import { removeTempDirs, tempDir } from "../../support/temp.ts";
import { runCli } from "../../support/run.ts";
import { lapseLease } from "../../support/lapsed-lease.ts";
import { localDeploy, S3_ENV, servedObjects, startS3, type LocalS3 } from "../../support/s3-server.ts";

let s3: LocalS3;
let db: string;

beforeAll(async () => {
  // The reference deploy runs in this process.
  Object.assign(process.env, S3_ENV);
  s3 = await startS3();
  db = makeSampleStore(tempDir("publish-cli"));
  // The tournaments the test changes and one more, the others drafts: a third of the sample's
  // objects to send, read and compare, and what is tested (a killed run settled) is the same.
  const d = new Database(db);
  d.prepare("UPDATE tournaments SET is_draft = 1 WHERE tournament_id NOT IN (1, 2, 3)").run();
  d.close();
}, 240_000);

afterAll(async () => {
  await s3?.close();
  removeTempDirs();
});

const env = { ...process.env, ...S3_ENV };
const args = (prefix: string) => [
  "publish",
  "--db",
  db,
  "--bucket",
  s3.bucket,
  "--prefix",
  prefix,
  "--endpoint",
  s3.endpoint,
  "--path-style",
  "--now",
  new Date(SAMPLE_NOW).toISOString(),
  "--concurrency",
  "1",
  "--jobs",
  "1",
  // Renewed every quarter of it while a run lives; the killed run's is lapsed by the test.
  "--lease-seconds",
  "15",
];

describe("build-api publish", () => {
  it("fills a prefix, and a run killed part-way is settled by the next", async () => {
    const first = await runCli([...args("p/"), "--json"], { env });
    expect(first.code, first.stderr).toBe(0);
    const report = JSON.parse(first.stdout) as { deploy: { sent: number }; fallback?: string };
    expect(report.deploy.sent).toBeGreaterThan(100);
    expect(report.fallback).toBe("no ledger in the bucket");
    expect(await s3.list("p/")).toContain(LEDGER_KEY);

    const d = new Database(db);
    d.prepare("UPDATE tournaments SET name = name || ' (renamed)' WHERE tournament_id = 1").run();
    d.close();
    const killed = await runCli(args("p/"), {
      env,
      interrupt: { when: /publish step 1\//, signal: "SIGKILL" },
    });
    expect(killed.signal).toBe("SIGKILL");
    const left = await s3.list("p/");
    expect(left).toContain(PENDING_KEY);
    expect(left).toContain(LEASE_KEY);

    // Unpublish another tournament meanwhile; past the dead lease's expiry the next run takes over.
    const e = new Database(db);
    e.prepare("UPDATE tournaments SET is_draft = 1 WHERE tournament_id = 2").run();
    e.close();
    // (The dead lease is lapsed in the bucket, as its expiry passing would, rather than waited out.)
    await lapseLease(s3, "p/");
    const rerun = await runCli(args("p/"), { env });
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.stderr).toContain("settled an interrupted publish");
    expect(rerun.stderr).toContain("every file was rendered and compared");

    const out = path.join(tempDir("publish-cli-ref"), "dist");
    await build({ db, out, now: SAMPLE_NOW, jobs: 1 });
    await deploy(localDeploy(s3, out, "r/"));
    const [got, want] = await Promise.all([servedObjects(s3, "p/"), servedObjects(s3, "r/")]);
    expect([...got.keys()]).toEqual([...want.keys()]);
    expect([...got].filter(([k, v]) => want.get(k) !== v).map(([k]) => k)).toEqual([]);
    const keys = await s3.list("p/");
    expect(keys).toContain(RECORD_KEY);
    expect(keys).not.toContain(PENDING_KEY);
    expect(keys).not.toContain(LEASE_KEY);
  }, 300_000);
});
