// Format checks for text values of the store: calendar dates, UTC timestamps, UUIDs, URLs ...
// Pure functions; each returns whether the value is acceptable.

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d{1,9})?Z$/;
const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const EMAIL = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]+$/;
const BRAND_COLOR = /^#[0-9a-fA-F]{6}$/;
// C0 controls other than tab, line feed and carriage return, DEL, and C1 controls.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

function isCalendarDate(year: number, month: number, day: number): boolean {
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  // Day 0 of the next month is the last day of this one; UTC avoids time-zone shifts.
  const d = new Date(Date.UTC(2000, month, 0));
  d.setUTCFullYear(year, month, 0);
  return day <= d.getUTCDate();
}

/** YYYY-MM-DD naming a real calendar day (no 2026-02-30). */
export function isIsoDate(value: string): boolean {
  const m = DATE.exec(value);
  return m !== null && isCalendarDate(Number(m[1]), Number(m[2]), Number(m[3]));
}

/** ISO 8601 in UTC with a "Z" suffix, optional fractional seconds, on a real calendar day. */
export function isUtcTimestamp(value: string): boolean {
  const m = TIMESTAMP.exec(value);
  if (m === null || !isCalendarDate(Number(m[1]), Number(m[2]), Number(m[3]))) return false;
  return Number(m[4]) <= 23 && Number(m[5]) <= 59 && Number(m[6]) <= 59;
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

/** An IANA time-zone name the runtime knows, e.g. "Europe/Madrid" or "UTC". */
export function isTimeZone(value: string): boolean {
  let known = timeZones.get(value);
  if (known === undefined) {
    // Offsets such as "+01:00" are accepted by Intl but are not IANA names.
    known = /^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(value);
    if (known) {
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

/** The first control character in `value` (tab and line breaks excepted), or null. */
export function controlCharacter(value: string): string | null {
  const m = CONTROL.exec(value);
  if (m === null) return null;
  return `U+${m[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`;
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
