// `node scripts/browser-search.ts --dir <snapshot> [--base URL] [--chromium PATH] [--need-player]`: the search
// with no server (issue 47) in headless Chromium. Without --base the snapshot is served by the
// preview, in process, on a free loopback port (as scripts/browser-pages.ts). A FIDE-rated player
// whose surname has an accent, and a tournament whose name has one, are picked from the search
// index; the index page is opened, the first four letters of the word are typed with the accent
// stripped, and the player's (tournament's) page must be among the results; the index files the
// search fetched, and their bytes, are printed. (A failed wait throws: the script exits non-zero.) Needs playwright-core from
// scripts/hosts (`npm ci --prefix scripts/hosts`) and a Chromium binary.
import type { Server } from "node:http";
import { exitWithUsage, scriptArgs } from "./lib/args.ts";
import { createPreviewServer } from "../src/hosting/preview.ts";
import { foldWords } from "../src/pages/search.ts";
import { chunkFile, sectionFile } from "../src/render/search.ts";
import { chromiumLauncher, listen } from "./lib/browser-setup.ts";

interface Target {
  kind: string;
  id: string;
  name: string;
  query: string;
  href: string;
}

/**
 * A FIDE-rated player whose surname (first word) has a mark, and a tournament whose name has a
 * word with a mark; each with its query, the word's first 4 letters folded (accents stripped).
 */
async function pickTargets(json: <T>(p: string) => Promise<T>, needPlayer: boolean): Promise<Target[]> {
  const found = new Map<string, Target>();
  const root = await json<{ sections: string[] }>("/search/root.json");
  for (const s of root.sections) {
    const section = await json<{ chunks: string[] }>(`/${sectionFile(s)}`);
    for (const c of section.chunks) {
      const { items } = await json<{ items: [string, string, string, string][] }>(`/${chunkFile(c)}`);
      for (const [word, kind, id, name] of items) {
        if (found.has(kind) || word.length < 4) continue;
        const marked = name.split(/[ ,]+/).find((w) => w.normalize("NFD") !== w && foldWords(w)[0] === word);
        if (!marked || (kind === "p" && marked !== name.split(/[ ,]+/)[0])) continue;
        const href = kind === "p" ? `/players/${id}/` : `/tournaments/${id}/`;
        found.set(kind, { kind, id, name, query: word.slice(0, 4), href });
      }
    }
  }
  if (!found.has("p")) {
    const none = "the index names no FIDE-rated player whose surname has an accent";
    if (needPlayer) throw new Error(`${none} (--need-player)`);
    console.log(`note [search] ${none}`);
  }
  if (found.size === 0) throw new Error("the search index names no player nor tournament with an accent");
  return [...found.values()];
}

async function main(): Promise<void> {
  const values = scriptArgs(import.meta.url, {
    dir: { type: "string" },
    base: { type: "string" },
    chromium: { type: "string", default: "/usr/bin/chromium" },
    "need-player": { type: "boolean", default: false },
  });
  if (!values.dir && !values.base)
    exitWithUsage(import.meta.url, "--dir <snapshot> or --base <url> is required");
  const chromium = chromiumLauncher(values.chromium, import.meta.dirname);
  const servers: Server[] = [];
  let base = values.base?.replace(/\/$/, "");
  if (!base) {
    const preview = createPreviewServer(values.dir!);
    servers.push(preview);
    base = `http://127.0.0.1:${await listen(preview)}`;
  }
  const json = async <T>(p: string): Promise<T> => {
    const res = await fetch(base + p);
    if (!res.ok) throw new Error(`${p}: HTTP ${res.status}`);
    return (await res.json()) as T;
  };
  const targets = await pickTargets(json, values["need-player"] === true);
  const context = await chromium.launch();
  let ok = true;
  try {
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    const fetched: Promise<number>[] = [];
    page.on("response", (r) => {
      if (r.url().includes("/search/")) fetched.push(r.body().then((b) => b.length));
    });
    await page.goto(`${base}/`, { waitUntil: "load" });
    await page.waitForSelector("#search", { timeout: 10_000, state: "visible" });
    for (const t of targets) {
      fetched.length = 0;
      await page.fill("#search-q", t.query);
      await page.waitForSelector(`#search-results a[href$="${t.href}"]`, { timeout: 10_000 });
      const listed = await page.evaluate(() => document.querySelectorAll("#search-results li").length);
      const sizes = await Promise.all(fetched);
      console.log(
        `ok   [search] "${t.query}" finds ${t.kind === "p" ? "player" : "tournament"} ${t.name} (${t.id}) among ` +
          `${listed} results; ${sizes.length} index files fetched, ${sizes.reduce((a, b) => a + b, 0)} bytes`,
      );
    }
    if (errors.length > 0) {
      ok = false;
      console.log(`FAIL [search] page errors: ${errors.join("; ")}`);
    }
  } finally {
    await context.close();
    for (const s of servers) s.close();
  }
  if (!ok) process.exitCode = 1;
}

await main();
