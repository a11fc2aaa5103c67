// Issue 24.7 through the CLI: `build --base-path` refuses an unsafe or malformed value with a
// usage error naming what is wrong, and a change of base path rebuilds the snapshot (it is an
// input of the build: every page names it).
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { EXIT } from "../../../src/shared/errors.ts";
import { makeSampleStore } from "../../support/e2e.ts";
import { runCli } from "../../support/run.ts";
import { tempDir } from "../../support/temp.ts";

const NOW = "2026-11-22T12:00:00Z";

describe("build --base-path", () => {
  it.each([
    ["chess/", /does not start with "\/"/],
    ["/a/../b/", /"\.\." segment/],
    ["/ch ess/", /segment "ch ess"/],
    ["/$host/", /segment "\$host"/],
  ])("refuses %j with a usage error and writes nothing", async (value, why) => {
    const dir = tempDir("base-path-cli");
    const out = path.join(dir, "dist");
    const r = await runCli([
      "build",
      "--db",
      path.join(dir, "none.sqlite"),
      "--out",
      out,
      "--base-path",
      value,
    ]);
    expect(r.code).toBe(EXIT.usage);
    expect(r.stderr).toMatch(/--base-path/);
    expect(r.stderr).toMatch(why);
    expect(r.stderr).toMatch(/such as \/chess\//);
  });

  it("serves the pages under the base, and a build without it rebuilds them at the root", async () => {
    const dir = tempDir("base-path-cli");
    const db = makeSampleStore(dir);
    const out = path.join(dir, "dist");
    const index = () => readFileSync(path.join(out, "index.html"), "utf8");
    const first = await runCli([
      "build",
      "--db",
      db,
      "--out",
      out,
      "--now",
      NOW,
      "--base-path",
      "/chess/",
      "--json",
    ]);
    expect(first.code, first.stderr).toBe(0);
    expect(index()).toContain('<link rel="stylesheet" href="/chess/assets/site.css">');
    // The URLs a CDN must purge are where the host serves them: under the base.
    const purge = (JSON.parse(first.stdout) as { changedUrls: { paths: string[] } }).changedUrls.paths;
    expect(purge.length).toBeGreaterThan(100);
    for (const u of purge) expect(u.startsWith("/chess/"), u).toBe(true);
    const same = await runCli([
      "build",
      "--db",
      db,
      "--out",
      out,
      "--now",
      NOW,
      "--base-path",
      "/chess",
      "--json",
    ]);
    expect((JSON.parse(same.stdout) as { upToDate: boolean }).upToDate).toBe(true);
    const moved = await runCli(["build", "--db", db, "--out", out, "--now", NOW, "--json"]);
    expect(moved.code, moved.stderr).toBe(0);
    expect((JSON.parse(moved.stdout) as { upToDate: boolean }).upToDate).toBe(false);
    expect(index()).toContain('<link rel="stylesheet" href="/assets/site.css">');
    expect(index()).not.toContain("/chess/");
  }, 120_000);
});
