// The package as a user gets it: `npm pack`, installed into an empty prefix under a path with a
// space and non-ASCII letters, then used from an unrelated directory: create the sample store,
// build it, preview it over HTTP. Also: the installed program's code fingerprint (the up-to-date
// check) is computed from that path and changes when a program file changes.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { appendFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/run.ts";
import { removeTempDirs, tempDir } from "../support/temp.ts";

const NOW = "2026-11-22T12:00:00Z";
const BIG_ID = "9007199254740993";

/** The environment without what `npm test` sets for itself (npm_config_*, npm_package_*...). */
function cleanEnv(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
  // The installed bin's `#!/usr/bin/env node` finds the Node that runs the tests.
  env.PATH = `${path.dirname(process.execPath)}${path.delimiter}${env.PATH ?? ""}`;
  return env;
}

function npm(args: string[], cwd: string): string {
  const r = spawnSync("npm", [...args, "--no-audit", "--no-fund", "--loglevel=error"], {
    cwd,
    env: cleanEnv(),
    encoding: "utf8",
  });
  if (r.status !== 0) throw new Error(`npm ${args.join(" ")} failed (${r.status}): ${r.stderr}`);
  return r.stdout;
}

let tarball: string;
let files: string[];
let prefix: string;
let pkgDir: string;
let bin: string;
let work: string;

