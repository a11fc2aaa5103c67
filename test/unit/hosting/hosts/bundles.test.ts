// The edge bundles under src/hosting/hosts/*/runtime/generated/ are what `npm run gen-edge`
// makes from the edge entries today, and each is one self-contained module (a worker can import nothing).
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { EDGE_ENTRIES, edgeModules, ROOT } from "../../../../scripts/lib/edge-bundle.ts";
import { CLOUDFLARE_PAGES_WORKER } from "../../../../src/hosting/hosts/cloudflare-pages/runtime/generated/cloudflare-pages.ts";
import { CLOUDFRONT_FUNCTION } from "../../../../src/hosting/hosts/cloudfront/runtime/generated/cloudfront-function.ts";
import { hostFiles } from "../../../../src/hosting/hosts/index.ts";

describe("edge bundles", () => {
  it("are up to date with their entries (run `npm run gen-edge` and commit when this fails)", async () => {
    const modules = await edgeModules();
    expect([...modules.keys()]).toEqual(EDGE_ENTRIES.map((e) => e.out));
    for (const [rel, text] of modules) {
      expect(readFileSync(path.join(ROOT, rel), "utf8"), rel).toBe(text);
    }
  });

  it("import nothing and export the handler; _worker.js is the Cloudflare Pages bundle as it is", () => {
    expect(CLOUDFLARE_PAGES_WORKER).not.toMatch(/^\s*import\b/m);
    expect(CLOUDFLARE_PAGES_WORKER).toMatch(/^export \{\n {2}cloudflare_pages_default as default\n\};\n$/m);
    // The snapshot's edge facts are the one line set in front of the bundle, after its header.
    const worker = hostFiles(undefined, { links: { "a/index.json": "<x>" }, archived: ["7"] }).get(
      "_worker.js",
    )!;
    const header = CLOUDFLARE_PAGES_WORKER.slice(0, CLOUDFLARE_PAGES_WORKER.indexOf("\n") + 1);
    const facts = 'const EDGE_FACTS = {\n "links": {"a/index.json":"<x>"},\n "archived": ["7"]\n};\n';
    expect(worker).toBe(header + facts + CLOUDFLARE_PAGES_WORKER.slice(header.length));
  });

  it("the CloudFront Function has no generator (cloudfront-js-2.0 has none) and one top-level async handler", () => {
    expect(CLOUDFRONT_FUNCTION).not.toMatch(/function\s*\*|\byield\b/);
    // The one import (the KeyValueStore's module) is the first line the deploy writes in front.
    expect(CLOUDFRONT_FUNCTION).not.toMatch(/^\s*(import|export)\b/m);
    expect(CLOUDFRONT_FUNCTION).toMatch(
      /\nvar buildApiHandler;async function handler\(event\)\{return buildApiHandler\(event\)\}\n$/,
    );
  });
});
