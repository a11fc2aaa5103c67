// The failure paths of publication, each found by trying to break it: cleanup after the switch,
// odd lock files, a full disk and refused permissions, files edited inside the live version, and
// what --force must never delete.
import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { BuildError, EXIT } from "../../../src/shared/errors.ts";
import { MARKER_NAME } from "../../../src/publish/manifest.ts";
import { BOOKKEEPING_NAME } from "../../../src/ledger/bookkeeping.ts";
import { publishSnapshot, type PublishOptions } from "../../../src/publish/publish.ts";
import { verifySnapshot } from "../../../src/publish/verify.ts";
import { failWith } from "../../support/faults.ts";
import { expectNoLeftovers, expectSnapshot, fileIdentities, writeAll } from "../../support/publish.ts";
import { removeTempDirs, tempDir } from "../../support/temp.ts";
import { hashTree } from "../../support/tree.ts";
import { sampleFiles } from "../../support/sample-files.ts";

afterAll(removeTempDirs);
afterEach(() => {
  vi.restoreAllMocks();
});

async function failure(opts: PublishOptions, files = sampleFiles(1)): Promise<BuildError> {
  try {
    await publishSnapshot(opts, writeAll(files));
  } catch (e) {
    return e as BuildError;
  }
  throw new Error("the build did not fail");
}

/** A snapshot with both versions present (v2, then v0 live). */
async function paired(): Promise<string> {
  const out = path.join(tempDir(), "dist");
  await publishSnapshot({ outDir: out }, writeAll(sampleFiles(2)));
  await publishSnapshot({ outDir: out }, writeAll(sampleFiles(0)));
  return out;
}

const lockOf = (out: string): string => path.join(path.dirname(out), ".dist.lock");

describe("after the switch, cleanup trouble is a warning", () => {
  it("a failed removal after the switch still succeeds, and leftovers never block a later build", async () => {
    const out = await paired();
    const store = path.join(path.dirname(out), ".dist.snapshots");
    const inStore = (p: unknown): boolean => String(p).startsWith(path.join(store, "incoming-"));
    const spy = failWith("rmSync", "EACCES", inStore);
    const report = await publishSnapshot({ outDir: out }, writeAll(sampleFiles(1)));
    expect(spy).toHaveBeenCalled();
    expectSnapshot(out, sampleFiles(1));
    expect(report.warnings.join("\n")).toMatch(/could not remove .*incoming-.*EACCES/);
    expect(existsSync(lockOf(out))).toBe(false);

    // The leftover is still there, and its removal still fails: the next build warns and goes on.
    const again = await publishSnapshot({ outDir: out }, writeAll(sampleFiles(2)));
    expectSnapshot(out, sampleFiles(2));
    expect(again.warnings.join("\n")).toMatch(/incoming-.*EACCES/);
    spy.mockRestore();

    const clean = await publishSnapshot({ outDir: out }, writeAll(sampleFiles(0)));
    expect(clean.warnings).toEqual([]);
    expectSnapshot(out, sampleFiles(0));
    expectNoLeftovers(path.dirname(out));
  });

  it("an old version that cannot be removed is a warning, not an error", async () => {
    const out = await paired();
    const store = path.join(path.dirname(out), ".dist.snapshots");
    // A version left by an older layout's interrupted build: neither live nor paired.
    mkdirSync(path.join(store, "99", "api"), { recursive: true });
    writeFileSync(path.join(store, "99", "api", "x.json"), "{}");
    const spy = failWith("rmSync", "EACCES", (p) => String(p) === path.join(store, "99"));
    const report = await publishSnapshot({ outDir: out }, writeAll(sampleFiles(1)));
    expect(spy).toHaveBeenCalled();
    expectSnapshot(out, sampleFiles(1));
    expect(report.warnings.join("\n")).toMatch(/could not remove the leftover .*99.*EACCES/);
    spy.mockRestore();
    await publishSnapshot({ outDir: out }, writeAll(sampleFiles(2)));
    expectNoLeftovers(path.dirname(out));
  });
});

