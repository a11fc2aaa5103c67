// The per-thread CPU reading of scripts/bench-threads.ts (scripts/lib/thread-cpu.ts).
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { groupByName, parseSchedstat, parseStat, readThreads } from "../../../scripts/lib/thread-cpu.ts";

// A real line's shape: pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt
// cmajflt utime stime ...
const line = (tid: number, name: string, user: number, system: number, state = "S"): string =>
  `${tid} (${name}) ${state} 1 1 1 0 -1 4194368 120 0 0 0 ${user} ${system} 0 0 20 0 9 0 100 2102056 48546 18446744073709551615`;

describe("parseStat", () => {
  it("reads the name between the first ( and the last ), the state, utime and stime after it", () => {
    expect(parseStat(line(4829, "WorkerThread", 2278, 210, "R"), 75_200_000_000)).toEqual({
      tid: 4829,
      name: "WorkerThread",
      user: 2278,
      system: 210,
      state: "R",
      waitNs: 75_200_000_000,
    });
    // A name may hold spaces and parentheses.
    expect(parseStat(line(7, "a) b (c", 5, 6))).toMatchObject({ name: "a) b (c", user: 5, system: 6 });
  });

  it("refuses what is not a stat line", () => {
    expect(() => parseStat("no parentheses here")).toThrow(/not a \/proc stat line/);
    expect(() => parseStat("1 (x) S 1")).toThrow(/no utime\/stime/);
  });
});

describe("parseSchedstat", () => {
  it("reads the run-queue wait, the second of the three numbers", () => {
    expect(parseSchedstat("146600000000 84400000000 91234\n")).toBe(84_400_000_000);
    expect(() => parseSchedstat("")).toThrow(/not a \/proc schedstat line/);
  });
});

describe("groupByName", () => {
  it("keeps each thread's last reading and sums by name, busiest first, in seconds", () => {
    const readings = [
      parseStat(line(1, "MainThread", 100, 50, "R"), 1_000_000_000),
      parseStat(line(2, "V8Worker", 10, 0), 100_000_000),
      parseStat(line(3, "V8Worker", 20, 10), 200_000_000),
      parseStat(line(1, "MainThread", 300, 200, "D"), 3_500_000_000),
      parseStat(line(4, "WorkerThread", 2000, 100, "R"), 7_000_000_000),
      parseStat(line(1, "MainThread", 300, 200, "R"), 3_500_000_000),
      parseStat(line(1, "MainThread", 300, 200, "S"), 3_500_000_000),
    ];
    expect(groupByName(readings)).toEqual([
      { name: "WorkerThread", threads: 1, user: 20, system: 1, wait: 7, states: { R: 1 } },
      { name: "MainThread", threads: 1, user: 3, system: 2, wait: 3.5, states: { D: 0.25, R: 0.5, S: 0.25 } },
      { name: "V8Worker", threads: 2, user: 0.3, system: 0.1, wait: 0.3, states: { S: 1 } },
    ]);
  });

  it("gives no wait for a name when a reading of it had no schedstat", () => {
    const readings = [parseStat(line(2, "V8Worker", 10, 0), 100), parseStat(line(3, "V8Worker", 20, 10))];
    expect(groupByName(readings)[0]).toMatchObject({ wait: null, states: { S: 1 } });
  });
});

describe.skipIf(!existsSync("/proc/self/task"))("readThreads", () => {
  it("reads every thread of this process, this one among them", () => {
    const threads = readThreads(process.pid);
    expect(threads.map((t) => t.tid)).toContain(process.pid);
    for (const t of threads) {
      expect(Number.isInteger(t.user) && Number.isInteger(t.system)).toBe(true);
      expect(t.state).toMatch(/^[A-Za-z]$/);
    }
    // The thread that reads is running while it reads (the main thread, or a worker's when the
    // tests run in worker threads: either is a thread of this process).
    expect(threads.filter((t) => t.state === "R").length).toBeGreaterThan(0);
  });
});
