// What a build that failed before its switch had made: its staging directory, and on a first
// build the version it wrote straight into and the second version. Removing them file by file
// takes as long as writing them did (tens of seconds for thousands of tournaments on a busy disk),
// which a stop asked for (Ctrl-C, SIGTERM) must not wait for: it renames them aside instead, one
// rename each, as `trash-<pid>-<n>`, a name removeLeftovers deletes at the next build that
// publishes. Any other failure removes them now.
import path from "node:path";
import { io } from "./io.ts";

/** The name the CLI's stop (cli/interrupt.ts Interrupted) carries: publish knows no CLI type. */
export function isStop(e: unknown): boolean {
  return (e as { name?: unknown } | undefined)?.name === "Interrupted";
}

/** Removes `dirs` (or, when `stopping`, renames them aside in `store`); a failure leaves a leftover. */
export function discardStaging(store: string, dirs: Array<string | undefined>, stopping: boolean): void {
  let n = 0;
  for (const dir of dirs) {
    if (dir === undefined) continue;
    try {
      if (!stopping) {
        io.rmSync(dir, { recursive: true, force: true });
        continue;
      }
      let aside: string;
      do aside = path.join(store, `trash-${process.pid}-${++n}`);
      while (exists(aside));
      io.renameSync(dir, aside);
    } catch {
      // A leftover: the next build removes it.
    }
  }
}

function exists(p: string): boolean {
  try {
    io.lstatSync(p);
    return true;
  } catch {
    return false;
  }
}
