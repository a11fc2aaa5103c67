// Every file system call of the publication layer goes through `io`, so a test can make one of
// them fail with the error the kernel gives (ENOSPC, EACCES...) at a chosen moment: the build runs
// as root in CI, where permissions cannot be taken away and no small file system can be mounted.
// Also: how such errors become user errors (exit code 6) instead of "internal error (a bug)".
import * as fs from "node:fs";
import { BuildError, EXIT } from "../shared/errors.ts";

export const io = {
  closeSync: fs.closeSync,
  existsSync: fs.existsSync,
  linkSync: fs.linkSync,
  lstatSync: fs.lstatSync,
  mkdirSync: fs.mkdirSync,
  openSync: fs.openSync,
  readFileSync: fs.readFileSync,
  readSync: fs.readSync,
  readdirSync: fs.readdirSync,
  readlinkSync: fs.readlinkSync,
  realpathSync: fs.realpathSync,
  renameSync: fs.renameSync,
  rmSync: fs.rmSync,
  rmdirSync: fs.rmdirSync,
  statSync: fs.statSync,
  symlinkSync: fs.symlinkSync,
  unlinkSync: fs.unlinkSync,
  writeFileSync: fs.writeFileSync,
  writeSync: fs.writeSync,
};

export function errnoCode(e: unknown): string | undefined {
  return e instanceof Error ? (e as NodeJS.ErrnoException).code : undefined;
}

/** What the user can do about an error of the output file system, by errno code. */
const ENVIRONMENT: Record<string, { what: string; fix: string }> = {
  ENOSPC: {
    what: "the file system is full",
    fix: "free space on it (or choose another --out), then build again",
  },
  EDQUOT: { what: "the disk quota is exhausted", fix: "free space or raise the quota, then build again" },
  EFBIG: {
    what: "a file exceeds the allowed file size",
    fix: "raise the file size limit (ulimit -f), then build again",
  },
  EACCES: {
    what: "permission denied",
    fix: "give the build's user write access to it, or choose another --out",
  },
  EPERM: {
    what: "operation not permitted",
    fix: "check its permissions and attributes (chattr -i), or choose another --out",
  },
  EROFS: { what: "the file system is read-only", fix: "choose an --out on a writable file system" },
  EMFILE: { what: "too many open files", fix: "raise the limit of open files (ulimit -n), then build again" },
  ENFILE: { what: "too many open files in the system", fix: "close other programs' files, then build again" },
  EIO: { what: "an input/output error of the device", fix: "check the disk, then build again" },
};

/** SQLite's result codes (by prefix) that mean the environment, as the errno codes above. */
const SQLITE_ENVIRONMENT: Array<[string, { what: string; fix: string }]> = [
  ["SQLITE_FULL", ENVIRONMENT.ENOSPC!],
  [
    "SQLITE_IOERR",
    {
      what: "an input/output error (a full disk, a file size limit or the device)",
      fix: "check free space, the file size limit (ulimit -f) and the disk, then build again",
    },
  ],
  ["SQLITE_READONLY", ENVIRONMENT.EROFS!],
  ["SQLITE_CANTOPEN", ENVIRONMENT.EACCES!],
];

/**
 * An error of the environment (full disk, permissions, read-only file system...) as a BuildError
 * with exit code 6 that names the path; any other error unchanged.
 */
export function environmentError(e: unknown, target: string): unknown {
  const code = errnoCode(e);
  // The bookkeeping database (bookkeeping.ts) reports SQLite's codes, not errno: a full disk, a
  // file size limit or a device error while it writes is the same trouble as for any file.
  if (code?.startsWith("SQLITE_")) {
    const sqlite = SQLITE_ENVIRONMENT.find(([prefix]) => code.startsWith(prefix));
    if (!sqlite) return e;
    const [, known] = sqlite;
    return new BuildError(
      `Cannot write the snapshot ${target}: ${known.what} (${code} in the bookkeeping database).`,
      [
        {
          what: `${known.what} (${code})`,
          where: target,
          fix: `${known.fix}; the previous snapshot is still served`,
        },
      ],
      EXIT.unsafeOutput,
    );
  }
  const known = code === undefined ? undefined : ENVIRONMENT[code];
  if (!known) return e;
  const err = e as NodeJS.ErrnoException;
  const where = err.path ?? target;
  return new BuildError(
    `Cannot write the snapshot ${target}: ${known.what} (${code}${err.syscall ? ` in ${err.syscall}` : ""}).`,
    [{ what: `${known.what} (${code})`, where, fix: `${known.fix}; the previous snapshot is still served` }],
    EXIT.unsafeOutput,
  );
}
