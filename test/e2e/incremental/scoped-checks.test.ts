// A tick checks the store-wide rules (dangling rows, flags, shared ids) over the tournaments changed
// since the live snapshot's build, and the whole store when the store shows another history than
// the one that build checked (docs/design/incremental.md, "What a tick checks").
import { copyFileSync, realpathSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { build } from "../../../src/pipeline/build.ts";
import { DEFAULT_STATUS_OPTIONS, type StatusOptions } from "../../../src/domain/status.ts";
import { BuildError, EXIT } from "../../../src/shared/errors.ts";
import { makeSampleStore, SAMPLE_NOW } from "../../support/e2e.ts";
import { removeTempDirs, tempDir } from "../../support/temp.ts";
import { hashTree } from "../../support/tree.ts";
import { READ_INDEXES } from "../../../src/store/read/queries.ts";
import { upgradeStore } from "../../../src/store/write/upgrade.ts";

afterAll(removeTempDirs);

const sample = makeSampleStore(tempDir("scoped-sample"));

/** Runs `sql` on `file` through another connection, as a writer does (foreign keys off). */
function write(file: string, sql: string): void {
  const db = new Database(file);
  db.pragma("foreign_keys = OFF");
  db.exec(sql);
  db.close();
}

/** The exit code and the problems' text of a build that must fail. */
async function failure(run: Promise<unknown>): Promise<{ code: number; text: string }> {
  try {
    await run;
  } catch (e) {
    if (e instanceof BuildError)
      return { code: e.exitCode, text: e.problems.map((p) => `${p.where}: ${p.what}`).join("\n") };
    throw e;
  }
  throw new Error("the build succeeded");
}

const RENAME = (t: number, name: string) =>
  `UPDATE players SET name = '${name}' WHERE tournament_id = ${t} AND source_player_number = 1`;
const DANGLING = `INSERT INTO recaps (tournament_id, language, kind, headline, paragraphs)
  VALUES (999, 'es', 'Final', 'H', '[]')`;

/** A copy of the sample store in a directory of its own, and where its snapshot goes. */
function fresh(name: string): { dir: string; db: string; out: string } {
  const dir = tempDir(name);
  const db = path.join(dir, "store.sqlite");
  copyFileSync(sample, db);
  return { dir, db, out: path.join(dir, "dist") };
}

/** The snapshot at `out` is, byte for byte, what a full --rebuild of `db` makes. */
async function expectSameAsRebuild(
  dir: string,
  db: string,
  out: string,
  options: { skipInvalid?: boolean; statusOptions?: StatusOptions } = {},
): Promise<void> {
  const full = path.join(dir, "full", "dist");
  await build({ db, out: full, now: SAMPLE_NOW, jobs: 1, rebuild: true, ...options });
  const a = hashTree(realpathSync(out));
  const b = hashTree(realpathSync(full));
  expect(Object.keys(a).filter((f) => a[f] !== b[f])).toEqual([]);
  expect(Object.keys(a).length).toBe(Object.keys(b).length);
}

describe("a tick's store checks", () => {
  it("read only what changed, and still find a dangling row written after the last build", async () => {
    const { db, out } = fresh("scoped");
    const first = await build({ db, out, now: SAMPLE_NOW, jobs: 1 });
    expect(first.render.storeCheck?.scope).toBe("whole");
    write(db, RENAME(1, "Renamed"));
    const tick = await build({ db, out, now: SAMPLE_NOW, jobs: 1 });
    expect(tick.render.storeCheck?.scope).toBe("changed");

    write(db, DANGLING);
    const failed = await failure(build({ db, out, now: SAMPLE_NOW, jobs: 1 }));
    expect(failed.code).toBe(EXIT.storeData);
    expect(failed.text).toContain(
      "table recaps, rows (tournament_id=999), column tournament_id: 1 row references tournament 999",
    );
  }, 60_000);

  it("check the whole store when another store, of another history, is copied over the file in place", async () => {
    const { dir, db, out } = fresh("scoped-copy");
    // The live store: five changes to an unpublished draft, then the build that records them.
    for (let i = 0; i < 5; i++) write(db, `UPDATE tournaments SET name = 'Draft ${i}' WHERE is_draft = 1`);
    await build({ db, out, now: SAMPLE_NOW, jobs: 1 });
    // Another store from the same sample: a dangling row first (a count the live build already
    // passed), then enough changes to a published tournament that its count is ahead.
    const other = path.join(dir, "other.sqlite");
    copyFileSync(sample, other);
    write(other, DANGLING);
    for (let i = 0; i < 10; i++) write(other, RENAME(2, `Other ${i}`));
    copyFileSync(other, db); // in place: the same inode
    const failed = await failure(build({ db, out, now: SAMPLE_NOW, jobs: 1 }));
    expect(failed.code).toBe(EXIT.storeData);
    expect(failed.text).toContain("rows (tournament_id=999)");
  }, 60_000);

  it("look at every tournament when an older copy of the store is restored in place and changed past the count", async () => {
    const { dir, db, out } = fresh("scoped-restore");
    await build({ db, out, now: SAMPLE_NOW, jobs: 1 });
    const backup = path.join(dir, "backup.sqlite");
    copyFileSync(db, backup);
    // Changes the restore will lose, then the tick that records them.
    for (let i = 0; i < 3; i++) write(db, RENAME(1, `Lost ${i}`));
    const tick = await build({ db, out, now: SAMPLE_NOW, jobs: 1 });
    expect(tick.render.storeCheck?.scope).toBe("changed");
    // The older copy comes back over the file, and gets more changes than it lost elsewhere.
    copyFileSync(backup, db);
    for (let i = 0; i < 5; i++) write(db, RENAME(2, `After ${i}`));
    const after = await build({ db, out, now: SAMPLE_NOW, jobs: 1 });
    expect(after.render.storeCheck?.scope).toBe("whole");
    // Tournament 1 is as the restored store has it again, exactly as a full build makes it.
    await expectSameAsRebuild(dir, db, out);
  }, 60_000);

  it("build a store without the read indexes the same, by scans, with a note naming upgrade-store", async () => {
    const { dir, db, out } = fresh("scoped-indexes");
    const first = await build({ db, out, now: SAMPLE_NOW, jobs: 1 });
    expect(first.notes ?? []).toEqual([]);
    write(db, READ_INDEXES.map((name) => `DROP INDEX ${name};`).join("\n"));
    write(db, RENAME(1, "Scanned"));
    const tick = await build({ db, out, now: SAMPLE_NOW, jobs: 1 });
    expect(tick.render.storeCheck?.scope).toBe("changed");
    expect(tick.notes?.join("\n")).toMatch(/lacks the indexes publication_tags_by_tag, .*upgrade-store/);
    await expectSameAsRebuild(dir, db, out);
    // upgrade-store adds them back; the next build has no note.
    upgradeStore(db);
    expect((await build({ db, out, now: SAMPLE_NOW, jobs: 1 })).notes ?? []).toEqual([]);
  }, 60_000);

  it("try again, with --skip-invalid, the tournaments the live build left out, as a full build does", async () => {
    const { dir, db, out } = fresh("scoped-skipped");
    write(db, "INSERT INTO publication_tags (tournament_id, tag) VALUES (1, '../etc')");
    const first = await build({ db, out, now: SAMPLE_NOW, jobs: 1, skipInvalid: true });
    const skipped = first.render.skipped.map((t) => t.externalId);
    expect(skipped).toHaveLength(1);
    write(db, RENAME(2, "Renamed"));
    const tick = await build({ db, out, now: SAMPLE_NOW, jobs: 1, skipInvalid: true });
    expect(tick.render.storeCheck?.scope).toBe("changed");
    expect(tick.render.skipped.map((t) => t.externalId)).toEqual(skipped);
    await expectSameAsRebuild(dir, db, out, { skipInvalid: true });
  }, 60_000);

  it("drop, in a build that looks at every tournament, the previous ones no longer published", async () => {
    const { dir, db, out } = fresh("scoped-gone");
    const first = await build({ db, out, now: SAMPLE_NOW, jobs: 1 });
    write(db, "UPDATE tournaments SET is_draft = 1 WHERE tournament_id = 2");
    // Other status options make another program key: the build looks at every tournament, over
    // the live bookkeeping (not a tick, not a --rebuild).
    const statusOptions = { ...DEFAULT_STATUS_OPTIONS, graceMs: DEFAULT_STATUS_OPTIONS.graceMs + 60_000 };
    const whole = await build({ db, out, now: SAMPLE_NOW, jobs: 1, statusOptions });
    expect(whole.render.storeCheck?.scope).toBe("whole");
    expect(whole.render.tournaments).toBe(first.render.tournaments - 1);
    expect(whole.publish.filesRemoved).toBeGreaterThan(0);
    await expectSameAsRebuild(dir, db, out, { statusOptions });
  });
});
