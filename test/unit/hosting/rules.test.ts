// The rule list every host file is rendered from: ordering, collisions, query forms, internal files.
import { describe, expect, it } from "vitest";
import { hostFiles } from "../../../src/hosting/hosts/index.ts";
import {
  compareSpecificity,
  hostRules,
  INTERNAL_FILES,
  urlRegExpSource,
} from "../../../src/hosting/rules.ts";
import { MANIFEST_NAME, MARKER_NAME } from "../../../src/publish/manifest.ts";
import { INPUTS_FILE } from "../../../src/ledger/inputs.ts";
import { STATE_FILE } from "../../../src/ledger/state.ts";

describe("rule list", () => {
  it("puts a literal segment before a parameter at the same level", () => {
    const urls = hostRules().paths.map((r) => r.url);
    expect(urls.indexOf("/api/public/v1/tournaments/tag")).toBeLessThan(
      urls.indexOf("/api/public/v1/tournaments/{id}"),
    );
    expect(compareSpecificity("/a/tag/{tag}", "/a/{id}/live")).toBeLessThan(0);
    expect(compareSpecificity("/a/{id}", "/a/tag")).toBeGreaterThan(0);
  });

  it("never reads a tag path as a tournament id, nor an id as a tag path", () => {
    const id = new RegExp(urlRegExpSource("/api/public/v1/tournaments/{id}"));
    const tag = new RegExp(urlRegExpSource("/api/public/v1/tournaments/tag/{tag}"));
    expect(id.test("/api/public/v1/tournaments/tag")).toBe(false);
    expect(id.test("/api/public/v1/tournaments/42")).toBe(true);
    expect(id.test("/api/public/v1/tournaments/42/")).toBe(true);
    expect(tag.test("/api/public/v1/tournaments/42")).toBe(false);
    expect(tag.test("/api/public/v1/tournaments/tag/junior-open")).toBe(true);
    expect(tag.test("/api/public/v1/tournaments/tag/..")).toBe(false);
  });

  it("gives every query form a path form, with a fallback only for tags", () => {
    const queries = hostRules().queries.filter((q) => q.param !== "page");
    expect(queries.map((q) => [q.url, q.param, q.target, q.fallback])).toEqual([
      [
        "/api/clubs/{slug}/tournaments",
        "tag",
        "/api/clubs/{slug}/tournaments/tag/{tag}",
        "/api/clubs/{slug}/tournaments/tag",
      ],
      [
        "/api/public/v1/tournaments",
        "tag",
        "/api/public/v1/tournaments/tag/{tag}",
        "/api/public/v1/tournaments/tag",
      ],
      [
        "/api/public/v1/tournaments/{id}/recaps",
        "language",
        "/api/public/v1/tournaments/{id}/recaps/language/{language}",
        null,
      ],
    ]);
  });
});

describe("page query forms", () => {
  it("follow the tag query form, for a list and its tag forms, with no fallback", () => {
    expect(
      hostRules()
        .queries.filter((q) => q.param === "page")
        .map((q) => [q.url, q.target, q.fallback]),
    ).toEqual([
      ["/api/clubs/{slug}/tournaments", "/api/clubs/{slug}/tournaments/page/{page}", null],
      [
        "/api/clubs/{slug}/tournaments/tag/{tag}",
        "/api/clubs/{slug}/tournaments/tag/{tag}/page/{page}",
        null,
      ],
      ["/api/public/v1/tournaments", "/api/public/v1/tournaments/page/{page}", null],
      ["/api/public/v1/tournaments/tag/{tag}", "/api/public/v1/tournaments/tag/{tag}/page/{page}", null],
    ]);
    const queries = hostRules().queries;
    const lastTag = queries.map((q) => q.param).lastIndexOf("tag");
    expect(queries.findIndex((q) => q.param === "page")).toBeGreaterThan(lastTag);
  });
});

describe("internal files", () => {
  it("lists every host file but the error page, and the build's bookkeeping", () => {
    const expected = [...hostFiles().keys()].filter((f) => f !== "404.html");
    expected.push(MANIFEST_NAME, MARKER_NAME, INPUTS_FILE, STATE_FILE);
    expect([...INTERNAL_FILES].sort()).toEqual(expected.sort());
  });
});
