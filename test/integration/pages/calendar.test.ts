// Issue 22: the schedule of the sample. The iCalendar files parse with ical.js (Mozilla's RFC 5545
// parser), hold one event per dated round with stable UIDs and the JSON's dates and times (a
// start time as the UTC instant at which the tournament's zone shows it), are
// served as text/calendar in the cache class of the tournament's JSON, and the overview page
// shows the same schedule.
import { readFileSync } from "node:fs";
import path from "node:path";
import fg from "fast-glob";
import ICAL from "ical.js";
import { beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import type { ScheduleResponse } from "../../../src/contracts/extensions.ts";
import { hostRules } from "../../../src/hosting/rules.ts";
import { foldLine, icsText } from "../../../src/pages/calendar.ts";
import { buildSample } from "../../support/e2e.ts";
import { tempDir } from "../../support/temp.ts";
import { attr, elements, hasClass, parseStrict, text } from "../../support/dom.ts";
import { localeOf } from "../../../src/i18n/locale.ts";

let out: string;
let calendars: string[];
beforeAll(async () => {
  ({ out } = await buildSample(tempDir("calendar")));
  calendars = fg.sync("calendar/*.ics", { cwd: out });
}, 60_000);

const read = (rel: string) => readFileSync(path.join(out, rel), "utf8");
type Schedule = z.output<typeof ScheduleResponse>;

/** The time zone of a tournament's times: that of the club listing it (the sample's tournaments
 * are in one club at most), else UTC. */
function zoneOf(id: string): string {
  for (const slug of fg.sync("*", { cwd: path.join(out, "api/clubs"), onlyDirectories: true })) {
    const c = JSON.parse(read(`api/clubs/${slug}/tournaments/index.json`)) as {
      timeZone: string | null;
      tournaments: { tournament: { tournamentId: number | string } }[];
    };
    if (c.timeZone && c.tournaments.some((t) => String(t.tournament.tournamentId) === id)) return c.timeZone;
  }
  return "UTC";
}

/** What the clocks of `timeZone` show at an instant. */
function wallClock(at: Date, timeZone: string): { date: string; time: string } {
  const f = new Intl.DateTimeFormat("en-CA", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
  });
  const p = Object.fromEntries(f.formatToParts(at).map((x) => [x.type, x.value]));
  return { date: `${p.year}-${p.month}-${p.day}`, time: `${p.hour}:${p.minute}` };
}

/** The instant, within a day of `date`, at which the clocks of `timeZone` show `date` `time`. */
function startsAt(date: string, time: string, timeZone: string): Date {
  for (let m = -24 * 60; m <= 24 * 60; m += 15) {
    const at = new Date(Date.parse(`${date}T${time}:00Z`) + m * 60_000);
    if (JSON.stringify(wallClock(at, timeZone)) === JSON.stringify({ date, time })) return at;
  }
  throw new Error(`${date} ${time} never shows in ${timeZone}`);
}

/** The zone's short name at an instant, as English says it ("UTC", "GMT+11", "CET"). */
function zoneName(at: Date, timeZone: string): string {
  return new Intl.DateTimeFormat("en-GB", { timeZone, timeZoneName: "short" })
    .formatToParts(at)
    .find((p) => p.type === "timeZoneName")!.value;
}

