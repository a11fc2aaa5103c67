// logo_path is an allow-list: an https URL with a host or a relative reference, nothing else.
import { describe, expect, it } from "vitest";
import { isLogoPath } from "../../../src/store/read/clubs.ts";

describe("isLogoPath", () => {
  it("accepts https URLs and relative paths", () => {
    for (const v of [
      "/logos/club.png",
      "logos/club.svg",
      "./club.png",
      "../img/club.png",
      "/logos/a:b.png",
      "https://cdn.example.org/club.png",
      "HTTPS://cdn.example.org/club.png",
    ])
      expect(isLogoPath(v), v).toBe(true);
  });

  it("refuses every other scheme, scheme-relative URLs and hidden characters", () => {
    for (const v of [
      "",
      "x:alert(1)",
      "blob:https://example.org/1",
      "javascript:alert(1)",
      " javascript:alert(1)",
      "JaVaScRiPt:alert(1)",
      "data:image/png;base64,AAAA",
      "http://example.org/club.png",
      "ftp://example.org/club.png",
      "//evil.example/club.png",
      "https://user:pw@example.org/club.png",
      "https://",
      "/logos/club.png\n",
      "/logos\\club.png",
      "/logos/ club.png",
    ])
      expect(isLogoPath(v), JSON.stringify(v)).toBe(false);
  });
});
