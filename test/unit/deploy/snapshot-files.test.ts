// readSnapshotFiles reads the files, hashes and sizes of the build's manifest (its fast path), and
// refuses, with the message naming the manifest, anything the manifest's own reader refuses too.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readSnapshotFiles } from "../../../src/deploy/snapshot-files.ts";
import { entryValue, MANIFEST_NAME, writeManifest } from "../../../src/publish/manifest.ts";

const dir = mkdtempSync(path.join(tmpdir(), "build-api-deploy-manifest-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const sha = (n: number) => Buffer.alloc(32, n);
const want = new Map([
  ["api/public/v1/tournaments/index.json", { sha256: sha(1).toString("hex"), bytes: 120 }],
  ["index.html", { sha256: sha(2).toString("hex"), bytes: 0 }],
  ["assets/site.css", { sha256: sha(3).toString("hex"), bytes: 9007199254740991 }],
]);

describe("readSnapshotFiles", () => {
  it("reads the build's manifest", () => {
    writeManifest(
      path.join(dir, MANIFEST_NAME),
      new Map([...want].map(([p, f]) => [p, entryValue(Buffer.from(f.sha256, "hex"), f.bytes)])),
    );
    const got = readSnapshotFiles(dir);
    expect(new Map([...got.files].sort())).toEqual(new Map([...want].sort()));
  });

  it("refuses a manifest not in the build's form (keys reordered) and one that is not a manifest", () => {
    const file = path.join(dir, MANIFEST_NAME);
    // The same entries with their keys in another order: valid JSON, but not what a build writes.
    const text = readFileSync(file, "utf8").replace(
      /\{"path":("[^"]+"),("sha256":"[0-9a-f]+"),/,
      '{$2,"path":$1,',
    );
    writeFileSync(file, text);
    expect(() => readSnapshotFiles(dir)).toThrow(/manifest/);
    writeFileSync(file, "not a manifest");
    expect(() => readSnapshotFiles(dir)).toThrow(/manifest/);
  });
});
