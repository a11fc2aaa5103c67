// The CPU time and state of each thread of a running process, from Linux's
// /proc/<pid>/task/<tid>/stat and schedstat: what scripts/bench-threads.ts reads to say which
// thread bounds a build (the render worker, the main thread, or V8's helper threads collecting
// garbage), and whether the threads wait for a core or for the disk.
import { readdirSync, readFileSync } from "node:fs";

export interface ThreadTimes {
  tid: number;
  /** The thread's name (`comm`, at most 15 characters: "MainThread", "WorkerThread", "V8Worker"). */
  name: string;
  /** Clock ticks in user and in system mode (sysconf(_SC_CLK_TCK) a second, 100 on Linux). */
  user: number;
  system: number;
  /** The state when read: "R" running or waiting for a core, "S" asleep, "D" waiting for I/O, ... */
  state: string;
  /** Nanoseconds spent waiting for a core, from schedstat (null: the kernel does not keep it). */
  waitNs: number | null;
}

/**
 * One line of /proc/<pid>/task/<tid>/stat. The name is between the first "(" and the last ")" (it
 * may hold spaces and parentheses); utime and stime are the 14th and 15th fields of the line.
 */
export function parseStat(line: string, waitNs: number | null = null): ThreadTimes {
  const open = line.indexOf("(");
  const close = line.lastIndexOf(")");
  if (open < 0 || close < open) throw new Error(`not a /proc stat line: ${line.slice(0, 80)}`);
  const rest = line
    .slice(close + 1)
    .trim()
    .split(/\s+/);
  // rest[0] is the 3rd field (state): utime, the 14th, is rest[11].
  const user = Number(rest[11]);
  const system = Number(rest[12]);
  if (!Number.isInteger(user) || !Number.isInteger(system)) throw new Error(`no utime/stime in: ${line.slice(0, 80)}`);
  const state = rest[0]!;
  return { tid: Number(line.slice(0, open).trim()), name: line.slice(open + 1, close), user, system, state, waitNs };
}

/**
 * The run-queue wait of one line of /proc/<pid>/task/<tid>/schedstat: "on-cpu-ns wait-ns slices",
 * the second field.
 */
export function parseSchedstat(line: string): number {
  const wait = Number(line.trim().split(/\s+/)[1]);
  if (!Number.isInteger(wait)) throw new Error(`not a /proc schedstat line: ${line.slice(0, 80)}`);
  return wait;
}

function readWait(file: string): number | null {
  try {
    return parseSchedstat(readFileSync(file, "utf8"));
  } catch (e) {
    // A kernel without scheduler statistics has no such file.
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw e;
  }
}

/** Every thread of `pid` now; threads that end while it reads are skipped. */
export function readThreads(pid: number): ThreadTimes[] {
  const out: ThreadTimes[] = [];
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const dir = `/proc/${pid}/task/${tid}`;
      out.push(parseStat(readFileSync(`${dir}/stat`, "utf8"), readWait(`${dir}/schedstat`)));
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== "ENOENT" && code !== "ESRCH") throw e;
    }
  }
  return out;
}

export interface ThreadGroup {
  name: string;
  threads: number;
  /** Seconds. */
  user: number;
  system: number;
  /** Seconds waiting for a core (null: no schedstat). */
  wait: number | null;
  /** Of every reading of these threads, the share in each state ("R": 0.8, ...). */
  states: Record<string, number>;
}

/**
 * The last reading of every thread seen (a thread that ended keeps its last one), summed by name,
 * busiest first; and the share of all readings of each name in each state. Readings are taken
 * every so often, so a thread's last moments may be missed.
 */
export function groupByName(readings: Iterable<ThreadTimes>, ticksPerSecond = 100): ThreadGroup[] {
  const last = new Map<number, ThreadTimes>();
  const states = new Map<string, Map<string, number>>();
  for (const r of readings) {
    last.set(r.tid, r);
    const counts = states.get(r.name) ?? new Map<string, number>();
    counts.set(r.state, (counts.get(r.state) ?? 0) + 1);
    states.set(r.name, counts);
  }
  // Ticks and nanoseconds are summed, then turned into seconds: exact sums, not sums of rounded fractions.
  const groups = new Map<string, ThreadGroup & { waitNs: number | null }>();
  for (const r of last.values()) {
    const g = groups.get(r.name) ?? { name: r.name, threads: 0, user: 0, system: 0, wait: null, waitNs: 0, states: {} };
    g.threads++;
    g.user += r.user;
    g.system += r.system;
    g.waitNs = g.waitNs === null || r.waitNs === null ? null : g.waitNs + r.waitNs;
    groups.set(r.name, g);
  }
  return [...groups.values()]
    .map(({ waitNs, ...g }) => {
      const counts = states.get(g.name)!;
      let n = 0;
      for (const c of counts.values()) n += c;
      return {
        ...g,
        user: g.user / ticksPerSecond,
        system: g.system / ticksPerSecond,
        wait: waitNs === null ? null : waitNs / 1e9,
        states: Object.fromEntries([...counts].sort().map(([k, c]) => [k, c / n])),
      };
    })
    .sort((a, b) => b.user + b.system - (a.user + a.system));
}
