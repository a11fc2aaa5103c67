// Shared set-up for end-to-end tests: the sample store and a snapshot built from it.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { build, type BuildReport } from "../../src/pipeline/build.ts";
import { childEnv, REPO_ROOT } from "./run.ts";

export const SAMPLE_NOW = Date.parse("2026-11-22T12:00:00Z");

/** Builds data/sample.sql into a fresh store file and returns its path. */
export function makeSampleStore(dir: string): string {
  const file = path.join(dir, "sample.sqlite");
  execFileSync(process.execPath, ["scripts/build-sample.ts", "--out", file], {
    cwd: REPO_ROOT,
    env: childEnv(),
    stdio: "pipe",
  });
  return file;
}

export async function buildSample(
  dir: string,
  out = path.join(dir, "dist"),
): Promise<{ db: string; out: string; report: BuildReport }> {
  const db = makeSampleStore(dir);
  const report = await build({ db, out, now: SAMPLE_NOW });
  return { db, out, report };
}
