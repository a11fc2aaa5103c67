// The one launcher of the browser scripts (scripts/browser-*.ts): what they need before they start,
// each missing piece named with what to install (playwright-core and axe-core from the separate
// scripts/hosts project, and a Chromium binary), the little of playwright-core they use, the
// Chromium flags and a fresh profile per run, and the loopback servers they open pages on.
import { accessSync, constants, mkdtempSync, rmSync } from "node:fs";
import type { Server } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

/** A response the page received (the root project has no types for playwright-core). */
export interface Response {
  url(): string;
  body(): Promise<Buffer>;
}

/** The little of playwright-core's Page the scripts use. */
export interface Page {
  goto(url: string, o?: { waitUntil?: string }): Promise<unknown>;
  evaluate<T, A>(fn: (arg: A) => T | Promise<T>, arg: A): Promise<T>;
  evaluate<T>(fn: () => T | Promise<T>): Promise<T>;
  /** A string is evaluated as an expression over the DevTools protocol: no page CSP applies. */
  evaluate(expression: string): Promise<unknown>;
  fill(selector: string, text: string): Promise<void>;
  waitForSelector(selector: string, o?: { timeout: number; state?: string }): Promise<unknown>;
  setViewportSize(s: { width: number; height: number }): Promise<void>;
  emulateMedia(o: { colorScheme: "light" | "dark" }): Promise<void>;
  screenshot(o: { path: string; fullPage: boolean }): Promise<unknown>;
  waitForFunction<A>(fn: (arg: A) => boolean, arg: A, o?: { timeout: number }): Promise<unknown>;
  on(event: "pageerror", fn: (err: Error) => void): void;
  on(event: "console", fn: (msg: { text(): string }) => void): void;
  on(event: "response", fn: (r: Response) => void): void;
}

/** A browser with its own profile; closing it also deletes the profile. */
export interface Browser {
  newPage(): Promise<Page>;
  close(): Promise<void>;
}

interface Chromium {
  launchPersistentContext(
    userDataDir: string,
    o: { executablePath: string; args: string[]; headless: boolean; timeout: number },
  ): Promise<Browser>;
}

/**
 * Headless, no sandbox (containers, CI), and nothing the browser would fetch on its own (updates,
 * sync, QUIC probes): the only requests are the pages' own.
 */
export const CHROMIUM_FLAGS: readonly string[] = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/**
 * Checks, before anything starts, that playwright-core and the Chromium at `executable` are there
 * (throwing with what to install); returns the launcher. Each launch gets a new profile directory,
 * so nothing cached from an earlier run can answer.
 */
export function chromiumLauncher(executable: string, scriptsDir: string): { launch(): Promise<Browser> } {
  const { chromium } = hostsPackage<{ chromium: Chromium }>("playwright-core", scriptsDir);
  requireChromium(executable);
  return {
    async launch() {
      const profile = mkdtempSync(path.join(tmpdir(), "build-api-chromium-"));
      const removeProfile = (): void => rmSync(profile, { recursive: true, force: true });
      let context: Browser;
      try {
        context = await chromium.launchPersistentContext(profile, {
          executablePath: executable,
          args: [...CHROMIUM_FLAGS],
          headless: true,
          timeout: 60_000,
        });
      } catch (e) {
        removeProfile();
        throw e;
      }
      return {
        newPage: () => context.newPage(),
        close: async () => {
          try {
            await context.close();
          } finally {
            removeProfile();
          }
        },
      };
    },
  };
}

/** Starts `server` on a free loopback port and returns the port. */
export function listen(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port));
  });
}

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