describe("lock files that are not ours", () => {
  it("a dangling symlink as the lock is a clear error at once, not a spin", async () => {
    const out = await paired();
    symlinkSync("/nonexistent/lock-target", lockOf(out));
    const started = performance.now();
    const e = await failure({ outDir: out, lockWaitMs: 0 });
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(e).toBeInstanceOf(BuildError);
    expect(e.exitCode).toBe(EXIT.unsafeOutput);
    expect(e.message).toContain(lockOf(out));
    expect(e.message).toMatch(/symbolic link.*fix: remove it/);
    expectSnapshot(out, sampleFiles(0));
  });

  it("a directory as the lock is a clear error, not EISDIR", async () => {
    const out = await paired();
    mkdirSync(lockOf(out));
    const e = await failure({ outDir: out });
    expect(e).toBeInstanceOf(BuildError);
    expect(e.exitCode).toBe(EXIT.unsafeOutput);
    expect(e.message).toMatch(/lock path is a directory/);
    expect(statSync(lockOf(out)).isDirectory()).toBe(true);
  });
});

describe("a full disk and refused permissions are user errors (exit 6), and no lock stays behind", () => {
  it("ENOSPC while writing a file: names the path, keeps the live snapshot, leaves no lock", async () => {
    const out = await paired();
    const before = hashTree(out);
    const identities = fileIdentities(out);
    failWith("writeFileSync", "ENOSPC", (p) => String(p).includes("incoming-"), "write");
    const e = await failure({ outDir: out });
    expect(e).toBeInstanceOf(BuildError);
    expect(e.exitCode).toBe(EXIT.unsafeOutput);
    expect(e.message).toMatch(/file system is full \(ENOSPC in write\)/);
    expect(e.message).toMatch(/incoming-[0-9]+\/0: the file system is full .*fix: free space/);
    expect(existsSync(lockOf(out))).toBe(false);
    expect(hashTree(out)).toEqual(before);
    expect(fileIdentities(out)).toEqual(identities);
    vi.restoreAllMocks();
    await publishSnapshot({ outDir: out }, writeAll(sampleFiles(1)));
    expectSnapshot(out, sampleFiles(1));
    expectNoLeftovers(path.dirname(out));
  });

  it("ENOSPC while filling in the lock file removes it again", async () => {
    const out = await paired();
    failWith("writeSync", "ENOSPC");
    const e = await failure({ outDir: out });
    expect(e.exitCode).toBe(EXIT.unsafeOutput);
    expect(e.message).toContain("ENOSPC");
    expect(existsSync(lockOf(out))).toBe(false);
    vi.restoreAllMocks();
    await publishSnapshot({ outDir: out }, writeAll(sampleFiles(1)));
    expectSnapshot(out, sampleFiles(1));
  });

  it("EACCES while updating the other version: the live one is untouched, the next build repairs", async () => {
    const out = await paired();
    const before = hashTree(out);
    let renames = 0;
    const spy = failWith("renameSync", "EACCES", () => ++renames === 3);
    const e = await failure({ outDir: out });
    expect(spy).toHaveBeenCalled();
    expect(e.exitCode).toBe(EXIT.unsafeOutput);
    expect(e.message).toMatch(/permission denied \(EACCES in rename\)/);
    expect(e.message).toContain("fix: give the build's user write access");
    expect(existsSync(lockOf(out))).toBe(false);
    expect(hashTree(out)).toEqual(before);
    vi.restoreAllMocks();
    // A no-change build puts the repaired other version live: it must be exactly variant 0.
    await publishSnapshot({ outDir: out }, writeAll(sampleFiles(0)));
    expectSnapshot(out, sampleFiles(0));
    expectNoLeftovers(path.dirname(out));
  });

  it("a real EFBIG (file size limit, in a child process) is exit 6 and leaves no lock", () => {
    const out = path.join(tempDir(), "dist");
    const script = fileURLToPath(new URL("../../support/child-build.ts", import.meta.url));
    // 1 KiB: the lock and the sample files fit, the bookkeeping database does not. SIGXFSZ is
    // ignored, as services usually run, so the write fails with EFBIG instead of killing.
    const r = spawnSync(
      "bash",
      ["-c", `trap '' XFSZ; ulimit -f 1; exec "$0" "$@"`, process.execPath, script, out, "1", "-1", "0"],
      { encoding: "utf8" },
    );
    expect(r.status, r.stderr).toBe(EXIT.unsafeOutput);
    // The bookkeeping database's first page (4 KiB) does not fit: SQLite reports an I/O error.
    expect(r.stderr).toMatch(/exceeds the allowed file size \(EFBIG|input\/output error .*\(SQLITE_IOERR/);
    expect(r.stderr).not.toMatch(/internal error|\n {4}at /);
    expect(existsSync(lockOf(out))).toBe(false);
    expect(existsSync(out)).toBe(false);
  });
});

describe("files edited inside the live version", () => {
  const file = "api/public/v1/tournaments/3/index.json";

  it("an edit in place is found (size, or mtime after the manifest) and the file written anew", async () => {
    const out = await paired();
    const original = readFileSync(path.join(out, file), "utf8");
    // Same size, different bytes, written in place: both versions share this inode.
    writeFileSync(path.join(out, file), original.replace("Open", "OPEN"));
    const report = await publishSnapshot({ outDir: out }, writeAll(sampleFiles(0)));
    expect(report.filesWritten).toBe(1);
    expect(report.changed).toEqual({ count: 1, paths: [file] });
    expectSnapshot(out, sampleFiles(0));
    expectNoLeftovers(path.dirname(out));
    // The edited copy, now in the other version, is replaced by the next build too.
    await publishSnapshot({ outDir: out }, writeAll(sampleFiles(0)));
    expectSnapshot(out, sampleFiles(0));
    expectNoLeftovers(path.dirname(out));
  });

  it("bookkeeping that does not describe the live version: every file is compared, and the versions stay in step", async () => {
    const out = await paired();
    writeFileSync(path.join(out, "api", "planted.json"), "{}");
    const store = path.join(path.dirname(out), ".dist.snapshots");
    for (const f of readdirSync(store)) if (f.startsWith(BOOKKEEPING_NAME)) rmSync(path.join(store, f));
    const report = await publishSnapshot({ outDir: out }, writeAll(sampleFiles(1)));
    // Each file is compared with the live copy's bytes: the equal ones are still shared.
    expect(report.filesUnchanged).toBeGreaterThan(0);
    expect(report.filesWritten + report.filesUnchanged).toBe(Object.keys(sampleFiles(1)).length);
    expect(report.changed.paths).toContain("api/planted.json");
    expectSnapshot(out, sampleFiles(1));
    expectNoLeftovers(path.dirname(out));
    await publishSnapshot({ outDir: out }, writeAll(sampleFiles(1)));
    expectSnapshot(out, sampleFiles(1));
    expectNoLeftovers(path.dirname(out));
  });

  it("a live file removed by hand that a build must link fails it with exit 10, the old snapshot serving", async () => {
    const out = path.join(tempDir(), "dist");
    await publishSnapshot({ outDir: out }, writeAll(sampleFiles(2)));
    const second = await publishSnapshot({ outDir: out }, writeAll(sampleFiles(0)));
    // A path the last build changed: the next build links it from the live version.
    const gone = second.changed.paths.find((p) => p in sampleFiles(0))!;
    rmSync(path.join(out, gone));
    const before = hashTree(out);
    const error = await publishSnapshot({ outDir: out }, (w) => {
      expect(w.keepAll(Object.keys(sampleFiles(0)))).toBe(true);
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BuildError);
    expect((error as BuildError).exitCode).toBe(EXIT.snapshotDamaged);
    expect((error as BuildError).message).toContain(gone);
    expect((error as BuildError).message).toContain("--rebuild");
    expect(hashTree(out)).toEqual(before);
    await publishSnapshot({ outDir: out, rewriteAll: true }, writeAll(sampleFiles(0)));
    expectSnapshot(out, sampleFiles(0));
  });

  it("keepAll trusts the live bookkeeping (no file examined on a tick); verify finds the edited file", async () => {
    const out = await paired();
    const files = sampleFiles(0);
    writeFileSync(path.join(out, file), "{}");
    let kept: boolean | undefined;
    await publishSnapshot({ outDir: out }, (w) => {
      kept = w.keepAll(Object.keys(files));
      if (!kept) writeAll(files)(w);
    });
    expect(kept).toBe(true);
    const found = verifySnapshot(out);
    expect(found.stable).toBe(true);
    expect(found.problems.map((p) => p.where)).toEqual([path.join(realpathSync(out), file)]);
    expect(found.problems[0]!.what).toContain("its bytes differ from the bookkeeping");
    // --rebuild repairs it.
    await publishSnapshot({ outDir: out, rewriteAll: true }, writeAll(files));
    expectSnapshot(out, files);
    expect(verifySnapshot(out).problems).toEqual([]);
  });

  it("an edit that kept size and mtime escapes the check, but rewriteAll (--rebuild) writes every file anew", async () => {
    const out = await paired();
    const abs = path.join(out, file);
    const st = statSync(abs);
    const original = readFileSync(abs, "utf8");
    writeFileSync(abs, original.replace("Open", "OPEN"));
    utimesSync(abs, st.atime, st.mtime);
    const identities = fileIdentities(out);

    const report = await publishSnapshot({ outDir: out, rewriteAll: true }, writeAll(sampleFiles(0)));
    const count = Object.keys(sampleFiles(0)).length;
    expect(report).toMatchObject({ filesWritten: count, filesUnchanged: 0 });
    expect(report.changed.count).toBe(count);
    expectSnapshot(out, sampleFiles(0));
    const after = fileIdentities(out);
    // Every file but the marker (bookkeeping that says "ours", the same in every version).
    for (const rel of Object.keys(identities)) {
      if (rel !== MARKER_NAME) expect(after[rel], rel).not.toBe(identities[rel]);
    }
    expect(readFileSync(path.join(out, file), "utf8")).toBe(original);
    expectNoLeftovers(path.dirname(out));
    // Then the versions are back in step: a no-change build shares everything.
    const again = await publishSnapshot({ outDir: out }, writeAll(sampleFiles(0)));
    expect(again.filesWritten).toBe(0);
    expect(fileIdentities(out)).toEqual(after);
    expectNoLeftovers(path.dirname(out));
  });

  it("rewriteAll drops a file someone added to the live version", async () => {
    const out = await paired();
    writeFileSync(path.join(out, "api", "planted.json"), "{}");
    const report = await publishSnapshot({ outDir: out, rewriteAll: true }, writeAll(sampleFiles(0)));
    expect(report.changed.paths).toContain("api/planted.json");
    expectSnapshot(out, sampleFiles(0));
    await publishSnapshot({ outDir: out }, writeAll(sampleFiles(0)));
    expectSnapshot(out, sampleFiles(0));
  });
});

describe("--force never deletes the input store, a repository, or the current directory", () => {
  it("refuses an output that holds a protected path (the input store), forced or not", async () => {
    const unmarked = path.join(tempDir(), "site");
    mkdirSync(unmarked);
    const db = path.join(unmarked, "store.sqlite");
    writeFileSync(db, "SQLite format 3\0");
    for (const force of [false, true]) {
      const e = await failure({ outDir: unmarked, force, protectedPaths: [db] });
      expect(e.exitCode).toBe(EXIT.unsafeOutput);
      expect(e.message).toMatch(/store\.sqlite, which a build must not delete/);
    }
    expect(readFileSync(db, "utf8")).toBe("SQLite format 3\0");

    // Inside a snapshot version (through the link) is refused too.
    const out = await paired();
    const inside = path.join(realpathSync(out), "store.sqlite");
    writeFileSync(inside, "db");
    const e = await failure({ outDir: out, protectedPaths: [path.join(out, "store.sqlite")] });
    expect(e.exitCode).toBe(EXIT.unsafeOutput);
    expect(readFileSync(inside, "utf8")).toBe("db");
  });

  it("refuses to replace a directory holding a repository at any depth", async () => {
    const out = path.join(tempDir(), "site");
    mkdirSync(path.join(out, "vendor", "lib", ".git"), { recursive: true });
    writeFileSync(path.join(out, "vendor", "lib", "code.c"), "int x;");
    const e = await failure({ outDir: out, force: true });
    expect(e.exitCode).toBe(EXIT.unsafeOutput);
    expect(e.message).toMatch(/contains a repository .*vendor\/lib\/\.git.*--force never deletes that/);
    expect(readFileSync(path.join(out, "vendor", "lib", "code.c"), "utf8")).toBe("int x;");
    expect(existsSync(path.join(path.dirname(out), ".site.lock"))).toBe(false);
  });

  it("refuses to replace a directory that holds the current directory", async () => {
    const out = path.join(tempDir(), "site");
    mkdirSync(path.join(out, "work"), { recursive: true });
    const cwd = process.cwd();
    process.chdir(path.join(out, "work"));
    try {
      const e = await failure({ outDir: out, force: true });
      expect(e.exitCode).toBe(EXIT.unsafeOutput);
      expect(e.message).toMatch(/current directory/);
    } finally {
      process.chdir(cwd);
    }
    expect(statSync(path.join(out, "work")).isDirectory()).toBe(true);
  });
});
