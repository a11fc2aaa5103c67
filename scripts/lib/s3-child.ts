// The benches' local S3-compatible server: scripts/s3-server-child.ts (s3rver) in its own process,
// so its CPU is counted apart from the client's; `dir` holds its objects.
import { spawn } from "node:child_process";
import path from "node:path";

export async function startS3Child(dir: string): Promise<{ endpoint: string; pid: number; stop: () => void }> {
  const child = spawn(process.execPath, [path.join(import.meta.dirname, "..", "s3-server-child.ts"), dir], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.setEncoding("utf8").on("data", (d: string) => {
      const m = /port (\d+)/.exec(d);
      if (m) resolve(Number(m[1]));
    });
    child.on("exit", () => reject(new Error("s3 server exited")));
  });
  return { endpoint: `http://127.0.0.1:${port}`, pid: child.pid!, stop: () => child.kill("SIGTERM") };
}
