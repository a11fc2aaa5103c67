// The catalogs: every language has exactly the English keys, each translation uses the
// placeholders its English template uses, plural forms are complete for the language's
// Intl.PluralRules, and the locale object formats through Intl for its language and zone.
import { describe, expect, it } from "vitest";
import type { Catalog, Plural } from "../../../src/i18n/catalog.ts";
import { en } from "../../../src/i18n/en.ts";
import { INTL_LOCALE, LANGUAGES, languageOf, PSEUDO, type Language } from "../../../src/i18n/languages.ts";
import { catalogOf, localeOf } from "../../../src/i18n/locale.ts";
import { englishErrorPage, errorPage } from "../../../src/output/problem.ts";
import { errorPageWords } from "../../../src/pages/error-words.ts";

const ALL = [...LANGUAGES, PSEUDO] as Language[];
const placeholders = (text: string): string[] => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!).sort();
const forms = (v: string | Plural): string[] =>
  typeof v === "string" ? [v] : (Object.values(v) as string[]);

/** What is wrong with a catalog against the English one, as lines (none: nothing). */
function problems(code: string, c: Catalog): string[] {
  const out: string[] = [];
  const keys = new Set(Object.keys(en));
  for (const k of Object.keys(c)) if (!keys.has(k)) out.push(`${code}: extra key ${k}`);
  for (const k of keys) {
    const mine = (c as Record<string, string | Plural>)[k];
    const theirs = (en as Record<string, string | Plural>)[k]!;
    if (mine === undefined) {
      out.push(`${code}: missing key ${k}`);
      continue;
    }
    if (typeof mine !== typeof theirs)
      out.push(`${code}: ${k} is ${typeof mine}, English has ${typeof theirs}`);
    const want = placeholders(forms(theirs)[0]!).filter((p) => p !== "n");
    for (const f of forms(mine)) {
      if (f.trim() === "") out.push(`${code}: ${k} is empty`);
      const got = placeholders(f).filter((p) => p !== "n");
      if (got.join() !== want.join()) out.push(`${code}: ${k} uses {${got}}, English {${want}}`);
    }
  }
  return out;
}

describe("the catalogs", () => {
  it("have every English key, no other, and the English placeholders in every language", () => {
    for (const code of ALL) expect(problems(code, catalogOf(code)), code).toEqual([]);
  });

  it("are shown able to fail: a missing, an extra and a misnamed placeholder are named", () => {
    const { "tab.round": _dropped, ...rest } = catalogOf("es");
    const broken = { ...rest, "tab.extra": "x", "standings.after": "Clasificación tras la ronda {m}" };
    expect(problems("xx", broken as unknown as Catalog)).toEqual([
      "xx: extra key tab.extra",
      "xx: missing key tab.round",
      "xx: standings.after uses {m}, English {}",
    ]);
  });

  it("give every plural category of the language's rules a form, or 'other'", () => {
    for (const code of ALL) {
      const cats = new Intl.PluralRules(INTL_LOCALE[code]).resolvedOptions().pluralCategories;
      for (const [k, v] of Object.entries(catalogOf(code))) {
        if (typeof v === "string") continue;
        expect(v.other, `${code} ${k}`).toBeTruthy();
        // A form for a category the language does not have is a typo.
        for (const f of Object.keys(v)) expect(cats, `${code} ${k} ${f}`).toContain(f);
      }
    }
  });

  it("use each federation's chess words, not English ones", () => {
    const c = (code: Language, k: keyof typeof en) => catalogOf(code)[k as "tab.standings"];
    expect([
      c("es", "tab.standings"),
      c("de", "tab.standings"),
      c("fr", "tab.standings"),
      c("pt", "tab.standings"),
    ]).toEqual(["Clasificación", "Rangliste", "Classement", "Classificação"]);
    expect(c("es", "round.title")).toBe("Ronda {n}");
    expect(c("de", "round.title")).toBe("Runde {n}");
    expect(c("fr", "round.title")).toBe("Ronde {n}");
    expect(c("pt", "round.title")).toBe("Rodada {n}");
    expect(c("de", "standings.tiebreaks")).toMatch(/^Feinwertungen/);
    expect(c("es", "standings.tiebreaks")).toMatch(/^Desempates/);
    expect(c("fr", "standings.tiebreaks")).toMatch(/^Départages/);
    expect(c("pt", "standings.tiebreaks")).toMatch(/^Desempates/);
    expect(c("fr", "tab.crosstable")).toBe("Grille américaine");
  });
});

