// A stale lib/ is refused through the CLI: in a copy of the checkout (bin/, lib/, src/, the
// packages), a source changed, added or removed after the build stops `build-api` with one line
// that names the file and the fix; a file only touched, or a package without src/, runs.
import { spawnSync } from "node:child_process";
import {
  appendFileSync,
  cpSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { EXIT } from "../../../src/shared/errors.ts";
import { REPO_ROOT } from "../../support/run.ts";
import { removeTempDirs, tempDir } from "../../support/temp.ts";

afterAll(removeTempDirs);

/** A checkout as `npm run build` leaves it: bin/, the compiled lib/ with its stamp, src/. */
function checkout(): string {
  const root = tempDir("stale-lib");
  for (const d of ["bin", "lib", "src"])
    cpSync(path.join(REPO_ROOT, d), path.join(root, d), { recursive: true, preserveTimestamps: true });
  cpSync(path.join(REPO_ROOT, "package.json"), path.join(root, "package.json"));
  symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(root, "node_modules"));
  // The stamp of these sources, as the build's steps record it.
  for (const step of ["before", "after"]) {
    const r = spawnSync(process.execPath, [path.join(root, "bin", "lib-stamp.js"), step], {
      encoding: "utf8",
    });
    expect(r.status, r.stderr).toBe(0);
  }
  return root;
}

function version(root: string) {
  return spawnSync(process.execPath, [path.join(root, "bin", "build-api.js"), "--version"], {
    cwd: root,
    encoding: "utf8",
  });
}

const STALE =
  /^build-api: lib\/ is older than src\/: (.*) since the last `npm run build`; fix: run `npm run build`\n$/;

describe("a stale lib/", () => {
  it("npm run build records the stamp around the compile", () => {
    const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts.build).toBe(
      "node bin/lib-stamp.js before && tsc -p tsconfig.build.json && node bin/lib-stamp.js after",
    );
  });

  it("runs when src/ is as compiled, or only touched", () => {
    const root = checkout();
    expect(version(root).stdout).toBe("0.1.0\n");
    const file = path.join(root, "src", "cli.ts");
    utimesSync(file, new Date(), new Date(Date.now() + 5_000));
    const r = version(root);
    expect(r.status, r.stderr).toBe(0);
  });

  it.each([
    [
      "changed",
      (src: string) => appendFileSync(path.join(src, "cli", "program.ts"), "\n// edited\n"),
      "src/cli/program.ts changed",
    ],
    [
      "new",
      (src: string) => writeFileSync(path.join(src, "cli", "extra.ts"), "export {};\n"),
      "src/cli/extra.ts is new",
    ],
    [
      "removed",
      (src: string) => rmSync(path.join(src, "cli", "progress.ts")),
      "src/cli/progress.ts was removed",
    ],
  ])("a source %s after the build: refused with the file and the fix", (_what, change, why) => {
    const root = checkout();
    change(path.join(root, "src"));
    const r = version(root);
    expect(r.status).toBe(EXIT.usage);
    expect(r.stdout).toBe("");
    expect(STALE.exec(r.stderr)?.[1]).toBe(why);
    // The build's steps bring the stamp up to date (tsc between them compiles the change).
    for (const step of ["before", "after"])
      spawnSync(process.execPath, [path.join(root, "bin", "lib-stamp.js"), step]);
    expect(version(root).status).toBe(0);
  });

  it("no stamp (a failed or interrupted build) is stale; no src/ (an installed package) is not", () => {
    const root = checkout();
    rmSync(path.join(root, "lib", "src-stamp.json"));
    const r = version(root);
    expect(r.status).toBe(EXIT.usage);
    expect(STALE.exec(r.stderr)?.[1]).toMatch(/^lib\/ has no record of the sources/);
    rmSync(path.join(root, "src"), { recursive: true });
    expect(version(root).stdout).toBe("0.1.0\n");
  });
});
