// Build progress for people and for CI logs. Each phase is named with what it does (PHASES).
// - On a terminal: one line, redrawn in place (\r, erase to end of line), with the current phase,
//   tournaments done out of the total, the files rendered so far and files (or tournaments) per
//   second. Redraws are throttled to at most one per MIN_REDRAW_MS, and the last tournament always
//   gets drawn.
// - Not a terminal (CI, a pipe, a file): one line per phase, the rendering's counts once it is
//   over, and the summary; nothing per tournament, so logs stay short whatever the size of the store.
// The clock is passed in, so the throttle and the rates are tested without waiting.

export interface ProgressStream {
  isTTY?: boolean;
  /** The terminal width, when known (NodeJS.WriteStream has it on a TTY). */
  columns?: number;
  write(s: string): boolean;
}

export interface ProgressOptions {
  stream: NodeJS.WriteStream | ProgressStream;
  /** Milliseconds, monotonic is best (e.g. () => performance.now()). */
  now: () => number;
}

export interface Progress {
  /** A new phase starts (e.g. "lock", "prepare", "produce", "finish", "switch", "cleanup"). */
  phase(name: string): void;
  /**
   * `done` of `total` tournaments are through (rendered, or kept unchanged); `files` is the number
   * of files this build rendered so far, when the caller knows it (the rate then counts files,
   * otherwise tournaments).
   */
  tournament(done: number, total: number, files?: number): void;
  /** One line of its own (a message during the build): the progress line is redrawn after it. */
  note(line: string): void;
  /** The build is over: clears the progress line (on a TTY), prints `summary` and the total time on one line. */
  end(summary: string): void;
}

/** What each phase of a build does, shown beside its name. */
export const PHASES: Readonly<Record<string, string>> = {
  check: "comparing the store and options with the last build's",
  open: "opening the store (one read transaction)",
  lock: "taking the output's lock",
  prepare: "choosing the staging version, removing leftovers",
  produce: "rendering tournaments, lists and pages, writing the changed files to staging",
  finish: "bringing the staging version up to date",
  switch: "switching the output to the new snapshot",
  cleanup: "removing this build's staging files",
  pair: "sealing the second snapshot version (a first build only)",
};

/** "produce: rendering tournaments..." for a known phase, the bare name otherwise. */
export function phaseLabel(name: string): string {
  const what = PHASES[name];
  return what ? `${name}: ${what}` : name;
}

/** At most 10 redraws per second: a terminal redraw per tournament would cost more than the work. */
export const MIN_REDRAW_MS = 100;

const CLEAR_LINE = "\r\x1b[K";

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

function rate(count: number, ms: number): string {
  if (ms <= 0) return "-";
  const perSecond = (count * 1000) / ms;
  return perSecond >= 100 ? Math.round(perSecond).toString() : perSecond.toFixed(1);
}

export function createProgress(opts: ProgressOptions): Progress {
  const stream = opts.stream as ProgressStream;
  const tty = stream.isTTY === true;
  const start = opts.now();
  let phaseName = "";
  let phaseStart = start;
  /** When the current line was last drawn; undefined: nothing drawn since the phase began. */
  let lastDraw: number | undefined;
  let lineShown = false;
  let ended = false;
  /** The last counts of the phase, printed as one line when it ends (not a terminal). */
  let counts: string | undefined;

  /** Not a terminal: the counts of the phase that ends, on one line. */
  const flushCounts = (): void => {
    if (!tty && counts !== undefined) {
      stream.write(
        `build-api: ${phaseName ? `${phaseName}: ` : ""}${counts} (+${seconds(opts.now() - start)})\n`,
      );
    }
    counts = undefined;
  };

  const draw = (line: string): void => {
    const width = stream.columns;
    const text = width !== undefined && width > 1 && line.length >= width ? line.slice(0, width - 1) : line;
    stream.write(CLEAR_LINE + text);
    lineShown = true;
  };

  return {
    phase(name: string): void {
      if (ended) return;
      const t = opts.now();
      flushCounts();
      phaseName = name;
      phaseStart = t;
      lastDraw = undefined;
      if (tty) draw(`${phaseLabel(name)}... (${seconds(t - start)})`);
      else stream.write(`build-api: ${phaseLabel(name)} (+${seconds(t - start)})\n`);
    },

    tournament(done: number, total: number, files?: number): void {
      if (ended) return;
      const rendered = files === undefined ? "" : `, ${files} files rendered`;
      counts = `${done}/${total} tournaments${rendered}`;
      if (!tty) return;
      const t = opts.now();
      const last = done >= total;
      if (!last && lastDraw !== undefined && t - lastDraw < MIN_REDRAW_MS) return;
      lastDraw = t;
      const elapsed = t - phaseStart;
      const speed =
        files === undefined ? `${rate(done, elapsed)} tournaments/s` : `${rate(files, elapsed)} files/s`;
      const label = phaseName ? `${phaseName}: ` : "";
      draw(`${label}${counts} (${speed})`);
    },

    note(line: string): void {
      if (tty && lineShown) {
        stream.write(`${CLEAR_LINE}${line}\n`);
        lineShown = false;
        lastDraw = undefined;
      } else stream.write(`${line}\n`);
    },

    end(summary: string): void {
      if (ended) return;
      flushCounts();
      ended = true;
      const t = opts.now();
      if (tty) {
        stream.write(`${lineShown ? CLEAR_LINE : ""}${summary} (${seconds(t - start)})\n`);
      } else {
        stream.write(`build-api: ${summary} (${seconds(t - start)})\n`);
      }
    },
  };
}
