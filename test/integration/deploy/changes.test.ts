// A tick deploy plans from the change log, in O(change): the record in the bucket keeps the log's
// id and generation (a few hundred bytes, whatever the file count), the deploy reads only the
// bookkeeping rows of the paths changed since (never every row: Bookkeeping.allFiles is not
// called), and it falls back to the full comparison, saying why, when the record is missing, of
// an older version, of another log, or names a generation the log does not reach. Every case ends
// with the bucket equal to the snapshot.
import { gunzipSync } from "node:zlib";
import Database from "better-sqlite3";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { build } from "../../../src/pipeline/build.ts";
import { openBucket } from "../../../src/deploy/bucket.ts";
import { deploy, type DeployOptions } from "../../../src/deploy/deploy.ts";
import { metadataDigest, objectSpec } from "../../../src/deploy/objects.ts";
import { decodeRecord, encodeRecord, RECORD_KEY } from "../../../src/deploy/record.ts";
import { readSnapshotFiles } from "../../../src/deploy/snapshot-files.ts";
import { Bookkeeping } from "../../../src/ledger/bookkeeping.ts";
import { buildSample, SAMPLE_NOW } from "../../support/e2e.ts";
import { removeTempDirs, tempDir } from "../../support/temp.ts";
import { S3_ENV, startS3, type LocalS3 } from "../../support/s3-server.ts";
import { inPool } from "../../support/run-child.ts";

let s3: LocalS3;
let db: string;
let out: string;

beforeAll(async () => {
  Object.assign(process.env, S3_ENV);
  s3 = await startS3();
  ({ db, out } = await buildSample(tempDir("deploy-changes")));
}, 60_000);

afterAll(async () => {
  await s3?.close();
  removeTempDirs();
});

afterEach(() => vi.restoreAllMocks());

const options = (prefix: string): DeployOptions => ({
  dir: out,
  bucket: s3.bucket,
  prefix,
  endpoint: s3.endpoint,
  pathStyle: true,
  concurrency: 8,
});

function served(): Map<string, string> {
  const m = new Map<string, string>();
  for (const [p, f] of readSnapshotFiles(out).files) if (objectSpec(p)) m.set(p, f.sha256);
  return m;
}

async function expectBucketEqualsSnapshot(prefix: string): Promise<void> {
  const want = served();
  expect(await s3.list(prefix)).toEqual([...want.keys(), RECORD_KEY].sort());
  const got = await inPool(
    16,
    [...want.keys()].map((p) => async () => (await s3.get(`${prefix}${p}`))!.metadata.sha256),
  );
  [...want].forEach(([p, h], i) => expect(got[i], p).toBe(h));
}

async function recordIn(prefix: string) {
  const o = await s3.get(`${prefix}${RECORD_KEY}`);
  return { bytes: o!.body.length, record: decodeRecord(o!.body)! };
}

async function putRecord(prefix: string, body: Buffer): Promise<void> {
  const b = openBucket({ ...options(prefix), retries: 0 });
  await b.put({ key: RECORD_KEY, body, contentType: "application/gzip" });
  b.close();
}

let renames = 0;
async function tick(): Promise<void> {
  const d = new Database(db);
  d.prepare("UPDATE tournaments SET name = ? WHERE tournament_id = 1").run(`Renamed ${++renames}`);
  d.close();
  await build({ db, out, now: SAMPLE_NOW });
}

