import {
  cpSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { liveFiles } from "../../../src/publish/changes.ts";
import { BOOKKEEPING_NAME } from "../../../src/ledger/bookkeeping.ts";
import { MANIFEST_NAME, MARKER_CONTENT, MARKER_NAME } from "../../../src/publish/manifest.ts";
import { STATE_FILE } from "../../../src/ledger/state.ts";
import { publishSnapshot, type SnapshotWriter } from "../../../src/publish/publish.ts";
import { publicationChanges } from "../../../src/publish/changes.ts";
import { expectNoLeftovers, expectSnapshot, fileIdentities, writeAll } from "../../support/publish.ts";
import { removeTempDirs, tempDir } from "../../support/temp.ts";
import { hashTree } from "../../support/tree.ts";
import { sampleFiles } from "../../support/sample-files.ts";

afterAll(removeTempDirs);

/** A producer that writes each [path, text, owner]. */
function writeAllOwned(files: [string, string, string][]): (w: SnapshotWriter) => void {
  return (w) => {
    for (const [p, text, owner] of files) w.write(p, text, owner);
  };
}

/**
 * Checks that the version beside the live one is paired with it, no path differing, and holds the
 * same bytes (the marker, naming the same generation, included) with every file the very same
 * inode: nothing was copied. Returns its name.
 */
function expectPairedCopy(out: string, files: Record<string, string>): string {
  const store = path.join(path.dirname(out), ".dist.snapshots");
  const live = path.basename(realpathSync(out));
  const versions = readdirSync(store).filter((e) => /^[0-9]+$/.test(e));
  expect(versions).toHaveLength(2);
  const second = versions.find((v) => v !== live)!;
  const pair = JSON.parse(readFileSync(path.join(store, "pair.json"), "utf8"));
  expect(pair).toMatchObject({ buffers: [live, second], differ: [] });
  expect(hashTree(path.join(store, second))).toEqual(hashTree(out));
  for (const rel of Object.keys(files)) {
    expect(statSync(path.join(store, second, rel)).ino).toBe(statSync(path.join(out, rel)).ino);
  }
  expectNoLeftovers(path.dirname(out));
  return second;
}

describe("publishSnapshot: incremental rebuilds", () => {
  it("first build writes every file; a no-change rebuild writes none and keeps inode and mtime", async () => {
    const out = path.join(tempDir(), "dist");
    const files = sampleFiles(0);
    const first = await publishSnapshot({ outDir: out }, writeAll(files));
    const count = Object.keys(files).length;
    expect(first).toMatchObject({ files: count, filesWritten: count, filesUnchanged: 0, filesRemoved: 0 });
    expect(first.bytesWritten).toBe(first.bytesTotal);
    expect(first.bytesTotal).toBe(Object.values(files).reduce((n, d) => n + Buffer.byteLength(d), 0));
    expectSnapshot(out, files);
    expectNoLeftovers(path.dirname(out));
    const identities = fileIdentities(out);

    const again = await publishSnapshot({ outDir: out }, writeAll(files));
    expect(again).toMatchObject({ files: count, filesWritten: 0, filesUnchanged: count, filesRemoved: 0 });
    expect(again.bytesWritten).toBe(0);
    expect(again.snapshotDir).not.toBe(first.snapshotDir);
    // Every file, the manifest and marker included, is the very same inode with the same mtime.
    expect(fileIdentities(out)).toEqual(identities);
    expectSnapshot(out, files);
    expectNoLeftovers(path.dirname(out));
  });

  it("rewrites changed files, adds new ones, drops removed ones, and links the rest", async () => {
    const out = path.join(tempDir(), "dist");
    const before = sampleFiles(0);
    const next = sampleFiles(1);
    await publishSnapshot({ outDir: out }, writeAll(before));
    const identities = fileIdentities(out);

    const report = await publishSnapshot({ outDir: out }, writeAll(next));
    const changed = Object.keys(next).filter((p) => before[p] !== next[p]);
    expect(changed.sort()).toEqual([
      "api/public/v1/index.json",
      "api/public/v1/new.json",
      "api/public/v1/tournaments/1/standings.json",
      "api/public/v1/tournaments/2/standings.json",
    ]);
    expect(report).toMatchObject({
      files: Object.keys(next).length,
      filesWritten: changed.length,
      filesUnchanged: Object.keys(next).length - changed.length,
      filesRemoved: 1,
      bytesWritten: changed.reduce((n, p) => n + Buffer.byteLength(next[p]), 0),
      changed: { count: 5, paths: [...changed, "api/public/v1/old.json"].sort() },
    });
    expectSnapshot(out, next);
    expect(hashTree(out)["api/public/v1/old.json"]).toBeUndefined();
    const after = fileIdentities(out);
    for (const rel of Object.keys(next)) {
      if (changed.includes(rel)) expect(after[rel]).not.toBe(identities[rel]);
      else expect(after[rel]).toBe(identities[rel]);
    }
    expectNoLeftovers(path.dirname(out));
  });

  it("a first build also makes the second version: hard links of every file, sealed and paired after its switch", async () => {
    const out = path.join(tempDir(), "dist");
    const files = sampleFiles(0);
    const first = await publishSnapshot({ outDir: out }, writeAll(files));
    expect(first.warnings).toEqual([]);
    const second = expectPairedCopy(out, files);

    // The first tick then updates only what changed: it writes the changed files and links only
    // those paths into the other version, which becomes live byte-identical to a fresh build.
    const next = sampleFiles(1);
    const identities = fileIdentities(out);
    const tick = await publishSnapshot({ outDir: out }, writeAll(next));
    const changed = Object.keys(next).filter((p) => files[p] !== next[p]);
    expect(tick.filesWritten).toBe(changed.length);
    expect(path.basename(realpathSync(out))).toBe(second);
    const fresh = path.join(tempDir(), "dist");
    await publishSnapshot({ outDir: fresh }, writeAll(next));
    expect(hashTree(out)).toEqual(hashTree(fresh));
    const after = fileIdentities(out);
    for (const rel of Object.keys(next)) {
      if (!changed.includes(rel) && rel in files) expect(after[rel]).toBe(identities[rel]);
    }
    expectNoLeftovers(path.dirname(out));
  });

  it("a first build over a kept version (its link removed) links the second version after its switch", async () => {
    const out = path.join(tempDir(), "dist");
    await publishSnapshot({ outDir: out, pairFirstBuild: false }, writeAll(sampleFiles(0)));
    rmSync(out);
    // No live version: a first build. It adopts the marked version and updates it in place, so its
    // files do not go straight to their place and the second version is linked in a pass after it.
    const steps: string[] = [];
    const files = sampleFiles(1);
    const report = await publishSnapshot({ outDir: out, onStep: (s) => steps.push(s) }, writeAll(files));
    expect(report.warnings).toEqual([]);
    expect(steps.some((s) => s.startsWith("second-linked "))).toBe(false);
    expect(steps.indexOf("second-version-made")).toBeGreaterThan(steps.indexOf("cleaned-up"));
    expectPairedCopy(out, files);
  });

  it("a second version missing (pairFirstBuild off, or a kill) is made by the next build, byte-identical", async () => {
    const out = path.join(tempDir(), "dist");
    await publishSnapshot({ outDir: out, pairFirstBuild: false }, writeAll(sampleFiles(0)));
    const store = path.join(path.dirname(out), ".dist.snapshots");
    expect(readdirSync(store).filter((e) => /^[0-9]+$/.test(e))).toHaveLength(1);
    // A leftover of a first build killed while linking its second version: no marker yet.
    const partial = path.join(store, "9", "api", "public");
    mkdirSync(partial, { recursive: true });
    writeFileSync(path.join(partial, "stray.json"), "{}");
    const tick = await publishSnapshot({ outDir: out }, writeAll(sampleFiles(1)));
    expect(tick.warnings).toEqual([]);
    const fresh = path.join(tempDir(), "dist");
    await publishSnapshot({ outDir: fresh }, writeAll(sampleFiles(1)));
    expect(hashTree(out)).toEqual(hashTree(fresh));
    // Every path the two versions share is one inode; pair.json lists where they differ.
    expectNoLeftovers(path.dirname(out));
    await publishSnapshot({ outDir: out }, writeAll(sampleFiles(2)));
    expectSnapshot(out, sampleFiles(2));
    expectNoLeftovers(path.dirname(out));
  });

  it("a first build whose second version cannot be made still publishes, with a warning", async () => {
    const out = path.join(tempDir(), "dist");
    const files = sampleFiles(0);
    let n = 0;
    const report = await publishSnapshot(
      {
        outDir: out,
        // Kills nothing: the hook throws at the second file linked into the second version.
        onStep: (s) => {
          if (s.startsWith("second-linked ") && ++n === 2) throw new Error("link refused");
        },
      },
      writeAll(files),
    );
    expect(report.warnings.join("\n")).toContain("the second snapshot version could not be made");
    expectSnapshot(out, files);
    // The partial version is gone; the next build makes it and ticks as usual.
    expectNoLeftovers(path.dirname(out));
    await publishSnapshot({ outDir: out }, writeAll(sampleFiles(1)));
    expectSnapshot(out, sampleFiles(1));
    expectNoLeftovers(path.dirname(out));
  });

  it("reports the time of each phase", async () => {
    const out = path.join(tempDir(), "dist");
    const report = await publishSnapshot({ outDir: out }, writeAll(sampleFiles(0)));
    expect(Object.keys(report.phases)).toEqual([
      "lock",
      "prepare",
      "produce",
      "finish",
      "switch",
      "cleanup",
      "pair",
    ]);
    for (const ms of Object.values(report.phases)) expect(ms).toBeGreaterThanOrEqual(0);
    // A tick announces no pairing (it has its second version), though the phase's time is kept.
    const announced: string[] = [];
    const tick = await publishSnapshot(
      { outDir: out, onPhase: (p) => announced.push(p) },
      writeAll(sampleFiles(1)),
    );
    expect(announced).toEqual(["lock", "prepare", "produce", "finish", "switch", "cleanup"]);
    expect(Object.keys(tick.phases)).toContain("pair");
  });

  it("gives byte-identical snapshots whatever the write order, and the same bookkeeping rows", async () => {
    const files = sampleFiles(1);
    const forward = path.join(tempDir(), "dist");
    const backward = path.join(tempDir(), "dist");
    await publishSnapshot({ outDir: forward }, writeAll(files));
    await publishSnapshot(
      { outDir: backward },
      writeAll(Object.fromEntries(Object.entries(files).reverse())),
    );
    expect(hashTree(backward)).toEqual(hashTree(forward));
    const rows = liveFiles(forward)!.files;
    expect([...rows.keys()]).toEqual(Object.keys(files).sort());
    expect(liveFiles(backward)!.files).toEqual(rows);
  });

  it("keeps the previous snapshot byte-identical when produce throws, and leaves no staging behind", async () => {
    const out = path.join(tempDir(), "dist");
    await publishSnapshot({ outDir: out }, writeAll(sampleFiles(0)));
    const before = hashTree(out);
    const identities = fileIdentities(out);
    const liveDir = realpathSync(out);

    await expect(
      publishSnapshot({ outDir: out }, (w) => {
        w.write("api/public/v1/index.json", "{}");
        w.write("api/public/v1/tournaments/1/index.json", "half");
        throw new Error("store went away");
      }),
    ).rejects.toThrow("store went away");
    expect(hashTree(out)).toEqual(before);
    expect(fileIdentities(out)).toEqual(identities);
    expect(realpathSync(out)).toBe(liveDir);
    expectNoLeftovers(path.dirname(out));

    // An async rejection midway is handled the same way.
    await expect(
      publishSnapshot({ outDir: out }, async (w) => {
        w.write("_headers", "x");
        await Promise.resolve();
        throw new Error("later");
      }),
    ).rejects.toThrow("later");
    expect(hashTree(out)).toEqual(before);
    expectNoLeftovers(path.dirname(out));
  });

  it("refuses a path written twice, paths differing only in case, a file/dir clash, and unsafe paths", async () => {
    const out = path.join(tempDir(), "dist");
    await publishSnapshot({ outDir: out }, writeAll(sampleFiles(0)));
    const before = hashTree(out);
    const attempts: Array<[string[], RegExp]> = [
      [["a.json", "a.json"], /written twice/],
      [["api/A.json", "api/a.json"], /letter case/],
      [["api/a.json", "api/A.json"], /letter case/],
      [["api/Ab.json", "api/aB.json"], /letter case/],
      [["API/x.json", "api/y.json", "api/X.json"], /letter case/],
      [["api/x", "api/x/y.json"], /clashes/],
      [["api/x/y.json", "api/x"], /clashes/],
      [["api/../../escape.json"], /unsafe output path/],
    ];
    for (const [paths, message] of attempts) {
      await expect(
        publishSnapshot({ outDir: out }, (w) => {
          for (const p of paths) w.write(p, "{}");
        }),
      ).rejects.toThrow(message);
      expect(hashTree(out)).toEqual(before);
    }
    expect(statSync(path.join(path.dirname(out), "escape.json"), { throwIfNoEntry: false })).toBeUndefined();
    expectNoLeftovers(path.dirname(out));
  });

  it("accepts Uint8Array data and refuses writes after produce has finished", async () => {
    const out = path.join(tempDir(), "dist");
    let kept: { write(p: string, d: string): void } | undefined;
    await publishSnapshot({ outDir: out }, (w) => {
      w.write("bin.dat", new Uint8Array([0, 1, 2, 255]));
      kept = w;
    });
    expect([...readFileSync(path.join(out, "bin.dat"))]).toEqual([0, 1, 2, 255]);
    expect(() => kept?.write("late.json", "{}")).toThrow(/after the snapshot was finished/);
  });

  it("publicationChanges reads what the last build wrote and removed from the bookkeeping", async () => {
    const out = path.join(tempDir(), "dist");
    await publishSnapshot({ outDir: out }, writeAll(sampleFiles(0)));
    // After the first build the change log says every file is new.
    expect(publicationChanges(out)).toMatchObject({
      known: true,
      written: Object.keys(sampleFiles(0)).sort(),
      removed: [],
    });
    const report = await publishSnapshot({ outDir: out }, writeAll(sampleFiles(1)));
    const changes = publicationChanges(out);
    expect(changes.known).toBe(true);
    expect(changes.removed).toEqual(["api/public/v1/old.json"]);
    expect([...changes.written, ...changes.removed].sort()).toEqual(report.changed.paths);
    expect(changes.written).toContain("api/public/v1/new.json");
    // A no-change build changes nothing.
    await publishSnapshot({ outDir: out }, writeAll(sampleFiles(1)));
    expect(publicationChanges(out)).toMatchObject({ known: true, written: [], removed: [] });
  });

  it("lists the changed files sorted, at most 1000 of them, with their count", async () => {
    const out = path.join(tempDir(), "dist");
    const many = (v: number): Record<string, string> =>
      Object.fromEntries(Array.from({ length: 1205 }, (_, i) => [`api/t/${1000 + i}.json`, `${v}`]));
    await publishSnapshot({ outDir: out }, writeAll({ ...many(0), "api/stay.json": "{}" }));
    const report = await publishSnapshot({ outDir: out }, writeAll({ ...many(1), "api/stay.json": "{}" }));
    expect(report.changed.count).toBe(1205);
    expect(report.changed.paths).toHaveLength(1000);
    expect(report.changed.paths[0]).toBe("api/t/1000.json");
    expect(report.changed.paths).toEqual([...report.changed.paths].sort());
    expect(report.changed.paths).not.toContain("api/stay.json");
  });

  it("keepAll shares a group of live files without their bytes, and the work follows the change", async () => {
    const out = path.join(tempDir(), "dist");
    await publishSnapshot({ outDir: out }, writeAll(sampleFiles(0)));
    await publishSnapshot({ outDir: out }, writeAll(sampleFiles(0)));
    const identities = fileIdentities(out);
    const files = sampleFiles(0);
    const changedPath = "api/public/v1/tournaments/4/index.json";
    const steps: string[] = [];
    const results: boolean[] = [];
    const report = await publishSnapshot({ outDir: out, onStep: (s) => steps.push(s) }, (w) => {
      const kept = Object.keys(files).filter((p) => p !== changedPath);
      results.push(w.keepAll([...kept, "api/public/v1/missing.json"]));
      results.push(w.keepAll(kept));
      w.write(changedPath, "{}");
    });
    expect(results).toEqual([false, true]);
    expect(report).toMatchObject({ filesWritten: 1, filesUnchanged: Object.keys(files).length - 1 });
    expect(report.changed).toEqual({ count: 1, paths: [changedPath] });
    // Only the changed file was put in place in the other version.
    expect(steps.filter((s) => s.startsWith("placed ") || s.startsWith("removed "))).toEqual([
      `placed ${changedPath}`,
    ]);
    expectSnapshot(out, { ...files, [changedPath]: "{}" });
    const after = fileIdentities(out);
    for (const rel of Object.keys(files)) {
      if (rel === changedPath) expect(after[rel]).not.toBe(identities[rel]);
      else expect(after[rel]).toBe(identities[rel]);
    }
    expectNoLeftovers(path.dirname(out));
  });

  it("keepOwnersUnder keeps every live owner under a prefix, except those written or dropped", async () => {
    const out = path.join(tempDir(), "dist");
    const first: boolean[] = [];
    const files: [string, string, string][] = [
      ["t/1/a.json", "a", "t/1"],
      ["t/1/b.json", "b", "t/1"],
      ["t/2/c.json", "c", "t/2"],
      ["t/3/d.json", "d", "t/3"],
      ["lists/e.json", "e", "l/x"],
      ["f.json", "f", ""],
    ];
    await publishSnapshot({ outDir: out }, (w) => {
      // No live bookkeeping yet: nothing to keep by.
      first.push(w.keepOwnersUnder("t/"));
      for (const [p, text, owner] of files) w.write(p, text, owner);
    });
    expect(first).toEqual([false]);
    await publishSnapshot({ outDir: out }, writeAllOwned(files));
    const kept: (number | false)[] = [];
    const report = await publishSnapshot({ outDir: out }, (w) => {
      expect(w.keepOwnersUnder("t/")).toBe(true);
      w.write("t/1/a.json", "A", "t/1"); // t/1 rewritten: its file not written again (b) goes
      w.dropOwner("t/3"); // gone
      kept.push(w.keepOwned("t/2")); // already kept: counted once
      w.write("f.json", "f", ""); // outside the prefix: kept only when written or kept
      expect(() => w.dropOwner("l/x")).toThrow(/not a kept owner/);
    });
    expect(kept).toEqual([1]);
    expectSnapshot(out, { "t/1/a.json": "A", "t/2/c.json": "c", "f.json": "f" });
    expect(report).toMatchObject({ files: 3, filesWritten: 1, filesUnchanged: 2, filesRemoved: 3 });
    expect(report.changed).toEqual({
      count: 4,
      paths: ["lists/e.json", "t/1/a.json", "t/1/b.json", "t/3/d.json"],
    });
    // The next build finds the same files in the bookkeeping.
    const again = await publishSnapshot({ outDir: out }, (w) => {
      expect(w.keepOwnersUnder("t/")).toBe(true);
      w.write("f.json", "f", "");
    });
    expect(again).toMatchObject({ files: 3, filesWritten: 0, filesRemoved: 0 });
    expectSnapshot(out, { "t/1/a.json": "A", "t/2/c.json": "c", "f.json": "f" });
    expectNoLeftovers(path.dirname(out));
  });

  it("takes over the older single-version layout, with an older build's leftovers", async () => {
    const parent = tempDir();
    const out = path.join(parent, "dist");
    await publishSnapshot({ outDir: out }, writeAll(sampleFiles(0)));
    // Make it look like the older layout: one version "5", a leftover staging dir, link and version.
    const store = path.join(parent, ".dist.snapshots");
    renameSync(realpathSync(out), path.join(store, "5"));
    rmSync(path.join(store, "pair.json"), { force: true });
    for (const v of readdirSync(store))
      if (/^[0-9]+$/.test(v) && v !== "5") rmSync(path.join(store, v), { recursive: true });
    rmSync(out);
    symlinkSync(".dist.snapshots/5", out);
    mkdirSync(path.join(store, "staging-6", "api"), { recursive: true });
    symlinkSync(".dist.snapshots/6", path.join(store, "link-6"));
    cpSync(path.join(store, "5"), path.join(store, "4"), { recursive: true });
    const identities = fileIdentities(out);

    const report = await publishSnapshot({ outDir: out }, writeAll(sampleFiles(0)));
    expect(report.filesWritten).toBe(0);
    expect(fileIdentities(out)).toEqual(identities);
    expectSnapshot(out, sampleFiles(0));
    expectNoLeftovers(parent);
    expect(readdirSync(store).sort()).toEqual([
      ".build-api-snapshots",
      "4",
      "5",
      "bookkeeping.sqlite",
      "pair.json",
    ]);
    await publishSnapshot({ outDir: out }, writeAll(sampleFiles(1)));
    expectSnapshot(out, sampleFiles(1));
    expectNoLeftovers(parent);
  });

  it("takes over a snapshot of the previous format (manifest and state inside the version) as a first build", async () => {
    const out = path.join(tempDir(), "dist");
    await publishSnapshot({ outDir: out }, writeAll(sampleFiles(0)));
    // The previous format: a marker without a generation, the manifest and the state in the
    // version, no database beside it.
    const live = realpathSync(out);
    const store = path.dirname(live);
    writeFileSync(path.join(live, MARKER_NAME), MARKER_CONTENT);
    writeFileSync(
      path.join(live, MANIFEST_NAME),
      '{"format":"build-api-manifest","version":1,"files":[\n]}\n',
    );
    writeFileSync(path.join(live, STATE_FILE), '{"format":1,"lists":null,"tournaments":[]}\n');
    for (const f of readdirSync(store)) if (f.startsWith(BOOKKEEPING_NAME)) rmSync(path.join(store, f));
    const identities = fileIdentities(out);

    const report = await publishSnapshot({ outDir: out }, writeAll(sampleFiles(0)));
    // Every file compared with its live copy: equal bytes, so nothing is written and all is shared.
    expect(report.filesWritten).toBe(0);
    expect(report.filesRemoved + report.changed.count).toBeGreaterThan(0);
    expect(report.changed.paths).toEqual([MANIFEST_NAME, STATE_FILE].sort());
    expectSnapshot(out, sampleFiles(0));
    for (const [p, id] of Object.entries(fileIdentities(out))) expect(id, p).toBe(identities[p]);
    expect(liveFiles(out)?.to.generation).toBeGreaterThan(0);
    expectNoLeftovers(path.dirname(out));
    // The next build is incremental again, with a change log that reaches back to it.
    await publishSnapshot({ outDir: out }, writeAll(sampleFiles(1)));
    expectSnapshot(out, sampleFiles(1));
    expect(publicationChanges(out).known).toBe(true);
    expectNoLeftovers(path.dirname(out));
  });
});
