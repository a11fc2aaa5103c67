// The CPU time of each thread of a running process, from Linux's /proc/<pid>/task/<tid>/stat: what
// scripts/bench-threads.ts reads to say which thread bounds a build (the render worker, the main
// thread, or V8's helper threads collecting garbage).
import { readdirSync, readFileSync } from "node:fs";

export interface ThreadTimes {
  tid: number;
  /** The thread's name (`comm`, at most 15 characters: "MainThread", "WorkerThread", "V8Worker"). */
  name: string;
  /** Clock ticks in user and in system mode (sysconf(_SC_CLK_TCK) a second, 100 on Linux). */
  user: number;
  system: number;
}

/**
 * One line of /proc/<pid>/task/<tid>/stat. The name is between the first "(" and the last ")" (it
 * may hold spaces and parentheses); utime and stime are the 14th and 15th fields of the line.
 */
export function parseStat(line: string): ThreadTimes {
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
  return { tid: Number(line.slice(0, open).trim()), name: line.slice(open + 1, close), user, system };
}

/** Every thread of `pid` now; threads that end while it reads are skipped. */
export function readThreads(pid: number): ThreadTimes[] {
  const out: ThreadTimes[] = [];
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      out.push(parseStat(readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8")));
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
}

/**
 * The last reading of every thread seen (a thread that ended keeps its last one), summed by name,
 * busiest first. Readings are taken every so often, so a thread's last moments may be missed.
 */
export function groupByName(readings: Iterable<ThreadTimes>, ticksPerSecond = 100): ThreadGroup[] {
  const last = new Map<number, ThreadTimes>();
  for (const r of readings) last.set(r.tid, r);
  // Ticks are summed, then turned into seconds: exact sums, not sums of rounded fractions.
  const groups = new Map<string, ThreadGroup>();
  for (const r of last.values()) {
    const g = groups.get(r.name) ?? { name: r.name, threads: 0, user: 0, system: 0 };
    g.threads++;
    g.user += r.user;
    g.system += r.system;
    groups.set(r.name, g);
  }
  for (const g of groups.values()) {
    g.user /= ticksPerSecond;
    g.system /= ticksPerSecond;
  }
  return [...groups.values()].sort((a, b) => b.user + b.system - (a.user + a.system));
}
