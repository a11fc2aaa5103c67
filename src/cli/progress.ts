// Build progress for people and for CI logs.
// - On a terminal: one line, redrawn in place (\r, erase to end of line), with the current phase,
//   tournaments done out of the total and files (or tournaments) per second. Redraws are throttled
//   to at most one per MIN_REDRAW_MS, and the last tournament always gets drawn.
// - Not a terminal (CI, a pipe, a file): one line per phase and the summary, nothing per tournament,
//   so logs stay short whatever the size of the store.
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
   * `done` of `total` tournaments are rendered; `files` is the number of files emitted so far in
   * this phase, when the caller knows it (the rate then counts files, otherwise tournaments).
   */
  tournament(done: number, total: number, files?: number): void;
  /** The build is over: clears the progress line (on a TTY), prints `summary` and the total time on one line. */
  end(summary: string): void;
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
      phaseName = name;
      phaseStart = t;
      lastDraw = undefined;
      if (tty) draw(`${name}... (${seconds(t - start)})`);
      else stream.write(`build-api: ${name} (+${seconds(t - start)})\n`);
    },

    tournament(done: number, total: number, files?: number): void {
      if (ended || !tty) return;
      const t = opts.now();
      const last = done >= total;
      if (!last && lastDraw !== undefined && t - lastDraw < MIN_REDRAW_MS) return;
      lastDraw = t;
      const elapsed = t - phaseStart;
      const speed =
        files === undefined ? `${rate(done, elapsed)} tournaments/s` : `${rate(files, elapsed)} files/s`;
      const label = phaseName ? `${phaseName}: ` : "";
      draw(`${label}${done}/${total} tournaments, ${speed}`);
    },

    end(summary: string): void {
      if (ended) return;
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
