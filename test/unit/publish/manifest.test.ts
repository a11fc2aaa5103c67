import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  entryValue,
  parseEntryValue,
  readManifest,
  writeManifest,
  type ManifestEntries,
} from "../../../src/publish/manifest.ts";
import { removeTempDirs, tempDir } from "../../support/temp.ts";

afterAll(removeTempDirs);

const sha = (i: number): string => Buffer.alloc(32, i % 256).toString("hex");

describe("manifest", () => {
  it("round-trips a manifest larger than one read chunk, byte for byte", () => {
    const dir = tempDir();
    const entries: ManifestEntries = new Map();
    for (let i = 0; i < 20_000; i++) {
      entries.set(`api/t/${i}/index.json`, entryValue(Buffer.from(sha(i), "hex"), i * 1000));
    }
    const file = path.join(dir, "m.json");
    const size = writeManifest(file, entries);
    const text = readFileSync(file, "utf8");
    expect(Buffer.byteLength(text)).toBe(size);
    expect(size).toBeGreaterThan(2 << 20);
    expect(text.split("\n")[1]).toBe(`{"path":"api/t/0/index.json","sha256":"${sha(0)}","bytes":0},`);
    const read = readManifest(file);
    expect(read?.size).toBe(entries.size);
    expect(parseEntryValue(read?.get("api/t/10/index.json") as string)).toEqual({
      sha256: sha(10),
      bytes: 10_000,
    });
    const again = path.join(dir, "again.json");
    writeManifest(again, read as ManifestEntries);
    expect(readFileSync(again, "utf8")).toBe(text);
  });

  it("refuses a manifest not in exactly the written format", () => {
    const dir = tempDir();
    const entries: ManifestEntries = new Map([
      ["a.json", entryValue(Buffer.from(sha(1), "hex"), 1)],
      ["b.json", entryValue(Buffer.from(sha(0xab), "hex"), 2)],
    ]);
    const file = path.join(dir, "m.json");
    writeManifest(file, entries);
    const good = readFileSync(file, "utf8");
    const empty = path.join(dir, "empty.json");
    writeManifest(empty, new Map());
    expect(readManifest(empty)?.size).toBe(0);
    expect(readManifest(file)?.size).toBe(2);
    expect(readManifest(path.join(dir, "missing.json"))).toBeUndefined();
    expect(readManifest(dir)).toBeUndefined();
    const bad = [
      good.slice(0, -1), // no final newline
      `${good}\n`, // an extra line
      good.replace("},\n", "}\n"), // a missing comma
      good.replace("}\n]}", "},\n]}"), // a comma after the last entry
      good.replace('"bytes":2', '"bytes": 2'), // not canonical
      good.replace("\n]}", "\n]}\n]}"), // a line after the footer
      good.replace(sha(0xab), sha(0xab).toUpperCase()),
    ];
    for (const text of bad) {
      writeFileSync(file, text);
      expect(readManifest(file)).toBeUndefined();
    }
    writeFileSync(file, good);
    appendFileSync(file, "x");
    expect(readManifest(file)).toBeUndefined();
  });
});
