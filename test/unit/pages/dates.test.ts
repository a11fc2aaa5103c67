// The one way of saying dates and times (src/pages/dates.ts): a locale and a time zone in, the
// zone always named.
import { describe, expect, it } from "vitest";
import { formatDates, formatDay, formatInstant, formatLocalTime } from "../../../src/pages/dates.ts";

describe("dates and times", () => {
  it("say a calendar date with its weekday, the same day whatever the machine's zone", () => {
    expect(formatDay("2026-11-21")).toBe("Sat, 21 Nov 2026");
    expect(formatDay("2026-11-21", { locale: "de", timeZone: null })).toBe("Sa., 21. Nov. 2026");
  });

  it("say ranges the pages' way in English, Intl's way in other locales", () => {
    expect(formatDates("2026-11-21", "2026-11-22")).toBe("21–22 Nov 2026");
    expect(formatDates("2026-04-28", "2026-06-02")).toBe("28 Apr – 2 Jun 2026");
    expect(formatDates(null, null)).toBe("");
    expect(formatDates("2026-11-21", "2026-11-22", { locale: "es", timeZone: null })).toMatch(
      /21.*22.*nov.*2026/,
    );
  });

  it("name the zone of every time: the venue's when known, else 'local time'; instants are UTC", () => {
    expect(formatLocalTime("09:30", { locale: "en", timeZone: "Europe/Dublin" })).toBe("09:30 Europe/Dublin");
    expect(formatLocalTime("09:30")).toBe("09:30 local time");
    expect(formatInstant("2026-11-22T11:58:00Z")).toBe(
      '<time datetime="2026-11-22T11:58:00Z">2026-11-22 11:58 UTC</time>',
    );
  });
});
