// Measures how the CloudFront Function (viewer request) grows with the data it carries: the
// snapshot's `?tag=` keys (QUERY_KEYS, edge/cloudfront-function.ts queryKeys), one entry per club
// catalog with tag lists, and each distinct tag list's tags. Prints the bytes of the function for
// synthetic snapshots of N clubs, with every club's tag list distinct (the worst case) and shared
// by all clubs (the best case), beside CloudFront's 10,240-byte limit, and how many clubs fit.
//   node scripts/cloudfront-size.ts [--tags 3] [--slug-length 12]
import { parseArgs } from "node:util";
import { CLOUDFRONT_FUNCTION } from "../src/deploy/edge/generated/cloudfront-function.ts";
import { CLOUDFRONT_MAX_BYTES, cloudfrontFunctionText } from "../src/deploy/edge/write.ts";

const { values } = parseArgs({
  options: { tags: { type: "string", default: "3" }, "slug-length": { type: "string", default: "12" } },
});
const tags = Number(values.tags);
const slugLength = Number(values["slug-length"]);

/** The tag-list files of a snapshot with `clubs` clubs of `tags` tags each. */
function files(clubs: number, distinct: boolean): string[] {
  const out = [
    "api/public/v1/tournaments/tag/open/index.json",
    "api/public/v1/tournaments/tag/rapid/index.json",
  ];
  for (let c = 0; c < clubs; c++) {
    const slug = `club-${String(c).padStart(slugLength - 5, "0")}`;
    for (let t = 0; t < tags; t++)
      out.push(`api/clubs/${slug}/tournaments/tag/${distinct ? `t${c}-${t}` : `tag-${t}`}/index.json`);
  }
  return out;
}

const size = (clubs: number, distinct: boolean) =>
  Buffer.byteLength(cloudfrontFunctionText(files(clubs, distinct)));
const fits = (distinct: boolean) => {
  let lo = 0;
  let hi = 4096;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (size(mid, distinct) <= CLOUDFRONT_MAX_BYTES) lo = mid;
    else hi = mid - 1;
  }
  return lo;
};

console.log(
  `code alone (the bundle, no keys): ${Buffer.byteLength(CLOUDFRONT_FUNCTION)} bytes of ${CLOUDFRONT_MAX_BYTES}`,
);
console.log(`clubs of ${tags} tags, slugs of ${slugLength} characters:`);
console.log("clubs  shared-tags bytes  distinct-tags bytes");
for (const n of [0, 1, 5, 10, 20, 50, 100, 500]) {
  console.log(
    `${String(n).padStart(5)}  ${String(size(n, false)).padStart(18)}  ${String(size(n, true)).padStart(19)}`,
  );
}
const a = size(100, false) - size(0, false);
const b = size(100, true) - size(0, true);
console.log(
  `growth: ${(a / 100).toFixed(1)} bytes a club (shared tags), ${(b / 100).toFixed(1)} (distinct tags)`,
);
console.log(`clubs that fit: ${fits(false)} (shared tags), ${fits(true)} (distinct tags)`);
