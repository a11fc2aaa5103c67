// What kind of file a path names, checked before a command opens it: a directory, a FIFO (which
// blocks a reader forever), a device such as /dev/zero (endless) or a dangling symlink gets a
// clear error naming the path, never a hang or an internal error.
import { lstatSync, statSync, type Stats } from "node:fs";
import { BuildError, type ExitCode } from "./errors.ts";

function kind(st: Stats): string {
  if (st.isDirectory()) return "a directory";
  if (st.isFIFO()) return "a FIFO (named pipe)";
  if (st.isCharacterDevice() || st.isBlockDevice()) return "a device";
  if (st.isSocket()) return "a socket";
  return "not a regular file";
}

/**
 * The stats of `file` when it is an existing regular file (symlinks followed); else throws a
 * BuildError with `exit`, saying what the path is. `label` names the file in the message ("the TRF
 * file", "the store").
 */
export function regularFile(file: string, label: string, exit: ExitCode, fix?: string): Stats {
  let st: Stats;
  try {
    st = statSync(file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    let dangling = false;
    try {
      dangling = lstatSync(file).isSymbolicLink();
    } catch {
      // missing altogether
    }
    throw new BuildError(
      `Cannot use ${label} ${file}.`,
      [
        {
          what: dangling
            ? "it is a symbolic link to a file that does not exist"
            : code === "ENOENT"
              ? "it does not exist"
              : `it cannot be examined (${code})`,
          where: file,
          ...(fix ? { fix } : {}),
        },
      ],
      exit,
    );
  }
  if (!st.isFile()) {
    throw new BuildError(
      `Cannot use ${label} ${file}: it is ${kind(st)}.`,
      [
        {
          what: `${label} must be a regular file, and this is ${kind(st)}`,
          where: file,
          ...(fix ? { fix } : {}),
        },
      ],
      exit,
    );
  }
  return st;
}
