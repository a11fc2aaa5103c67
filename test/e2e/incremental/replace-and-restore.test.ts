// Issue 23, points 1 and 2, as the red team reproduced them: build, change the store, build again;
// the incremental snapshot must equal a full `--rebuild`. Changes that no DELETE trigger sees (rows
// that INSERT OR REPLACE, UPDATE OR REPLACE or an upsert takes from another tournament) and another
// store copied over the file in place with equal revision counts (`cp`, SQLite's backup API as
// `sqlite3 .restore` uses it). Through build() and through the CLI (`node bin/build-api.js`; run
// `npm run build` first). (A tournaments row replaced across ids leaves the other tournament's rows
// without it, which every build refuses: test/integration/store/replace.test.ts covers its
// revisions.) A version 3 store still builds, with its revisions untrusted (rows hashed)
// and a note saying so, until `upgrade-store`.
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, realpathSync, statSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build } from "../../../src/pipeline/build.ts";
import { readRevisions } from "../../../src/store/read/revisions.ts";
import { makeSampleStore, SAMPLE_NOW } from "../../support/e2e.ts";
import { sampleStoreV3 } from "../../support/old-stores.ts";
import { runCli } from "../../support/run.ts";
import { removeTempDirs, tempDir } from "../../support/temp.ts";
import { hashTree } from "../../support/tree.ts";
import { STORE_SCHEMA_VERSION } from "../../../src/store/schema.ts";

afterAll(removeTempDirs, 300_000);

const NOW = new Date(SAMPLE_NOW).toISOString().replace(".000Z", "Z");
/** The sqlite3 shell, when installed: the repros use it. */
const SQLITE3 = ["/usr/bin/sqlite3", "/usr/local/bin/sqlite3"].find((f) => existsSync(f));

let sample: string;
beforeAll(() => {
  sample = makeSampleStore(tempDir("replace-sample"));
});

/** Runs SQL on the store as another writer would: its own connection, foreign keys off. */
function sql(file: string, text: string): void {
  const db = new Database(file);
  try {
    // As the sqlite3 shell runs it: foreign keys not enforced.
    db.pragma("foreign_keys = OFF");
    db.exec(text);
  } finally {
    db.close();
  }
}

/** The repro: recap 11 (of another tournament) replaced by a preview of tournament 1. */
const REPLACE_RECAP = `INSERT OR REPLACE INTO recaps (recap_id, tournament_id, language, kind, headline, paragraphs)
  VALUES (11, 1, 'en', 'Preview', 'New preview', '["p"]')`;

/** Renames player 1 of tournament 1 in `file`: one change, so two copies edited so have equal counts. */
function rename(file: string, name: string): void {
  sql(file, `UPDATE players SET name = '${name}' WHERE tournament_id = 1 AND source_player_number = 1`);
}

/** The revision count (without its stamp) of tournament 1. */
function count(file: string): string {
  const db = new Database(file, { readonly: true });
  try {
    return readRevisions(db)!.tournaments.get(1)!.split(".")[0]!;
  } finally {
    db.close();
  }
}

/** Device, inode and birth time: what the build's file identity sees. */
function identity(file: string): string {
  const st = statSync(file, { bigint: true });
  return `${st.dev}:${st.ino}:${st.birthtimeNs}`;
}

/** Makes s and b two copies of the sample with tournament 1 edited differently at equal counts. */
function twoHistories(dir: string): { s: string; b: string } {
  const s = path.join(dir, "s.sqlite");
  const b = path.join(dir, "b.sqlite");
  copyFileSync(sample, s);
  copyFileSync(sample, b);
  rename(s, "Anna Stale");
  rename(b, "Bert Restored");
  expect(count(s)).toBe(count(b));
  return { s, b };
}

