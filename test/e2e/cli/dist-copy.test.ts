// `dist` is a symlink: the build says where it points and how to copy it, `build-api export`
// makes a plain copy, and `--force` moves a folder that is not a snapshot aside instead of
// deleting it.
import { execFileSync } from "node:child_process";
import { lstatSync, mkdirSync, readFileSync, readdirSync, realpathSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { EXIT } from "../../../src/shared/errors.ts";
import { runCli } from "../../support/run.ts";
import { removeTempDirs, tempDir } from "../../support/temp.ts";

afterAll(removeTempDirs);
const NOW = "2026-11-22T12:00:00Z";

function tree(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.set(path.relative(dir, p), readFileSync(p, "utf8"));
    }
  };
  walk(dir);
  return out;
}

describe("dist is a symlink", () => {
  it("the summary names its real path; export makes a plain copy that tar archives whole", async () => {
    const dir = tempDir("dist-copy");
    const db = path.join(dir, "s.sqlite");
    expect((await runCli(["init-store", db, "--sample"])).code).toBe(0);
    const dist = path.join(dir, "dist");
    const b = await runCli(["build", "--db", db, "--out", dist, "--now", NOW]);
    expect(b.code, b.stderr).toBe(0);
    expect(lstatSync(dist).isSymbolicLink()).toBe(true);
    expect(b.stderr).toContain(`${dist} -> ${realpathSync(dist)} (a symlink`);
    expect(b.stderr).toContain(`build-api export --dir ${dist} --out <new dir>`);
    expect(b.stderr).toContain(`cp -rL ${dist} <new dir>`);

    const site = path.join(dir, "site");
    const e = await runCli(["export", "--dir", dist, "--out", site]);
    expect(e.code, e.stderr).toBe(0);
    expect(lstatSync(site).isSymbolicLink()).toBe(false);
    const copy = tree(site);
    const live = tree(realpathSync(dist));
    // Every file but the publication's own markers, byte for byte, as regular files.
    for (const [name, text] of live) {
      if (name.startsWith(".build-api-")) expect(copy.has(name)).toBe(false);
      else expect(copy.get(name), name).toBe(text);
    }
    expect(copy.size).toBeGreaterThan(100);
    const listed = execFileSync("tar", ["czf", "-", "-C", dir, "site"]).length;
    expect(listed).toBeGreaterThan(10_000); // the site, not one link
    // export never overwrites.
    const again = await runCli(["export", "--dir", dist, "--out", site]);
    expect(again.code).toBe(EXIT.unsafeOutput);

    // Nor copies into the snapshot itself, through its link: the live snapshot stays as it was.
    for (const inside of [path.join(dist, "exported"), path.join(dist, "a", "b")]) {
      const into = await runCli(["export", "--dir", dist, "--out", inside]);
      expect(into.code, into.stderr).toBe(EXIT.unsafeOutput);
      expect(into.stderr).toMatch(/inside the live snapshot/);
      expect(into.stderr).toMatch(/choose a directory outside the snapshot/);
      expect(tree(realpathSync(dist))).toEqual(live);
    }
  });

  it("--force moves a folder that is not a snapshot aside, says so, and later builds keep it", async () => {
    const dir = tempDir("force");
    const db = path.join(dir, "s.sqlite");
    expect((await runCli(["init-store", db, "--sample"])).code).toBe(0);
    const src = path.join(dir, "src");
    mkdirSync(src);
    writeFileSync(path.join(src, "main.ts"), "export {};\n");
    const refused = await runCli(["build", "--db", db, "--out", src, "--now", NOW]);
    expect(refused.code).toBe(EXIT.unsafeOutput);
    const forced = await runCli(["build", "--db", db, "--out", src, "--now", NOW, "--force"]);
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stderr).toMatch(/moved aside to .*src\.replaced \(nothing was deleted/);
    for (let i = 0; i < 2; i++) {
      const next = await runCli(["build", "--db", db, "--out", src, "--now", NOW, "--rebuild"]);
      expect(next.code, next.stderr).toBe(0);
    }
    expect(readFileSync(path.join(dir, "src.replaced", "main.ts"), "utf8")).toBe("export {};\n");
  });
});
