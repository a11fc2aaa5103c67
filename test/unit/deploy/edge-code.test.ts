// The CloudFront Function's size: the bundled code leaves room for the lines the deploy writes in
// front of it (the KeyValueStore import, the base path), the text no longer grows with the clubs
// (their `?tag=` keys are in the KeyValueStore), and a base path too long for the 10 KB is refused
// (exit 11) with the sizes and the fix, rather than written for CloudFront to reject at publish.
import { describe, expect, it } from "vitest";
import { CLOUDFRONT_FUNCTION } from "../../../src/hosting/hosts/cloudfront/runtime/generated/cloudfront-function.ts";
import {
  checkedCloudfrontFunction,
  CLOUDFRONT_KVS_IMPORT,
  CLOUDFRONT_MAX_BYTES,
  CLOUDFRONT_PREFIX_RESERVE,
  kvsImportText,
} from "../../../src/deploy/edge-code.ts";
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
  it("leaves the reserved room for the deploy's first lines (gen-edge refuses code over it)", () => {
    expect(CLOUDFRONT_CODE_BUDGET.CLOUDFRONT_FUNCTION).toBe(CLOUDFRONT_MAX_BYTES - CLOUDFRONT_PREFIX_RESERVE);
    expect(Buffer.byteLength(CLOUDFRONT_FUNCTION)).toBeLessThanOrEqual(
      CLOUDFRONT_MAX_BYTES - CLOUDFRONT_PREFIX_RESERVE,
    );
    // The longest first lines a base path of 100 characters makes still fit.
    const base = `/${"b".repeat(99)}`;
    expect(Buffer.byteLength(checkedCloudfrontFunction(base, "x"))).toBeLessThanOrEqual(CLOUDFRONT_MAX_BYTES);
  });

  it("does not grow with the clubs: their keys go to the KeyValueStore's import file", () => {
    const fn = checkedCloudfrontFunction("", "x");
    expect(fn.startsWith(`${CLOUDFRONT_KVS_IMPORT}\n`)).toBe(true);
    const data = (JSON.parse(kvsImportText(clubFiles(5000))) as { data: { key: string; value: string }[] })
      .data;
    expect(data).toHaveLength(15000);
    expect(data[0]).toEqual({ key: "api/clubs/club-0/tournaments/tag/c0-t0/index.json", value: "1" });
    // CloudFront's import limits: 5 MB a file, 512 characters a key.
    expect(Buffer.byteLength(kvsImportText(clubFiles(5000)))).toBeLessThan(5 * 1024 * 1024);
    expect(Math.max(...data.map((d) => d.key.length))).toBeLessThanOrEqual(512);
  });

  it("refuses a base path too long for the 10 KB with exit 11, naming the sizes and the fix", () => {
    let error: unknown;
    try {
      checkedCloudfrontFunction(`/${"b".repeat(2000)}`, "edge/cloudfront-function.js");
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(BuildError);
    const e = error as BuildError;
    expect(e.exitCode).toBe(EXIT.deploy);
    expect(e.problems[0]!.where).toBe("edge/cloudfront-function.js");
    expect(e.problems[0]!.what).toMatch(
      new RegExp(
        `^it is \\d+ bytes; CloudFront takes at most ${CLOUDFRONT_MAX_BYTES}: the code is \\d+ bytes`,
      ),
    );
    expect(e.problems[0]!.fix).toMatch(/--base-path/);
  });
});