interface Case {
  name: string;
  /** Before the first build: the store at `s` (and `b`, another file) as the case needs them. */
  setup?: (dir: string) => { s: string; b?: string };
  /** The change between the first build and the incremental one. */
  change: (s: string, b: string | undefined) => void | Promise<void>;
  /** Text the incremental snapshot must hold (the change is visible), if any. */
  shows?: string;
}

const CASES: Case[] = [
  {
    name: "INSERT OR REPLACE into recaps (the issue's repro)",
    change: (s) => sql(s, REPLACE_RECAP),
    shows: "New preview",
  },
  {
    name: "UPDATE OR REPLACE moving recap 12 onto recap 11's id",
    change: (s) => sql(s, "UPDATE OR REPLACE recaps SET recap_id = 11 WHERE recap_id = 12"),
  },
  {
    name: "an upsert that moves recap 11 to tournament 1",
    change: (s) =>
      sql(
        s,
        `INSERT INTO recaps (recap_id, tournament_id, language, kind, headline, paragraphs)
         VALUES (11, 1, 'en', 'Preview', 'Upserted preview', '["p"]')
         ON CONFLICT (recap_id) DO UPDATE SET tournament_id = excluded.tournament_id, kind = excluded.kind,
           round_number = NULL, headline = excluded.headline, paragraphs = excluded.paragraphs`,
      ),
    shows: "Upserted preview",
  },
  {
    name: "another store copied over the file in place (cp) with equal revision counts",
    setup: twoHistories,
    change: (s, b) => {
      const before = identity(s);
      execFileSync("cp", [b!, s]);
      expect(identity(s)).toBe(before);
    },
    shows: "Bert Restored",
  },
  {
    name: "another store restored over the file through SQLite's backup API with equal revision counts",
    setup: twoHistories,
    change: async (s, b) => {
      const before = identity(s);
      const source = new Database(b!, { readonly: true });
      try {
        await source.backup(s);
      } finally {
        source.close();
      }
      expect(identity(s)).toBe(before);
    },
    shows: "Bert Restored",
  },
];

/** The files whose bytes differ between two trees. */
function differences(a: Record<string, string>, b: Record<string, string>): string[] {
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((f) => a[f] !== b[f]).sort();
}

/** True when some file of the snapshot holds `text`. */
function holds(out: string, text: string): boolean {
  try {
    execFileSync("grep", ["-rqF", text, realpathSync(out)]);
    return true;
  } catch {
    return false;
  }
}

describe("incremental builds after changes no DELETE trigger sees (build())", () => {
  it.each(CASES)(
    "$name: equal to a full --rebuild",
    async ({ setup, change, shows }) => {
      const dir = tempDir("replace");
      const stores = setup?.(dir) ?? { s: path.join(dir, "s.sqlite") };
      if (!setup) copyFileSync(sample, stores.s);
      const { s, b } = stores;
      const incremental = path.join(dir, "incremental");
      const full = path.join(dir, "full");
      await build({ db: s, out: incremental, now: SAMPLE_NOW, jobs: 1 });
      const first = hashTree(realpathSync(incremental));
      await change(s, b);
      const tick = await build({ db: s, out: incremental, now: SAMPLE_NOW, jobs: 1 });
      await build({ db: s, out: full, now: SAMPLE_NOW, rebuild: true, jobs: 1 });
      const a = hashTree(realpathSync(incremental));
      expect(differences(a, hashTree(realpathSync(full)))).toEqual([]);
      // The change reached the snapshot (the case is not vacuous), and the store was trusted.
      expect(differences(first, a).filter((f) => !f.startsWith("_build-api")).length).toBeGreaterThan(0);
      if (shows) expect(holds(incremental, shows)).toBe(true);
      expect(tick.notes ?? []).toEqual([]);
    },
    120_000,
  );

  it("a version 3 store: revisions untrusted (rows hashed) with a note, and the REPLACE seen all the same", async () => {
    const dir = tempDir("replace-v3");
    const s = path.join(dir, "s.sqlite");
    sampleStoreV3(s);
    const incremental = path.join(dir, "incremental");
    const full = path.join(dir, "full");
    const first = await build({ db: s, out: incremental, now: SAMPLE_NOW, jobs: 1 });
    expect(first.notes?.join("\n")).toMatch(
      /schema version 3, whose revisions miss rows that REPLACE.*upgrade-store/s,
    );
    sql(s, REPLACE_RECAP);
    const tick = await build({ db: s, out: incremental, now: SAMPLE_NOW, jobs: 1 });
    // The untrusted revisions, and the indexes a version 3 store lacks: upgrade-store fixes both.
    expect(tick.notes?.length).toBe(2);
    expect(tick.notes?.[1]).toMatch(/lacks the indexes .*upgrade-store/);
    await build({ db: s, out: full, now: SAMPLE_NOW, rebuild: true, jobs: 1 });
    expect(differences(hashTree(realpathSync(incremental)), hashTree(realpathSync(full)))).toEqual([]);
    expect(holds(incremental, "New preview")).toBe(true);
  }, 120_000);
});

