// The preview's resolver (hosting/resolve.ts) answers every case of the host model as the
// Cloudflare worker does (test/unit/hosting/hosts/cloudflare-pages/cloudflare-worker.test.ts runs the same cases).
import { describe, expect, it } from "vitest";
import { errorPage, problemJson } from "../../../src/output/problem.ts";
import { resolveRequest } from "../../../src/hosting/resolve.ts";
import { hostRules } from "../../../src/hosting/rules.ts";
import { ASSET_FILES, CASES } from "../../support/host-files.ts";

describe("resolveRequest", () => {
  it("answers every case as the Cloudflare worker does", () => {
    const rules = hostRules();
    for (const [url, want] of CASES) {
      const u = new URL(`http://x${url}`);
      let decodable = true;
      try {
        decodeURIComponent(u.pathname);
      } catch {
        decodable = false;
      }
      if (!decodable || u.pathname.includes("%00")) continue; // the server refuses these first
      const r = resolveRequest(rules, u.pathname, u.search, (f) => ASSET_FILES.has(f));
      const got =
        r.kind === "file"
          ? [200, ASSET_FILES.get(r.file)]
          : r.kind === "redirect"
            ? [308, r.location]
            : [r.status, r.json ? problemJson(r.status) : errorPage(r.status)];
      expect([url, got]).toEqual([url, want[0] === 308 ? [308, want[3]] : [want[0], want[1]]]);
    }
  });
});
