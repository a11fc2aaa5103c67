// Issue 22: the schedule of the sample. The iCalendar files parse with ical.js (Mozilla's RFC 5545
// parser), hold one event per dated round with stable UIDs and the JSON's dates and times, are
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
        expect(start.toString().slice(0, 10)).toBe(r.date);
        expect(start.isDate).toBe(r.time === null);
        if (r.time)
          expect(`${String(start.hour).padStart(2, "0")}:${String(start.minute).padStart(2, "0")}`).toBe(
            r.time,
          );
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
        })),
      ).toEqual(
        s.rounds.map((r) => ({
          round: r.roundNumber,
          date: r.date ?? "not announced",
          shown: r.date ? localeOf("en").day(r.date) : "not announced",
          // A start time names its zone; the pages do not know the venue's, so "local time".
          time: r.time ? `${r.time} local time` : "",
        })),
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
