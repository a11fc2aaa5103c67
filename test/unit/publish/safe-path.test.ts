import { describe, expect, it } from "vitest";
import { BuildError, EXIT } from "../../../src/shared/errors.ts";
import { safeRelativePath } from "../../../src/publish/safe-path.ts";

function rejection(p: string): BuildError {
  try {
    safeRelativePath(p);
  } catch (e) {
    return e as BuildError;
  }
  throw new Error(`accepted ${JSON.stringify(p)}`);
}

describe("safeRelativePath", () => {
  it.each([
    "api/public/v1/tournaments/42/index.json",
    "_headers",
    "_redirects",
    "api/public/v1/clubs/riga-chess_club/index.json",
    "a/b.c/d-e_f.json",
  ])("accepts %j unchanged", (p) => {
    expect(safeRelativePath(p)).toBe(p);
  });

  it.each([
    ["", "empty"],
    ["..", '".." segment'],
    ["../etc/passwd", '".." segment'],
    ["api/../../x", '".." segment'],
    ["./a", '"." segment'],
    ["/abs", "absolute"],
    ["/etc/passwd", "absolute"],
    ["a\\b", "backslash"],
    ["..\\..\\x", "backslash"],
    ["a\0b", "NUL"],
    ["a\nb", "control"],
    ["a\u007fb", "control"],
    ["%2e%2e", "percent"],
    ["a/%2e%2e/b", "percent"],
    ["a%2fb", "percent"],
    ["a//b", "empty segment"],
    ["a/", "empty segment"],
    ["ａ", "non-ASCII"],
    ["api/․․/x", "non-ASCII"],
    ["caf\u00e9.json", "non-ASCII"],
    ["a\u200bb", "non-ASCII"],
    ["api/\uff0e\uff0e/x", "non-ASCII"],
    [".git/config", "starts with"],
    [".build-api-manifest.json", "starts with"],
    ["a b", "disallowed character"],
    ["a:b", "disallowed character"],
    ["a*b", "disallowed character"],
    ["file.", 'ends with "."'],
    ["api/con", "reserved"],
    ["NUL.json", "reserved"],
    ["lpt1.txt", "reserved"],
    ["x".repeat(256), "longer than"],
    ["a/".repeat(600) + "a", "longer than"],
  ])("rejects %j (%s)", (p, why) => {
    const e = rejection(p);
    expect(e).toBeInstanceOf(BuildError);
    expect(e.exitCode).toBe(EXIT.unsafeOutput);
    expect(e.message).toContain(JSON.stringify(p));
    expect(e.problems[0].what).toContain(why);
  });
});
