// Running the real CLI in a child process, and reading whole output trees back.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const CLI = path.join(REPO_ROOT, "bin", "build-api.js");

const made: string[] = [];

export function tempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), `build-api-e2e-${prefix}-`));
  made.push(dir);
  return dir;
}

/** For afterAll: deletes every directory tempDir made in this test file. */
export function removeTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Node options placed before the script, e.g. ["--import", file]. */
  nodeArgs?: string[];
}

/** Runs `node bin/build-api.js ...args` and resolves with its exit code and output. */
export function runCli(args: string[], opts: CliOptions = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), CLI, ...args], {
      cwd: opts.cwd ?? REPO_ROOT,
      env: opts.env ?? process.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/**
 * Every regular file under `dir`, dotfiles included, as relative path -> bytes, sorted by path.
 * A symlink at `dir` itself is followed (a snapshot target is one); symlinks inside are listed
 * by their own path with the bytes of what they point to.
 */
export function readTree(dir: string): Map<string, Buffer> {
  const files: [string, Buffer][] = [];
  const walk = (abs: string, rel: string): void => {
    for (const entry of readdirSync(abs, { withFileTypes: true })) {
      const childAbs = path.join(abs, entry.name);
      const childRel = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(childAbs, childRel);
      else files.push([childRel, readFileSync(childAbs)]);
    }
  };
  walk(dir, "");
  files.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return new Map(files);
}

/** relative path -> sha256 of every file read through `dir`. */
export function hashTree(dir: string): Record<string, string> {
  return Object.fromEntries(
    [...readTree(dir)].map(([p, bytes]) => [p, createHash("sha256").update(bytes).digest("hex")]),
  );
}
