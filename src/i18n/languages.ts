// The languages a build can speak. Each has a catalog (./{code}.ts) and the BCP 47 tag its pages
// declare; `intl` is the locale Intl formats its dates and numbers for. English formats as in
// en-GB (day month year, 24-hour clock), as the chess world outside the US writes dates.
// PSEUDO is the test locale (./pseudo.ts): longer strings, accents and right-to-left marks.
export const LANGUAGES = ["en", "es", "fr", "de", "pt"] as const;
export const PSEUDO = "en-XA";
export type Language = (typeof LANGUAGES)[number] | typeof PSEUDO;

export const DEFAULT_LANGUAGE: Language = "en";

export const INTL_LOCALE: Readonly<Record<Language, string>> = {
  en: "en-GB",
  es: "es",
  fr: "fr",
  de: "de",
  pt: "pt",
  [PSEUDO]: "en-GB",
};

export function isLanguage(value: string): value is Language {
  return value === PSEUDO || (LANGUAGES as readonly string[]).includes(value);
}

/**
 * The language of a club's pages and embed: its defaultLanguage when we have that catalog (a
 * regional tag such as "es-AR" speaks its language's), else English.
 */
export function languageOf(tag: string | null | undefined): Language {
  if (!tag) return DEFAULT_LANGUAGE;
  if (isLanguage(tag)) return tag;
  const base = tag.split(/[-_]/)[0]!.toLowerCase();
  return isLanguage(base) ? base : DEFAULT_LANGUAGE;
}
