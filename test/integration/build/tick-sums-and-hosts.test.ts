// What a tick no longer reads whole: the report's sums come from the sums the bookkeeping keeps
// (less what the tick replaced, plus what it rendered), and the host files are kept unless the
// tournaments it put or dropped changed the archived set, the clock went back or the lists' Link
// headers changed. Each tick is compared with a full build of the same store at the same instant.
import { copyFileSync, readFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { build, type BuildReport } from "../../../src/pipeline/build.ts";
import { verify } from "../../../src/pipeline/verify.ts";
import { BOOKKEEPING_NAME } from "../../../src/ledger/bookkeeping.ts";
import { resolveLayout } from "../../../src/publish/layout.ts";
import { EDGE_FILE } from "../../../src/hosting/rules.ts";
import { ARCHIVE_AFTER_MS } from "../../../src/routes/cache.ts";
import { makeSampleStore, SAMPLE_NOW } from "../../support/e2e.ts";
import { removeTempDirs, tempDir } from "../../support/temp.ts";

// Counts how often the host files are made (the build imports them when it has work to do).
const made = vi.hoisted(() => ({ count: 0 }));
vi.mock("../../../src/hosting/hosts/index.ts", async (importOriginal) => {
  const original = await importOriginal<typeof import("../../../src/hosting/hosts/index.ts")>();
  return {
    ...original,
    hostFiles: (...args: Parameters<typeof original.hostFiles>) => {
      made.count++;
      return original.hostFiles(...args);
    },
  };
});

const HOST_FILES = [EDGE_FILE, "_headers", "_redirects", "_worker.js", "nginx.conf", "nginx-http.conf"];
// 1187520 is Complete, last fetched 2026-08-05T01:00Z; 1270466 is not finished at SAMPLE_NOW.
const ARCHIVED_AT = Date.parse("2026-08-05T01:00:00Z") + ARCHIVE_AFTER_MS;

let dir: string;
let sample: string;
beforeAll(() => {
  dir = tempDir("tick-sums");
  sample = makeSampleStore(dir);
});
afterAll(removeTempDirs);

const read = (out: string, rel: string): string => readFileSync(path.join(out, rel), "utf8");
const sumsOf = (r: BuildReport) => {
  const { tournaments, files, unknownResults, warningCount, standingsStopCount, validFrom, validUntil } =
    r.render;
  return { tournaments, files, unknownResults, warningCount, standingsStopCount, validFrom, validUntil };
};

/** A full build of `db` at `now` into a directory of its own: what a tick must equal. */
async function fresh(db: string, now: number, name: string): Promise<{ out: string; report: BuildReport }> {
  const out = path.join(dir, `fresh-${name}`);
  return { out, report: await build({ db, out, now, jobs: 1, pageSize: 2 }) };
}

/** Builds `out` from `db` at `now` as a tick does, and checks it against a full build. */
async function tick(db: string, out: string, now: number, name: string): Promise<BuildReport> {
  const report = await build({ db, out, now, jobs: 1, pageSize: 2 });
  const full = await fresh(db, now, name);
  expect(sumsOf(report)).toEqual(sumsOf(full.report));
  for (const f of HOST_FILES) expect(read(out, f), f).toBe(read(full.out, f));
  return report;
}

function edit(db: string, sql: string): void {
  const w = new Database(db);
  w.exec(sql);
  w.close();
}

describe("a tick's report sums and host files", () => {
  it("keep the host files and sum only what changed, yet equal a full build's, through edits and removals", async () => {
    const db = path.join(dir, "edits.sqlite");
    copyFileSync(sample, db);
    const out = path.join(dir, "edits");
    await build({ db, out, now: SAMPLE_NOW, jobs: 1, pageSize: 2 });

    // A rename in an unfinished tournament: the host files are not made again.
    edit(
      db,
      "UPDATE players SET name = name || ' Jr' WHERE source_player_number = 1 AND tournament_id = (SELECT tournament_id FROM tournaments WHERE external_id = 1270466)",
    );
    let before = made.count;
    const renamed = await build({ db, out, now: SAMPLE_NOW, jobs: 1, pageSize: 2 });
    expect(renamed.upToDate).toBe(false);
    expect(made.count).toBe(before);
    await tick(db, out, SAMPLE_NOW, "renamed");

    // A tournament back to a draft: the sums lose it; it was archived, so the host files are made.
    const { archived } = JSON.parse(read(out, EDGE_FILE)) as { archived: string[] };
    expect(archived).toContain("1187520");
    edit(db, "UPDATE tournaments SET is_draft = 1 WHERE external_id = 1187520");
    before = made.count;
    const dropped = await tick(db, out, SAMPLE_NOW, "dropped");
    expect(made.count).toBe(before + 2);
    expect(dropped.render.tournaments).toBe(renamed.render.tournaments - 1);
    expect((JSON.parse(read(out, EDGE_FILE)) as { archived: string[] }).archived).not.toContain("1187520");

    // The bookkeeping's kept sums are what its records count: verify finds no problem.
    expect(verify({ out }).problems).toEqual([]);
  });

  it("make the host files again when a tournament crosses its archive instant, and when the clock goes back", async () => {
    const db = path.join(dir, "clock.sqlite");
    copyFileSync(sample, db);
    const out = path.join(dir, "clock");
    const early = ARCHIVED_AT - 3600_000;
    await build({ db, out, now: early, jobs: 1, pageSize: 2 });
    expect((JSON.parse(read(out, EDGE_FILE)) as { archived: string[] }).archived).not.toContain("1187520");
    await tick(db, out, ARCHIVED_AT, "archived");
    expect((JSON.parse(read(out, EDGE_FILE)) as { archived: string[] }).archived).toContain("1187520");
    // Back before the instant: nothing was rendered for it, yet the archived set is read again.
    await tick(db, out, early, "back");
    expect((JSON.parse(read(out, EDGE_FILE)) as { archived: string[] }).archived).not.toContain("1187520");
  });

  it("are checked by verify: kept sums that differ from the records are a problem", async () => {
    const out = path.join(dir, "drift");
    await build({ db: sample, out, now: SAMPLE_NOW, jobs: 1 });
    const bk = new Database(path.join(resolveLayout(out).store, BOOKKEEPING_NAME));
    const kept = JSON.parse(
      bk.prepare("SELECT v FROM meta WHERE k = 'recordSums'").pluck().get() as string,
    ) as {
      n: number;
    };
    bk.prepare("UPDATE meta SET v = ? WHERE k = 'recordSums'").run(
      JSON.stringify({ ...kept, n: kept.n + 1 }),
    );
    bk.close();
    const problems = verify({ out }).problems;
    expect(problems).toHaveLength(1);
    expect(problems[0]!.what).toMatch(/the report's sums it keeps .* differ from its records'/);
    expect(problems[0]!.fix).toContain("--rebuild");
  });
});
