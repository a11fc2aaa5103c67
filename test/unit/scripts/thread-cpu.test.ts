// The per-thread CPU reading of scripts/bench-threads.ts (scripts/lib/thread-cpu.ts).
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { groupByName, parseStat, readThreads } from "../../../scripts/lib/thread-cpu.ts";

// A real line's shape: pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt
// cmajflt utime stime ...
const line = (tid: number, name: string, user: number, system: number): string =>
  `${tid} (${name}) S 1 1 1 0 -1 4194368 120 0 0 0 ${user} ${system} 0 0 20 0 9 0 100 2102056 48546 18446744073709551615`;

describe("parseStat", () => {
  it("reads the name between the first ( and the last ), and utime and stime after it", () => {
    expect(parseStat(line(4829, "WorkerThread", 2278, 210))).toEqual({
      tid: 4829,
      name: "WorkerThread",
      user: 2278,
      system: 210,
    });
    // A name may hold spaces and parentheses.
    expect(parseStat(line(7, "a) b (c", 5, 6))).toMatchObject({ name: "a) b (c", user: 5, system: 6 });
  });

  it("refuses what is not a stat line", () => {
    expect(() => parseStat("no parentheses here")).toThrow(/not a \/proc stat line/);
    expect(() => parseStat("1 (x) S 1")).toThrow(/no utime\/stime/);
  });
});

describe("groupByName", () => {
  it("keeps each thread's last reading and sums by name, busiest first, in seconds", () => {
    const readings = [
      parseStat(line(1, "MainThread", 100, 50)),
      parseStat(line(2, "V8Worker", 10, 0)),
      parseStat(line(3, "V8Worker", 20, 10)),
      parseStat(line(1, "MainThread", 300, 200)),
      parseStat(line(4, "WorkerThread", 2000, 100)),
    ];
    expect(groupByName(readings)).toEqual([
      { name: "WorkerThread", threads: 1, user: 20, system: 1 },
      { name: "MainThread", threads: 1, user: 3, system: 2 },
      { name: "V8Worker", threads: 2, user: 0.3, system: 0.1 },
    ]);
  });
});

describe.skipIf(!existsSync("/proc/self/task"))("readThreads", () => {
  it("reads every thread of this process, this one among them", () => {
    const threads = readThreads(process.pid);
    expect(threads.map((t) => t.tid)).toContain(process.pid);
    for (const t of threads) expect(Number.isInteger(t.user) && Number.isInteger(t.system)).toBe(true);
  });
});