describe("iCalendar files of the sample", () => {
  it("exist exactly for the tournaments whose schedule has a date", () => {
    const ids = (JSON.parse(read("api/public/v1/tournaments/index.json")) as { id: number | string }[]).map(
      (s) => String(s.id),
    );
    const withDates = ids.filter((id) => {
      const s = JSON.parse(read(`api/public/v1/tournaments/${id}/schedule/index.json`)) as Schedule;
      expect(s.calendarPath).toBe(s.rounds.some((r) => r.date) ? `/calendar/${id}.ics` : null);
      return s.calendarPath !== null;
    });
    expect(withDates.length).toBeGreaterThanOrEqual(3);
    expect(calendars.sort()).toEqual(withDates.map((id) => `calendar/${id}.ics`).sort());
  });

  it("parse with ical.js: one event per dated round, stable UIDs, the JSON's dates and times", () => {
    for (const rel of calendars) {
      const id = path.basename(rel, ".ics");
      const s = JSON.parse(read(`api/public/v1/tournaments/${id}/schedule/index.json`)) as Schedule;
      const raw = read(rel);
      expect(raw.endsWith("\r\n")).toBe(true);
      expect(raw.split("\r\n").every((l) => Buffer.byteLength(l) <= 75)).toBe(true);
      const cal = new ICAL.Component(ICAL.parse(raw));
      expect(cal.getFirstPropertyValue("version")).toBe("2.0");
      expect(cal.getFirstPropertyValue("prodid")).toBeTruthy();
      const events = cal.getAllSubcomponents("vevent").map((v) => new ICAL.Event(v));
      const dated = s.rounds.filter((r) => r.date !== null);
      expect(events.map((e) => e.uid)).toEqual(
        dated.map((r) => `round-${r.roundNumber}.tournament-${id}@build-api`),
      );
      events.forEach((e, i) => {
        const r = dated[i]!;
        const start = e.startDate;
        expect(start.isDate).toBe(r.time === null);
        if (r.time) {
          // A UTC time (form 2), the venue's wall clock in the tournament's zone: the club's.
          expect(start.zone.tzid).toBe("UTC");
          expect(wallClock(start.toJSDate(), zoneOf(id))).toEqual({ date: r.date, time: r.time });
        } else expect(start.toString().slice(0, 10)).toBe(r.date);
        expect(e.summary).toContain(`round ${r.roundNumber}`);
        expect(e.component.getFirstPropertyValue("dtstamp")).toBeTruthy();
      });
    }
  });

  it("are served as text/calendar, cross-origin, in the tournament JSON's cache class", () => {
    const rule = hostRules().statics.find((r) => r.ext === "ics")!;
    expect(rule).toMatchObject({
      prefix: "/calendar/",
      type: "text/calendar; charset=utf-8",
      cache: "current",
    });
  });

  it("show on the overview page with the JSON's dates and times, linking the calendar", () => {
    for (const rel of calendars) {
      const id = path.basename(rel, ".ics");
      const s = JSON.parse(read(`api/public/v1/tournaments/${id}/schedule/index.json`)) as Schedule;
      const { doc } = parseStrict(read(`tournaments/${id}/index.html`));
      const table = elements(doc, (e) => hasClass(e, "schedule"))[0]!;
      const rows = elements(table, (e) => e.tagName === "tr" && attr(e, "data-round") !== undefined);
      expect(
        rows.map((tr) => ({
          round: Number(attr(tr, "data-round")),
          // The date said as every page says dates, its value machine-readable beside it.
          date: elements(tr, (e) => e.tagName === "time")[0]
            ? attr(elements(tr, (e) => e.tagName === "time")[0]!, "datetime")
            : text(elements(tr, (e) => hasClass(e, "date"))[0]!),
          shown: text(elements(tr, (e) => hasClass(e, "date"))[0]!),
          time: text(elements(tr, (e) => hasClass(e, "time"))[0]!),
          at: attr(
            elements(elements(tr, (e) => hasClass(e, "time"))[0]!, (e) => e.tagName === "time")[0] ?? tr,
            "datetime",
          ),
        })),
      ).toEqual(
        s.rounds.map((r) => {
          const at = r.time ? startsAt(r.date!, r.time, zoneOf(id)) : undefined;
          return {
            round: r.roundNumber,
            date: r.date ?? "not announced",
            shown: r.date ? localeOf("en").day(r.date) : "not announced",
            // A start time names its zone (the club's, else UTC), its instant machine-readable.
            time: at ? `${r.time} ${zoneName(at, zoneOf(id))}` : "",
            at: at?.toISOString().replace(".000Z", "Z"),
          };
        }),
      );
      expect(elements(doc, (e) => attr(e, "href") === `/calendar/${id}.ics`)).toHaveLength(1);
    }
  });
});

describe("iCalendar text", () => {
  it("escapes TEXT values and folds long lines at 75 octets without splitting a character", () => {
    expect(icsText("a,b;c\\d\ne")).toBe("a\\,b\\;c\\\\d\\ne");
    const line = `SUMMARY:${"Torneo Rápido de Navidad ".repeat(6)}`;
    const folded = foldLine(line);
    for (const l of folded.split("\r\n")) expect(Buffer.byteLength(l)).toBeLessThanOrEqual(75);
    expect(
      folded
        .split("\r\n")
        .map((l, i) => (i ? l.slice(1) : l))
        .join(""),
    ).toBe(line);
  });
});
