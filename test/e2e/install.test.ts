// The install commands of docs/guide/installing.md, run as written: each sh block in a fresh bash
// with an empty HOME and a PATH holding only the system and the Node that runs the tests, then the
// installed command builds the sample. (npm's download cache and the machine's certificate
// authorities are shared with the environment; nothing else of the user's setup is used.)
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/run.ts";
import { removeTempDirs, tempDir } from "../support/temp.ts";

const DOC = path.join(REPO_ROOT, "docs", "guide", "installing.md");
let root: string;
let tarballName: string;
let npmCache: string;

afterAll(removeTempDirs);

/** The sh blocks of the guide that install the package. */
function installBlocks(): string[] {
  const text = readFileSync(DOC, "utf8");
  return [...text.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!).filter((b) => /npm install/.test(b));
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
      const block = installBlocks()[i]!;
      const home = path.join(root, `home-${i}`);
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
      const script = [
        "set -e",
        block,
        "build-api init-store --sample sample.sqlite",
        "build-api build --db sample.sqlite --out dist --now 2026-11-22T12:00:00Z",
        "command -v build-api",
      ].join("\n");
      const r = spawnSync("bash", ["-c", script], { cwd: work, env, encoding: "utf8", timeout: 240_000 });
      expect(r.status, r.stderr).toBe(0);
      const where = r.stdout.trim().split("\n").at(-1)!;
      expect(where.startsWith(home)).toBe(true);
      expect(existsSync(path.join(work, "dist", "api", "public", "v1", "tournaments", "index.json"))).toBe(
        true,
      );
    },
    300_000,
  );
});
