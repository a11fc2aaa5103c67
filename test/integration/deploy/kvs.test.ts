// deploy --kvs-arn over a real S3-compatible server, the store at the seam (an in-memory
// KeyValueStore that refuses a stale ETag or more than 50 keys an update): a first deploy fills the
// store with every `?tag=` list of the snapshot; after a tag goes from the store and another comes,
// the next deploy puts the new lists' keys and deletes the gone ones', without listing the store; an unchanged snapshot writes nothing; and the store always equals the snapshot's tag lists.
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build } from "../../../src/pipeline/build.ts";
import { deploy, type DeployOptions } from "../../../src/deploy/deploy.ts";
import { kvsKeysOf } from "../../../src/hosting/hosts/cloudfront/runtime/cloudfront-function.ts";
import { MARKER_KEY } from "../../../src/deploy/kvs.ts";
import { readSnapshotFiles } from "../../../src/deploy/snapshot-files.ts";
import { hostRules } from "../../../src/hosting/rules.ts";
import { buildSample, SAMPLE_NOW } from "../../support/e2e.ts";
import { MemoryKvs } from "../../support/kvs-memory.ts";
import { S3_ENV, startS3, type LocalS3 } from "../../support/s3-server.ts";
import { removeTempDirs, tempDir } from "../../support/temp.ts";

let s3: LocalS3;
let db: string;
let out: string;
const kvs = new MemoryKvs();

beforeAll(async () => {
  Object.assign(process.env, S3_ENV);
  s3 = await startS3();
  ({ db, out } = await buildSample(tempDir("deploy-kvs")));
}, 60_000);

afterAll(async () => {
  await s3?.close();
  removeTempDirs();
});

const options = (): DeployOptions => ({
  dir: out,
  bucket: s3.bucket,
  prefix: "site/",
  endpoint: s3.endpoint,
  pathStyle: true,
  concurrency: 8,
  kvs,
});
const tagKeys = () => [...kvs.data.keys()].filter((k) => k !== MARKER_KEY).sort();
const snapshotTagKeys = () => kvsKeysOf(hostRules(), readSnapshotFiles(out).files.keys());

describe("deploy --kvs-arn", () => {
  it("fills the store with every ?tag= list on a first deploy", async () => {
    const report = await deploy(options());
    expect(report.kvs).toMatchObject({ full: true, deletes: 0 });
    expect(report.kvs!.puts).toBe(snapshotTagKeys().length);
    expect(tagKeys()).toEqual(snapshotTagKeys());
    expect(kvs.data.get(MARKER_KEY)).toBe(`${report.generation.log} ${report.generation.generation}`);
  }, 120_000);

  it("after a tag is added and another removed, puts and deletes only those, without listing", async () => {
    const before = snapshotTagKeys();
    const d = new Database(db);
    // Every club has a list for every club tag of the store: the tag used least goes from all
    // clubs, and a new tag comes to one tournament of one club.
    const { tag } = d
      .prepare("SELECT tag, count(*) AS n FROM club_tournament_tags GROUP BY tag ORDER BY n, tag LIMIT 1")
      .get() as { tag: string };
    const row = d
      .prepare("SELECT club_id, tournament_id FROM club_tournament_tags WHERE tag = ? LIMIT 1")
      .get(tag) as {
      club_id: number;
      tournament_id: number;
    };
    d.prepare("DELETE FROM club_tournament_tags WHERE tag = ?").run(tag);
    d.prepare("INSERT INTO club_tournament_tags (club_id, tournament_id, tag) VALUES (?, ?, 'kvs-new')").run(
      row.club_id,
      row.tournament_id,
    );
    d.close();
    await build({ db, out, now: SAMPLE_NOW });
    const after = snapshotTagKeys();
    const gone = before.filter((k) => !after.includes(k));
    const added = after.filter((k) => !before.includes(k));
    expect(gone.length).toBeGreaterThan(0);
    expect(gone.every((k) => k.endsWith(`/tag/${tag}/index.json`))).toBe(true);
    expect(added.length).toBeGreaterThan(0);
    expect(added.every((k) => k.endsWith("/tag/kvs-new/index.json"))).toBe(true);
    const lists = kvs.lists;
    const updates = kvs.updates.length;
    const report = await deploy(options());
    expect(report.kvs).toMatchObject({ full: false, deletes: gone.length });
    // The new lists' keys, and the tag lists the tick sent again (they list the changed
    // tournament): a put of a key that is there already changes nothing. Far fewer than the store.
    expect(report.kvs!.puts).toBeGreaterThanOrEqual(added.length);
    expect(report.kvs!.puts).toBeLessThan(after.length);
    expect(kvs.lists).toBe(lists);
    const sent = report.kvs!.puts + report.kvs!.deletes + 1;
    expect(kvs.updates.length - updates).toBe(Math.ceil(sent / 49));
    expect(kvs.updates.slice(updates).reduce((a, b) => a + b, 0)).toBe(sent);
    expect(tagKeys()).toEqual(after);
    // Its tag lists are gone from the bucket too.
    for (const k of gone) expect(await s3.get(`site/${k}`)).toBeUndefined();
  }, 240_000);

  it("writes nothing when the snapshot is what the bucket and the store hold", async () => {
    const updates = kvs.updates.length;
    const report = await deploy(options());
    expect(report.kvs).toEqual({ full: false, puts: 0, deletes: 0, requests: 2 });
    expect(kvs.updates.length).toBe(updates);
  }, 120_000);

  it("compares in full once when the store is new to the prefix", async () => {
    kvs.data.clear();
    const report = await deploy(options());
    expect(report.kvs!.full).toBe(true);
    expect(tagKeys()).toEqual(snapshotTagKeys());
  }, 120_000);
});
