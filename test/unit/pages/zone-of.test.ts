// Issue 44: every time names its zone, the club's timeZone, else the tournament's (the store keeps
// none: that of the first club listing it that has one), else UTC.
import { describe, expect, it } from "vitest";
import { zoneOf } from "../../../src/pages/tournament.ts";
import type { SiteContext } from "../../../src/routes/table.ts";
import type { TournamentContext } from "../../../src/views/context.ts";

/** Only what zoneOf reads of a tournament: the clubs listing it, in the store's (slug) order. */
const listedBy = (...slugs: string[]) =>
  ({
    published: { clubs: slugs.map((slug) => ({ slug, tags: [], displayOrder: 0 })) },
  }) as unknown as TournamentContext;
const site: SiteContext = {
  languages: [],
  clubTimeZones: { "b-club": "Europe/Madrid", "c-club": "Australia/Melbourne" },
};

describe("zoneOf: the time zone a tournament's times are said in", () => {
  it("is the first listing club's that has one, for the global pages", () => {
    expect(zoneOf(listedBy("a-club", "b-club", "c-club"), site)).toBe("Europe/Madrid");
    expect(zoneOf(listedBy("c-club"), site)).toBe("Australia/Melbourne");
  });

  it("is a club's own on its surface, else the tournament's", () => {
    expect(zoneOf(listedBy("b-club", "c-club"), site, "c-club")).toBe("Australia/Melbourne");
    expect(zoneOf(listedBy("a-club", "b-club"), site, "a-club")).toBe("Europe/Madrid");
  });

  it("is UTC when no club listing it has one", () => {
    expect(zoneOf(listedBy(), site)).toBe("UTC");
    expect(zoneOf(listedBy("a-club"), { languages: [] }, "a-club")).toBe("UTC");
  });
});
