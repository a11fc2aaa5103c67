// `build-api preview --watch`: build the store into the snapshot, serve it, and build again each
// time the store changes; open pages reload when a new build is live.
// - What is watched: the store's folder, for the store file and the files SQLite writes beside it
//   (`-wal`, `-journal`; never `-shm`, which readers touch). A change starts a build after a quiet
//   time (DEBOUNCE_MS), so the many writes of one import make one build; under a steady stream of
//   writes that never leaves the store quiet, a build starts at least every MAX_WAIT_MS.
// - A change that leaves the store files' sizes and times as they were when the last build
//   started is ignored: nothing the build itself does to the folder can start another build.
// - One build at a time: a change during a build starts one more build after it.
// - A failed build prints its error and changes nothing: the last good snapshot keeps serving
//   (the publication is atomic), and the next change tries again.
// - Every build is under one base path: --base-path, else the snapshot's own (WatchOptions).
// - Ctrl-C (or SIGTERM) stops watching; a build under way stops at its next safe point and
//   sets its staging aside (as `build` does, cli/interrupt.ts); then the process exits 130 (143).
import { statSync, watch, type FSWatcher } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { BuildError } from "../shared/errors.ts";
import type { LiveReload } from "../hosting/live-reload.ts";
import { HANDLED_SIGNALS, Interrupted, SAFE_PHASES, signalExitCode } from "./interrupt.ts";

/** Quiet time after the last change before a build starts. */
export const DEBOUNCE_MS = 250;
/** The longest a change waits for quiet: a store written every quarter second is never quiet. */
export const MAX_WAIT_MS = 2_000;

/** The files SQLite writes for a store: the file itself, its write-ahead log, its rollback journal. */
export function storeFiles(db: string): string[] {
  return [db, `${db}-wal`, `${db}-journal`];
}

/** Size, time and inode of each store file: equal signatures, no change to build. */
export function storeSignature(db: string): string {
  return storeFiles(db)
    .map((f) => {
      try {
        const s = statSync(f);
        return `${s.ino}:${s.size}:${s.mtimeMs}`;
      } catch {
        return "-";
      }
    })
    .join(" ");
}

export interface StoreWatcher {
  close(): void;
}

/**
 * Calls `onChange` once the store's files have been quiet for `debounceMs` after a change, or
 * `maxWaitMs` after the first change not yet answered, whichever comes first.
 */
export function watchStore(
  db: string,
  onChange: () => void,
  debounceMs = DEBOUNCE_MS,
  maxWaitMs = MAX_WAIT_MS,
): StoreWatcher {
  const full = path.resolve(db);
  const names = new Set(storeFiles(path.basename(full)));
  let quiet: NodeJS.Timeout | undefined;
  let deadline: NodeJS.Timeout | undefined;
  const fire = () => {
    clearTimeout(quiet);
    clearTimeout(deadline);
    quiet = deadline = undefined;
    onChange();
  };
  // The folder, not the file: an import may replace the file, and the -wal comes and goes.
  const watcher: FSWatcher = watch(path.dirname(full), (_event, name) => {
    if (name !== null && !names.has(name.toString())) return;
    clearTimeout(quiet);
    quiet = setTimeout(fire, debounceMs);
    deadline ??= setTimeout(fire, maxWaitMs);
  });
  return {
    close() {
      clearTimeout(quiet);
      clearTimeout(deadline);
      watcher.close();
    },
  };
}

/**
 * Runs `task` now, or once more after the running one when it is busy: calls while a task runs
 * collapse into one follow-up. `idle` resolves when nothing runs and nothing is queued.
 */
export function serialRunner(task: () => Promise<void>): { kick(): void; idle(): Promise<void> } {
  let running: Promise<void> | null = null;
  let again = false;
  const kick = (): void => {
    if (running) {
      again = true;
      return;
    }
    running = task()
      .catch(() => {}) // the task reports its own failures
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          kick();
        }
      });
  };
  return {
    kick,
    async idle() {
      while (running) await running;
    },
  };
}

/** The lines that say why a build failed: the message of a BuildError (with its problems), or the error. */
export function failureLines(e: unknown): string[] {
  if (e instanceof BuildError) return e.message.split("\n");
  return [`internal error (a bug; please report it): ${(e as Error)?.stack ?? String(e)}`];
}

export interface WatchOptions {
  db: string;
  /** The snapshot directory the preview serves and the builds replace. */
  out: string;
  skipInvalid: boolean;
  /**
   * The URL path every build serves the snapshot under (build --base-path). Undefined: the base
   * path of the snapshot already in `out`, else the root, so a watched preview of a /chess/
   * snapshot rebuilds the same snapshot.
   */
  basePath?: string;
  /** One line to the operator (stderr). */
  say: (line: string) => void;
}

