// One build at a time per output directory. The lock is a file created with O_EXCL ("wx"), so
// exactly one process can create it; it holds "<pid> <hostname> <boot id> <start time>". A lock
// is stale, e.g. after a SIGKILL, and is taken over when (on this host) its holder is gone. A PID
// alone cannot say so: PIDs are reused, and in a container every build may be PID 1. So a lock
// is stale when the machine booted since (another boot id), when its PID is this process's own
// but this process holds no such lock, when no process has its PID, or when the process that has
// it started at another time (a reused PID). Boot id and start time come from /proc (Linux);
// where they cannot be read ("-"), and for a lock of the older "<pid> <hostname>" form, liveness
// of the PID decides, as before.
//
// Taking over must not let two processes each delete the other's fresh lock, so it is serialised by
// a second O_EXCL file ("<lock>.takeover"): its holder re-reads the lock and deletes it only if it
// still holds the same stale content, then everyone races for the lock again with O_EXCL.
import { readFileSync } from "node:fs";
import { hostname } from "node:os";
import { performance } from "node:perf_hooks";
import { BuildError, EXIT } from "../shared/errors.ts";
import { errnoCode, io } from "./io.ts";

export interface Lock {
  readonly path: string;
  release(): void;
}

/** A lock file with no content yet is given this long to be filled in before it counts as stale. */
const EMPTY_GRACE_MS = 5_000;
const POLL_MS = 100;

/**
 * Takes the lock at `lockPath`, waiting up to `waitMs` for a live holder to finish. Throws a
 * BuildError (EXIT.locked) naming the holder when the lock is still held after that.
 */