describe("incremental builds after changes no DELETE trigger sees (CLI)", () => {
  /** build, then `change`, then a tick and a --rebuild into another directory: their trees. */
  async function run(
    s: string,
    dir: string,
    change: () => void,
  ): Promise<{ tick: Record<string, string>; full: Record<string, string>; stderr: string }> {
    const out = path.join(dir, "dist");
    const full = path.join(dir, "full");
    const first = await runCli(["build", "--db", s, "--out", out, "--now", NOW]);
    expect(first.code, first.stderr).toBe(0);
    change();
    const tick = await runCli(["build", "--db", s, "--out", out, "--now", NOW]);
    expect(tick.code, tick.stderr).toBe(0);
    const rebuilt = await runCli(["build", "--db", s, "--out", full, "--now", NOW, "--rebuild"]);
    expect(rebuilt.code, rebuilt.stderr).toBe(0);
    return { tick: hashTree(realpathSync(out)), full: hashTree(realpathSync(full)), stderr: tick.stderr };
  }

  it("INSERT OR REPLACE into recaps, as the issue ran it (the sqlite3 shell when installed)", async () => {
    const dir = tempDir("replace-cli");
    const s = path.join(dir, "s.sqlite");
    copyFileSync(sample, s);
    const r = await run(s, dir, () =>
      SQLITE3 ? execFileSync(SQLITE3, [s, REPLACE_RECAP]) : sql(s, REPLACE_RECAP),
    );
    expect(differences(r.tick, r.full)).toEqual([]);
    expect(r.stderr).not.toContain("note:");
  }, 120_000);

  it("cp b.sqlite s.sqlite with equal revision counts", async () => {
    const dir = tempDir("cp-cli");
    const { s, b } = twoHistories(dir);
    const r = await run(s, dir, () => execFileSync("cp", [b, s]));
    expect(differences(r.tick, r.full)).toEqual([]);
    expect(holds(path.join(dir, "dist"), "Bert Restored")).toBe(true);
  }, 120_000);

  it.skipIf(SQLITE3 === undefined)(
    "sqlite3 s.sqlite '.restore b.sqlite' with equal revision counts",
    async () => {
      const dir = tempDir("restore-cli");
      const { s, b } = twoHistories(dir);
      const r = await run(s, dir, () => execFileSync(SQLITE3!, [s, `.restore ${b}`]));
      expect(differences(r.tick, r.full)).toEqual([]);
      expect(holds(path.join(dir, "dist"), "Bert Restored")).toBe(true);
    },
    120_000,
  );

  it("a version 3 store builds with a note naming upgrade-store; after upgrade-store, no note and the same snapshot", async () => {
    const dir = tempDir("v3-cli");
    const s = path.join(dir, "s.sqlite");
    sampleStoreV3(s);
    const r = await run(s, dir, () => sql(s, REPLACE_RECAP));
    expect(differences(r.tick, r.full)).toEqual([]);
    expect(r.stderr).toMatch(/note: the store is at schema version 3, whose revisions miss .*upgrade-store/);
    const upgraded = await runCli(["upgrade-store", s]);
    expect(upgraded.code, upgraded.stderr).toBe(0);
    expect(upgraded.stdout + upgraded.stderr).toContain(`from schema version 3 to ${STORE_SCHEMA_VERSION}`);
    const out = path.join(dir, "dist");
    const after = await runCli(["build", "--db", s, "--out", out, "--now", NOW]);
    expect(after.code, after.stderr).toBe(0);
    expect(after.stderr).not.toContain("note:");
    expect(
      differences(hashTree(realpathSync(out)), r.full).filter((f) => !/^_build-api|^\.build-api/.test(f)),
    ).toEqual([]);
  }, 180_000);
});

