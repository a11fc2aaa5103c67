// changedUrls: snapshot files → the URL paths a CDN must purge, from the route table's model.
import { describe, expect, it } from "vitest";
import {
  changedTags,
  changedUrls,
  MAX_CHANGED_URLS,
  purgeTagOfFile,
  urlsOfFile,
} from "../../../src/hosting/purge.ts";

describe("urlsOfFile", () => {
  it("maps an API file to its path, with and without the trailing slash", () => {
    expect(urlsOfFile("api/public/v1/tournaments/42/index.json")).toEqual([
      "/api/public/v1/tournaments/42",
      "/api/public/v1/tournaments/42/",
    ]);
    expect(urlsOfFile("api/clubs/north-club/tournaments/42/rounds/3/index.json")).toEqual([
      "/api/clubs/north-club/tournaments/42/rounds/3",
      "/api/clubs/north-club/tournaments/42/rounds/3/",
    ]);
  });

  it("adds the query form a path form answers", () => {
    expect(urlsOfFile("api/public/v1/tournaments/tag/open/index.json")).toEqual([
      "/api/public/v1/tournaments/tag/open",
      "/api/public/v1/tournaments/tag/open/",
      "/api/public/v1/tournaments?tag=open",
    ]);
    expect(urlsOfFile("api/public/v1/tournaments/7/recaps/language/en-GB/index.json")).toEqual([
      "/api/public/v1/tournaments/7/recaps/language/en-GB",
      "/api/public/v1/tournaments/7/recaps/language/en-GB/",
      "/api/public/v1/tournaments/7/recaps?language=en-GB",
    ]);
    expect(urlsOfFile("api/clubs/c1/tournaments/tag/blitz/index.json")).toContain(
      "/api/clubs/c1/tournaments?tag=blitz",
    );
    // The list no tag matches answers unknown tags only, which cannot be listed: no URL of its own
    // (its purge tag covers it).
    expect(urlsOfFile("api/public/v1/tournaments/tag/index.json")).toEqual([]);
  });

  it("maps pages, assets and the OpenAPI document; internal and host files serve no URL", () => {
    expect(urlsOfFile("index.html")).toEqual(["/"]);
    expect(urlsOfFile("tournaments/42/standings/index.html")).toEqual(["/tournaments/42/standings/"]);
    expect(urlsOfFile("assets/site.css")).toEqual(["/assets/site.css"]);
    expect(urlsOfFile("embed/standings.js")).toEqual(["/embed/standings.js"]);
    expect(urlsOfFile("api/public/v1/openapi.json")).toEqual(["/api/public/v1/openapi.json"]);
    for (const f of ["_build-api.json", "_build-api-state.json", "_headers", "_worker.js", "nginx.conf"])
      expect(urlsOfFile(f), f).toEqual([]);
    expect(urlsOfFile("api/public/v1/tournaments/42/index.html")).toEqual([]);
    expect(urlsOfFile("assets/notes.txt")).toEqual([]);
  });
});

describe("changedUrls", () => {
  it("sorts, removes duplicates and caps the list, counting every URL", () => {
    const paths = Array.from({ length: 600 }, (_, i) => `api/public/v1/tournaments/${i + 1}/index.json`);
    const r = changedUrls({ count: 600, paths: [...paths, paths[0]!] });
    expect(r.count).toBe(1200);
    expect(r.paths).toHaveLength(MAX_CHANGED_URLS);
    expect(r.paths).toEqual([...r.paths].sort());
    expect(new Set(r.paths).size).toBe(r.paths.length);
    expect(r.complete).toBe(true);
    expect(changedUrls({ count: 5000, paths: ["index.html"] })).toEqual({
      count: 1,
      paths: ["/"],
      complete: false,
    });
  });
});

describe("purge tags", () => {
  it("names each file by the most specific tag of the answers that send it", () => {
    const cases: [string, string | null][] = [
      ["api/public/v1/tournaments/42/standings/index.json", "tournament-42"],
      ["api/clubs/north-club/tournaments/42/rounds/3/index.json", "tournament-42"],
      ["api/public/v1/tournaments/7/recaps/language/en/index.json", "tournament-7"],
      ["tournaments/42/live/index.html", "tournament-42"],
      ["api/public/v1/tournaments/index.json", "list-public"],
      ["api/public/v1/tournaments/tag/open/index.json", "list-public"],
      ["api/public/v1/tournaments/tag/index.json", "list-public"],
      ["index.html", "list-public"],
      ["api/clubs/north-club/tournaments/index.json", "list-club-north-club"],
      ["api/clubs/north-club/tournaments/tag/index.json", "list-club-north-club"],
      ["assets/site.css", "build-api-assets"],
      ["api/public/v1/openapi.json", "build-api-meta"],
      ["404.json", "build-api-errors"],
      ["404.html", "build-api-errors"],
      ["_worker.js", "build-api"],
      ["nginx.conf", "build-api"],
      ["_build-api-state.json", null],
      [".build-api-manifest.json", null],
    ];
    for (const [file, tag] of cases) expect([file, purgeTagOfFile(file)]).toEqual([file, tag]);
  });

  it("lists each tag once, sorted, and says when the file list was capped", () => {
    expect(
      changedTags({
        count: 4,
        paths: [
          "api/public/v1/tournaments/9/index.json",
          "api/clubs/c/tournaments/9/index.json",
          "tournaments/9/index.html",
          "api/public/v1/tournaments/index.json",
        ],
      }),
    ).toEqual({ tags: ["list-public", "tournament-9"], complete: true });
    expect(changedTags({ count: 2000, paths: ["index.html"] })).toEqual({
      tags: ["list-public"],
      complete: false,
    });
  });
});
