// An unsupported Node stops the CLI before any native addon loads, with the supported versions
// and the fix, and the usage exit code. Node 20 (the system's, when there is one) is run for real;
// the version rule itself is checked for every case.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
// @ts-expect-error: plain JavaScript without types, run by every Node before anything else.
import { nodeVersionProblem } from "../../../bin/check-node.js";
import { EXIT } from "../../../src/shared/errors.ts";
import { CLI, REPO_ROOT } from "../../support/run.ts";

const check = nodeVersionProblem as (v: string, o?: { scripts?: boolean }) => string | null;
/** An old Node to run for real, when the machine has one. */
const OLD_NODE = ["/usr/bin/node", "/usr/local/bin/node"].find((p) => {
  if (!existsSync(p)) return false;
  const v = spawnSync(p, ["--version"], { encoding: "utf8" }).stdout.trim();
  return check(v) !== null;
});

describe("the Node version check", () => {
  it("accepts 22 and newer, and 22.18 or newer for the TypeScript scripts", () => {
    for (const v of ["v22.0.0", "v22.23.3", "v24.21.0", "v25.1.0"]) expect(check(v)).toBeNull();
    for (const v of ["v20.20.2", "v18.0.0", "v21.7.3"]) expect(check(v)).toMatch(/needs Node 22 or newer/);
    expect(check("v22.17.1", { scripts: true })).toMatch(/needs Node 22\.18 or newer/);
    expect(check("v22.18.0", { scripts: true })).toBeNull();
    expect(check("v20.1.0")).toMatch(/fix: install Node 24/);
  });

  it.skipIf(OLD_NODE === undefined)("stops an old Node before the addon loads, with exit 2", () => {
    for (const args of [["build", "--db", "x.sqlite", "--out", "dist"], ["--version"]]) {
      const r = spawnSync(OLD_NODE!, [CLI, ...args], { cwd: REPO_ROOT, encoding: "utf8" });
      expect(r.status).toBe(EXIT.usage);
      expect(r.signal).toBeNull();
      expect(r.stderr).toMatch(
        /^build-api: Node v\d+\.\d+\.\d+ is not supported; it needs Node 22 or newer \(tested on 22 and 24\)\.\nfix: /,
      );
    }
    // npm start and npm test check first too.
    const r = spawnSync(OLD_NODE!, [path.join(REPO_ROOT, "bin", "check-node.js"), "--scripts"], {
      encoding: "utf8",
    });
    expect(r.status).toBe(EXIT.usage);
    expect(r.stderr).toMatch(/needs Node 22\.18 or newer/);
  });
});