// A CI runner downloads the store afresh: another file (inode, birth time) of the same history.
// Stamped revisions tell histories apart, so the copy ticks; another history renders everything.
describe("the store at another path (a fresh runner's copy)", () => {
  async function moved(
    setup: (dir: string, s: string) => string,
    before?: (s: string) => void,
  ): Promise<{ rendered: number; tick: Record<string, string>; full: Record<string, string> }> {
    const dir = tempDir("moved");
    const s = path.join(dir, "s.sqlite");
    copyFileSync(sample, s);
    before?.(s);
    const out = path.join(dir, "out");
    const full = path.join(dir, "full");
    await build({ db: s, out, now: SAMPLE_NOW, jobs: 1 });
    const next = setup(dir, s);
    expect(identity(next)).not.toBe(identity(s));
    const tick = await build({ db: next, out, now: SAMPLE_NOW, jobs: 1 });
    await build({ db: next, out: full, now: SAMPLE_NOW, rebuild: true, jobs: 1 });
    return {
      rendered: tick.render!.rendered!.tournaments,
      tick: hashTree(realpathSync(out)),
      full: hashTree(realpathSync(full)),
    };
  }

  it("a copy of the same store renders nothing", async () => {
    const r = await moved((dir, s) => {
      const copy = path.join(dir, "copy.sqlite");
      copyFileSync(s, copy);
      return copy;
    });
    expect(r.rendered).toBe(0);
    expect(differences(r.tick, r.full)).toEqual([]);
  }, 120_000);

  it("a copy with one tournament changed renders that tournament only", async () => {
    const r = await moved((dir, s) => {
      const copy = path.join(dir, "copy.sqlite");
      copyFileSync(s, copy);
      rename(copy, "Carla Copied");
      return copy;
    });
    expect(r.rendered).toBe(1);
    expect(differences(r.tick, r.full)).toEqual([]);
  }, 120_000);

  it("a fork of the history (equal counts, another stamp) renders the forked tournament", async () => {
    const r = await moved(
      (dir) => {
        const other = path.join(dir, "other.sqlite");
        copyFileSync(sample, other);
        rename(other, "Bert Other");
        return other;
      },
      (s) => rename(s, "Anna Stale"),
    );
    expect(r.rendered).toBe(1);
    expect(differences(r.tick, r.full)).toEqual([]);
  }, 120_000);

  it("another history at equal counts (every stamp differs) renders every tournament", async () => {
    // The sample's builder derives its stamps from its SQL text (same rows, same revisions): a
    // store that another writer filled draws them at random, as here.
    const r = await moved((dir) => {
      const other = path.join(dir, "other.sqlite");
      copyFileSync(sample, other);
      sql(
        other,
        "UPDATE store_revisions SET stamp = randomblob(8); UPDATE tournament_revisions SET stamp = randomblob(8)",
      );
      return other;
    });
    expect(r.rendered).toBe(8);
    expect(differences(r.tick, r.full)).toEqual([]);
  }, 120_000);
});
