import { appendFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { serialRunner, storeFiles, storeSignature, watchStore } from "../../../src/cli/watch.ts";
import { removeTempDirs, tempDir } from "../../support/temp.ts";

afterAll(removeTempDirs);

describe("serialRunner", () => {
  it("runs one task at a time; kicks during a run collapse into one more run", async () => {
    let running = 0;
    let most = 0;
    let runs = 0;
    const gates: (() => void)[] = [];
    const runner = serialRunner(async () => {
      running++;
      runs++;
      most = Math.max(most, running);
      await new Promise<void>((r) => gates.push(r));
      running--;
    });
    runner.kick();
    runner.kick();
    runner.kick();
    expect(runs).toBe(1);
    gates.shift()!();
    await new Promise((r) => setTimeout(r, 0));
    expect(runs).toBe(2);
    gates.shift()!();
    await runner.idle();
    expect(runs).toBe(2);
    expect(most).toBe(1);
  });

  it("goes on after a task that throws", async () => {
    let runs = 0;
    const runner = serialRunner(async () => {
      runs++;
      throw new Error("build failed");
    });
    runner.kick();
    await runner.idle();
    runner.kick();
    await runner.idle();
    expect(runs).toBe(2);
  });
});

describe("storeSignature", () => {
  it("covers the store file, its -wal and its -journal, and moves when any of them changes", () => {
    const db = path.join(tempDir("signature"), "s.sqlite");
    expect(storeFiles(db)).toEqual([db, `${db}-wal`, `${db}-journal`]);
    writeFileSync(db, "a");
    const first = storeSignature(db);
    expect(storeSignature(db)).toBe(first);
    writeFileSync(`${db}-wal`, "w");
    const withWal = storeSignature(db);
    expect(withWal).not.toBe(first);
    appendFileSync(`${db}-wal`, "more");
    expect(storeSignature(db)).not.toBe(withWal);
    // -shm, which readers write, is not part of it.
    const before = storeSignature(db);
    writeFileSync(`${db}-shm`, "x");
    expect(storeSignature(db)).toBe(before);
  });
});

describe("watchStore", () => {
  it("under writes that never leave the store quiet, still calls at least every max wait", async () => {
    const db = path.join(tempDir("stream"), "s.sqlite");
    writeFileSync(db, "a");
    let calls = 0;
    // Quiet time 200 ms, max wait 300 ms; a write every 50 ms for 1.2 s is never quiet.
    const w = watchStore(db, () => calls++, 200, 300);
    try {
      for (let i = 0; i < 24; i++) {
        appendFileSync(db, "x");
        await new Promise((r) => setTimeout(r, 50));
      }
      // Before: no call until the writes stopped (the quiet time starved). Now several during.
      expect(calls).toBeGreaterThanOrEqual(2);
      // A single write later is answered after the quiet time, as before.
      await new Promise((r) => setTimeout(r, 400));
      const settled = calls;
      appendFileSync(db, "y");
      await new Promise((r) => setTimeout(r, 600));
      expect(calls).toBe(settled + 1);
    } finally {
      w.close();
    }
  });
});
