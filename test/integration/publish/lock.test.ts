import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BuildError, EXIT } from "../../../src/shared/errors.ts";
import { publishSnapshot } from "../../../src/publish/publish.ts";
import { expectNoLeftovers, expectSnapshot, writeAll } from "../../support/publish.ts";
import { removeTempDirs, tempDir } from "../../support/temp.ts";
import { hashTree } from "../../support/tree.ts";
import { startChild } from "../../support/run-child.ts";
import { sampleFiles } from "../../support/sample-files.ts";

/** Resolves once the child has printed "producing", i.e. holds the lock. */
function producing(child: ReturnType<typeof startChild>["child"]): Promise<void> {
  return new Promise((resolve) => {
    child.stdout?.on("data", (d: Buffer) => {
      if (d.toString().includes("producing")) resolve();
    });
  });
}

function deadPid(): number {
  const r = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]);
  return Number(r.stdout.toString());
}

async function lockedError(out: string): Promise<BuildError> {
  try {
    await publishSnapshot({ outDir: out }, writeAll(sampleFiles(2)));
  } catch (e) {
    return e as BuildError;
  }
  throw new Error("the build was not refused");
}

afterAll(removeTempDirs);

describe("publishSnapshot lock", () => {
  it("refuses a second build while one holds the lock; the first completes one valid snapshot", async () => {
    const out = path.join(tempDir(), "dist");
    await publishSnapshot({ outDir: out }, writeAll(sampleFiles(0)));
    const previous = hashTree(out);
    const first = startChild(out, 1, -1, 1500);
    await producing(first.child);

    const e = await lockedError(out);
    expect(e).toBeInstanceOf(BuildError);
    expect(e.exitCode).toBe(EXIT.locked);
    expect(e.message).toContain("Another build is writing to");
    expect(e.message).toContain(`process ${first.child.pid} on ${hostname()}`);
    expect(hashTree(out)).toEqual(previous);

    const result = await first.done;
    expect(result.code, result.stderr).toBe(0);
    expectSnapshot(out, sampleFiles(1));
    expectNoLeftovers(path.dirname(out));
  });

  it("waits for the lock when asked to, then builds on top of the first build", async () => {
    const out = path.join(tempDir(), "dist");
    const first = startChild(out, 1, -1, 800);
    await producing(first.child);
    const report = await publishSnapshot({ outDir: out, lockWaitMs: 30_000 }, writeAll(sampleFiles(2)));
    expect((await first.done).code).toBe(0);
    // It saw the first build's snapshot as its previous one: only the differences were written.
    expect(report.filesUnchanged).toBeGreaterThan(0);
    expectSnapshot(out, sampleFiles(2));
    expectNoLeftovers(path.dirname(out));
  });

  it(
    "two builds started together end with exactly one of their snapshots",
    { timeout: 120_000 },
    async () => {
      for (let round = 0; round < 3; round++) {
        const out = path.join(tempDir(), "dist");
        const [a, b] = await Promise.all([startChild(out, 1).done, startChild(out, 2).done]);
        for (const r of [a, b]) expect([0, EXIT.locked], r.stderr).toContain(r.code);
        expect([a.code, b.code]).toContain(0);
        const variant = JSON.parse(readFileSync(path.join(out, "api/public/v1/index.json"), "utf8")).version;
        expect([1, 2]).toContain(variant);
        expectSnapshot(out, sampleFiles(variant));
        expectNoLeftovers(path.dirname(out));
      }
    },
  );

  it("takes over a lock left by a dead process, and an empty lock file that is old", async () => {
    const out = path.join(tempDir(), "dist");
    const lock = path.join(path.dirname(out), ".dist.lock");
    writeFileSync(lock, `${deadPid()} ${hostname()}\n`);
    await publishSnapshot({ outDir: out }, writeAll(sampleFiles(0)));
    expect(existsSync(lock)).toBe(false);

    writeFileSync(lock, "");
    utimesSync(lock, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    writeFileSync(`${lock}.takeover`, `${deadPid()} ${hostname()}\n`);
    await publishSnapshot({ outDir: out }, writeAll(sampleFiles(1)));
    expectSnapshot(out, sampleFiles(1));
    expectNoLeftovers(path.dirname(out));
  });

  it("does not take over a lock of a live process, a fresh empty lock, or one from another host", async () => {
    const out = path.join(tempDir(), "dist");
    await publishSnapshot({ outDir: out }, writeAll(sampleFiles(0)));
    const lock = path.join(path.dirname(out), ".dist.lock");
    for (const content of [`${process.pid} ${hostname()}\n`, "", `${deadPid()} other-host.example\n`]) {
      writeFileSync(lock, content);
      expect((await lockedError(out)).exitCode).toBe(EXIT.locked);
      expect(existsSync(lock)).toBe(true);
    }
    expectSnapshot(out, sampleFiles(0));
  });
});
