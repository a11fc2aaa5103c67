// `build-api verify`: the scheduled full check. A tick trusts the live snapshot's files and skips
// the store's quick_check; verify hashes every file against the bookkeeping and runs quick_check.
import { copyFileSync, readFileSync, realpathSync, statSync, utimesSync, writeFileSync } from "node:fs";
import Database from "better-sqlite3";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { EXIT } from "../../../src/shared/errors.ts";
import { runCli } from "../../support/run.ts";
import { removeTempDirs, tempDir } from "../../support/temp.ts";

const NOW = "2026-11-22T12:00:00Z";

afterAll(removeTempDirs);

describe("build-api verify", () => {
  it("passes a fresh snapshot, finds hand edits a no-change build keeps, and --rebuild repairs them", async () => {
    const dir = tempDir("verify");
    const db = path.join(dir, "s.sqlite");
    const out = path.join(dir, "dist");
    expect((await runCli(["init-store", "--sample", db])).code).toBe(0);
    const built = await runCli(["build", "--db", db, "--out", out, "--now", NOW]);
    expect(built.code, built.stderr).toBe(0);
    const ok = await runCli(["verify", "--db", db, "--out", out, "--json"]);
    expect(ok.code, ok.stderr).toBe(0);
    const report = JSON.parse(ok.stdout);
    expect(report.store).toEqual({ file: db, revisions: null });
    expect(report.snapshot.files).toBeGreaterThan(100);
    expect(report.problems).toEqual([]);
    // Every published tournament of the snapshot has the revision it was built from.
    expect(report.history).toEqual({ same: report.history.same, changedSince: 0, differing: 0 });
    expect(report.history.same).toBeGreaterThan(3);

    // An edit that keeps size and mtime, and a file nobody listed.
    const live = realpathSync(out);
    const edited = path.join(live, "api/public/v1/tournaments/index.json");
    const st = statSync(edited);
    const text = readFileSync(edited, "utf8");
    writeFileSync(edited, text.replace(/"/, "'"));
    utimesSync(edited, st.atime, st.mtime);
    writeFileSync(path.join(live, "planted.html"), "<script>x</script>");
    // A tick does not look at unchanged files (that would be O(files)): it says up to date.
    const tick = await runCli(["build", "--db", db, "--out", out, "--now", NOW]);
    expect(tick.code, tick.stderr).toBe(0);
    expect(tick.stderr).toContain("up to date");

    const bad = await runCli(["verify", "--out", out]);
    expect(bad.code).toBe(EXIT.snapshotDamaged);
    expect(bad.stderr).toContain("differs from its bookkeeping in 2 files");
    expect(bad.stderr).toContain(`${edited}: its bytes differ from the bookkeeping`);
    expect(bad.stderr).toContain("planted.html: is not listed in the bookkeeping");
    expect(bad.stderr).toContain("--rebuild");

    const rebuilt = await runCli(["build", "--db", db, "--out", out, "--now", NOW, "--rebuild"]);
    expect(rebuilt.code, rebuilt.stderr).toBe(0);
    const again = await runCli(["verify", "--out", out]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/\d+ files match the bookkeeping/);
  }, 120_000);

  it("finds a snapshot built from another history: the store restored in place from an older copy", async () => {
    const dir = tempDir("verify-history");
    const db = path.join(dir, "s.sqlite");
    const out = path.join(dir, "dist");
    expect((await runCli(["init-store", "--sample", db])).code).toBe(0);
    expect((await runCli(["build", "--db", db, "--out", out, "--now", NOW])).code).toBe(0);
    const backup = path.join(dir, "backup.sqlite");
    copyFileSync(db, backup);
    // A change the restore will lose, built into the snapshot; then the older copy back in place.
    const w = new Database(db);
    w.prepare(
      "UPDATE players SET name = 'Lost Name' WHERE tournament_id = 1 AND source_player_number = 1",
    ).run();
    const external = String(
      w.prepare("SELECT external_id FROM tournaments WHERE tournament_id = 1").pluck().get(),
    );
    w.close();
    expect((await runCli(["build", "--db", db, "--out", out, "--now", NOW])).code).toBe(0);
    copyFileSync(backup, db);

    const bad = await runCli(["verify", "--db", db, "--out", out]);
    expect(bad.code, bad.stderr).toBe(EXIT.snapshotDamaged);
    expect(bad.stderr).toContain("was built from another history of the store");
    expect(bad.stderr).toContain(
      `tournament ${external} was built from another revision than the store holds`,
    );
    expect(bad.stderr).toContain("--rebuild");

    expect((await runCli(["build", "--db", db, "--out", out, "--now", NOW, "--rebuild"])).code).toBe(0);
    const again = await runCli(["verify", "--db", db, "--out", out]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/store history: \d+ tournaments as built, 0 changed since/);
  }, 120_000);

  it("fails a corrupt store with exit 3 and asks for --db or --out", async () => {
    const dir = tempDir("verify-store");
    const db = path.join(dir, "s.sqlite");
    expect((await runCli(["init-store", "--sample", db])).code).toBe(0);
    // Half its pages gone: quick_check finds the pages the b-trees point to.
    const bytes = readFileSync(db);
    writeFileSync(db, bytes.subarray(0, Math.floor(bytes.length / 2)));
    const corrupt = await runCli(["verify", "--db", db]);
    expect(corrupt.code, corrupt.stderr).toBe(EXIT.storeUnreadable);
    expect(corrupt.stderr).toContain(db);

    const none = await runCli(["verify"]);
    expect(none.code).toBe(EXIT.usage);
    expect(none.stderr).toContain("pass --db, --out or both");
  }, 60_000);

  it("notes a store whose triggers differ from the reference schema", async () => {
    const dir = tempDir("verify-triggers");
    const db = path.join(dir, "s.sqlite");
    expect((await runCli(["init-store", "--sample", db])).code).toBe(0);
    const Database = (await import("better-sqlite3")).default;
    const w = new Database(db);
    w.exec("CREATE TRIGGER undo AFTER UPDATE ON tournament_revisions BEGIN SELECT 1; END");
    w.close();
    const r = await runCli(["verify", "--db", db]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain("the trigger undo is not one of schema/store.sql");
    const b = await runCli(["build", "--db", db, "--out", path.join(dir, "dist"), "--now", NOW]);
    expect(b.code, b.stderr).toBe(0);
    expect(b.stderr).toContain("note: the trigger undo is not one of schema/store.sql");
  }, 60_000);
});
