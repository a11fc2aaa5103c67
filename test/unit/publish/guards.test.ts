import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { BuildError, EXIT } from "../../../src/shared/errors.ts";
import { publishSnapshot, type PublishOptions } from "../../../src/publish/publish.ts";
import { expectNoLeftovers, expectSnapshot, fileIdentities, writeAll } from "../../support/publish.ts";
import { removeTempDirs, tempDir } from "../../support/temp.ts";
import { hashTree } from "../../support/tree.ts";
import { sampleFiles } from "../../support/sample-files.ts";

const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));

async function refusal(opts: PublishOptions): Promise<BuildError> {
  let produced = false;
  try {
    await publishSnapshot(opts, () => {
      produced = true;
    });
  } catch (e) {
    expect(produced).toBe(false);
    return e as BuildError;
  }
  throw new Error(`publishing to ${opts.outDir} was not refused`);
}

async function expectRefused(opts: PublishOptions, reason: RegExp): Promise<void> {
  const e = await refusal(opts);
  expect(e).toBeInstanceOf(BuildError);
  expect(e.exitCode).toBe(EXIT.unsafeOutput);
  expect(e.message).toMatch(reason);
}

afterAll(removeTempDirs);

describe("publishSnapshot output guards", () => {
  it("refuses /, the home directory and its ancestors, even with force, creating nothing", async () => {
    await expectRefused({ outDir: "/" }, /file system root/);
    await expectRefused({ outDir: "/", force: true }, /file system root/);
    const home = homedir();
    await expectRefused({ outDir: home, force: true }, /home directory/);
    await expectRefused({ outDir: `${home}/`, force: true }, /home directory/);
    if (path.dirname(home) !== "/") await expectRefused({ outDir: path.dirname(home) }, /home directory/);
    expect(existsSync(path.join(path.dirname(home), `.${path.basename(home)}.lock`))).toBe(false);
    expect(existsSync(path.join(path.dirname(home), `.${path.basename(home)}.snapshots`))).toBe(false);
  });

  it("sees through a symlinked parent that leads to the home directory", async () => {
    const dir = tempDir();
    symlinkSync(path.dirname(homedir()), path.join(dir, "up"));
    await expectRefused(
      { outDir: path.join(dir, "up", path.basename(homedir())), force: true },
      /home directory/,
    );
  });

  it("refuses a repository root (a directory containing .git), even with force", async () => {
    await expectRefused({ outDir: repoRoot, force: true }, /\.git|current directory/);
    const repo = path.join(tempDir(), "repo");
    mkdirSync(path.join(repo, ".git"), { recursive: true });
    writeFileSync(path.join(repo, "README.md"), "mine");
    await expectRefused({ outDir: repo }, /contains \.git/);
    await expectRefused({ outDir: repo, force: true }, /contains \.git/);
    expect(readFileSync(path.join(repo, "README.md"), "utf8")).toBe("mine");
    expect(statSync(path.join(repo, ".git")).isDirectory()).toBe(true);
  });

  it("refuses a non-empty directory without the marker unless forced, then replaces it", async () => {
    const out = path.join(tempDir(), "site");
    mkdirSync(path.join(out, "photos"), { recursive: true });
    writeFileSync(path.join(out, "photos", "cat.jpg"), "meow");
    await expectRefused({ outDir: out }, /non-empty directory without the snapshot marker/);
    expect(readFileSync(path.join(out, "photos", "cat.jpg"), "utf8")).toBe("meow");
    expect(existsSync(path.join(path.dirname(out), ".site.lock"))).toBe(false);

    const report = await publishSnapshot({ outDir: out, force: true }, writeAll(sampleFiles(0)));
    expectSnapshot(out, sampleFiles(0));
    // Moved aside, never deleted, and said so; later builds leave it alone.
    const aside = path.join(path.dirname(out), "site.replaced");
    expect(readFileSync(path.join(aside, "photos", "cat.jpg"), "utf8")).toBe("meow");
    expect(report.warnings.join("\n")).toMatch(/moved aside to .*site\.replaced \(nothing was deleted/);
    await publishSnapshot({ outDir: out }, writeAll(sampleFiles(1)));
    await publishSnapshot({ outDir: out }, writeAll(sampleFiles(2)));
    expect(readFileSync(path.join(aside, "photos", "cat.jpg"), "utf8")).toBe("meow");
    rmSync(aside, { recursive: true });
    expectNoLeftovers(path.dirname(out), "site");
  });

  it("refuses a file at the target even with force, and a symlink it did not make unless forced", async () => {
    const dir = tempDir();
    const file = path.join(dir, "dist");
    writeFileSync(file, "not a dir");
    await expectRefused({ outDir: file, force: true }, /not a directory/);
    expect(readFileSync(file, "utf8")).toBe("not a dir");

    const other = path.join(tempDir(), "elsewhere");
    mkdirSync(other);
    writeFileSync(path.join(other, "keep.txt"), "keep");
    const link = path.join(dir, "out");
    symlinkSync(other, link);
    await expectRefused({ outDir: link }, /symlink .* did not create/);
    await publishSnapshot({ outDir: link, force: true }, writeAll(sampleFiles(0)));
    expectSnapshot(link, sampleFiles(0));
    expect(readFileSync(path.join(other, "keep.txt"), "utf8")).toBe("keep");
  });

  it("refuses a versions directory that holds someone else's files", async () => {
    const dir = tempDir();
    mkdirSync(path.join(dir, ".dist.snapshots"));
    writeFileSync(path.join(dir, ".dist.snapshots", "notes.txt"), "mine");
    await expectRefused({ outDir: path.join(dir, "dist") }, /holds other files/);
    expect(readFileSync(path.join(dir, ".dist.snapshots", "notes.txt"), "utf8")).toBe("mine");
  });

  it("publishes into a new or empty directory without force", async () => {
    const fresh = path.join(tempDir(), "a", "b", "dist");
    await publishSnapshot({ outDir: fresh }, writeAll(sampleFiles(0)));
    expectSnapshot(fresh, sampleFiles(0));
    const empty = path.join(tempDir(), "dist");
    mkdirSync(empty);
    await publishSnapshot({ outDir: empty }, writeAll(sampleFiles(0)));
    expectSnapshot(empty, sampleFiles(0));
    expectNoLeftovers(path.dirname(empty));
  });

  it("moves an older build's real directory (with marker) to a link, hard-linking unchanged files", async () => {
    const out = path.join(tempDir(), "dist");
    await publishSnapshot({ outDir: out }, writeAll(sampleFiles(0)));
    const real = path.join(tempDir(), "dist");
    // Stand-in for an older build's output: the same snapshot as a plain directory.
    cpSync(out, real, { recursive: true, dereference: true });
    expect(lstatSync(real).isDirectory()).toBe(true);
    const before = fileIdentities(real);
    const previous = hashTree(real);

    const report = await publishSnapshot({ outDir: real }, writeAll(sampleFiles(0)));
    expect(report.filesWritten).toBe(0);
    expect(lstatSync(real).isSymbolicLink()).toBe(true);
    expect(hashTree(real)).toEqual(previous);
    expect(fileIdentities(real)).toEqual(before);
    expectNoLeftovers(path.dirname(real));
  });
});
