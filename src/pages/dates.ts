// The one way pages, feeds and calendars say dates and times. Every function takes the style: the
// locale ("en" today: day, month, year, as the pages have always written them) and the time zone
// that times are said in. Instants are UTC in the store and named so; a round's start time is the
// venue's wall-clock time (import-trf --round-time), named by the zone when one is known, else
// "local time" (calling it UTC would be false). A tournament's pages do not know its clubs' time
// zones yet, so they pass none.
import { esc } from "./html.ts";

export interface DateStyle {
  /** A BCP 47 locale; "en" writes "21 Nov 2026". */
  locale: string;
  /** The IANA zone that local times are in, or null when it is not known. */
  timeZone: string | null;
}

export const DEFAULT_DATE_STYLE: DateStyle = { locale: "en", timeZone: null };

/** The human text of dates and times, in one place. */
export const DATE_TEXT = {
  utc: "UTC",
  localTime: "local time",
  notAnnounced: "not announced",
} as const;

/** The pages' English is day-month-year, the order of British English. */
function intlLocale(locale: string): string {
  return locale === "en" ? "en-GB" : locale;
}

const dayFormats = new Map<string, Intl.DateTimeFormat>();

function dayFormat(locale: string, weekday: boolean): Intl.DateTimeFormat {
  const key = `${locale}|${weekday}`;
  let f = dayFormats.get(key);
  if (!f) {
    // A calendar date has no zone: read and written as UTC, it stays the same day.
    f = new Intl.DateTimeFormat(intlLocale(locale), {
      ...(weekday ? { weekday: "short" as const } : {}),
      day: "numeric",
      month: "short",
      year: "numeric",
      timeZone: "UTC",
    });
    dayFormats.set(key, f);
  }
  return f;
}

function utcDay(date: string): Date {
  return new Date(`${date}T00:00:00Z`);
}

/** A calendar date with its weekday: "Sat 21 Nov 2026". */
export function formatDay(date: string, style: DateStyle = DEFAULT_DATE_STYLE): string {
  return dayFormat(style.locale, true).format(utcDay(date));
}

/** "18–26 Nov 2026", "28 Apr – 2 Jun 2026", "19 Dec 2026"; "" when both are unknown. */
export function formatDates(
  start: string | null,
  end: string | null,
  style: DateStyle = DEFAULT_DATE_STYLE,
): string {
  if (!start && !end) return "";
  if (style.locale === "en") return englishDates(start, end);
  const f = dayFormat(style.locale, false);
  if (!start || !end || start === end) return f.format(utcDay((start ?? end)!));
  return f.formatRange(utcDay(start), utcDay(end));
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

function parts(date: string): [number, string, number] {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  return [d, MONTHS[m - 1]!, y];
}

/** The pages' English ranges, tighter than Intl's ("18–26 Nov 2026", not "18 – 26 Nov 2026"). */
function englishDates(start: string | null, end: string | null): string {
  if (!start || !end || start === end) {
    const [d, m, y] = parts((start ?? end)!);
    return `${d} ${m} ${y}`;
  }
  const [d1, m1, y1] = parts(start);
  const [d2, m2, y2] = parts(end);
  if (y1 !== y2) return `${d1} ${m1} ${y1} – ${d2} ${m2} ${y2}`;
  if (m1 !== m2) return `${d1} ${m1} – ${d2} ${m2} ${y2}`;
  return `${d1}–${d2} ${m2} ${y2}`;
}

/** A round's announced start, its zone named: "09:30 Europe/Dublin", "09:30 local time". */
export function formatLocalTime(time: string, style: DateStyle = DEFAULT_DATE_STYLE): string {
  return `${time} ${style.timeZone ?? DATE_TEXT.localTime}`;
}

/** An instant of the store (UTC), in a <time> element: "2026-11-22 11:58 UTC". The live page's
 * script writes the same form (assets.ts). */
export function formatInstant(iso: string, style: DateStyle = DEFAULT_DATE_STYLE): string {
  void style; // the form of every locale today; the zone of instants is always named (UTC)
  return `<time datetime="${esc(iso)}">${esc(iso.slice(0, 10))} ${esc(iso.slice(11, 16))} ${DATE_TEXT.utc}</time>`;
}