export interface Watching {
  /** The live-reload stream and script the preview serves while watching. */
  live: LiveReload;
  /** Starts watching the store (after the server listens). */
  start(): void;
  /** Stops watching, ends the event streams, waits for a running build. */
  close(): Promise<void>;
  /** Resolves when no build runs or waits (tests, and closing). */
  idle(): Promise<void>;
  /** Ctrl-C and SIGTERM stop watching, then `server`, then the process (128 + the signal). */
  stopOnSignals(server: { close(): void; closeAllConnections(): void }): void;
}

/**
 * Builds `db` into `out` once, then returns what the watching preview needs. A first build that
 * fails is fatal only when there is no snapshot to serve; otherwise it is reported and the last
 * good snapshot is served.
 */
export async function startWatching(opts: WatchOptions): Promise<Watching> {
  const [{ build, snapshotOrigin }, { LiveReload }, { snapshotBasePath, snapshotLanguage }] =
    await Promise.all([
      import("../pipeline/build.ts"),
      import("../hosting/live-reload.ts"),
      import("../hosting/preview.ts"),
    ]);
  let basePath = opts.basePath;
  if (basePath === undefined) {
    try {
      basePath = snapshotBasePath(opts.out);
    } catch {
      basePath = ""; // no snapshot yet: the root
    }
  }
  // The snapshot's language is kept, as its base path is (English when there is none yet).
  let language = "en";
  try {
    language = snapshotLanguage(opts.out);
  } catch {
    // no snapshot yet
  }
  // And its origin (build --origin), which its pages' webcal: links were made with.
  const origin = snapshotOrigin(opts.out);
  const live = new LiveReload();
  let lastSignature: string | null = null;
  let builds = 0;
  /** The signal that asked to stop: a running build stops at its next safe point. */
  let stopping: NodeJS.Signals | null = null;
  const check = (): void => {
    if (stopping !== null) throw new Interrupted(stopping);
  };

  /** One build; true when a new snapshot went live. */
  const buildOnce = async (why: string): Promise<boolean> => {
    lastSignature = storeSignature(opts.db);
    const n = ++builds;
    const started = performance.now();
    opts.say(`watch: build ${n} (${why})`);
    try {
      const report = await build({
        db: opts.db,
        out: opts.out,
        now: Date.now(),
        skipInvalid: opts.skipInvalid,
        basePath,
        language,
        origin,
        onPhase: (name) => {
          if (SAFE_PHASES.has(name)) check();
        },
        onProgress: check,
      });
      const took = `${((performance.now() - started) / 1000).toFixed(1)} s`;
      const p = report.publish;
      if (report.upToDate || p.changed.count === 0) {
        opts.say(`watch: build ${n}: nothing changed (${took})`);
        return false;
      }
      opts.say(
        `watch: build ${n}: ${p.filesWritten} files written, ${p.filesRemoved} removed, ` +
          `${p.filesUnchanged} unchanged; live: ${p.snapshotDir} (${took})`,
      );
      live.built(path.basename(p.snapshotDir));
      return true;
    } catch (e) {
      if (e instanceof Interrupted) {
        opts.say(
          `watch: build ${n} stopped by ${e.signal}; its staging was set aside (the next build removes it), the live snapshot kept`,
        );
        return false;
      }
      opts.say(`watch: build ${n} failed; the last good snapshot keeps serving. The error:`);
      for (const line of failureLines(e)) opts.say(line);
      throw e;
    }
  };

  try {
    await buildOnce("start");
  } catch (e) {
    let serving = false;
    try {
      serving = statSync(path.join(opts.out, "404.json")).isFile();
    } catch {
      // no snapshot at all
    }
    if (!serving) {
      live.close();
      throw e;
    }
  }

  const runner = serialRunner(async () => {
    // The build's own reads must not start another one: only a change of the store's files does.
    if (storeSignature(opts.db) === lastSignature) return;
    await buildOnce("the store changed");
  });
  let watcher: StoreWatcher | undefined;
  const close = async (): Promise<void> => {
    watcher?.close();
    await runner.idle();
    live.close();
  };
  return {
    live,
    start() {
      watcher = watchStore(opts.db, () => runner.kick());
      // A change between the first build and now.
      runner.kick();
    },
    idle: () => runner.idle(),
    close,
    stopOnSignals(server) {
      const handler = (signal: NodeJS.Signals): void => {
        if (stopping !== null) process.exit(signalExitCode(signal));
        stopping = signal;
        opts.say(`watch: ${signal} received: stopping (send it again to stop at once)`);
        void close().then(() => {
          server.close();
          server.closeAllConnections();
          opts.say(`watch: stopped; ${opts.out} keeps the last good snapshot`);
          process.exit(signalExitCode(signal));
        });
      };
      for (const s of HANDLED_SIGNALS) process.on(s, handler);
    },
  };
}