export async function acquireLock(lockPath: string, target: string, waitMs = 0): Promise<Lock> {
  // Monotonic time: the build reads the wall clock only when --now is absent.
  const deadline = performance.now() + waitMs;
  for (;;) {
    const result = tryAcquire(lockPath);
    if (typeof result !== "string") return result;
    if (performance.now() >= deadline) {
      throw new BuildError(
        `Another build is writing to ${target}.`,
        [
          {
            what: `the lock is held by ${result}`,
            where: lockPath,
            fix: "wait for that build to finish; if no build is running, delete the lock file",
          },
        ],
        EXIT.locked,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** The lock contents this process holds now: a lock naming our own PID is live only if here. */
const heldHere = new Set<string>();

/** This boot of the machine (Linux), or "-" when it cannot be read. */
function bootId(): string {
  try {
    return readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim() || "-";
  } catch {
    return "-";
  }
}

/** When process `pid` started, in clock ticks since boot (Linux), or "-" when unknown. */
export function processStart(pid: number): string {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name, which is in parentheses and may hold spaces or ")".
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // Field 22 of stat(5) is the start time; fields[0] here is field 3.
    return /^\d+$/.test(fields[19] ?? "") ? fields[19]! : "-";
  } catch {
    return "-";
  }
}

/** The text of a lock this process takes. */
export function lockContent(): string {
  return `${process.pid} ${hostname()} ${bootId()} ${processStart(process.pid)}\n`;
}

const HOLDER = /^(\d+) (\S+)(?: (\S+) (\S+))?\n$/;

/** Returns the lock, or a description of its live holder. */
function tryAcquire(lockPath: string): Lock | string {
  const content = lockContent();
  for (;;) {
    if (createExclusive(lockPath, content)) {
      heldHere.add(content);
      return {
        path: lockPath,
        release: () => {
          heldHere.delete(content);
          releaseIfOurs(lockPath, content);
        },
      };
    }
    const held = readHolder(lockPath);
    if (held === undefined) {
      refuseNonFile(lockPath); // a dangling symlink reads as missing but is not
      continue; // released between our open and our read: try again
    }
    if (isAlive(lockPath, held)) return describe(held);
    if (!takeOverStale(lockPath, held)) return "a build that is taking over a stale lock";
  }
}

/**
 * Creates `file` holding `content`; false when it exists. A file that cannot be filled in (a full
 * disk) is removed again before the error is thrown, so it cannot block the next build.
 */
function createExclusive(file: string, content: string): boolean {
  let fd: number;
  try {
    fd = io.openSync(file, "wx");
  } catch (e) {
    if (errnoCode(e) === "EEXIST") {
      refuseNonFile(file);
      return false;
    }
    throw e;
  }
  try {
    try {
      const written = io.writeSync(fd, content);
      if (written !== Buffer.byteLength(content)) throw new Error(`short write of ${file}`);
    } finally {
      io.closeSync(fd);
    }
  } catch (e) {
    unlinkQuiet(file);
    throw e;
  }
  return true;
}

/**
 * A lock path that is not a regular file (a symlink, even a dangling one, or a directory) is never
 * ours: open(O_EXCL) reports it as existing while reading it fails, which would spin forever.
 */
function refuseNonFile(file: string): void {
  let kind: string;
  try {
    const st = io.lstatSync(file);
    if (st.isFile()) return;
    kind = st.isSymbolicLink() ? "a symbolic link" : st.isDirectory() ? "a directory" : "not a regular file";
  } catch (e) {
    if (errnoCode(e) === "ENOENT") return; // released meanwhile: the caller tries again
    throw e;
  }
  throw new BuildError(
    `Cannot take the lock ${file}.`,
    [
      {
        what: `the lock path is ${kind}; build-api only ever creates a regular file there`,
        where: file,
        fix: "remove it (no build-api process uses it), then build again",
      },
    ],
    EXIT.unsafeOutput,
  );
}

function readHolder(file: string): string | undefined {
  try {
    return io.readFileSync(file, "utf8");
  } catch (e) {
    if (errnoCode(e) === "ENOENT") return undefined;
    if (errnoCode(e) === "EISDIR") refuseNonFile(file);
    throw e;
  }
}

/** Whether the holder of a lock (or takeover file) with text `held` may still be running. */
export function isAlive(file: string, held: string): boolean {
  const match = HOLDER.exec(held);
  if (!match) {
    // Empty or torn: its writer died between creating and filling it, or is about to fill it.
    // The one wall-clock read of a build, and only on this rare path: the lock's age.
    try {
      return Date.now() - io.statSync(file).mtimeMs < EMPTY_GRACE_MS;
    } catch {
      return false;
    }
  }
  // A process on another host cannot be checked from here: assume it is alive.
  if (match[2] !== hostname()) return true;
  const pid = Number(match[1]);
  const [heldBoot, heldStart] = [match[3] ?? "-", match[4] ?? "-"];
  // Taken before the machine last booted: nothing of that boot runs any more.
  const boot = bootId();
  if (heldBoot !== "-" && boot !== "-" && heldBoot !== boot) return false;
  // Our own PID: live only if this process holds it (an earlier run in a container was PID 1 too).
  if (pid === process.pid) return heldHere.has(held);
  try {
    process.kill(pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  // The PID is in use: by the holder, unless that process started at another time (reused PID).
  const start = processStart(pid);
  return heldStart === "-" || start === "-" || start === heldStart;
}

function describe(held: string): string {
  const match = HOLDER.exec(held);
  return match ? `process ${match[1]} on ${match[2]}` : "a process that is still starting";
}

/** Removes the stale lock; false when another live process is busy taking it over. */
function takeOverStale(lockPath: string, staleContent: string): boolean {
  const takeover = `${lockPath}.takeover`;
  if (!createExclusive(takeover, lockContent())) {
    // Someone else is taking over. If they died doing it, clear their file so we can retry.
    const held = readHolder(takeover);
    if (held === undefined) return true;
    if (isAlive(takeover, held)) return false;
    unlinkQuiet(takeover);
    return true;
  }
  try {
    if (readHolder(lockPath) === staleContent) unlinkQuiet(lockPath);
  } finally {
    unlinkQuiet(takeover);
  }
  return true;
}

function releaseIfOurs(lockPath: string, content: string): void {
  if (readHolder(lockPath) === content) unlinkQuiet(lockPath);
}

function unlinkQuiet(file: string): void {
  try {
    io.unlinkSync(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
  }
}
