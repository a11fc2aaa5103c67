// The browser scripts (scripts/browser-pages.ts, browser-cors.ts, browser-teams.ts, browser-i18n.ts,
// browser-search.ts) say what to install when a piece is missing, before they start anything:
// playwright-core or axe-core (the scripts/hosts project), or the Chromium binary. All take the
// hints, and their launcher, from scripts/lib/browser-setup.ts.
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  chromiumLauncher,
  hostsFile,
  hostsPackage,
  requireChromium,
} from "../../../scripts/lib/browser-setup.ts";
import { REPO_ROOT } from "../../support/run.ts";
import { removeTempDirs, tempDir } from "../../support/temp.ts";

afterAll(removeTempDirs);

/** A scripts folder whose hosts project has a package.json and nothing installed. */
function bareScripts(): string {
  const dir = tempDir("browser-setup");
  mkdirSync(path.join(dir, "hosts"));
  writeFileSync(path.join(dir, "hosts", "package.json"), '{"name":"hosts","private":true}\n');
  return dir;
}

describe("the browser scripts' set-up", () => {
  it("names the missing package and the command that installs it", () => {
    const dir = bareScripts();
    expect(() => hostsPackage("playwright-core", dir)).toThrow(
      "playwright-core is not installed (it comes from scripts/hosts); run `npm ci --prefix scripts/hosts`",
    );
    expect(() => hostsFile("axe-core/axe.min.js", dir)).toThrow(
      "axe-core is not installed (it comes from scripts/hosts); run `npm ci --prefix scripts/hosts`",
    );
  });

  it("checks both pieces when the launcher is made, before any browser starts", () => {
    expect(() => chromiumLauncher(process.execPath, bareScripts())).toThrow(
      "playwright-core is not installed (it comes from scripts/hosts)",
    );
  });

  it("names a missing browser, how to install one, and --chromium", () => {
    const missing = path.join(tempDir("no-chromium"), "chromium");
    expect(() => requireChromium(missing)).toThrow(
      `no browser at ${missing}: install Chromium (Debian, Ubuntu: \`sudo apt-get install chromium\`) or pass --chromium <path>`,
    );
    expect(() => requireChromium(process.execPath)).not.toThrow();
  });

  it.each(["browser-pages", "browser-cors", "browser-teams"])(
    "%s itself stops with the hint and exit 2 when a piece is missing",
    (script) => {
      const r = spawnSync(
        process.execPath,
        [
          path.join(REPO_ROOT, "scripts", `${script}.ts`),
          "--dir",
          tempDir("no-snapshot"),
          "--chromium",
          "/nonexistent/chromium",
          ...(script === "browser-teams" ? ["--id", "4600", "--club", "hobsons-bay"] : []),
        ],
        { cwd: REPO_ROOT, encoding: "utf8" },
      );
      expect(r.status).toBe(2);
      // Whichever piece this machine lacks first: each message names what to install.
      const hints = [
        "playwright-core is not installed .*`npm ci --prefix scripts/hosts`.*",
        ...(script !== "browser-cors" ? ["axe-core is not installed .*"] : []),
        "no browser at /nonexistent/chromium: install Chromium .*",
      ];
      expect(r.stderr).toMatch(new RegExp(`^${script}: (${hints.join("|")})\n$`));
    },
  );
});
