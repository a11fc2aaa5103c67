// The CloudFront Function's size: the bundled code leaves room for a snapshot's `?tag=` keys, the
// keys grow with the clubs, and a snapshot of many clubs is refused (exit 11) with what makes it
// large and the fix, rather than written for CloudFront to reject at publish time.
import { describe, expect, it } from "vitest";
import { CLOUDFRONT_FUNCTION } from "../../../src/deploy/edge/generated/cloudfront-function.ts";
import {
  checkedCloudfrontFunction,
  CLOUDFRONT_KEYS_RESERVE,
  CLOUDFRONT_MAX_BYTES,
} from "../../../src/deploy/edge/write.ts";
import { BuildError, EXIT } from "../../../src/shared/errors.ts";
import { CLOUDFRONT_CODE_BUDGET } from "../../../scripts/lib/edge-bundle.ts";

/** A snapshot's tag-list files: `clubs` clubs, each with three tags of its own. */
function clubFiles(clubs: number): string[] {
  const out: string[] = [];
  for (let c = 0; c < clubs; c++)
    for (let t = 0; t < 3; t++) out.push(`api/clubs/club-${c}/tournaments/tag/c${c}-t${t}/index.json`);
  return out;
}

describe("the CloudFront Function's size", () => {
  it("leaves the reserved room for a snapshot's keys (gen-edge refuses code over it)", () => {
    expect(CLOUDFRONT_CODE_BUDGET.CLOUDFRONT_FUNCTION).toBe(CLOUDFRONT_MAX_BYTES - CLOUDFRONT_KEYS_RESERVE);
    expect(Buffer.byteLength(CLOUDFRONT_FUNCTION)).toBeLessThanOrEqual(
      CLOUDFRONT_MAX_BYTES - CLOUDFRONT_KEYS_RESERVE,
    );
  });

  it("grows with the clubs and fits a few", () => {
    const a = Buffer.byteLength(checkedCloudfrontFunction(clubFiles(2), "x"));
    const b = Buffer.byteLength(checkedCloudfrontFunction(clubFiles(4), "x"));
    expect(b).toBeGreaterThan(a + 2 * 20);
  });

  it("refuses a snapshot of many clubs with exit 11, naming the sizes and the fix", () => {
    let error: unknown;
    try {
      checkedCloudfrontFunction(clubFiles(200), "edge/cloudfront-function.js");
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(BuildError);
    const e = error as BuildError;
    expect(e.exitCode).toBe(EXIT.deploy);
    expect(e.problems[0]!.where).toBe("edge/cloudfront-function.js");
    expect(e.problems[0]!.what).toMatch(
      new RegExp(
        `^it is \\d+ bytes; CloudFront takes at most ${CLOUDFRONT_MAX_BYTES}: the code is \\d+ bytes and the snapshot's \\?tag= keys \\(200 tagged lists, 200 distinct tag lists\\) \\d+$`,
      ),
    );
    expect(e.problems[0]!.fix).toMatch(/r2-worker\.js/);
  });
});