describe("a deploy from the change log", () => {
  it("reads only the changed rows on a tick, and keeps a record of constant size", async () => {
    const first = await deploy(options("t/"));
    expect(first.full).toBe(true);
    expect(first.fallback).toMatch(/no deploy record/);
    const files = readSnapshotFiles(out).files.size;
    expect(first.rowsRead).toBe(files);
    const r1 = await recordIn("t/");
    expect(r1.record.files).toBeUndefined();
    expect(r1.record.at).toEqual(first.generation);

    const before = served();
    await tick();
    const after = served();
    const changed = [...after].filter(([p, h]) => before.get(p) !== h).map(([p]) => p);
    const allFiles = vi.spyOn(Bookkeeping.prototype, "allFiles");
    const report = await deploy(options("t/"));
    expect(allFiles).not.toHaveBeenCalled();
    expect(report.full).toBe(false);
    expect(report.fallback).toBeUndefined();
    expect(report.sent).toBe(changed.length);
    // The rows of the changed paths (served or not: host configs change with the snapshot too),
    // far fewer than the snapshot's.
    expect(report.rowsRead).toBeGreaterThanOrEqual(changed.length);
    expect(report.rowsRead).toBeLessThan(files / 4);
    expect(report.generation.generation).toBeGreaterThan(first.generation.generation);
    await expectBucketEqualsSnapshot("t/");
    const r2 = await recordIn("t/");
    expect(r2.record.at).toEqual(report.generation);
    // The same bytes after a tick as after the first deploy: nothing in it grows with the files.
    expect(Math.abs(r2.bytes - r1.bytes)).toBeLessThan(8);
    expect(r2.bytes).toBeLessThan(2048);
  }, 120_000);

  it("the record's bytes do not depend on the file count", () => {
    const facts = { links: { "api/public/v1/tournaments/index.json": '<a>; rel="next"' }, archived: ["7"] };
    const at = { log: "0123456789abcdef", generation: 41 };
    const r = encodeRecord({ metadata: metadataDigest(), at, facts });
    expect(decodeRecord(r)).toEqual({ metadata: metadataDigest(), at, facts });
    expect(gunzipSync(r).toString().split("\n")).toHaveLength(3);
    // A v2 record of the same snapshot holds a line per file.
    const files = new Map([...readSnapshotFiles(out).files].slice(0, 500));
    const v2 = encodeRecord({ metadata: metadataDigest(), files, facts });
    expect(gunzipSync(v2).toString().split("\n").length).toBe(files.size + 3);
  });

  // An object of a tournament gone before the record's log was lost: the fallback must remove it
  // (from the v2 record's list, or by listing the prefix once when the record lists no files).
  const STALE = "api/public/v1/tournaments/999999/index.json";
  const fallbacks: Array<[string, () => Buffer, RegExp]> = [
    [
      "an older record version",
      () =>
        encodeRecord({
          metadata: metadataDigest(),
          files: new Map([[STALE, { sha256: "0".repeat(64), bytes: 1 }]]),
          facts: { links: {}, archived: [] },
        }),
      /older version/,
    ],
    [
      "another change log",
      () =>
        encodeRecord({
          metadata: metadataDigest(),
          at: { log: "not-this-log", generation: 1 },
          facts: { links: {}, archived: [] },
        }),
      /another change log/,
    ],
    [
      "a generation the log does not reach",
      () => {
        const live = readSnapshotFiles(out).generation;
        return encodeRecord({
          metadata: metadataDigest(),
          at: { log: live.log, generation: live.generation + 1000 },
          facts: { links: {}, archived: [] },
        });
      },
      /does not reach back/,
    ],
  ];
  for (const [name, body, why] of fallbacks) {
    it(`falls back to the full comparison on ${name}, says so, and records the log's generation`, async () => {
      const prefix = `f${fallbacks.findIndex(([n]) => n === name)}/`;
      await putRecord(prefix, body());
      expect(objectSpec(STALE)).toBeDefined();
      const b = openBucket({ ...options(prefix), retries: 0 });
      await b.put({ key: STALE, body: Buffer.from("{}"), contentType: "application/json" });
      b.close();
      const report = await deploy(options(prefix));
      expect(report.full).toBe(true);
      expect(report.fallback).toMatch(why);
      expect(report.rowsRead).toBe(readSnapshotFiles(out).files.size);
      expect(report.removed).toBe(1);
      await expectBucketEqualsSnapshot(prefix);
      expect((await recordIn(prefix)).record.at).toEqual(readSnapshotFiles(out).generation);
      // The next deploy, with nothing changed, trusts the record and reads no row.
      const again = await deploy(options(prefix));
      expect(again.full).toBe(false);
      expect(again.rowsRead).toBe(0);
      expect(again.sent).toBe(0);
    }, 120_000);
  }
});
