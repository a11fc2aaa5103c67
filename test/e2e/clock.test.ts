// Issue 5, determinism, through the real CLI: with --now the build never reads the clock (a
// preloaded module makes every clock read throw), the store is never modified, and two builds
// with the same --now in different processes, time zones and locales give byte-identical trees.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXIT } from "../../src/shared/errors.ts";
import { MARKER_NAME } from "../../src/publish/manifest.ts";
import { makeSampleStore } from "../support/e2e.ts";
import { runCli, type CliResult } from "../support/run.ts";
import { removeTempDirs, tempDir } from "../support/temp.ts";
import { readTree } from "../support/tree.ts";

afterAll(removeTempDirs);

const POISON = fileURLToPath(new URL("../support/poison-clock.mjs", import.meta.url));
const NOW = "2026-11-22T12:00:00Z";
const HOST_CONFIGS = ["_headers", "_redirects", "nginx.conf", "nginx-http.conf", "_worker.js"];

/** What identifies a file's state: its bytes, size and modification time (ns). */
function fileState(file: string): { sha256: string; size: bigint; mtimeNs: bigint } {
  const st = statSync(file, { bigint: true });
  return {
    sha256: createHash("sha256").update(readFileSync(file)).digest("hex"),
    size: st.size,
    mtimeNs: st.mtimeNs,
  };
}

let dir: string;
let db: string;
let storeBefore: ReturnType<typeof fileState>;
let dirBefore: string[];
let poisoned: CliResult;
let unguarded: CliResult;
let plain: CliResult;
let again: CliResult;

beforeAll(async () => {
  dir = tempDir("clock");
  db = makeSampleStore(dir);
  storeBefore = fileState(db);
  dirBefore = readdirSync(dir).sort();
  const env = (tz: string, lang: string) => ({ ...process.env, TZ: tz, LANG: lang, LC_ALL: lang });
  [poisoned, unguarded, plain, again] = await Promise.all([
    runCli(["build", "--db", db, "--out", path.join(dir, "a", "dist"), "--now", NOW], {
      nodeArgs: ["--import", POISON],
      env: env("UTC", "C"),
    }),
    runCli(["build", "--db", db, "--out", path.join(dir, "b", "dist")], {
      nodeArgs: ["--import", POISON],
      env: env("UTC", "C"),
    }),
    // Another process, time zone and locale, no poison: the same --now must give the same bytes.
    runCli(["build", "--db", db, "--out", path.join(dir, "c", "dist"), "--now", NOW], {
      env: env("Pacific/Chatham", "tr_TR.UTF-8"),
    }),
    runCli(["build", "--db", db, "--out", path.join(dir, "d", "dist"), "--now", NOW], {
      env: env("America/Los_Angeles", "C"),
    }),
  ]);
});

describe("the clock", () => {
  it("poison-clock makes Date.now(), new Date() and Date() throw, and leaves the rest of Date working", () => {
    const probe = `
      const out = [new Date(0).toISOString(), Date.UTC(2026, 10, 22), Date.parse("${NOW}"), new Date(1) instanceof Date];
      for (const read of [() => Date.now(), () => new Date(), () => Date()]) {
        try { read(); out.push("read"); } catch (e) { out.push(e.message); }
      }
      console.log(JSON.stringify(out));`;
    const stdout = execFileSync(process.execPath, ["--import", POISON, "--input-type=module", "-e", probe], {
      encoding: "utf8",
    });
    expect(JSON.parse(stdout)).toEqual([
      "1970-01-01T00:00:00.000Z",
      Date.UTC(2026, 10, 22),
      Date.parse(NOW),
      true,
      "poison-clock: Date.now() reads the clock",
      "poison-clock: new Date() reads the clock",
      "poison-clock: Date() reads the clock",
    ]);
  });

  it("is never read by a build given --now", () => {
    expect(poisoned.stderr).not.toContain("poison-clock");
    expect(poisoned.code, poisoned.stderr).toBe(EXIT.ok);
    // And the poisoned build wrote the same snapshot as one with a working clock.
    const a = readTree(path.join(dir, "a", "dist"));
    const c = readTree(path.join(dir, "c", "dist"));
    expect([...a.keys()]).toEqual([...c.keys()]);
    expect([...a].filter(([f, bytes]) => !c.get(f)!.equals(bytes)).map(([f]) => f)).toEqual([]);
  });

  it("is read by a build without --now, which the poison then stops (the guard works)", () => {
    expect(unguarded.code).not.toBe(EXIT.ok);
    expect(unguarded.stderr).toMatch(/poison-clock: (Date\.now\(\)|new Date\(\)|Date\(\)) reads the clock/);
    expect(existsSync(path.join(dir, "b", "dist"))).toBe(false);
  });
});

describe("the store", () => {
  it("is never modified by a build: same bytes, size and mtime, no journal or WAL beside it", () => {
    expect(plain.code, plain.stderr).toBe(EXIT.ok);
    expect(again.code, again.stderr).toBe(EXIT.ok);
    expect(fileState(db)).toEqual(storeBefore);
    expect(
      readdirSync(dir)
        .filter((e) => e.startsWith(path.basename(db)))
        .sort(),
    ).toEqual(dirBefore.filter((e) => e.startsWith(path.basename(db))));
  });
});

describe("two builds with the same --now", () => {
  it("give byte-identical trees, host configs and marker included, whatever the time zone and locale", () => {
    expect(plain.code, plain.stderr).toBe(EXIT.ok);
    expect(again.code, again.stderr).toBe(EXIT.ok);
    const c = readTree(path.join(dir, "c", "dist"));
    const d = readTree(path.join(dir, "d", "dist"));
    expect([...d.keys()]).toEqual([...c.keys()]);
    expect(c.size).toBeGreaterThan(100);
    // Host configs list their rules in one order: compared one by one for a clear message.
    for (const name of [...HOST_CONFIGS, MARKER_NAME]) {
      expect(c.has(name), name).toBe(true);
      expect(d.get(name)!.equals(c.get(name)!), `${name} differs`).toBe(true);
    }
    expect([...c].filter(([f, bytes]) => !d.get(f)!.equals(bytes)).map(([f]) => f)).toEqual([]);
  });
});
