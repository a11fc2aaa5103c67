// Whole-snapshot properties of the sample: determinism, and nothing private leaks.
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build } from "../../src/pipeline/build.ts";
import { buildSample, SAMPLE_NOW } from "../support/e2e.ts";
import { removeTempDirs, tempDir } from "../support/temp.ts";
import { readTree } from "../support/tree.ts";

afterAll(removeTempDirs);

/** Every file of the snapshot as text. */
function readTextTree(dir: string): Map<string, string> {
  return new Map([...readTree(dir)].map(([f, bytes]) => [f, bytes.toString("utf8")]));
}

let db: string;
let out: string;
let tree: Map<string, string>;

beforeAll(async () => {
  const dir = tempDir("snapshot");
  ({ db, out } = await buildSample(dir));
  tree = readTextTree(out);
});

describe("the sample snapshot", () => {
  it("is byte-identical when built again from the same store and --now", async () => {
    const again = path.join(tempDir("snapshot-again"), "dist");
    await build({ db, out: again, now: SAMPLE_NOW });
    const second = readTextTree(again);
    expect([...second.keys()]).toEqual([...tree.keys()]);
    for (const [f, text] of tree) expect(second.get(f), f).toBe(text);
  });

  it("changes with --now only where time matters", async () => {
    const later = path.join(tempDir("snapshot-later"), "dist");
    await build({ db, out: later, now: SAMPLE_NOW + 30 * 86_400_000 });
    const third = readTextTree(later);
    const changed = [...tree.keys()].filter((f) => third.get(f) !== tree.get(f));
    expect(changed.length).toBeGreaterThan(0);
    // Statuses move on; the player directories do not.
    for (const f of changed) expect(f).not.toMatch(/tournaments\/\d+\/rounds\//);
  });

  it("contains no draft, unpublished tournament, disabled club, draft recap or private column", () => {
    const d = new Database(db, { readonly: true });
    const col = (sql: string) =>
      (d.prepare(sql).pluck().all() as unknown[]).filter((v) => v !== null).map(String);
    const secrets = [
      ...col("SELECT internal_notes FROM clubs"),
      ...col("SELECT internal_notes FROM tournaments"),
      ...col("SELECT birth_date FROM players"),
      ...col("SELECT email FROM players"),
      ...col("SELECT generator FROM recaps"),
      ...col("SELECT published_at FROM publications"),
      ...col("SELECT headline FROM recaps WHERE is_draft = 1"),
      ...col("SELECT name FROM tournaments WHERE is_draft = 1"),
      ...col(`SELECT name FROM tournaments t WHERE NOT EXISTS (SELECT 1 FROM publications p WHERE p.tournament_id = t.tournament_id)
              AND NOT EXISTS (SELECT 1 FROM club_tournaments c JOIN clubs k USING (club_id) WHERE c.tournament_id = t.tournament_id AND k.enabled = 1)`),
      ...col("SELECT name FROM clubs WHERE enabled = 0"),
      ...col("SELECT uuid FROM clubs WHERE enabled = 0"),
    ];
    const hiddenIds = col(
      `SELECT external_id FROM tournaments t WHERE is_draft = 1 OR (NOT EXISTS (SELECT 1 FROM publications p WHERE p.tournament_id = t.tournament_id)
         AND NOT EXISTS (SELECT 1 FROM club_tournaments c JOIN clubs k USING (club_id) WHERE c.tournament_id = t.tournament_id AND k.enabled = 1))`,
    );
    const disabledSlugs = col("SELECT slug FROM clubs WHERE enabled = 0");
    d.close();
    expect(secrets.length).toBeGreaterThan(5);
    expect(hiddenIds.length).toBeGreaterThanOrEqual(2);
    expect(disabledSlugs.length).toBe(1);
    for (const [file, text] of tree) {
      for (const s of secrets) expect(text.includes(s), `${JSON.stringify(s)} in ${file}`).toBe(false);
      for (const id of hiddenIds)
        expect(file.includes(`/${id}/`), `hidden tournament ${id} in ${file}`).toBe(false);
      for (const slug of disabledSlugs) expect(file.startsWith(`api/clubs/${slug}/`), file).toBe(false);
    }
  });
});
