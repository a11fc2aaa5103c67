// changedUrls: snapshot files → the URL paths a CDN must purge, from the route table's model.
import { describe, expect, it } from "vitest";
import { changedOf, changedUrls, MAX_CHANGED_URLS, urlsOfFile } from "../../../src/hosting/purge.ts";

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
    for (const f of ["_build-api.json", "_build-api-state.json", "_headers", "serve.json", "nginx.conf"])
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

  it("reads a publish report's `changed` only when it is well formed", () => {
    expect(changedOf({ files: 3 })).toBeUndefined();
    expect(changedOf({ changed: { count: 1, paths: [1] } })).toBeUndefined();
    expect(changedOf(null)).toBeUndefined();
    expect(changedOf({ changed: { count: 1, paths: ["index.html"] } })).toEqual({
      count: 1,
      paths: ["index.html"],
    });
  });
});
