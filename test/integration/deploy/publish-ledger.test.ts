// The bucket's split ledger (issue 48): a tick from a fresh runner reads the small index and the
// group objects of what it renders only (asserted on the GET requests the bucket saw), and a run
// killed between writing its new group objects and switching the index leaves the old index
// valid; the next run settles it, and the index then names exactly the group objects the bucket holds.
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { openBucket, type Bucket } from "../../../src/deploy/bucket.ts";
import { LEDGER_OBJECTS } from "../../../src/deploy/ledger-objects.ts";
import { LEDGER_KEY } from "../../../src/deploy/publish-run.ts";
import { publishToBucket, type PublishToBucketOptions } from "../../../src/cli/publish.ts";
import { unpackLedger } from "../../../src/ledger/bucket-site.ts";
import {
  extractGroups,
  groupObjectName,
  groupOfOwner,
  groupOfRecord,
  LEGACY_LAYOUT,
  loadGroup,
} from "../../../src/ledger/ledger-groups.ts";
import { BuildError } from "../../../src/shared/errors.ts";
import { SAMPLE_NOW } from "../../support/e2e.ts";
import { publishOptions, sampleOnLocalS3 } from "../../support/deploy-fixture.ts";
import { tempDir } from "../../support/temp.ts";

const fixture = sampleOnLocalS3("publish-ledger", true);
const PREFIX = "split/";

function options(more: Partial<PublishToBucketOptions> = {}): PublishToBucketOptions {
  return publishOptions(fixture, PREFIX, 8, more);
}

/** The real bucket, with every GET logged and the puts of keys `failPut` picks failing. */
function watchedBucket(gets: string[], failPut: (key: string) => boolean = () => false): Bucket {
  const s3 = fixture.s3;
  const real = openBucket({
    bucket: s3.bucket,
    prefix: PREFIX,
    endpoint: s3.endpoint,
    pathStyle: true,
    concurrency: 8,
  });
  const fail = (key: string) => {
    if (failPut(key)) throw Object.assign(new Error("connect ECONNRESET"), { code: "ECONNRESET" });
  };
  return {
    ...real,
    put: async (o) => (fail(o.key), real.put(o)),
    putIf: async (o, c) => (fail(o.key), real.putIf(o, c)),
    get: (k) => (gets.push(k), real.get(k)),
    getTagged: (k) => (gets.push(k), real.getTagged(k)),
    remove: (k) => real.remove(k),
    removeIf: (k, e) => real.removeIf(k, e),
    replaceMetadata: (o) => real.replaceMetadata(o),
    close: () => real.close(),
  };
}

function renameTournament(id: number, suffix: string): string {
  const d = new Database(fixture.db);
  d.prepare("UPDATE tournaments SET name = name || ? WHERE tournament_id = ?").run(suffix, id);
  const ext = d
    .prepare<[number], string>("SELECT external_id FROM tournaments WHERE tournament_id = ?")
    .pluck()
    .get(id)!;
  d.close();
  return ext;
}

/** The group objects the bucket's index names, and those the bucket holds. */
async function groupObjects(): Promise<{ named: string[]; held: string[] }> {
  const index = (await fixture.s3.get(`${PREFIX}${LEDGER_KEY}`))!;
  const packed = unpackLedger(index.body)!;
  const file = path.join(mkdtempSync(path.join(tempDir("ledger-index"), "i-")), "index.sqlite");
  writeFileSync(file, packed.database!);
  const db = new Database(file, { readonly: true });
  const named = db.prepare<[], string>("SELECT object FROM ledger_groups ORDER BY object").pluck().all();
  db.close();
  const held = (await fixture.s3.list(`${PREFIX}${LEDGER_OBJECTS}`)).sort();
  return { named, held };
}

/**
 * Rewrites the bucket's ledger as format 2 wrote it: the players in 4,096 groups `p/<xyz>`, the
 * tournaments' records whole in the index (their groups without them), no layout recorded.
 */
