// The one temporary-directory helper of the tests: each directory is made under a temp root, named
// for its test, and remembered so that `afterAll(removeTempDirs)` deletes them all.
import { accessSync, constants, mkdtempSync, rmSync, statfsSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const made: string[] = [];

/** A RAM file system the tests may fill (a build of the sample writes about 1,500 files). */
const RAM_DIR = "/dev/shm";
const RAM_ROOM = 2 * 2 ** 30;

/**
 * Where the directories go: BUILD_API_TEST_TMPDIR when set, else /dev/shm when it is writable and
 * has 2 GiB free, else the system temp dir. Builds write and delete thousands of small files; on a
 * disk mounted with online discard (cloud VMs) deleting one sample snapshot took 3-8 s, on tmpfs
 * 0.1 s (docs/benchmarks.md#tests). What the tests assert does not depend on the file system.
 */
function tempRoot(): string {
  const chosen = process.env["BUILD_API_TEST_TMPDIR"];
  if (chosen) return chosen;
  try {
    const fs = statfsSync(RAM_DIR);
    accessSync(RAM_DIR, constants.W_OK);
    if (fs.bavail * fs.bsize >= RAM_ROOM) return RAM_DIR;
  } catch {
    // No /dev/shm here: the system temp dir.
  }
  return tmpdir();
}

let root: string | undefined;

/** A new empty directory, `build-api-<prefix>-XXXXXX`. */
export function tempDir(prefix = "test"): string {
  const dir = ownedTempDir(prefix);
  made.push(dir);
  return dir;
}

/** The same, for a helper that removes it itself (a server's storage, when the server closes). */
export function ownedTempDir(prefix: string): string {
  root ??= tempRoot();
  return mkdtempSync(path.join(root, `build-api-${prefix}-`));
}

/** For afterAll: deletes every directory tempDir made in this test file. */
export function removeTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}