describe("the pseudo-locale", () => {
  it("accents every text, makes it longer and wraps it in right-to-left marks, keeping placeholders", () => {
    const p = catalogOf(PSEUDO);
    for (const [k, v] of Object.entries(en)) {
      const mine = (p as Record<string, string | Plural>)[k]!;
      for (const [i, f] of forms(mine).entries()) {
        const source = forms(v)[i]!;
        expect(f.startsWith("\u200f[") && f.endsWith("]\u200f"), k).toBe(true);
        expect(f.length, k).toBeGreaterThan(source.length * 1.3);
        expect(placeholders(f)).toEqual(placeholders(source));
      }
    }
    expect(localeOf(PSEUDO).t("tab.standings")).toBe("\u200f[Šţáñđíñĝš ~~~~~]\u200f");
  });
});

describe("a locale", () => {
  it("formats plurals by the language's rules and numbers by Intl", () => {
    expect(localeOf("es").plural("overview.recapCount", 1)).toBe("1 crónica");
    expect(localeOf("es").plural("overview.recapCount", 3)).toBe("3 crónicas");
    expect(localeOf("fr").plural("feed.boards", 0)).toBe("0 échiquier");
    expect(localeOf("en").plural("feed.boards", 0)).toBe("0 boards");
    expect(localeOf("de").decimal("23.5")).toBe("23,5");
    expect(localeOf("en").decimal("23.5")).toBe("23.5");
    expect(localeOf("de").decimal("TB1")).toBe("TB1");
    expect(localeOf("en").t("round.of", { n: 4, total: 7 })).toBe("Round 4 of 7");
  });

  it("formats calendar dates alike in every zone, and instants in its zone", () => {
    expect(localeOf("es").dates("2026-11-18", "2026-11-26")).toBe("18–26 nov 2026");
    expect(localeOf("de").dates("2026-12-19", null)).toBe("19. Dez. 2026");
    expect(localeOf("es", "Pacific/Kiritimati").dates("2026-12-19", null)).toBe("19 dic 2026");
    expect(localeOf("en").dates(null, null)).toBe("");
    expect(localeOf("en").instant("2026-11-22T11:58:00Z")).toBe("22 Nov 2026, 11:58 UTC");
    expect(localeOf("es", "Europe/Madrid").instant("2026-11-22T11:58:00Z")).toMatch(/^22 nov 2026, 12:58 /);
  });

  it("names languages in its own language, and a club's language tag picks a catalog", () => {
    expect(localeOf("es").languageName("en")).toBe("inglés");
    expect(localeOf("de").languageName("es")).toBe("Spanisch");
    expect(languageOf("es-AR")).toBe("es");
    expect(languageOf("pt_BR")).toBe("pt");
    expect(languageOf("eu")).toBe("en");
    expect(languageOf(null)).toBe("en");
  });
});

describe("the error pages' words", () => {
  const STATUSES = [400, 404, 405, 500] as const;

  it("in English are the page's own (the edge code bundles no catalog)", () => {
    const words = errorPageWords(localeOf("en"));
    for (const status of STATUSES) expect(errorPage(status, "/", words)).toBe(errorPage(status));
  });

  it("in English are the CloudFront function's own page, spelled out for its 10 KB", () => {
    for (const status of STATUSES)
      for (const home of ["/", "/chess/"])
        expect(englishErrorPage(status, home)).toBe(errorPage(status, home));
  });

  it("hold no markup character in any language (the page writes them as they are)", () => {
    for (const code of ALL) {
      const w = errorPageWords(localeOf(code));
      for (const s of [w.home, ...Object.values(w.titles), ...Object.values(w.texts)])
        expect(s).not.toMatch(/[&<>"]/);
    }
  });

  it("make the page in the language, with its lang", () => {
    const page = errorPage(404, "/chess/", errorPageWords(localeOf("es")));
    expect(page).toContain('<html lang="es">');
    expect(page).toContain("<h1>Página no encontrada</h1>");
    expect(page).toContain('<a href="/chess/">Todos los torneos</a>');
    expect(errorPage(405, "/", errorPageWords(localeOf("de")))).toContain("<h1>Methode nicht erlaubt</h1>");
  });
});
