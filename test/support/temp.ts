// The one temporary-directory helper of the tests: each directory is made under the system temp
// dir, named for its test, and remembered so that `afterAll(removeTempDirs)` deletes them all.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const made: string[] = [];

/** A new empty directory, `build-api-<prefix>-XXXXXX`. */
export function tempDir(prefix = "test"): string {
  const dir = mkdtempSync(path.join(tmpdir(), `build-api-${prefix}-`));
  made.push(dir);
  return dir;
}

/** For afterAll: deletes every directory tempDir made in this test file. */
export function removeTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}
