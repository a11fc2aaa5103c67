/// <reference lib="dom" />
// The pages in their language in a real browser (headless Chromium through playwright-core from
// the scripts/hosts project). Against a snapshot (served by the preview, in process) it opens one
// page of each kind at 360 px and at 1280 px and checks that none scrolls sideways and that each
// declares the build's language; then it embeds the club's widgets in a page of another origin
// under a strict Content-Security-Policy and checks that they render in the club's
// defaultLanguage (lang on the element and on its root, the catalog's words), with no CSP
// violation and no script error. Built with `--language en-XA` (the pseudo-locale: longer
// texts, accents, right-to-left marks) it is the layout test of every language.
//   node scripts/browser-i18n.ts --dir DIR [--club SLUG] [--screenshots DIR] [--label NAME]
//                                [--chromium PATH]
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import path from "node:path";
import fg from "fast-glob";
import { exitWithUsage, scriptArgs } from "./lib/args.ts";
import { createPreviewServer } from "../src/hosting/preview.ts";
import { languageOf } from "../src/i18n/languages.ts";
import { localeOf } from "../src/i18n/locale.ts";
import { type Browser, chromiumLauncher, listen } from "./lib/browser-setup.ts";

/** The narrow phone and the desktop of the issue's screenshots. */
const SIZES = { phone: { width: 360, height: 740 }, desktop: { width: 1280, height: 800 } } as const;

/** One page of each kind the snapshot has (site paths), the index and the error page first. */
const KINDS = [
  "tournaments/*/index.html",
  "tournaments/*/standings/index.html",
  "tournaments/*/standings/rounds/*/index.html",
  "tournaments/*/crosstable/index.html",
  "tournaments/*/players/index.html",
  "tournaments/*/rounds/*/index.html",
  "tournaments/*/live/index.html",
  "tournaments/*/recaps/*/index.html",
];

let passed = 0;
let failed = 0;
function check(ok: boolean, what: string, detail = ""): void {
  if (ok) passed++;
  else failed++;
  console.log(`${ok ? "ok  " : "FAIL"} [i18n] ${what}${detail ? `: ${detail}` : ""}`);
}

/** The pages to open: "/", the 404 page, and the page of each kind with the most text. */
function pagesOf(dir: string): string[] {
  const picks = KINDS.flatMap((pattern) => {
    const files = fg.sync(pattern, { cwd: dir });
    const longest = files.sort(
      (a, b) => readFileSync(path.join(dir, b)).length - readFileSync(path.join(dir, a)).length,
    );
    return longest.length ? [`/${longest[0]!.replace(/index\.html$/, "")}`] : [];
  });
  return ["/", "/no-such-page/", ...picks];
}

/** In the page: the document's width beyond the viewport (0: nothing scrolls sideways), its lang. */
function measure(): { overflow: number; lang: string; widest: string } {
  const doc = document.documentElement;
  let widest = "";
  let right = window.innerWidth;
  for (const e of document.querySelectorAll("body *")) {
    const r = e.getBoundingClientRect();
    // Inside a scroll region a wide table scrolls itself: only what sticks out of the page counts.
    if (r.right > right && !e.closest(".scroll")) {
      right = r.right;
      widest = `${e.tagName.toLowerCase()}${e.className ? `.${String(e.className).replace(/ /g, ".")}` : ""}`;
    }
  }
  return { overflow: doc.scrollWidth - window.innerWidth, lang: doc.lang, widest };
}

