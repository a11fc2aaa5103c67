// The bench's JSON floor (scripts/lib/json-floor.ts): every file of a snapshot written at its own
// path and size, whatever the sample, and JSON.stringify timed on one body in k.
import { existsSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  fillerOf,
  jsonFloor,
  serializeTime,
  snapshotFiles,
  writeTime,
} from "../../../scripts/lib/json-floor.ts";
import { removeTempDirs, tempDir } from "../../support/temp.ts";

afterAll(removeTempDirs);

/** A small snapshot behind a symbolic link, as `--out` is: five JSON bodies, a page, a redirect file. */
function snapshot(): { out: string; files: Record<string, string> } {
  const dir = tempDir("floor");
  const files: Record<string, string> = {
    "api/public/v1/tournaments/index.json": JSON.stringify({ items: [{ id: 1 }, { id: 2 }] }),
    "api/public/v1/tournaments/1/index.json": JSON.stringify({ id: 1, name: "Open" }),
    "api/public/v1/tournaments/1/standings/index.json": JSON.stringify({ rows: Array(50).fill({ rank: 1 }) }),
    "api/public/v1/tournaments/2/index.json": JSON.stringify({ id: 2, name: "Blitz" }),
    "api/clubs/a/tournaments/index.json": JSON.stringify({ items: [] }),
    "tournaments/1/index.html": `<!doctype html><title>Open</title>${"<p>x</p>".repeat(400)}`,
    _redirects: "/a /b 301\n",
  };
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, "v1", rel)), { recursive: true });
    writeFileSync(path.join(dir, "v1", rel), text);
  }
  symlinkSync("v1", path.join(dir, "dist"));
  return { out: path.join(dir, "dist"), files };
}

describe("the JSON floor", () => {
  it("lists every file of the snapshot with its size, through the --out link", () => {
    const { out, files } = snapshot();
    const listed = snapshotFiles(out);
    expect(listed.map((f) => f.rel).sort()).toEqual(Object.keys(files).sort());
    for (const f of listed) expect(f.size, f.rel).toBe(Buffer.byteLength(files[f.rel]!));
  });

  it("cuts every file from a filler of the snapshot's own bytes, as long as the largest file", () => {
    const { out } = snapshot();
    const listed = snapshotFiles(out);
    const filler = fillerOf(out, listed);
    expect(filler.length).toBeGreaterThanOrEqual(Math.max(...listed.map((f) => f.size)));
    const first = readFileSync(path.join(out, listed[0]!.rel));
    expect(filler.subarray(0, first.length).equals(first)).toBe(true);
  });

  it("writes every file at its path and size, then deletes the floor directory", () => {
    const { out } = snapshot();
    const listed = snapshotFiles(out);
    const filler = fillerOf(out, listed);
    const kept = path.join(tempDir("floor-kept"), "floor-json");
    const w = writeTime(listed, kept, filler, Infinity, true);
    expect(w.chunks).toBe(1);
    for (const f of listed) expect(statSync(path.join(kept, f.rel)).size, f.rel).toBe(f.size);

    const gone = path.join(tempDir("floor-gone"), "floor-json");
    writeTime(listed, gone, filler);
    expect(existsSync(gone)).toBe(false);
  });

  it("in chunks when told: the directory is deleted whenever the chunk's bytes are reached", () => {
    const { out } = snapshot();
    const listed = snapshotFiles(out);
    const floorDir = path.join(tempDir("floor-chunks"), "floor-json");
    // Every file of at least 1 byte ends a chunk: as many chunks as files, plus the one begun last.
    const w = writeTime(listed, floorDir, fillerOf(out, listed), 1);
    expect(w.chunks).toBe(listed.length + 1);
    expect(existsSync(floorDir)).toBe(false);
  });

  it("times JSON.stringify on one JSON body in k (non-JSON files are only written)", () => {
    const { out } = snapshot();
    const listed = snapshotFiles(out);
    expect(serializeTime(out, listed, 1).serialized).toBe(5);
    expect(serializeTime(out, listed, 2).serialized).toBe(3);
    expect(serializeTime(out, listed, 5).serialized).toBe(1);
  });

  it("adds both parts, and the sample never changes what is written", () => {
    const { out, files } = snapshot();
    const bytes = Object.values(files).reduce((s, t) => s + Buffer.byteLength(t), 0);
    for (const k of [1, 3]) {
      const floorDir = path.join(tempDir("floor-all"), "floor-json");
      const f = jsonFloor(out, floorDir, k);
      expect(f.files).toBe(7);
      expect(f.bytes).toBe(bytes);
      expect(f.seconds).toBeCloseTo(f.writeSeconds + f.serializeSeconds, 9);
      expect(f.writeSeconds).toBeGreaterThan(0);
      expect(f.serialized).toBe(k === 1 ? 5 : 2);
      expect(existsSync(floorDir)).toBe(false);
    }
  });
});
