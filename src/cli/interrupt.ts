// Ctrl-C (SIGINT) and SIGTERM during a build (and a deploy: the handlers are the same, the
// deploy's report is cli/deploy-stopped.ts). The first signal asks the build to stop at its next
// safe point; the build then fails like any failed build (it removes its staging files and
// releases the lock; the live snapshot was never written), and the CLI says what was left as it
// was and exits with 128 + the signal's number (130, 143), as shells expect. A second signal
// stops at once (the next build removes what this one left).
//
// The safe points are the callbacks the build calls: the start of a phase up to taking the lock,
// each tournament rendered, and the end of rendering. From then until the switch the build runs
// without waiting on anything, so it finishes (the new snapshot goes live), and the CLI says so.
// Node handles a signal only between two steps of the event loop: a build that renders in this
// thread (a few tournaments) sees the signal only when it next waits.
import { existsSync, readdirSync, readFileSync, realpathSync } from "node:fs";
import { constants } from "node:os";
import path from "node:path";
import { phaseLabel } from "./progress.ts";

/** Exit code of a process stopped by `signal`: 128 + its number (SIGINT 130, SIGTERM 143). */
export function signalExitCode(signal: NodeJS.Signals): number {
  return 128 + (constants.signals[signal] ?? 0);
}

/** Thrown at a safe point once a signal arrived: the build stops as a failed build. */
export class Interrupted extends Error {
  readonly signal: NodeJS.Signals;
  constructor(signal: NodeJS.Signals) {
    super(`stopped by ${signal}`);
    this.signal = signal;
    this.name = "Interrupted";
  }
}

export const HANDLED_SIGNALS: readonly NodeJS.Signals[] = ["SIGINT", "SIGTERM"];

export interface Interrupt {
  /** The first signal received, or null. */
  readonly signal: NodeJS.Signals | null;
  /** Aborted by the first signal, with the signal's name as its reason (the deploy's stop). */
  readonly abortSignal: AbortSignal;
  /** At a safe point: throws Interrupted once a signal arrived. */
  check(): void;
  /** Removes the handlers (Node's default behaviour comes back). */
  dispose(): void;
}

/** What the handlers say on the first signal and on a second one, after "<SIGNAL> received: ". */
export interface InterruptWords {
  first: string;
  again: string;
}

export const BUILD_WORDS: InterruptWords = {
  first:
    "stopping the build at its next safe point (the live snapshot keeps serving; send it again to stop at once)",
  again: "stopping now; the next build removes what this one left",
};

export const DEPLOY_WORDS: InterruptWords = {
  first:
    "stopping the deploy: no new request; those in flight finish, then the lease is given back " +
    "(send it again to stop at once)",
  again:
    "stopping now; the lease lapses after --lease-seconds, then a rerun of the same command finishes the deploy",
};

/** Installs the handlers; `say` prints one line (stderr). */
export function catchInterrupts(say: (line: string) => void, words = BUILD_WORDS): Interrupt {
  let received: NodeJS.Signals | null = null;
  const controller = new AbortController();
  const handler = (signal: NodeJS.Signals): void => {
    if (received !== null) {
      say(`build-api: ${signal} again: ${words.again}`);
      process.exit(signalExitCode(signal));
    }
    received = signal;
    say(`build-api: ${signal} received: ${words.first}`);
    controller.abort(signal);
  };
  for (const s of HANDLED_SIGNALS) process.on(s, handler);
  return {
    get signal() {
      return received;
    },
    abortSignal: controller.signal,
    check() {
      if (received !== null) throw new Interrupted(received);
    },
    dispose() {
      for (const s of HANDLED_SIGNALS) process.off(s, handler);
    },
  };
}

/**
 * The phases whose start is a safe point: before the lock is taken (check, open, lock) and at the
 * end of rendering (finish starts inside the step that removes the staging on failure). Between
 * the lock and rendering, and from finish to the end, the build runs on.
 */
export const SAFE_PHASES: ReadonlySet<string> = new Set(["check", "open", "lock", "finish"]);

/** Phases during which this build had staging files (its incoming directory). */
const STAGING_PHASES: ReadonlySet<string> = new Set(["prepare", "produce"]);

/**
 * What a build stopped during `phase` left as it was, and what it removed, as checked on disk
 * now: the live snapshot behind `out`, this process's staging directory, its lock. The names
 * follow the publication's layout (publish/layout.ts): `.<out>.snapshots/incoming-<pid>`,
 * `.<out>.lock`.
 */
export function interruptedReport(out: string, phase: string, signal: NodeJS.Signals): string[] {
  const target = path.resolve(out);
  const parent = path.dirname(target);
  const name = path.basename(target);
  const store = path.join(parent, `.${name}.snapshots`);
  const lines = [
    `build-api: stopped by ${signal} during ${phase ? phaseLabel(phase) : "start-up"}; nothing was published:`,
  ];
  let live: string | null = null;
  try {
    live = realpathSync(target);
  } catch {
    // no snapshot yet
  }
  lines.push(
    live && existsSync(path.join(live, "404.json"))
      ? `  - untouched: ${out} -> ${live}, the live snapshot, keeps serving`
      : `  - untouched: ${out} (it held no snapshot; nothing serves yet)`,
  );
  const incoming = `incoming-${process.pid}`;
  let left: string[] = [];
  let aside: string[] = [];
  try {
    const names = readdirSync(store);
    left = names.filter((n) => n === incoming || n.startsWith(`${incoming}-`));
    // A stop sets the staging aside (publish/discard.ts) rather than deleting it file by file.
    aside = names.filter((n) => n.startsWith(`trash-${process.pid}-`));
  } catch {
    // no snapshot store: nothing was staged
  }
  if (aside.length > 0)
    lines.push(
      `  - set aside: this build's staging as ${aside.map((n) => path.join(store, n)).join(", ")} ` +
        `(the next build that publishes removes ${aside.length === 1 ? "it" : "them"}; or delete ${aside.length === 1 ? "it" : "them"})`,
    );
  if (left.length > 0) {
    for (const n of left) lines.push(`  - left: ${path.join(store, n)} (the next build removes it)`);
  } else if (aside.length > 0) {
    // said above
  } else if (STAGING_PHASES.has(phase)) {
    lines.push(
      `  - removed: this build's staging (${path.join(store, incoming)}, the files rendered so far)`,
    );
  } else {
    lines.push("  - nothing was staged yet");
  }
  const lockPath = path.join(parent, `.${name}.lock`);
  let lock = "";
  try {
    lock = readFileSync(lockPath, "utf8");
  } catch {
    // not held
  }
  if (lock.startsWith(`${process.pid} `))
    lines.push(`  - left: the lock ${lockPath} (the next build sees it is stale)`);
  else if (STAGING_PHASES.has(phase)) lines.push(`  - released: the lock ${lockPath}`);
  return lines;
}
