// Starts test/support/child-build.ts in a separate Node process and reports how it ended.
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { childEnv } from "./run.ts";

const script = fileURLToPath(new URL("./child-build.ts", import.meta.url));
const repoRoot = fileURLToPath(new URL("../../", import.meta.url));

export interface ChildResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export function startChild(
  outDir: string,
  variant: number,
  killAt = -1,
  holdMs = 0,
): { child: ChildProcess; done: Promise<ChildResult> } {
  const child = spawn(process.execPath, [script, outDir, String(variant), String(killAt), String(holdMs)], {
    cwd: repoRoot,
    env: childEnv(),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<ChildResult>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return { child, done };
}

/** Runs `tasks` with at most `limit` in flight. */
export async function inPool<T>(limit: number, tasks: Array<() => Promise<T>>): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < tasks.length) {
      const i = next++;
      results[i] = await tasks[i]();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return results;
}
