// A tournament's schedule as an iCalendar file (RFC 5545) that calendar applications subscribe
// to: one event per round with a date. Deterministic: the stamp is the tournament's own
// last-retrieval instant, never the clock, and each event's UID is made of the tournament id and
// the round number, so a calendar updates an event instead of adding a second one.
import type { Locale } from "../i18n/locale.ts";
import type { ScheduleView } from "../views/extensions.ts";

/** Escapes a TEXT value (RFC 5545 3.3.11). */
export function icsText(value: string): string {
  return value.replace(/[\\;,]/g, (c) => `\\${c}`).replace(/\r\n|\r|\n/g, "\\n");
}

/** Folds a content line at 75 octets (RFC 5545 3.1), never inside a UTF-8 sequence. */
export function foldLine(line: string): string {
  const out: string[] = [];
  let current = "";
  let octets = 0;
  for (const ch of line) {
    const cp = ch.codePointAt(0)!;
    const size = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    // Continuation lines start with a space, which counts toward their 75 octets.
    if (octets + size > 75) {
      out.push(current);
      current = " ";
      octets = 1;
    }
    current += ch;
    octets += size;
  }
  out.push(current);
  return out.join("\r\n");
}

/** 2026-11-22T11:58:00Z → 20261122T115800Z (fractions dropped). */
export function utcStamp(iso: string): string {
  return iso.replace(/\.\d+Z$/, "Z").replace(/[-:]/g, "");
}

/**
 * DTSTART of a round: the venue's wall-clock time read in the locale's zone (the club's, else the
 * tournament's, else UTC: pages/tournament.ts zoneOf) as a UTC time (3.3.5 form 2), which every
 * calendar shows in its reader's zone; the whole day when no time was announced.
 */
export function startLine(l: Locale, date: string, time: string | null): string {
  if (time === null) return `DTSTART;VALUE=DATE:${date.replace(/-/g, "")}`;
  return `DTSTART:${utcStamp(l.start(date, time).iso)}`;
}

export interface CalendarInput {
  /** The language of the events' text (the global pages' language, or the club's). */
  l: Locale;
  id: string;
  name: string;
  location: string | null;
  /** The instant the data was last retrieved (DTSTAMP). */
  stamp: string;
  /** The tournament's page, absolute path, shown in each event's description; null for a
   * club-only tournament (no page: the club's site shows it through the embed). */
  pagePath: string | null;
  schedule: ScheduleView;
}

export function calendarFile(c: CalendarInput): string {
  const lines = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//build-api//Tournament schedule//EN",
    "CALSCALE:GREGORIAN",
    "METHOD:PUBLISH",
    `X-WR-CALNAME:${icsText(c.name)}`,
  ];
  const total = c.schedule.totalRounds;
  // The LANGUAGE parameter (RFC 5545 3.2.10) names the language of the text values.
  const lang = `;LANGUAGE=${c.l.tag}`;
  for (const r of c.schedule.rounds) {
    if (r.date === null) continue;
    lines.push(
      "BEGIN:VEVENT",
      `UID:round-${r.roundNumber}.tournament-${c.id}@build-api`,
      `DTSTAMP:${utcStamp(c.stamp)}`,
      startLine(c.l, r.date, r.time),
      `SUMMARY${lang}:${icsText(
        total
          ? c.l.t("calendar.roundOf", { name: c.name, n: r.roundNumber, total })
          : c.l.t("calendar.round", { name: c.name, n: r.roundNumber }),
      )}`,
      ...(c.location ? [`LOCATION:${icsText(c.location)}`] : []),
      ...(c.pagePath
        ? [`DESCRIPTION${lang}:${icsText(c.l.t("calendar.description", { url: c.pagePath }))}`]
        : []),
      "END:VEVENT",
    );
  }
  lines.push("END:VCALENDAR");
  return lines.map(foldLine).join("\r\n") + "\r\n";
}
