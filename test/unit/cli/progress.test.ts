import { describe, expect, it } from "vitest";
import { createProgress, MIN_REDRAW_MS, PHASES, phaseLabel } from "../../../src/cli/progress.ts";

/** A fake stream that records every write, and a clock the test moves by hand. */
function setup(isTTY: boolean, columns?: number) {
  const writes: string[] = [];
  const stream = { isTTY, columns, write: (s: string) => (writes.push(s), true) };
  let t = 1_000;
  const clock = { advance: (ms: number) => (t += ms) };
  const progress = createProgress({ stream, now: () => t });
  return { writes, clock, progress };
}

const ESC_CLEAR = "\r" + String.fromCharCode(27) + "[K";

/** What a terminal would show: each \r returns to column 0, and ESC[K erases the rest of the line. */
function screen(writes: string[]): string[] {
  return writes
    .join("")
    .split("\n")
    .map((line) => line.split(ESC_CLEAR).at(-1)!);
}

describe("createProgress on a terminal", () => {
  it("redraws one line in place with tournaments done/total, files rendered and files per second", () => {
    const { writes, clock, progress } = setup(true);
    progress.phase("produce");
    clock.advance(2_000);
    progress.tournament(10, 40, 200);
    expect(writes).toHaveLength(2);
    expect(writes.every((w) => w.startsWith(ESC_CLEAR) && !w.includes("\n"))).toBe(true);
    // 200 files in 2 s since the phase began.
    expect(screen(writes)).toEqual(["produce: 10/40 tournaments, 200 files rendered (100 files/s)"]);
  });

  it("counts tournaments per second when the caller does not know the files", () => {
    const { writes, clock, progress } = setup(true);
    progress.phase("produce");
    clock.advance(4_000);
    progress.tournament(2, 40);
    expect(screen(writes)).toEqual(["produce: 2/40 tournaments (0.5 tournaments/s)"]);
  });

  it("redraws at most once per MIN_REDRAW_MS, but always draws the last tournament", () => {
    const { writes, clock, progress } = setup(true);
    progress.phase("produce");
    const afterPhase = writes.length;
    for (let done = 1; done <= 1_000; done++) {
      clock.advance(1); // 1,000 tournaments in 1 s
      progress.tournament(done, 1_000, done * 20);
    }
    const redraws = writes.length - afterPhase;
    expect(MIN_REDRAW_MS).toBe(100);
    // The first call draws, then one per 100 ms of the 999 that follow, then the last one.
    expect(redraws).toBeGreaterThanOrEqual(10);
    expect(redraws).toBeLessThanOrEqual(11);
    expect(screen(writes)).toEqual(["produce: 1000/1000 tournaments, 20000 files rendered (20000 files/s)"]);
  });

  it("shows the phase and what it does while a phase has no tournaments, and restarts the throttle per phase", () => {
    const { writes, clock, progress } = setup(true);
    progress.phase("produce");
    progress.tournament(1, 3, 5);
    clock.advance(1_500);
    progress.phase("finish");
    expect(screen(writes)).toEqual(["finish: bringing the staging version up to date... (1.5 s)"]);
  });

  it("end() replaces the progress line with the summary and the total time", () => {
    const { writes, clock, progress } = setup(true);
    progress.phase("produce");
    progress.tournament(1, 2, 10);
    clock.advance(2_340);
    progress.end("built dist: 2 tournaments, 40 files");
    expect(screen(writes)).toEqual(["built dist: 2 tournaments, 40 files (2.3 s)", ""]);
    // Nothing is drawn after the end.
    const count = writes.length;
    progress.tournament(2, 2, 20);
    progress.phase("cleanup");
    progress.end("again");
    expect(writes).toHaveLength(count);
  });

  it("does not erase anything when end() comes before any progress line", () => {
    const { writes, progress } = setup(true);
    progress.end("nothing to do");
    expect(writes).toEqual(["nothing to do (0.0 s)\n"]);
  });

  it("keeps the line shorter than the terminal so that it never wraps", () => {
    const { writes, clock, progress } = setup(true, 20);
    progress.phase("produce");
    clock.advance(1_000);
    progress.tournament(1234, 5678, 99_999);
    const [line] = screen(writes);
    expect(line).toBe("produce: 1234/5678 ");
    expect(line!.length).toBe(19);
  });
});

describe("createProgress without a terminal (CI)", () => {
  it("prints one line per phase, the rendering's counts once, and the summary; nothing per tournament", () => {
    const { writes, clock, progress } = setup(false);
    progress.phase("lock");
    clock.advance(10);
    progress.phase("produce");
    for (let done = 1; done <= 500; done++) {
      clock.advance(7);
      progress.tournament(done, 500, done * 20);
    }
    progress.phase("finish");
    clock.advance(100);
    progress.end("built dist: 500 tournaments, 10000 files");
    expect(writes.join("")).toBe(
      [
        "build-api: lock: taking the output's lock (+0.0 s)",
        `build-api: produce: ${PHASES.produce} (+0.0 s)`,
        "build-api: produce: 500/500 tournaments, 10000 files rendered (+3.5 s)",
        "build-api: finish: bringing the staging version up to date (+3.5 s)",
        "build-api: built dist: 500 tournaments, 10000 files (3.6 s)",
        "",
      ].join("\n"),
    );
    // Whole lines only: no carriage returns or escape codes in a log file.
    expect(writes.join("")).not.toContain("\r");
    expect(writes.join("")).not.toContain(String.fromCharCode(27));
  });

  it("names a phase it does not know by its name alone", () => {
    expect(phaseLabel("deploy")).toBe("deploy");
    expect(phaseLabel("switch")).toBe("switch: switching the output to the new snapshot");
  });

  it("note() prints a line of its own and the progress line is drawn again after it", () => {
    const { writes, clock, progress } = setup(true);
    progress.phase("produce");
    progress.tournament(1, 4, 10);
    progress.note("build-api: SIGINT received");
    clock.advance(1);
    progress.tournament(2, 4, 20);
    expect(screen(writes)).toEqual([
      "build-api: SIGINT received",
      "produce: 2/4 tournaments, 20 files rendered (20000 files/s)",
    ]);
  });

  it("treats a stream without isTTY as not a terminal", () => {
    const writes: string[] = [];
    const progress = createProgress({ stream: { write: (s) => (writes.push(s), true) }, now: () => 0 });
    progress.tournament(1, 1, 1);
    progress.phase("produce");
    // The counts come once, when the phase they belong to ends; no line is redrawn.
    expect(writes).toEqual([
      "build-api: 1/1 tournaments, 1 files rendered (+0.0 s)\n",
      `build-api: ${phaseLabel("produce")} (+0.0 s)\n`,
    ]);
  });
});
