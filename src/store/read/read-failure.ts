// A store that cannot be read is not always a damaged one. A writer may hold it locked (an
// exclusive lock, a write transaction longer than SQLite's busy timeout), or the file may have
// been written in place while it was read (copied over, restored over, not through SQLite): then
// "restore the store from a good copy" is the wrong fix, and following it would lose the
// writer's data. Said here: which of the three it was, and that retrying is the fix of the first
// two.
import { statSync } from "node:fs";
import { BuildError, EXIT } from "../../shared/errors.ts";

/** Size and modification time: what a write in place changes. "-" when the file cannot be read. */
export function contentStamp(file: string): string {
  try {
    const st = statSync(file, { bigint: true });
    return `${st.size}:${st.mtimeNs}`;
  } catch {
    return "-";
  }
}

const RESTORE = "restore the store from a good copy";

/** True for SQLite's "database is locked" and "database table is locked". */
export function isLocked(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === "string" && /^SQLITE_(BUSY|LOCKED)/.test(code);
}

/**
 * The problem of a failed read of `file`: `opened` is its contentStamp when it was opened
 * (undefined: unknown), `what` what failed. A lock and a change under the read are named as such.
 */
export function storeReadProblem(
  file: string,
  error: unknown,
  what: string,
  opened: string | undefined,
): { what: string; fix: string } {
  if (isLocked(error))
    return {
      what: `the store is locked by a writer (another process holds it for writing): ${what}`,
      fix: "the store is not damaged: let the writer finish (or stop it), then run the same command again",
    };
  if (opened !== undefined && contentStamp(file) !== opened)
    return {
      what: `the store file changed while it was read (written in place, not through SQLite): ${what}`,
      fix:
        "the store is probably not damaged: run the same command again once nothing writes the file " +
        `directly; only if it fails again with the file left alone, ${RESTORE}`,
    };
  return { what, fix: RESTORE };
}

/** The BuildError (exit 3) of a failed read, the SQLite error its cause. */
export function storeReadError(file: string, error: unknown, what: string, opened?: string): BuildError {
  const p = storeReadProblem(file, error, what, opened);
  return new BuildError(`Cannot read the store ${file}.`, [{ where: file, ...p }], EXIT.storeUnreadable, {
    cause: error,
  });
}
