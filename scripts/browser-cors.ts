// CORS in a real browser: headless Chromium opens a page on one loopback origin and fetches the
// snapshot, served by the preview, from another. Club endpoints must be readable, global ones
// blocked. playwright-core comes from the separate scripts/hosts project (npm ci --prefix).
//   node scripts/browser-cors.ts --dir DIR [--chromium /usr/bin/chromium]
import { readdirSync } from "node:fs";
import { createServer } from "node:http";
import path from "node:path";
import { exitWithUsage, scriptArgs } from "./lib/args.ts";
import { createPreviewServer } from "../src/hosting/preview.ts";
import { type Browser, chromiumLauncher, listen } from "./lib/browser-setup.ts";

/** In the page: what a cross-origin fetch gives, "ok <status> <bytes>" or "blocked: <error>". */
async function fetchFromPage(url: string): Promise<string> {
  try {
    const res = await fetch(url);
    const text = await res.text();
    return `ok ${res.status} ${text.length}`;
  } catch (err) {
    return `blocked: ${String(err)}`;
  }
}

async function main(): Promise<void> {
  const values = scriptArgs(import.meta.url, {
    dir: { type: "string" },
    chromium: { type: "string", default: "/usr/bin/chromium" },
  });
  if (!values.dir) exitWithUsage(import.meta.url, "--dir <snapshot> is required");
  // Each missing piece is named with what to install, before anything starts.
  const chromium = chromiumLauncher(values.chromium, import.meta.dirname);

  const slug = readdirSync(path.join(values.dir, "api/clubs"))[0];
  if (!slug) throw new Error("the snapshot has no club catalog");
  const api = createPreviewServer(values.dir);
  const page = createServer((_req, res) => {
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
    res.end("<!doctype html><title>cors probe</title>");
  });
  const apiPort = await listen(api);
  const pagePort = await listen(page);
  // Two origins on the loopback interface: a page on 127.0.0.1, the API on localhost.
  const apiOrigin = `http://localhost:${apiPort}`;
  let passed = 0;
  let failed = 0;
  let browser: Browser | undefined;
  try {
    // A new profile directory each run: nothing cached from an earlier run can answer.
    browser = await chromium.launch();
    const tab = await browser.newPage();
    await tab.goto(`http://127.0.0.1:${pagePort}/`);
    // [path, what the page must see: "ok <status>" when readable, "blocked" when not].
    const cases: [string, string][] = [
      [`/api/clubs/${slug}/tournaments`, "ok 200"],
      [`/api/clubs/${slug}/tournaments?tag=no-such-tag-zz`, "ok 200"],
      // Club errors are readable too, so a club website can tell "unknown" from "offline".
      ["/api/clubs/no-such-club/tournaments", "ok 404"],
      [`/api/clubs/${slug}/tournaments/9999999999999/standings`, "ok 404"],
      ["/api/public/v1/tournaments", "blocked"],
      ["/api/public/v1/openapi.json", "blocked"],
      ["/api/public/v1/tournaments/9999999999999", "blocked"],
    ];
    for (const [p, want] of cases) {
      const got = await tab.evaluate(fetchFromPage, apiOrigin + p);
      const ok = got.startsWith(want);
      if (ok) passed++;
      else failed++;
      console.log(
        `${ok ? "ok  " : "FAIL"} [chromium] fetch ${apiOrigin}${p} from http://127.0.0.1:${pagePort}: ${got}`,
      );
    }
  } finally {
    await browser?.close();
    api.close();
    page.close();
  }
  console.log(`${passed} passed, ${failed} failed`);
  process.exitCode = failed > 0 ? 1 : 0;
}

main().catch((err: unknown) => {
  console.error(`browser-cors: ${(err as Error).message}`);
  process.exitCode = 2;
});
