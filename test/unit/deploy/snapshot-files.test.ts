// readSnapshotFiles reads the files, hashes and sizes of a published snapshot from the
// publication's bookkeeping, and refuses, naming the bookkeeping, a snapshot without one.
import { createHash } from "node:crypto";
import { rmSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readSnapshotFiles } from "../../../src/deploy/snapshot-files.ts";
import { publishSnapshot } from "../../../src/publish/publish.ts";
import { BOOKKEEPING_NAME } from "../../../src/ledger/bookkeeping.ts";
import { writeAll } from "../../support/publish.ts";
import { removeTempDirs, tempDir } from "../../support/temp.ts";

afterAll(removeTempDirs);

const files = {
  "api/public/v1/tournaments/index.json": '{"tournaments":[]}',
  "index.html": "",
  "assets/site.css": "body{}",
};
const sha = (d: string) => createHash("sha256").update(d).digest("hex");

describe("readSnapshotFiles", () => {
  it("reads the live version's files from the bookkeeping, through the link or the version", async () => {
    const out = path.join(tempDir(), "dist");
    await publishSnapshot({ outDir: out }, writeAll(files));
    const want = new Map(Object.entries(files).map(([p, d]) => [p, { sha256: sha(d), bytes: d.length }]));
    const got = readSnapshotFiles(out);
    expect(new Map([...got.files].sort())).toEqual(new Map([...want].sort()));
    expect(got.generation.generation).toBe(1);
    expect(readSnapshotFiles(got.root).files.size).toBe(3);
  });

  it("refuses a snapshot without bookkeeping, naming it", async () => {
    const out = path.join(tempDir(), "dist");
    await publishSnapshot({ outDir: out }, writeAll(files));
    rmSync(path.join(path.dirname(out), ".dist.snapshots", BOOKKEEPING_NAME));
    expect(() => readSnapshotFiles(out)).toThrow(/bookkeeping/);
  });
});