async function toFormat2(): Promise<void> {
  const bucket = openBucket({
    bucket: fixture.s3.bucket,
    prefix: PREFIX,
    endpoint: fixture.s3.endpoint,
    pathStyle: true,
    concurrency: 8,
  });
  const packed = unpackLedger((await fixture.s3.get(`${PREFIX}${LEDGER_KEY}`))!.body)!;
  const file = path.join(mkdtempSync(path.join(tempDir("ledger-format2"), "i-")), "index.sqlite");
  writeFileSync(file, packed.database!);
  const db = new Database(file);
  const objects = db.prepare<[], string>("SELECT object FROM ledger_groups").pluck().all();
  for (const o of objects) loadGroup(db, (await bucket.get(LEDGER_OBJECTS + o))!);
  const groups = new Set<string>();
  for (const o of db.prepare<[], string>("SELECT owner FROM owners").pluck().all())
    if (groupOfOwner(o, LEGACY_LAYOUT)) groups.add(groupOfOwner(o, LEGACY_LAYOUT)!);
  for (const k of db.prepare<[], string>("SELECT key FROM records WHERE key < 't:'").pluck().all())
    if (groupOfRecord(k, LEGACY_LAYOUT)) groups.add(groupOfRecord(k, LEGACY_LAYOUT)!);
  db.exec("DELETE FROM ledger_groups; DROP TABLE ledger_layout");
  const map = db.prepare("INSERT INTO ledger_groups (grp, object, players) VALUES (?, ?, ?)");
  const written = new Set<string>();
  for (const [g, cut] of extractGroups(db, groups, LEGACY_LAYOUT)) {
    const blob = JSON.parse(gunzipSync(cut!.body).toString("utf8")) as { details?: unknown };
    delete blob.details;
    const body = gzipSync(JSON.stringify(blob));
    const name = groupObjectName(g, body);
    await bucket.put({ key: LEDGER_OBJECTS + name, body, contentType: "application/gzip" });
    map.run(g, name, cut!.players);
    written.add(name);
  }
  db.exec(`DELETE FROM files WHERE owner >= 't/' AND owner < 't0';
    DELETE FROM owners WHERE owner >= 't/' AND owner < 't0';
    DELETE FROM records WHERE (key >= 'p:' AND key < 'p;') OR (key >= 's:' AND key < 's;'); VACUUM`);
  db.close();
  for (const o of objects) if (!written.has(o)) await bucket.remove(LEDGER_OBJECTS + o);
  const parts = [readFileSync(file), packed.inputs!].flatMap((b) => [Buffer.from(`${b.length}\n`), b]);
  const body = gzipSync(Buffer.concat([Buffer.from("build-api-ledger 2\n"), ...parts]));
  await bucket.put({ key: LEDGER_KEY, body, contentType: "application/gzip" });
  bucket.close();
}

