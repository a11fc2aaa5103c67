// The one way of saying dates and times: the Locale (src/i18n/locale.ts), a language and a time
// zone in. Since the i18n merge the pages' own dates module is gone: its day-with-weekday and its
// "local time" moved into the Locale and the catalogs; its English ranges ("21–22 Nov 2026") gave
// way to Intl's ("21 – 22 Nov 2026", with thin spaces), which every language shares; an instant names its zone as
// Intl's short name ("UTC", "GMT+1") after the locale's date, not "2026-11-22 11:58 UTC".
import { describe, expect, it } from "vitest";
import { localeOf } from "../../../src/i18n/locale.ts";

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

  it("name the zone of every time: a round's start is 'local time' (the venue's zone is not known); instants name theirs", () => {
    expect(localeOf("en").t("date.localTime", { time: "09:30" })).toBe("09:30 local time");
    expect(localeOf("de").t("date.localTime", { time: "09:30" })).toBe("09:30 Ortszeit");
    expect(localeOf("en").instant("2026-11-22T11:58:00Z")).toBe("22 Nov 2026, 11:58 UTC");
    expect(localeOf("en", "Europe/Dublin").instant("2026-07-22T11:58:00Z")).toBe("22 Jul 2026, 12:58 GMT+1");
  });
});
