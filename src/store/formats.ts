// Format checks for text values of the store: calendar dates, UTC timestamps, UUIDs, URLs ...
// Pure functions; each returns whether the value is acceptable.

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const EMAIL = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]+$/;
const BRAND_COLOR = /^#[0-9a-fA-F]{6}$/;
// Characters no published text may hold: C0 controls (multi-line text keeps tab, line feed and
// carriage return), DEL, C1 controls, the line and paragraph separators U+2028 and U+2029, and
// every invisible format character (Unicode category Cf: the bidirectional controls U+202A-U+202E
// and U+2066-U+2069, the marks U+200E, U+200F and U+061C, the soft hyphen, U+FEFF, tag
// characters ...) except the zero-width non-joiner and joiner U+200C and U+200D, which Persian,
// Indic scripts and emoji sequences need to be spelt right.
/* eslint-disable no-control-regex */
const UNSAFE_ONE_LINE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]|(?![\u200c\u200d])\p{Cf}|\p{Cs}/u;
const UNSAFE_MULTI_LINE =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029]|(?![\u200c\u200d])\p{Cf}|\p{Cs}/u;
/* eslint-enable no-control-regex */
/** Directional formatting characters: they reorder what follows on screen (Trojan Source). */
const BIDI = /^[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]$/;

/** Days of each month, January first, in a common year. */
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Proleptic Gregorian calendar; the year has at most four digits (the patterns above). */
function isCalendarDate(year: number, month: number, day: number): boolean {
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  if (day <= 28) return true;
  if (month === 2) {
    const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
    return day <= (leap ? 29 : 28);
  }
  return day <= DAYS_IN_MONTH[month - 1]!;
}

/** YYYY-MM-DD naming a real calendar day (no 2026-02-30). */
export function isIsoDate(value: string): boolean {
  const m = DATE.exec(value);
  return m !== null && isCalendarDate(Number(m[1]), Number(m[2]), Number(m[3]));
}

/** The ASCII digits value[from..to) as a number, or -1 when one of them is not a digit. */
function digitsAt(value: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const d = value.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    n = n * 10 + d;
  }
  return n;
}

/** ISO 8601 in UTC with a "Z" suffix, optional fractional seconds, on a real calendar day:
 * YYYY-MM-DDThh:mm:ss[.f{1,9}]Z. Read character by character: timestamps are the most
 * frequent cells of a store. */
export function isUtcTimestamp(value: string): boolean {
  const length = value.length;
  // 20 characters without a fraction; with one, a dot and 1 to 9 digits.
  if (length !== 20 && (length < 22 || length > 30)) return false;
  if (
    value.charCodeAt(4) !== 45 || // -
    value.charCodeAt(7) !== 45 || // -
    value.charCodeAt(10) !== 84 || // T
    value.charCodeAt(13) !== 58 || // :
    value.charCodeAt(16) !== 58 || // :
    value.charCodeAt(length - 1) !== 90 // Z
  ) {
    return false;
  }
  if (length > 20 && (value.charCodeAt(19) !== 46 || digitsAt(value, 20, length - 1) < 0)) return false;
  const year = digitsAt(value, 0, 4);
  const month = digitsAt(value, 5, 7);
  const day = digitsAt(value, 8, 10);
  const hour = digitsAt(value, 11, 13);
  const minute = digitsAt(value, 14, 16);
  const second = digitsAt(value, 17, 19);
  if (year < 0 || month < 0 || day < 0 || hour < 0 || minute < 0 || second < 0) return false;
  return isCalendarDate(year, month, day) && hour <= 23 && minute <= 59 && second <= 59;
}

export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/** An absolute http(s) URL; other schemes (javascript:, data:, file:) could harm API consumers. */
export function isHttpUrl(value: string): boolean {
  if (!/^https?:\/\//i.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
  } catch {
    return false;
  }
}

export function isEmail(value: string): boolean {
  return value.length <= 254 && EMAIL.test(value);
}

export function isBrandColor(value: string): boolean {
  return BRAND_COLOR.test(value);
}

