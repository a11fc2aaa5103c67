// Ctrl-C (SIGINT) and SIGTERM during a build, through the CLI: the build stops while it renders,
// says that the live snapshot was left untouched and that its staging was set aside (one rename,
// so the stop does not wait for thousands of files to be deleted), exits with 128 + the signal's
// number, and leaves the live snapshot byte for byte as it was, no staging directory and no lock. The next build then succeeds. The progress lines name each phase.
import { spawn } from "node:child_process";
import { existsSync, readdirSync, realpathSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { hashTree } from "../../support/tree.ts";
import { REPO_ROOT, runCli } from "../../support/run.ts";
import { removeTempDirs, tempDir } from "../../support/temp.ts";

const NOW = "2026-11-22T12:00:00Z";
// Each store makes snapshots of thousands of files: removing them takes a while on a busy machine.
afterAll(removeTempDirs, 300_000);

/** A synthetic store big enough that rendering it on worker threads takes a while. */
async function bigStore(dir: string): Promise<string> {
  const db = path.join(dir, "store.sqlite");
  const r = await new Promise<number | null>((resolve) =>
    spawn(
      process.execPath,
      [path.join(REPO_ROOT, "scripts/gen-store.ts"), "--tournaments", "30", "--seed", "7", "--out", db],
      {
        stdio: "ignore",
      },
    ).on("exit", resolve),
  );
  expect(r).toBe(0);
  return db;
}

/** Runs `build --rebuild` and sends `signal` once rendering has begun. */
function interruptedBuild(db: string, out: string, signal: NodeJS.Signals) {
  return runCli(["build", "--db", db, "--out", out, "--now", NOW, "--rebuild", "--jobs", "2"], {
    interrupt: { when: /build-api: produce: rendering/, signal },
  });
}

describe("a build stopped by a signal", () => {
  it.each([
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ] as const)(
    "%s: says what was left untouched and set aside, exits %i",
    async (signal, exitCode) => {
      const dir = tempDir("interrupt");
      const db = await bigStore(dir);
      const out = path.join(dir, "dist");
      const first = await runCli(["build", "--db", db, "--out", out, "--now", NOW]);
      expect(first.code, first.stderr).toBe(0);
      const live = realpathSync(out);
      const before = hashTree(live);

      const r = await interruptedBuild(db, out, signal);
      expect(r.code, r.stderr).toBe(exitCode);
      expect(r.stderr).toContain(`build-api: ${signal} received: stopping the build at its next safe point`);
      expect(r.stderr).toMatch(new RegExp(`stopped by ${signal} during produce: rendering tournaments`));
      expect(r.stderr).toContain(`untouched: ${out} -> ${live}, the live snapshot, keeps serving`);
      const store = path.join(dir, ".dist.snapshots");
      // Set aside with one rename, not deleted file by file: the stop returns at once.
      expect(r.stderr).toMatch(
        new RegExp(
          `set aside: this build's staging as ${store}/trash-\\d+-1 \\(the next build that publishes removes it`,
        ),
      );
      expect(r.stderr).not.toMatch(/removed: this build's staging/);
      expect(r.stderr).toContain(`released: the lock ${path.join(dir, ".dist.lock")}`);
      expect(r.stderr).not.toContain("internal error");

      // As it says: the same live version, byte for byte; no staging, no lock.
      expect(realpathSync(out)).toBe(live);
      expect(hashTree(live)).toEqual(before);
      expect(readdirSync(store).filter((n) => n.startsWith("incoming-"))).toEqual([]);
      expect(readdirSync(store).filter((n) => n.startsWith("trash-"))).toHaveLength(1);
      expect(existsSync(path.join(dir, ".dist.lock"))).toBe(false);
      const verified = await runCli(["verify", "--out", out]);
      expect(verified.code, verified.stderr).toBe(0);

      // The next build goes through: nothing changed since the live snapshot.
      const again = await runCli(["build", "--db", db, "--out", out, "--now", NOW]);
      expect(again.code, again.stderr).toBe(0);
      expect(again.stderr).toContain("is up to date");
      // A build that publishes removes what the stop set aside.
      const rebuilt = await runCli(["build", "--db", db, "--out", out, "--now", NOW, "--rebuild"]);
      expect(rebuilt.code, rebuilt.stderr).toBe(0);
      expect(readdirSync(store).filter((n) => n.startsWith("trash-"))).toEqual([]);
    },
    180_000,
  );

  it("progress names each phase with what it does, one line each without a terminal", async () => {
    const dir = tempDir("interrupt-phases");
    const db = path.join(dir, "sample.sqlite");
    expect((await runCli(["init-store", "--sample", db])).code).toBe(0);
    const r = await runCli([
      "build",
      "--db",
      db,
      "--out",
      path.join(dir, "dist"),
      "--now",
      NOW,
      "--jobs",
      "1",
    ]);
    expect(r.code, r.stderr).toBe(0);
    const phases = r.stderr
      .split("\n")
      .filter((l) => /^build-api: \w+: /.test(l))
      .map((l) => l.replace(/ \(\+[\d.]+ s\)$/, ""));
    expect(phases).toEqual([
      "build-api: check: comparing the store and options with the last build's",
      "build-api: open: opening the store (one read transaction)",
      "build-api: lock: taking the output's lock",
      "build-api: prepare: choosing the staging version, removing leftovers",
      "build-api: produce: rendering tournaments, lists and pages, writing the changed files to staging",
      expect.stringMatching(/^build-api: produce: (\d+)\/\1 tournaments, [1-9]\d* files rendered$/),
      "build-api: finish: bringing the staging version up to date",
      "build-api: switch: switching the output to the new snapshot",
      "build-api: cleanup: removing this build's staging files",
      "build-api: pair: sealing the second snapshot version (a first build only)",
    ]);
  }, 120_000);
});