describe("publish: the ledger split into an index and group objects", () => {
  it("a tick reads the index and the groups of what it renders, not the others'", async () => {
    const first = await publishToBucket(options());
    expect(first.ledger.objectsWritten).toBeGreaterThan(50);
    const before = await groupObjects();
    expect(before.held).toEqual(before.named);

    const id = renameTournament(1, " (split)");
    const gets: string[] = [];
    const r = await publishToBucket(options({ bucketImpl: watchedBucket(gets) }));
    expect(r.fallback).toBeUndefined();
    expect(r.build!.render.rendered?.tournaments).toBe(1);
    const read = gets.filter((k) => k.startsWith(LEDGER_OBJECTS)).map((k) => k.slice(LEDGER_OBJECTS.length));
    expect(read.length).toBe(r.ledger.objectsRead);
    // The changed tournament's own group, and no other tournament's.
    const tournamentGroups = read.filter((o) => o.startsWith("t_2f"));
    expect(tournamentGroups).toHaveLength(1);
    expect(tournamentGroups[0]!.startsWith(`t_2f${id}.`)).toBe(true);
    // Its players' groups and search chunks: a small part of all the groups.
    expect(read.length).toBeLessThan(before.named.length / 3);
    expect(gets.filter((k) => k === LEDGER_KEY)).toHaveLength(1);
    // Written: the changed groups under new names; the replaced ones removed.
    const after = await groupObjects();
    expect(after.held).toEqual(after.named);
    expect(after.named.filter((o) => !before.named.includes(o))).toHaveLength(r.ledger.objectsWritten);
  }, 240_000);

  it("killed between its group objects and the index switch, the next run settles both", async () => {
    renameTournament(2, " (killed)");
    const before = await groupObjects();
    let indexPuts = 0;
    const bucketImpl = watchedBucket([], (k) => k === LEDGER_KEY && ++indexPuts === 2);
    const failed = await publishToBucket(options({ bucketImpl, retries: 0 })).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(BuildError);
    // The new group objects went up, but the index still names the old ones, all there.
    const mid = await groupObjects();
    expect(mid.named).toEqual(before.named);
    for (const o of mid.named) expect(mid.held).toContain(o);
    expect(mid.held.length).toBeGreaterThan(mid.named.length);

    const next = await publishToBucket(options());
    expect(next.fallback).toBeUndefined();
    expect(next.build).toBeUndefined(); // the staged delta applied: the bucket serves this store
    const settled = await groupObjects();
    expect(settled.held).toEqual(settled.named);
    expect(settled.named).not.toEqual(before.named);
    // A run after it has nothing to do and writes nothing.
    const again = await publishToBucket(options());
    expect(again.build).toBeUndefined();
    expect(again.ledger.objectsWritten).toBe(0);
    expect(await groupObjects()).toEqual(settled);
  }, 240_000);

  it("refuses a store older than what the bucket serves (a backup restored), naming the fix", async () => {
    const backup = path.join(path.dirname(fixture.db), "backup.sqlite");
    const d = new Database(fixture.db);
    await d.backup(backup);
    d.close();
    renameTournament(3, " (after the backup)");
    await publishToBucket(options());
    const failed = await publishToBucket(options({ build: { db: backup, now: SAMPLE_NOW, jobs: 1 } })).catch(
      (e: unknown) => e,
    );
    expect(failed).toBeInstanceOf(BuildError);
    expect((failed as BuildError).message).toContain("older than what the bucket serves");
    expect((failed as BuildError).problems[0]!.fix).toContain("_build-api-ledger.gz");
    // Nothing changed: the newest store is up to date.
    const next = await publishToBucket(options());
    expect(next.build).toBeUndefined();
  }, 240_000);

  it("converts a ledger of format 2 on the next run, sending no served object again", async () => {
    await publishToBucket(options());
    await toFormat2();
    const legacy = await groupObjects();
    expect(legacy.named.some((o) => o.startsWith("p_2f"))).toBe(true);

    const converted = await publishToBucket(options());
    expect(converted.fallback).toBeUndefined();
    expect(converted.deploy.sent).toBe(0);
    // Every group read once and cut anew: the players under a recorded layout, the old objects gone.
    expect(converted.ledger.objectsRead).toBe(legacy.named.length);
    const after = await groupObjects();
    expect(after.held).toEqual(after.named);
    expect(after.named.some((o) => o.startsWith("p_2f"))).toBe(false);
    expect(after.named.some((o) => /^p8_2f[0-9a-f]{2}\./.test(o))).toBe(true);

    // A tick then reads its own groups only, and its tournament's players come back whole.
    renameTournament(1, " (converted)");
    const r = await publishToBucket(options());
    expect(r.fallback).toBeUndefined();
    expect(r.build!.render.rendered?.tournaments).toBe(1);
    expect(r.ledger.objectsRead).toBeLessThan(after.named.length / 3);
    const next = await publishToBucket(options());
    expect(next.build).toBeUndefined();
    expect(next.ledger.objectsWritten).toBe(0);
  }, 240_000);

  it("a fresh runner's own copy of the store (another file, the same history) ticks", async () => {
    await publishToBucket(options());
    const copy = path.join(mkdtempSync(path.join(tempDir("fresh-runner"), "s-")), "store.sqlite");
    copyFileSync(fixture.db, copy);
    const d = new Database(copy);
    d.prepare("UPDATE tournaments SET name = name || ' (copy)' WHERE tournament_id = 1").run();
    d.close();
    const gets: string[] = [];
    const r = await publishToBucket(
      options({ bucketImpl: watchedBucket(gets), build: { db: copy, now: SAMPLE_NOW, jobs: 1 } }),
    );
    expect(r.fallback).toBeUndefined();
    expect(r.build!.render.rendered?.tournaments).toBe(1);
    // Tournament 1's groups, as the tick above from the bucket's own file read them.
    const groups = await groupObjects();
    expect(r.ledger.objectsRead).toBeLessThan(groups.named.length / 3);
  }, 240_000);

  it("names group objects by their content", () => {
    const a = groupObjectName("t/1", Buffer.from("x"));
    expect(a).toMatch(/^t_2f1\.[0-9a-f]{20}\.gz$/);
    expect(groupObjectName("t/1", Buffer.from("y"))).not.toBe(a);
    expect(groupObjectName("s:1671.t1", Buffer.from("x"))).toMatch(/^s_3a1671\.t1\./);
  });
});
