// The locale object pages, the embed, feeds, calendars and error pages take as a value: the
// catalog of one language with the Intl formatters of that language in one time zone. Nothing
// here is global state: the same language and zone give an equal object (cached, as making Intl
// formatters costs far more than using them).
import type { Catalog, MessageKey, Params, Plural, PluralKey } from "./catalog.ts";
import { de } from "./de.ts";
import { en } from "./en.ts";
import { es } from "./es.ts";
import { fr } from "./fr.ts";
import { INTL_LOCALE, PSEUDO, type Language } from "./languages.ts";
import { pseudo } from "./pseudo.ts";
import { pt } from "./pt.ts";
import { zonedInstant } from "./zone.ts";

const CATALOGS: Readonly<Record<Exclude<Language, typeof PSEUDO>, Catalog>> = { en, es, fr, de, pt };
let pseudoCatalog: Catalog | undefined;

/** The catalog of a language (the pseudo-locale's is made from the English one on first use). */
export function catalogOf(language: Language): Catalog {
  if (language === PSEUDO) return (pseudoCatalog ??= pseudo(en));
  return CATALOGS[language];
}

export interface Locale {
  readonly language: Language;
  /** The BCP 47 tag of `lang` attributes (`xml:lang`, LANGUAGE parameters). */
  readonly tag: string;
  /** The locale Intl formats for (INTL_LOCALE), e.g. for a browser script to format alike. */
  readonly intl: string;
  /** The IANA zone instants are shown in. */
  readonly timeZone: string;
  t(key: MessageKey, params?: Params): string;
  /** The plural form for `n` (also passed as the parameter `n`). */
  plural(key: PluralKey, n: number, params?: Params): string;
  /** Calendar dates (YYYY-MM-DD) as a range, "18–26 Nov 2026"; "" when both are null. */
  dates(start: string | null, end: string | null): string;
  /** One calendar date (YYYY-MM-DD) with its weekday, "Sat, 21 Nov 2026" (a round's day). */
  day(date: string): string;
  /** An instant's date and time in the time zone, with the zone's short name. */
  instant(iso: string): string;
  /**
   * A round's start: the venue's wall-clock `time` (HH:MM) on `date` (YYYY-MM-DD) read in the
   * time zone, as its instant (ISO 8601, UTC) and as the time with the zone's short name
   * ("09:30 CET", "09:30 UTC").
   */
  start(date: string, time: string): { iso: string; text: string };
  /** A decimal number's text ("23.5") with the locale's separator; any other text as it is. */
  decimal(text: string): string;
  /** A language code's name in this language ("es" → "español"); the code when unknown. */
  languageName(code: string): string;
}

const cache = new Map<string, Locale>();

/** The locale of `language`, its instants in `timeZone` (default UTC). */
export function localeOf(language: Language, timeZone = "UTC"): Locale {
  const id = `${language} ${timeZone}`;
  let l = cache.get(id);
  if (l === undefined) cache.set(id, (l = makeLocale(language, timeZone)));
  return l;
}

/** `{name}` replaced by its parameter; a number through Intl.NumberFormat. */
function fill(template: string, params: Params | undefined, number: Intl.NumberFormat): string {
  if (params === undefined || !template.includes("{")) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const v = params[name];
    return v === undefined ? whole : typeof v === "number" ? number.format(v) : v;
  });
}

/** A formatter's results kept by key (at most MEMO entries, then started afresh): a build
 * formats the same few dates on thousands of pages. */
const MEMO = 4096;
function memo<A extends unknown[]>(
  format: (key: string) => string,
  keyOf: (...args: A) => string,
): (...args: A) => string {
  const done = new Map<string, string>();
  return (...args) => {
    const key = keyOf(...args);
    let v = done.get(key);
    if (v === undefined) {
      if (done.size >= MEMO) done.clear();
      done.set(key, (v = format(key)));
    }
    return v;
  };
}

function makeLocale(language: Language, timeZone: string): Locale {
  const catalog = catalogOf(language);
  const intl = INTL_LOCALE[language];
  // Integers as written (no grouping: ratings and round numbers read 2500, not 2 500).
  const number = new Intl.NumberFormat(intl, { useGrouping: false, maximumFractionDigits: 20 });
  const rules = new Intl.PluralRules(intl);
  // Calendar dates have no zone: they are formatted as UTC midnights, so every zone shows them alike.
  const day = new Intl.DateTimeFormat(intl, {
    day: "numeric",
    month: "short",
    year: "numeric",
    timeZone: "UTC",
  });
  const weekday = new Intl.DateTimeFormat(intl, {
    weekday: "short",
    day: "numeric",
    month: "short",
    year: "numeric",
    timeZone: "UTC",
  });
  const moment = new Intl.DateTimeFormat(intl, {
    day: "numeric",
    month: "short",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
    timeZone,
    timeZoneName: "short",
  });
  const clock = new Intl.DateTimeFormat(intl, {
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
    timeZone,
    timeZoneName: "short",
  });
  const separator = number.formatToParts(1.5).find((p) => p.type === "decimal")?.value ?? ".";
  const names = new Intl.DisplayNames([intl], { type: "language", fallback: "code" });
  const utc = (date: string): number => Date.parse(`${date}T00:00:00Z`);
  return {
    language,
    tag: language,
    intl,
    timeZone,
    t: (key, params) => fill(catalog[key], params, number),
    plural: (key, n, params) => {
      const forms: Plural = catalog[key];
      return fill(forms[rules.select(n)] ?? forms.other, { ...params, n }, number);
    },
    // Every page of a tournament names its dates and its retrieval instant: formatted once each.
    dates: memo(
      (key) => {
        const [start, end] = key.split("|") as [string, string];
        if (!start && !end) return "";
        if (!start || !end || start === end) return day.format(utc(start || end));
        return day.formatRange(utc(start), utc(end));
      },
      (start: string | null, end: string | null) => `${start ?? ""}|${end ?? ""}`,
    ),
    day: memo(
      (date) => weekday.format(utc(date)),
      (date: string) => date,
    ),
    instant: memo(
      (iso) => moment.format(Date.parse(iso)),
      (iso: string) => iso,
    ),
    start: (date, time) => {
      const ms = zonedInstant(date, time, timeZone);
      return { iso: new Date(ms).toISOString().replace(".000Z", "Z"), text: clock.format(ms) };
    },
    decimal: (text) => (/^-?\d+\.\d+$/.test(text) ? text.replace(".", separator) : text),
    languageName: (code) => {
      try {
        return names.of(code) ?? code;
      } catch {
        return code; // not a well-formed tag: shown as stored
      }
    },
  };
}