function cli(args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(bin, args, { cwd: work, env: cleanEnv(), encoding: "utf8" });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The installed program's fingerprint, computed by its own module in a child process. */
function installedFingerprint(): string {
  const url = pathToFileURL(path.join(pkgDir, "lib", "ledger", "inputs.js")).href;
  const r = spawnSync(
    process.execPath,
    [
      "--input-type=module",
      "-e",
      `const m = await import(${JSON.stringify(url)}); console.log(m.codeFingerprint());`,
    ],
    { cwd: work, encoding: "utf8" },
  );
  expect(r.stderr).toBe("");
  return r.stdout.trim();
}

beforeAll(() => {
  // npm pack runs prepack (tsc) unless told not to; npm test has just compiled lib/, and
  // recompiling it here would rewrite lib/ under the other test files that run it.
  expect(existsSync(path.join(REPO_ROOT, "lib", "cli.js")), "lib/ is missing: run npm run build").toBe(true);
  const root = tempDir("pack");
  const packed = JSON.parse(
    npm(["pack", "--ignore-scripts", "--json", "--pack-destination", root], REPO_ROOT),
  ) as {
    filename: string;
    files: { path: string }[];
  }[];
  tarball = path.join(root, packed[0]!.filename);
  files = packed[0]!.files.map((f) => f.path);
  prefix = path.join(root, "ñandú dir", "prefix");
  mkdirSync(prefix, { recursive: true });
  // Dependencies come from the registry; no install script runs (better-sqlite3 ships its binary).
  npm(["install", "--prefix", prefix, "--ignore-scripts", "--omit=dev", tarball], root);
  pkgDir = path.join(prefix, "node_modules", "build-api");
  bin = path.join(prefix, "node_modules", ".bin", "build-api");
  work = path.join(root, "elsewhere");
  mkdirSync(work);
}, 180_000);

afterAll(removeTempDirs);

describe("the packed package", () => {
  it("holds the program, its schemas and run-time files, and nothing of development", () => {
    for (const f of [
      "package.json",
      "README.md",
      "bin/build-api.js",
      "lib/cli.js",
      "lib/pipeline/build.js",
      "lib/hosting/hosts/cloudflare-pages/runtime/generated/cloudflare-pages.js",
    ]) {
      expect(files).toContain(f);
    }
    expect(files).toContain("schema/store.sql");
    expect(files).toContain("schema/openapi.json");
    expect(files).toContain("data/sample.sql");
    expect(files.filter((f) => f.startsWith("lib/pages/")).length).toBeGreaterThan(0);
    const development = files.filter((f) =>
      /^(test|scripts|docs|src|\.ci|node_modules)\/|fixtures|\.sqlite$|^tsconfig|^eslint|^vitest/.test(f),
    );
    expect(development).toEqual([]);
  });

  it("installs into an empty prefix and runs from an unrelated directory: sample, build, preview", async () => {
    expect(pkgDir).toMatch(/ñandú dir/);
    const help = cli(["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("init-store");

    expect(cli(["init-store", "--sample", "sample.sqlite"]).code).toBe(0);
    const built = cli(["build", "--db", "sample.sqlite", "--out", "dist", "--now", NOW]);
    expect(built.code, built.stderr).toBe(0);
    expect(built.stderr).toMatch(/built dist: 8 tournaments, \d+ files/);

    const server: ChildProcess = spawn(bin, ["preview", "--dir", "dist", "--port", "0"], {
      cwd: work,
      env: cleanEnv(),
      stdio: ["ignore", "ignore", "pipe"],
    });
    try {
      const base = await new Promise<string>((resolve, reject) => {
        let err = "";
        server.stderr!.setEncoding("utf8").on("data", (d: string) => {
          err += d;
          const m = /serving dist at (http:\/\/[\d.]+:\d+)\//.exec(err);
          if (m) resolve(m[1]!);
        });
        server.on("exit", (code) => reject(new Error(`preview exited ${code}: ${err}`)));
      });
      const list = await fetch(`${base}/api/public/v1/tournaments`);
      expect(list.status).toBe(200);
      expect(((await list.json()) as { id: unknown }[]).map((t) => t.id)).toContain(BIG_ID);
      const standings = await fetch(`${base}/api/public/v1/tournaments/${BIG_ID}/standings`);
      expect(standings.status).toBe(200);
      expect(((await standings.json()) as { tournamentId: unknown }).tournamentId).toBe(BIG_ID);
      const club = await fetch(`${base}/api/clubs/hobsons-bay/tournaments?tag=juniors`);
      expect(club.status).toBe(200);
      expect(club.headers.get("access-control-allow-origin")).toBe("*");
      const openapi = await fetch(`${base}/api/public/v1/openapi.json`);
      expect(await openapi.text()).toBe(readFileSync(path.join(REPO_ROOT, "schema", "openapi.json"), "utf8"));
      const page = await fetch(`${base}/`);
      expect(page.headers.get("content-type")).toMatch(/^text\/html/);
      expect((await fetch(`${base}/api/public/v1/tournaments/1/standings`)).status).toBe(404);
    } finally {
      const exited = new Promise((resolve) => server.once("exit", resolve));
      server.kill("SIGTERM");
      await exited;
    }
  });

  it("fingerprints the installed program under a path with a space and non-ASCII letters", () => {
    const before = installedFingerprint();
    expect(before).toMatch(/^[0-9a-f]{64}$/);
    // The build recorded that very fingerprint, and a rebuild at the same instant is a no-op.
    const record = JSON.parse(readFileSync(path.join(work, "dist", "_build-api.json"), "utf8")) as {
      code: string;
    };
    expect(record.code).toBe(before);
    const again = cli(["build", "--db", "sample.sqlite", "--out", "dist", "--now", NOW, "--json"]);
    expect(JSON.parse(again.stdout).upToDate).toBe(true);

    // A changed program file changes the fingerprint, and the next build is no longer up to date.
    appendFileSync(path.join(pkgDir, "lib", "render", "snapshot.js"), "\n// patched\n");
    const after = installedFingerprint();
    expect(after).toMatch(/^[0-9a-f]{64}$/);
    expect(after).not.toBe(before);
    const rebuilt = cli(["build", "--db", "sample.sqlite", "--out", "dist", "--now", NOW, "--json"]);
    expect(rebuilt.code, rebuilt.stderr).toBe(0);
    expect(JSON.parse(rebuilt.stdout).upToDate).toBe(false);
  });
});
