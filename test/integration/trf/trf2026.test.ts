// A TRF-2026 file (test/fixtures/trf/trf2026-rapid-round-robin.trf: ### comments, 132 by column
// with round 2's date left blank, 222 encoded time control) imported with the announced start
// times (--round-time), then built: the schedule JSON, the overview page and the iCalendar file
// show the same dates and times, each event timed where a time is known.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import ICAL from "ical.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build } from "../../../src/pipeline/build.ts";
import { createStore } from "../../../src/store/write/init.ts";
import { importTrf } from "../../../src/trf/import.ts";
import { parseRoundTimes } from "../../../src/trf/schedule.ts";
import { attr, elements, hasClass, parseStrict, text } from "../../support/dom.ts";
import { removeTempDirs, tempDir } from "../../support/temp.ts";

const FIXTURE = new URL("../../fixtures/trf/trf2026-rapid-round-robin.trf", import.meta.url);
const work = tempDir("trf2026");
afterAll(removeTempDirs);
const ID = "2026314";
let db: string;
let out: string;
let warnings: string[];

beforeAll(async () => {
  db = join(work, "store.sqlite");
  createStore(db);
  const report = importTrf({
    file: FIXTURE.pathname,
    db,
    externalId: BigInt(ID),
    publish: true,
    sourceUrl: "https://example.org/spring-rapid",
    roundTimes: parseRoundTimes("09:30,3=14:00,2=11:00"),
    now: "2026-03-15T18:00:00Z",
  });
  warnings = report.warnings;
  out = join(work, "dist");
  await build({ db, out, now: Date.parse("2026-03-15T18:00:00Z") });
}, 60_000);

const read = (rel: string) => readFileSync(join(out, rel), "utf8");

describe("a TRF-2026 file with announced start times", () => {
  it("stores round 1 and 3 with date and time; round 2 (blank 132 field) has neither", () => {
    const s = JSON.parse(read(`api/public/v1/tournaments/${ID}/schedule/index.json`)) as {
      rounds: { roundNumber: number; date: string | null; time: string | null }[];
      calendarPath: string | null;
    };
    expect(s.rounds.map((r) => [r.roundNumber, r.date, r.time])).toEqual([
      [1, "2026-03-14", "09:30"],
      [2, null, null],
      [3, "2026-03-15", "14:00"],
    ]);
    expect(s.calendarPath).toBe(`/calendar/${ID}.ics`);
    expect(warnings).toContain("--round-time: round 2 has no date in record 132; its time is not stored");
  });

  it("stores the time control of record 222 in words (the file has no 122)", () => {
    const d = new Database(db, { readonly: true });
    try {
      expect(d.prepare("SELECT time_control FROM tournaments").pluck().get()).toBe("25 min + 10 s per move");
    } finally {
      d.close();
    }
  });

  it("shows the same dates and times on the overview page", () => {
    const { doc, errors } = parseStrict(read(`tournaments/${ID}/index.html`));
    expect(errors).toEqual([]);
    const table = elements(doc, (e) => e.nodeName === "table" && hasClass(e, "schedule"))[0]!;
    const cells = (cls: string) => elements(table, (e) => e.nodeName === "td" && hasClass(e, cls)).map(text);
    // Said as every page says dates, the date itself machine-readable; times name their zone.
    expect(cells("date")).toEqual(["Sat, 14 Mar 2026", "not announced", "Sun, 15 Mar 2026"]);
    const stamps = elements(table, (e) => e.nodeName === "time").map((e) => attr(e, "datetime"));
    expect(stamps).toEqual(["2026-03-14", "2026-03-14T09:30:00Z", "2026-03-15", "2026-03-15T14:00:00Z"]);
    // No club lists it, so no zone is known: the times are read and named as UTC.
    expect(cells("time")).toEqual(["09:30 UTC", "", "14:00 UTC"]);
  });

  it("times each event of the calendar (in the tournament's zone, here UTC), one per dated round", () => {
    const cal = new ICAL.Component(ICAL.parse(read(`calendar/${ID}.ics`)));
    const events = cal.getAllSubcomponents("vevent").map((v) => new ICAL.Event(v));
    expect(events.map((e) => [e.uid, e.startDate.isDate, e.startDate.toString()])).toEqual([
      [`round-1.tournament-${ID}@build-api`, false, "2026-03-14T09:30:00Z"],
      [`round-3.tournament-${ID}@build-api`, false, "2026-03-15T14:00:00Z"],
    ]);
  });
});
