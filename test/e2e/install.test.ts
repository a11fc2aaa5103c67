// The install commands of docs/guide/installing.md and of the README, run as written: each sh
// block in a fresh bash with an empty HOME and a PATH holding only the system and the Node that
// runs the tests (the README's way: npm's `node` package, whose global bin is not on PATH), then
// the installed command builds the sample. (npm's download cache and the machine's certificate
// authorities are shared with the environment; nothing else of the user's setup is used.)
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/run.ts";
import { removeTempDirs, tempDir } from "../support/temp.ts";

const DOC = path.join(REPO_ROOT, "docs", "guide", "installing.md");
const README = path.join(REPO_ROOT, "README.md");
const PREVIEW_LINE = "build-api preview --dir dist";
let root: string;
let tarballName: string;
let npmCache: string;

afterAll(removeTempDirs);

/** The sh blocks of the guide that install the package. */
function installBlocks(): string[] {
  const text = readFileSync(DOC, "utf8");
  return [...text.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!).filter((b) => /npm install/.test(b));
}

/**
 * The README's install block, up to its preview (which serves until stopped; the README test runs
 * it): the install, then the sample's store and build, as a reader pastes them.
 */
function readmeInstall(): string {
  const section = readFileSync(README, "utf8")
    .split(/^## /m)
    .find((s) => s.startsWith("Install from the tarball"));
  const block = /```sh\n([\s\S]*?)```/.exec(section ?? "")?.[1] ?? "";
  const lines = block.trimEnd().split("\n");
  expect(lines.at(-1)).toBe(PREVIEW_LINE);
  return lines.slice(0, -1).join("\n");
}

/** Runs `script` in bash from a work folder of an empty home holding the tarball. */
function runInEmptyHome(name: string, script: string): { home: string; work: string; stdout: string } {
  const home = path.join(root, `home-${name}`);
  const work = path.join(home, "work");
  mkdirSync(work, { recursive: true });
  copyFileSync(path.join(root, tarballName), path.join(work, tarballName));
  const env: NodeJS.ProcessEnv = {
    HOME: home,
    PATH: `${path.dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin`,
    npm_config_cache: npmCache,
    npm_config_audit: "false",
    npm_config_fund: "false",
    npm_config_update_notifier: "false",
    // The machine's trust store (a TLS-inspecting proxy's CA), not the user's settings.
    ...Object.fromEntries(
      ["NODE_EXTRA_CA_CERTS", "SSL_CERT_FILE", "SSL_CERT_DIR"]
        .filter((k) => process.env[k] !== undefined)
        .map((k) => [k, process.env[k]]),
    ),
  };
  const r = spawnSync("bash", ["-c", `set -e\n${script}\ncommand -v build-api`], {
    cwd: work,
    env,
    encoding: "utf8",
    timeout: 240_000,
  });
  expect(r.status, r.stderr).toBe(0);
  return { home, work, stdout: r.stdout };
}

/** The installed command was found in the empty home and built the sample there. */
function expectInstalledBuild({ home, work, stdout }: { home: string; work: string; stdout: string }): void {
  expect(stdout.trim().split("\n").at(-1)!.startsWith(home)).toBe(true);
  expect(existsSync(path.join(work, "dist", "api", "public", "v1", "tournaments", "index.json"))).toBe(true);
}

beforeAll(() => {
  expect(existsSync(path.join(REPO_ROOT, "lib", "cli.js")), "lib/ is missing: run npm run build").toBe(true);
  root = tempDir("install");
  npmCache = spawnSync("npm", ["config", "get", "cache"], { encoding: "utf8" }).stdout.trim();
  const packed = spawnSync("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", root], {
    cwd: REPO_ROOT,
    encoding: "utf8",
  });
  expect(packed.status, packed.stderr).toBe(0);
  tarballName = (JSON.parse(packed.stdout) as { filename: string }[])[0]!.filename;
}, 120_000);

describe("installing outside the repository", () => {
  it("the guide names the tarball npm pack makes", () => {
    for (const block of installBlocks()) expect(block).toContain(`./${tarballName}`);
    expect(installBlocks()).toHaveLength(2);
  });

  it.each([0, 1])(
    "install block %i works as written from an empty home",
    (i) => {
      const script = [
        installBlocks()[i]!,
        "build-api init-store --sample sample.sqlite",
        "build-api build --db sample.sqlite --out dist --now 2026-11-22T12:00:00Z",
      ].join("\n");
      expectInstalledBuild(runInEmptyHome(String(i), script));
    },
    300_000,
  );

  it("the README's install block works as written from an empty home", () => {
    const script = readmeInstall();
    expect(script).toContain(`./${tarballName}`);
    expectInstalledBuild(runInEmptyHome("readme", script));
  }, 300_000);
});
