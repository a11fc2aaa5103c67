// Measures the CloudFront Function (viewer request) and its KeyValueStore for synthetic snapshots
// of N clubs: the function's bytes (the same for every N: the `?tag=` keys are in the store, not
// in the code) beside CloudFront's 10,240-byte limit, and the store's keys and bytes (key + value,
// as CloudFront counts them) beside its 5 MB, with how many clubs of that kind the store takes.
//   node scripts/cloudfront-size.ts [--tags 3] [--slug-length 12] [--base /chess]
import { scriptArgs } from "./lib/args.ts";
import { kvsKeysOf } from "../src/hosting/hosts/cloudfront/runtime/cloudfront-function.ts";
import { CLOUDFRONT_FUNCTION } from "../src/hosting/hosts/cloudfront/runtime/generated/cloudfront-function.ts";
import { CLOUDFRONT_MAX_BYTES, cloudfrontFunctionText } from "../src/deploy/edge-code.ts";
import { hostRules } from "../src/hosting/rules.ts";

const values = scriptArgs(import.meta.url, {
  tags: { type: "string", default: "3" },
  "slug-length": { type: "string", default: "12" },
  base: { type: "string", default: "" },
});
const tags = Number(values.tags);
const slugLength = Number(values["slug-length"]);
const KVS_MAX_BYTES = 5 * 1024 * 1024;

/** The tag-list files of a snapshot with `clubs` clubs of `tags` tags each, all their own. */
function files(clubs: number): string[] {
  const out = [
    "api/public/v1/tournaments/tag/open/index.json",
    "api/public/v1/tournaments/tag/rapid/index.json",
  ];
  for (let c = 0; c < clubs; c++) {
    const slug = `club-${String(c).padStart(slugLength - 5, "0")}`;
    for (let t = 0; t < tags; t++) out.push(`api/clubs/${slug}/tournaments/tag/t${c}-${t}/index.json`);
  }
  return out;
}
const storeBytes = (clubs: number) =>
  kvsKeysOf(hostRules(), files(clubs)).reduce((n, k) => n + k.length + 1, 0);

console.log(
  `code alone (the bundle): ${Buffer.byteLength(CLOUDFRONT_FUNCTION)} bytes of ${CLOUDFRONT_MAX_BYTES}`,
);
console.log(
  `clubs of ${tags} tags of their own, slugs of ${slugLength} characters, base path "${values.base}":`,
);
console.log("clubs  function bytes  store keys  store bytes");
for (const n of [0, 10, 100, 1000, 5000, 10000]) {
  const fn = Buffer.byteLength(cloudfrontFunctionText(values.base));
  console.log(
    `${String(n).padStart(5)}  ${String(fn).padStart(14)}  ${String(files(n).length).padStart(10)}  ${String(storeBytes(n)).padStart(11)}`,
  );
}
const perClub = (storeBytes(1000) - storeBytes(0)) / 1000;
console.log(
  `store growth: ${perClub.toFixed(1)} bytes a club; CloudFront's 5 MB store takes about ${Math.floor((KVS_MAX_BYTES - storeBytes(0)) / perClub)} such clubs`,
);