const timeZones = new Map<string, boolean>();
/**
 * The runtime's canonical IANA names, and UTC, which every runtime accepts. Listing them takes
 * about 1.5 ms; the first Intl.DateTimeFormat of a process loads locale data, 13-17 ms of every
 * build that opens a store, so only a name outside the list (an alias, another case) makes one.
 */
let canonicalZones: ReadonlySet<string> | undefined;

/** An IANA time-zone name the runtime knows, e.g. "Europe/Madrid" or "UTC". */
export function isTimeZone(value: string): boolean {
  let known = timeZones.get(value);
  if (known === undefined) {
    // Offsets such as "+01:00" are accepted by Intl but are not IANA names.
    known = /^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(value);
    canonicalZones ??= new Set([...Intl.supportedValuesOf("timeZone"), "UTC"]);
    if (known && !canonicalZones.has(value)) {
      try {
        new Intl.DateTimeFormat("en", { timeZone: value });
      } catch {
        known = false;
      }
    }
    if (timeZones.size < 1000) timeZones.set(value, known);
  }
  return known;
}

/** Why `value` cannot be published as text: the first character it must not hold, described
 * ("the right-to-left ... U+202E"), or null when it is fine. Refused, never removed: a silently
 * edited name would publish what the source did not say. One-line text (names, titles, labels,
 * headlines) also refuses tab and line breaks; multi-line text (descriptions, recap bodies) keeps
 * them. A lone surrogate (only a JSON escape can make one) is refused too. */
export function unsafeCharacter(value: string, multiline: boolean): string | null {
  const m = (multiline ? UNSAFE_MULTI_LINE : UNSAFE_ONE_LINE).exec(value);
  if (m === null) return null;
  const c = m[0];
  const code = `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;
  if (c === "\t" || c === "\n" || c === "\r" || c === "\u2028" || c === "\u2029") {
    return `a tab or line break (${code}), not allowed in one-line text`;
  }
  if (/\p{Cc}/u.test(c)) return `the control character ${code}`;
  if (/\p{Cs}/u.test(c)) return `the lone surrogate ${code} (not a Unicode character)`;
  if (BIDI.test(c)) return `the bidirectional control ${code}, which reorders text on screen`;
  return `the invisible format character ${code}`;
}

/** A format that a text cell must have, with the words a problem message uses. */
export interface TextFormat {
  test: (value: string) => boolean;
  /** What was expected, e.g. "a calendar date YYYY-MM-DD". */
  expected: string;
  /** How to fix a bad value. */
  fix: string;
}

export const DATE_FORMAT: TextFormat = {
  test: isIsoDate,
  expected: "a calendar date YYYY-MM-DD",
  fix: "write a real calendar date such as 2026-11-22",
};

/** A local time of day, 24 hours: 09:30, 15:00. */
export const LOCAL_TIME_FORMAT: TextFormat = {
  test: (v) => /^([01][0-9]|2[0-3]):[0-5][0-9]$/.test(v),
  expected: "a local time HH:MM (24 hours)",
  fix: "write a time such as 15:00",
};

export const TIMESTAMP_FORMAT: TextFormat = {
  test: isUtcTimestamp,
  expected: "an ISO 8601 UTC timestamp ending in Z",
  fix: "write a real UTC time such as 2026-11-22T12:00:00Z",
};

export const UUID_FORMAT: TextFormat = {
  test: isUuid,
  expected: "a UUID",
  fix: "write a UUID such as 123e4567-e89b-12d3-a456-426614174000",
};

export const HTTP_URL_FORMAT: TextFormat = {
  test: isHttpUrl,
  expected: "an absolute http or https URL",
  fix: "write a URL such as https://example.org/page",
};

export const EMAIL_FORMAT: TextFormat = {
  test: isEmail,
  expected: "an e-mail address",
  fix: "write an address such as info@example.org",
};

export const BRAND_COLOR_FORMAT: TextFormat = {
  test: isBrandColor,
  expected: "a colour #rrggbb",
  fix: "write a colour such as #1a2b3c",
};

export const TIME_ZONE_FORMAT: TextFormat = {
  test: isTimeZone,
  expected: "an IANA time-zone name",
  fix: "write a name such as Europe/Madrid",
};
