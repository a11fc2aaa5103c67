// The scripts' command lines (scripts/lib/args.ts): --help prints the script's opening comment; a
// wrong option or value is one line naming it, with exit code 2, never a stack trace. And
// bench-dirs, which prints figures.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { removeTempDirs, tempDir } from "../../support/temp.ts";

afterAll(removeTempDirs);

const ROOT = path.resolve(import.meta.dirname, "../../..");

/** Runs `node scripts/<script> ...args` from the repository root. */
function script(name: string, ...args: string[]) {
  const r = spawnSync(process.execPath, [path.join("scripts", name), ...args], {
    cwd: ROOT,
    encoding: "utf8",
    timeout: 60_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("a script's command line", () => {
  it("--help prints the script's opening comment and exits with 0, before any work", () => {
    const r = script("bench.ts", "--help");
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^`npm run bench \[-- --sizes S,M/);
    expect(r.stdout).toContain("JSON floor");
    expect(r.stderr).toBe("");
  });

  it("an unknown option is one line naming it, exit code 2", () => {
    const r = script("bench.ts", "--sizez", "M");
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain("bench.ts: ");
    expect(r.stderr).toContain("--sizez");
    expect(r.stderr).toContain("--help");
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it("a bad value found after parsing is one line too (bench, bench-tick)", () => {
    for (const [name, args] of [
      ["bench.ts", ["--ticks", "0"]],
      ["bench-tick.ts", ["--floor-sample", "x"]],
    ] as const) {
      const r = script(name, ...args);
      expect(r.status, name).toBe(2);
      expect(r.stderr.trim().split("\n"), name).toHaveLength(1);
      expect(r.stderr, name).toMatch(
        new RegExp(`^${name.replace(".", "\\.")}: --(ticks|floor-sample) must be a positive integer`),
      );
    }
  });

  it("a missing required option is named (gen-store without --out)", () => {
    const r = script("gen-store.ts", "--tournaments", "3");
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^gen-store\.ts: --out <file> is required/);
  });

  it("bench-dirs prints what a directory and a file cost, deletes its tree, and refuses a full --dir", () => {
    const dir = path.join(tempDir("bench-dirs"), "t");
    const r = script("bench-dirs.ts", "--dir", dir, "--count", "50", "--bytes", "100");
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/mkdir [0-9]+\.[0-9] µs a directory, writeFileSync [0-9]+\.[0-9] µs a file/);
    expect(existsSync(dir)).toBe(false);
    mkdirSync(dir);
    writeFileSync(path.join(dir, "keep"), "");
    const full = script("bench-dirs.ts", "--dir", dir);
    expect(full.status).toBe(2);
    expect(full.stderr).toContain("is not empty");
    expect(existsSync(path.join(dir, "keep"))).toBe(true);
  });
});
