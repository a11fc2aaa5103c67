// What the browser scripts need before they start, each missing piece named with what to install:
// playwright-core and axe-core from the separate scripts/hosts project, and a Chromium binary.
import { accessSync, constants } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

/** The fix for a missing package of scripts/hosts. */
const HOSTS_FIX = "run `npm ci --prefix scripts/hosts` (it installs playwright-core and axe-core)";

/** A package of the scripts/hosts project, or an error that says how to install it. */
export function hostsPackage<T>(name: string, scriptsDir: string): T {
  const require = createRequire(path.resolve(scriptsDir, "hosts/package.json"));
  try {
    return require(name) as T;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "MODULE_NOT_FOUND") throw e;
    throw new Error(`${name} is not installed (it comes from scripts/hosts); ${HOSTS_FIX}`, { cause: e });
  }
}

/** The path of a file of a scripts/hosts package (e.g. axe-core/axe.min.js), with the same hint. */
export function hostsFile(spec: string, scriptsDir: string): string {
  const require = createRequire(path.resolve(scriptsDir, "hosts/package.json"));
  try {
    return require.resolve(spec);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "MODULE_NOT_FOUND") throw e;
    throw new Error(`${spec.split("/")[0]} is not installed (it comes from scripts/hosts); ${HOSTS_FIX}`, {
      cause: e,
    });
  }
}

/** Throws, saying what to install, unless `executable` is a program this user can run. */
export function requireChromium(executable: string): void {
  try {
    accessSync(executable, constants.X_OK);
  } catch {
    throw new Error(
      `no browser at ${executable}: install Chromium (Debian, Ubuntu: \`sudo apt-get install chromium\`) ` +
        "or pass --chromium <path> (any Chromium or Chrome binary)",
    );
  }
}
