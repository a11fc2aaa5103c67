import { describe, expect, it } from "vitest";
import {
  isEmail,
  isHttpUrl,
  isIsoDate,
  isTimeZone,
  isUtcTimestamp,
  isUuid,
} from "../../../src/store/formats.ts";
import {
  LANGUAGE_PATTERN,
  RESERVED_PATH_WORDS,
  SLUG_PATTERN,
  TAG_PATTERN,
  isValidSegment,
  segmentProblem,
} from "../../../src/shared/segments.ts";

describe("slug and tag patterns", () => {
  it("accept lowercase letters, digits and inner hyphens up to 64 characters", () => {
    for (const ok of ["a", "7", "madrid-chess", "u18-open-2026", "a".repeat(64), "a--b"]) {
      expect(SLUG_PATTERN.test(ok), ok).toBe(true);
      expect(TAG_PATTERN.test(ok), ok).toBe(true);
    }
  });

  it("refuse anything that could escape or confuse a path", () => {
    const bad = [
      "",
      "-a",
      "a-",
      "A",
      "a_b",
      "a.b",
      "..",
      "a/b",
      "a\\b",
      "a\u0000b",
      "a%2Fb",
      "a b",
      "оpen",
      "ａ",
      "a".repeat(65),
      "a\n",
    ];
    for (const value of bad) {
      expect(SLUG_PATTERN.test(value), JSON.stringify(value)).toBe(false);
      expect(TAG_PATTERN.test(value), JSON.stringify(value)).toBe(false);
    }
  });
});

describe("language pattern", () => {
  it("accepts a 2 or 3 letter language with an optional region", () => {
    for (const ok of ["es", "en", "ast", "en-GB", "pt-BR"]) expect(LANGUAGE_PATTERN.test(ok), ok).toBe(true);
  });

  it("refuses other forms", () => {
    for (const bad of ["", "e", "ES", "en-gb", "en_GB", "english", "en-GBR", "zh-Hant", "../", "en-GB\n"]) {
      expect(LANGUAGE_PATTERN.test(bad), JSON.stringify(bad)).toBe(false);
    }
  });
});

describe("reserved path words", () => {
  it("are the API's own segments", () => {
    expect([...RESERVED_PATH_WORDS].sort()).toEqual(
      ["language", "live", "openapi.json", "recaps", "rounds", "standings", "tag", "tournaments"].sort(),
    );
  });

  it("are refused as slugs and tags even though they match the pattern", () => {
    for (const word of RESERVED_PATH_WORDS.filter((w) => SLUG_PATTERN.test(w))) {
      expect(segmentProblem("slug", word)?.what).toContain("reserved path word");
      expect(isValidSegment("tag", word)).toBe(false);
    }
    expect(isValidSegment("tag", "open")).toBe(true);
    expect(isValidSegment("tag", 42)).toBe(false);
  });

  it("cuts a huge value short in the message", () => {
    expect(segmentProblem("tag", "x".repeat(1_000_000))!.what.length).toBeLessThan(200);
  });
});

describe("formats", () => {
  it("dates must be real calendar days", () => {
    for (const ok of ["2026-11-22", "2028-02-29", "2000-02-29", "0001-01-01"])
      expect(isIsoDate(ok), ok).toBe(true);
    for (const bad of [
      "2026-02-29",
      "1900-02-29",
      "2026-04-31",
      "2026-00-10",
      "2026-1-01",
      "26-11-22",
      "2026-11-22T00:00:00Z",
      "0000-01-01",
    ]) {
      expect(isIsoDate(bad), bad).toBe(false);
    }
  });

  it("timestamps must be UTC with Z", () => {
    for (const ok of ["2026-11-22T12:00:00Z", "2026-11-22T23:59:59.999Z", "2028-02-29T00:00:00.1Z"]) {
      expect(isUtcTimestamp(ok), ok).toBe(true);
    }
    const bad = [
      "2026-11-22T12:00:00",
      "2026-11-22T12:00:00+00:00",
      "2026-11-22 12:00:00Z",
      "2026-11-22T24:00:00Z",
      "2026-11-22T12:60:00Z",
      "2026-11-22T12:00:60Z",
      "2026-02-30T12:00:00Z",
      "2026-11-22T12:00Z",
      "2026-11-22t12:00:00z",
    ];
    for (const value of bad) expect(isUtcTimestamp(value), value).toBe(false);
  });

  it("UUIDs, URLs, e-mail addresses and time zones", () => {
    expect(isUuid("123e4567-e89b-12d3-a456-426614174000")).toBe(true);
    expect(isUuid("123e4567e89b12d3a456426614174000")).toBe(false);
    expect(isHttpUrl("https://chess-results.com/tnr1.aspx?lan=2")).toBe(true);
    for (const bad of ["javascript:alert(1)", "ftp://x.org", "//x.org", "https://", "data:text/html,x"]) {
      expect(isHttpUrl(bad), bad).toBe(false);
    }
    expect(isEmail("info@club.example")).toBe(true);
    expect(isEmail("info@club")).toBe(false);
    expect(isTimeZone("Europe/Madrid")).toBe(true);
    expect(isTimeZone("UTC")).toBe(true);
    expect(isTimeZone("Mars/Olympus")).toBe(false);
    expect(isTimeZone("+01:00")).toBe(false);
    // Names outside the runtime's canonical list that Intl still accepts: an alias, another case.
    for (const alias of ["US/Pacific", "europe/madrid", "Etc/UTC"]) {
      expect(Intl.supportedValuesOf("timeZone"), alias).not.toContain(alias);
      expect(isTimeZone(alias), alias).toBe(true);
    }
  });
});