async function main(): Promise<void> {
  const values = scriptArgs(import.meta.url, {
    dir: { type: "string" },
    club: { type: "string" },
    screenshots: { type: "string" },
    chromium: { type: "string", default: "/usr/bin/chromium" },
    label: { type: "string", default: "snapshot" },
  });
  if (!values.dir) exitWithUsage(import.meta.url, "--dir <snapshot> is required");
  const dir = path.resolve(values.dir);
  const chromium = chromiumLauncher(values.chromium, import.meta.dirname);
  const label = values.label;

  const servers: Server[] = [];
  const preview = createPreviewServer(dir);
  servers.push(preview);
  const base = `http://127.0.0.1:${await listen(preview)}`;
  const json = async <T>(p: string): Promise<T> => {
    const res = await fetch(base + p);
    if (!res.ok) throw new Error(`${p}: HTTP ${res.status}`);
    return (await res.json()) as T;
  };
  const expectedLang = /<html lang="([^"]+)">/.exec(readFileSync(path.join(dir, "index.html"), "utf8"))?.[1];

  // The club: the one named, else the first with a defaultLanguage other than English.
  const clubs = fg.sync("api/clubs/*/tournaments/index.json", { cwd: dir }).map((f) => f.split("/")[2]!);
  type Catalog = {
    defaultLanguage: string | null;
    tournaments: { tournament: { tournamentId: number | string; currentRound: number | null } }[];
  };
  let slug = values.club;
  if (!slug) {
    for (const s of clubs) {
      const c = await json<Catalog>(`/api/clubs/${s}/tournaments`);
      if (c.defaultLanguage && languageOf(c.defaultLanguage) !== "en") slug = s;
    }
  }
  if (!slug) throw new Error("no club with a defaultLanguage other than English: name one with --club");
  const catalog = await json<Catalog>(`/api/clubs/${slug}/tournaments`);
  const clubLanguage = languageOf(catalog.defaultLanguage);
  const words = localeOf(clubLanguage);
  const t = catalog.tournaments.find((e) => e.tournament.currentRound !== null)?.tournament;
  if (!t) throw new Error(`club ${slug} lists no tournament with a round`);
  const snippet =
    `<script src="${base}/embed/build-api-embed.js" defer></script>\n` +
    `<build-api-embed club="${slug}"></build-api-embed>\n` +
    `<build-api-embed club="${slug}" view="standings" tournament="${t.tournamentId}"></build-api-embed>\n` +
    `<build-api-embed club="${slug}" view="round" tournament="${t.tournamentId}"></build-api-embed>\n` +
    `<build-api-embed club="${slug}" view="crosstable" tournament="${t.tournamentId}"></build-api-embed>`;
  const clubStyle = "body{font-family:Georgia,serif;max-width:60rem;margin:1rem auto;padding:0 1rem}";
  // The strict CSP of docs/design/lists-and-caching.md: the snapshot's origin in script-src and
  // connect-src, no inline style but the club's own (by its hash).
  const clubCsp = [
    "default-src 'none'",
    `script-src ${base}/`,
    `connect-src ${base}/`,
    `style-src 'sha256-${createHash("sha256").update(clubStyle).digest("base64")}'`,
  ].join("; ");
  const clubPage = createServer((_req, res) => {
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8", "Content-Security-Policy": clubCsp });
    res.end(
      `<!doctype html><html lang="${catalog.defaultLanguage ?? "en"}"><head><meta charset="utf-8">` +
        `<meta name="viewport" content="width=device-width, initial-scale=1"><title>A club website</title>` +
        `<style>${clubStyle}</style></head><body><main><h1>${slug}</h1>\n${snippet}\n</main></body></html>`,
    );
  });
  servers.push(clubPage);
  const clubOrigin = `http://127.0.0.1:${await listen(clubPage)}`;

  let context: Browser | undefined;
  try {
    context = await chromium.launch();
    const page = await context.newPage();
    const errors: string[] = [];
    const violations: string[] = [];
    page.on("pageerror", (err) => errors.push(err.message));
    page.on("console", (msg) => {
      if (/Content Security Policy/i.test(msg.text())) violations.push(msg.text());
    });
    const shot = async (name: string) => {
      if (!values.screenshots) return;
      mkdirSync(values.screenshots, { recursive: true });
      for (const [size, viewport] of Object.entries(SIZES)) {
        await page.setViewportSize(viewport);
        await page.screenshot({
          path: path.join(values.screenshots, `${label}-${name}-${size}.png`),
          fullPage: false,
        });
      }
    };

    for (const p of pagesOf(dir)) {
      await page.setViewportSize(SIZES.phone);
      await page.goto(base + p, { waitUntil: "load" });
      const m = await page.evaluate(measure, null);
      check(
        m.overflow <= 0,
        `${label}: ${p} does not scroll sideways at 360 px`,
        `${m.overflow} px too wide (${m.widest})`,
      );
      check(m.lang === expectedLang, `${label}: ${p} declares lang="${expectedLang}"`, `lang="${m.lang}"`);
      const name =
        p === "/"
          ? "index"
          : p
              .replace(/^\/|\/$/g, "")
              .replace(/\/\d{3,}\//, "/")
              .replace(/\//g, "-");
      await shot(name);
    }

    await page.setViewportSize(SIZES.desktop);
    await page.goto(clubOrigin, { waitUntil: "load" });
    await page.waitForFunction(
      () => document.querySelectorAll("build-api-embed[data-ready]").length === 4,
      null,
      {
        timeout: 20_000,
      },
    );
    const embed = await page.evaluate(
      () =>
        [...document.querySelectorAll("build-api-embed")].map((e) => ({
          lang: e.getAttribute("lang"),
          rootLang: e.shadowRoot?.querySelector(".box")?.getAttribute("lang") ?? null,
          heads: [...(e.shadowRoot?.querySelectorAll("thead th") ?? [])].map((th) => th.textContent ?? ""),
          text: e.shadowRoot?.textContent ?? "",
        })),
      null,
    );
    check(
      embed.every((e) => e.lang === clubLanguage && e.rootLang === clubLanguage),
      `${label}: the club's embeds declare its language (${clubLanguage}) on the element and its root`,
      JSON.stringify(embed.map((e) => [e.lang, e.rootLang])),
    );
    const want = [
      [words.t("index.tournament"), words.t("index.dates")],
      [words.t("col.rank"), words.t("col.player"), words.t("col.points")],
      [words.t("col.board"), words.t("col.white"), words.t("col.result"), words.t("col.black")],
      [words.t("col.number"), words.t("col.rank"), words.t("col.player")],
    ];
    for (const [i, w] of want.entries()) {
      check(
        w.every((x) => embed[i]!.heads.includes(x)),
        `${label}: embed ${i + 1} heads its table in ${clubLanguage}`,
        `${JSON.stringify(embed[i]!.heads)} lacks one of ${JSON.stringify(w)}`,
      );
    }
    check(
      embed[1]!.text.includes(words.t("embed.updated", { time: "" }).trim()) || embed[1]!.text.includes("·"),
      `${label}: the standings embed dates its update in ${clubLanguage}`,
    );
    check(violations.length === 0, `${label}: no Content-Security-Policy violation`, violations.join("; "));
    check(errors.length === 0, `${label}: no script error`, errors.join("; "));
    for (const [size, viewport] of Object.entries(SIZES)) {
      await page.setViewportSize(viewport);
      const m = await page.evaluate(measure, null);
      check(
        m.overflow <= 0,
        `${label}: the club page with the embeds does not scroll sideways at ${viewport.width} px`,
        `${m.overflow} px`,
      );
      if (values.screenshots)
        await page.screenshot({
          path: path.join(values.screenshots, `${label}-embed-${size}.png`),
          fullPage: true,
        });
    }
  } finally {
    await context?.close();
    for (const s of servers) s.close();
  }
  console.log(`[i18n] ${passed} passed, ${failed} failed`);
  if (failed > 0) process.exitCode = 1;
}

await main();
