// The one way of saying dates and times: the Locale (src/i18n/locale.ts), a language and a time
// zone in (the club's timeZone, else the tournament's, else UTC). Since the i18n merge the pages'
// own dates module is gone: its day-with-weekday moved into the Locale, and a round's start names
// its zone (no more "local time"); its English ranges ("21–22 Nov 2026") gave
// way to Intl's ("21 – 22 Nov 2026", with thin spaces), which every language shares; an instant names its zone as
// Intl's short name ("UTC", "GMT+1") after the locale's date, not "2026-11-22 11:58 UTC".
import { describe, expect, it } from "vitest";
import { localeOf } from "../../../src/i18n/locale.ts";
import { zonedInstant } from "../../../src/i18n/zone.ts";

describe("dates and times", () => {
  it("say a calendar date with its weekday, the same day whatever the zone", () => {
    expect(localeOf("en").day("2026-11-21")).toBe("Sat, 21 Nov 2026");
    expect(localeOf("de").day("2026-11-21")).toBe("Sa., 21. Nov. 2026");
    expect(localeOf("en", "Pacific/Kiritimati").day("2026-11-21")).toBe("Sat, 21 Nov 2026");
  });

  it("say ranges the locale's way", () => {
    // Intl puts thin spaces (U+2009) around the dash of a range.
    expect(localeOf("en").dates("2026-11-21", "2026-11-22")).toBe("21\u2009–\u200922 Nov 2026");
    expect(localeOf("en").dates("2026-04-28", "2026-06-02")).toBe("28 Apr\u2009–\u20092 Jun 2026");
    expect(localeOf("en").dates("2026-12-19", null)).toBe("19 Dec 2026");
    expect(localeOf("en").dates(null, null)).toBe("");
    expect(localeOf("es").dates("2026-11-21", "2026-11-22")).toMatch(/21.*22.*nov.*2026/);
  });

  it("name the zone of every time: an instant's, and a round's start read in the tournament's zone", () => {
    expect(localeOf("en").instant("2026-11-22T11:58:00Z")).toBe("22 Nov 2026, 11:58 UTC");
    expect(localeOf("en", "Europe/Dublin").instant("2026-07-22T11:58:00Z")).toBe("22 Jul 2026, 12:58 GMT+1");
    // The venue's 09:30: the instant it is there, and the time with the zone's name.
    expect(localeOf("en").start("2026-11-21", "09:30")).toEqual({
      iso: "2026-11-21T09:30:00Z",
      text: "09:30 UTC",
    });
    expect(localeOf("de", "Europe/Berlin").start("2026-11-21", "09:30")).toEqual({
      iso: "2026-11-21T08:30:00Z",
      text: "09:30 MEZ",
    });
    expect(localeOf("en", "Europe/Berlin").start("2026-07-01", "09:30").iso).toBe("2026-07-01T07:30:00Z");
    expect(localeOf("en", "Australia/Melbourne").start("2026-11-21", "09:30")).toEqual({
      iso: "2026-11-20T22:30:00Z",
      text: "09:30 GMT+11",
    });
  });

  it("read a time the clocks show twice as its first showing, and one they skip with the offset before", () => {
    // Paris: 03:00 CEST became 02:00 CET on 25 Oct 2026; 02:00 CET became 03:00 CEST on 29 Mar 2026.
    expect(zonedInstant("2026-10-25", "02:30", "Europe/Paris")).toBe(Date.parse("2026-10-25T00:30:00Z"));
    expect(zonedInstant("2026-03-29", "02:30", "Europe/Paris")).toBe(Date.parse("2026-03-29T01:30:00Z"));
    expect(zonedInstant("2026-11-21", "23:30", "America/New_York")).toBe(Date.parse("2026-11-22T04:30:00Z"));
  });
});
