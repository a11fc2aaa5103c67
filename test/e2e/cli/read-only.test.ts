// `verify` and `deploy` (with and without --dry-run) are checks and copies: they must run where
// the snapshot can only be read (a CI cache restored read-only, a backup, a user who may only
// read). The snapshot's folder is shown through a read-only bind mount: these tests run as root
// in CI, and root ignores file permissions, so `chmod -R a-w` would prove nothing there; as
// another user the folder is made unwritable instead. Where neither can be done, they are skipped.
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, readdirSync, realpathSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Bookkeeping } from "../../../src/ledger/bookkeeping.ts";
import { EXIT } from "../../../src/shared/errors.ts";
import { buildSample } from "../../support/e2e.ts";
import { runCli } from "../../support/run.ts";
import { localDeployArgs, S3_ENV, startS3, type LocalS3 } from "../../support/s3-server.ts";
import { removeTempDirs, tempDir } from "../../support/temp.ts";

const mounts: string[] = [];

/** `dir` as a read-only view (a bind mount as root, permissions otherwise); undefined: not possible. */
function readOnlyView(dir: string): string | undefined {
  if (process.getuid?.() !== 0) {
    execFileSync("chmod", ["-R", "a-w", dir]);
    return dir;
  }
  const view = `${dir}-ro`;
  mkdirSync(view);
  try {
    execFileSync("mount", ["--bind", dir, view], { stdio: "ignore" });
    mounts.push(view);
    execFileSync("mount", ["-o", "remount,ro,bind", view], { stdio: "ignore" });
  } catch {
    return undefined;
  }
  return view;
}

/** Every entry of `dir` with its size and mtime: what "wrote nothing" compares. */
function listing(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .sort()
    .map((p) => {
      const st = statSync(path.join(dir, p), { bigint: true, throwIfNoEntry: false });
      return `${p} ${st?.size} ${st?.mtimeNs}`;
    });
}

let s3: LocalS3;

beforeAll(async () => {
  s3 = await startS3();
}, 60_000);

afterAll(async () => {
  for (const m of mounts.reverse()) execFileSync("umount", [m]);
  await s3?.close();
  removeTempDirs();
});

const noTrace = (stderr: string) => expect(stderr).not.toMatch(/^\s+at /m);

describe("read-only checks", () => {
  it("verify, deploy --dry-run and deploy read a snapshot they may not write", async () => {
    const dir = tempDir("read-only");
    await buildSample(dir);
    const before = listing(dir);
    const view = readOnlyView(dir);
    if (!view) return expect.soft(view, "no read-only mount here: skipped").toBeUndefined();
    const db = path.join(view, "sample.sqlite");
    const out = path.join(view, "dist");

    const verified = await runCli(["verify", "--db", db, "--out", out, "--json"]);
    expect(verified.code, verified.stderr).toBe(0);
    const report = JSON.parse(verified.stdout);
    expect(report.problems).toEqual([]);
    expect(report.snapshot.files).toBeGreaterThan(100);
    expect(report.history.same).toBeGreaterThan(3);

    const env = { ...process.env, ...S3_ENV };
    const dry = await runCli([...localDeployArgs(s3, out, "ro/"), "--dry-run"], { env });
    expect(dry.code, dry.stderr).toBe(0);
    noTrace(dry.stderr);
    const sent = await runCli(localDeployArgs(s3, out, "ro/"), { env });
    expect(sent.code, sent.stderr).toBe(0);
    expect((await s3.list("ro/")).length).toBeGreaterThan(100);
    expect(listing(dir)).toEqual(before);
  }, 240_000);

  it("refuses a bookkeeping whose write-ahead log it may not fold in, naming the fix", async () => {
    const dir = tempDir("read-only-wal");
    await buildSample(dir);
    // A log left beside the file (a build killed before its checkpoint), without its -shm.
    const file = path.join(dir, ".dist.snapshots", "bookkeeping.sqlite");
    const held = new Database(file);
    held.pragma("wal_autocheckpoint = 0");
    held.prepare("INSERT OR REPLACE INTO meta (k, v) VALUES ('probe', '1')").run();
    copyFileSync(`${file}-wal`, `${dir}/wal`);
    held.close();
    copyFileSync(`${dir}/wal`, `${file}-wal`);
    rmSync(`${dir}/wal`);
    const view = readOnlyView(dir);
    if (!view) return expect.soft(view, "no read-only mount here: skipped").toBeUndefined();

    const r = await runCli([
      "verify",
      "--db",
      path.join(view, "sample.sqlite"),
      "--out",
      path.join(view, "dist"),
    ]);
    expect(r.code, r.stderr).toBe(EXIT.locked);
    expect(r.stderr).toContain("bookkeeping.sqlite-wal");
    expect(r.stderr).toContain("with write access");
    noTrace(r.stderr);
  }, 240_000);

  it("leaves a change a build killed after its switch owed, and says what the fix is", async () => {
    const dir = tempDir("read-only-owed");
    const { out } = await buildSample(dir);
    // The state a kill between the switch and the apply leaves: rows of the other version, and a
    // delta pending for the live one (its marker's generation).
    const ledger = Bookkeeping.open(path.join(dir, ".dist.snapshots"));
    const live = path.basename(realpathSync(out));
    const empty = { files: new Map(), removed: [], records: new Map(), removedRecords: [] };
    const flags = { completeFiles: false, completeRecords: false, restartLog: false };
    ledger.stage({ ...empty, ...flags }, live, ledger.generation);
    ledger.connection.prepare("UPDATE meta SET v = ? WHERE k = 'version'").run(live === "1" ? "2" : "1");
    ledger.close();
    const view = readOnlyView(dir);
    if (!view) return expect.soft(view, "no read-only mount here: skipped").toBeUndefined();

    const args = ["--db", path.join(view, "sample.sqlite"), "--out", path.join(view, "dist"), "--json"];
    const r = await runCli(["verify", ...args]);
    expect(r.code, r.stderr).toBe(EXIT.snapshotDamaged);
    const report = JSON.parse(r.stdout);
    expect(report.problems.map((p: { what: string }) => p.what).join("\n")).toContain(
      "a build killed after its switch left a change",
    );
    expect(report.problems.map((p: { fix: string }) => p.fix).join("\n")).toContain("build-api build");
    noTrace(r.stderr);
    const env = { ...process.env, ...S3_ENV };
    const dry = await runCli(
      [...localDeployArgs(s3, path.join(view, "dist"), "owed/"), "--dry-run", "--json"],
      {
        env,
      },
    );
    expect(dry.code, dry.stderr).toBe(EXIT.usage);
    expect(dry.stderr).toContain("a read-only deploy may not apply");
    expect(dry.stderr).toContain("run build-api build --out");
    noTrace(dry.stderr);
  }, 240_000);
});
