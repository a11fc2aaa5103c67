// build --language: the sample built in English, German and Spanish. The JSON answers and the
// OpenAPI document are the same bytes in every language (their values are data); every page,
// feed and calendar of the global surface speaks the build's language, with its `lang`; a club's
// calendar speaks the club's defaultLanguage whatever the build's.
import { readFileSync } from "node:fs";
import path from "node:path";
import fg from "fast-glob";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AddressInfo } from "node:net";
import { build } from "../../../src/pipeline/build.ts";
import { createPreviewServer } from "../../../src/hosting/preview.ts";
import { en } from "../../../src/i18n/en.ts";
import type { Language } from "../../../src/i18n/languages.ts";
import { catalogOf } from "../../../src/i18n/locale.ts";
import { makeSampleStore, SAMPLE_NOW } from "../../support/e2e.ts";
import { removeTempDirs, tempDir } from "../../support/temp.ts";

const LANGS = ["en", "de", "es"] as const;
const out: Record<string, string> = {};

beforeAll(async () => {
  const dir = tempDir("languages");
  const db = makeSampleStore(dir);
  for (const language of LANGS) {
    out[language] = path.join(dir, language);
    await build({ db, out: out[language], now: SAMPLE_NOW, language, jobs: 1 });
  }
}, 120_000);
afterAll(removeTempDirs);

const read = (language: string, rel: string) => readFileSync(path.join(out[language]!, rel), "utf8");
const files = (language: string, pattern: string) =>
  fg.sync(pattern, { cwd: out[language]!, dot: false }).sort();

/** A page's text as a reader sees it: no markup, no recap written in another language. */
function visibleText(html: string): string {
  return html
    .replace(/<article class="recap" lang="[^"]*">[\s\S]*?<\/article>/g, " ")
    .replace(/<script[\s\S]*?<\/script>/g, " ")
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x([0-9A-F]+);/gi, (_, h: string) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

/** The English phrases a page in `language` must not show: each English text of 8 characters or
 * more (between placeholders) that the language's catalog does not use too. */
function englishPhrases(language: Language): string[] {
  const theirs = JSON.stringify(catalogOf(language));
  return [
    ...new Set(
      Object.values(en)
        .flatMap((v) => (typeof v === "string" ? [v] : Object.values(v)))
        .flatMap((v) => v.split(/\{\w+\}/))
        .map((s) => s.trim())
        .filter((s) => s.length >= 8 && !theirs.includes(s)),
    ),
  ];
}

describe("build --language", () => {
  it("writes the same JSON answers and OpenAPI document, byte for byte, in every language", () => {
    const json = files("en", "**/*.json").filter((f) => !path.basename(f).startsWith("_"));
    expect(json.length).toBeGreaterThan(100);
    expect(json).toContain("api/public/v1/openapi.json");
    for (const language of LANGS.slice(1)) {
      expect(files(language, "**/*.json").filter((f) => !path.basename(f).startsWith("_"))).toEqual(json);
      for (const f of json) expect(read(language, f) === read("en", f), `${language}: ${f}`).toBe(true);
    }
  });

  it("writes the same files, only their words differ", () => {
    for (const language of LANGS.slice(1)) expect(files(language, "**/*")).toEqual(files("en", "**/*"));
  });

  it("declares the language on every page and speaks it: no English phrase on a German or Spanish page", () => {
    for (const language of ["de", "es"] as const) {
      const pages = files(language, "**/*.html").filter((f) => f !== "404.html");
      expect(pages.length).toBeGreaterThan(50);
      const english = englishPhrases(language);
      expect(english).toContain("Tie-breaks, in order");
      for (const f of pages) {
        const html = read(language, f);
        expect(html.startsWith(`<!doctype html>\n<html lang="${language}">`), f).toBe(true);
        const text = visibleText(html);
        for (const phrase of english)
          expect(text.includes(phrase), `${language} ${f}: "${phrase}"`).toBe(false);
      }
    }
    // The same check finds the English words on an English page: it is able to fail.
    const standings = files("en", "tournaments/*/standings/index.html")[0]!;
    expect(englishPhrases("de").some((p) => visibleText(read("en", standings)).includes(p))).toBe(true);
  });

  it("writes the feeds and the global calendars in the language, each saying which", () => {
    const feed = read("de", "feeds/all.atom");
    expect(feed).toContain('<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="de">');
    expect(feed).toMatch(/Runde/);
    expect(feed).not.toMatch(/pairings|final standings/);
    for (const f of files("es", "calendar/*.ics")) {
      const ics = read("es", f).replaceAll("\r\n ", "");
      expect(ics, f).toMatch(/SUMMARY;LANGUAGE=es:.*: ronda \d+/);
      expect(ics, f).not.toMatch(/: round \d+/);
    }
  });

  it("writes a club's calendars in the club's defaultLanguage whatever the build's", () => {
    // The sample's Basque club (defaultLanguage es) lists the Christmas rapid.
    const club = files("en", "calendar/clubs/**/*.ics");
    expect(club.length).toBeGreaterThan(0);
    const basque = club.filter((f) => read("en", f).includes("Gros"));
    expect(basque.length).toBeGreaterThan(0);
    for (const f of basque) {
      for (const language of LANGS)
        expect(read(language, f), `${language} ${f}`).toMatch(/SUMMARY;LANGUAGE=es:/);
    }
  });

  it("writes the error page in the language, and the preview and the worker send it so", async () => {
    expect(read("en", "404.html")).toContain('<html lang="en">');
    const page = read("de", "404.html");
    expect(page).toContain('<html lang="de">');
    expect(page).toContain("<h1>Seite nicht gefunden</h1>");
    expect(read("de", "_worker.js")).toContain('"errorPage": {"lang":"de"');
    expect(read("en", "_worker.js")).not.toContain('"errorPage"');
    const server = createPreviewServer(out.de!);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const missing = await fetch(`${base}/no-such-page/`);
      expect(missing.status).toBe(404);
      expect(await missing.text()).toBe(page);
      // Other errors are problem bodies (JSON): API data, the same in every language.
      const refused = await fetch(`${base}/`, { method: "POST" });
      expect(refused.status).toBe(405);
      expect(await refused.text()).toContain('"title":"Method Not Allowed"');
    } finally {
      server.close();
    }
  });
});
