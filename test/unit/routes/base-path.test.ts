// Issue 24.7: the base path the snapshot is served under. parseBasePath is the one check of
// `--base-path` (and of the base path a snapshot's edge facts carry); href is the one maker of
// the URLs the output names.
import { describe, expect, it } from "vitest";
import { BASE_PATH_MAX, href, pageSitePath, parseBasePath } from "../../../src/routes/urls.ts";

describe("parseBasePath", () => {
  it.each([
    ["", ""],
    ["/", ""],
    ["/chess", "/chess"],
    ["/chess/", "/chess"],
    ["/club/chess-2026/", "/club/chess-2026"],
    ["/A_b.c~d", "/A_b.c~d"],
  ])("reads %j as %j", (raw, want) => {
    expect(parseBasePath(raw)).toBe(want);
  });

  it.each([
    ["chess", /does not start with "\/"/],
    ["chess/", /does not start with "\/"/],
    ["https://example.org/chess/", /does not start with "\/"/],
    ["//chess", /empty segment/],
    ["/a//b/", /empty segment/],
    ["/a/../b", /"\.\." segment/],
    ["/./", /"\." segment/],
    ["/.hidden/", /not start with a dot/],
    ["/ch ess/", /segment "ch ess"/],
    ["/chess?x=1", /segment "chess\?x=1"/],
    ["/chess#top", /segment "chess#top"/],
    ["/ch%65ss/", /segment "ch%65ss"/],
    ["/$uri/", /segment "\$uri"/],
    ['/a"b/', /segment "a"b"/],
    ["/a*/", /segment "a\*"/],
    ["/a:b/", /segment "a:b"/],
    ["/a\\b/", /segment/],
    ["/é/", /segment "é"/],
    [`/${"a".repeat(BASE_PATH_MAX)}`, /longer than/],
  ])("refuses %j, saying why", (raw, why) => {
    expect(() => parseBasePath(raw)).toThrow(why);
  });

  it("is idempotent: a parsed base path reads as itself", () => {
    for (const raw of ["/chess/", "/a/b", "/"])
      expect(parseBasePath(parseBasePath(raw) || "/")).toBe(parseBasePath(raw));
  });
});

describe("href", () => {
  it("puts a site path under the base path, and leaves it at the root", () => {
    expect(href("/chess", "/tournaments/1/")).toBe("/chess/tournaments/1/");
    expect(href("/chess", "/")).toBe("/chess/");
    expect(href("", "/assets/site.css")).toBe("/assets/site.css");
  });

  it("refuses what is not a root-absolute site path", () => {
    expect(() => href("/chess", "tournaments/1/")).toThrow(/not a root-absolute site path/);
  });
});

describe("pageSitePath", () => {
  it("fills a page route's template from the route table", () => {
    expect(pageSitePath("roundPage", { id: "7", round: "3" })).toBe("/tournaments/7/rounds/3/");
    expect(pageSitePath("indexPage", {})).toBe("/");
    expect(() => pageSitePath("roundPage", { id: "7" })).toThrow(/missing parameter round/);
    expect(() => pageSitePath("nope", {})).toThrow(/no page route/);
  });
});
