// The edge handler over an origin that stores files by name (as an object store such as R2
// would), not by URL as Pages' assets do: the same cases answer the same way, so another edge
// entry needs only its own EdgeOrigin.
import { describe, expect, it } from "vitest";
import { hostRules } from "../../../../src/hosting/rules.ts";
import { answer, type EdgeOrigin } from "../../../../src/hosting/hosts/edge-handler.ts";
import { answerOf, ASSET_FILES, CASES } from "../../../support/host-files.ts";

/** Files by their snapshot path; the ETag is the path, a matching If-None-Match is a 304. */
const byName: EdgeOrigin = {
  exists: async ({ file }) => ASSET_FILES.has(file),
  get: async ({ file }, request) => {
    const body = ASSET_FILES.get(file);
    if (body === undefined) return new Response(null, { status: 404 });
    const etag = `"${file}"`;
    if (request.headers.get("If-None-Match") === etag) return new Response(null, { status: 304 });
    return new Response(request.method === "HEAD" ? null : body, { status: 200, headers: { ETag: etag } });
  },
};

const get = (path: string, init: RequestInit = {}) =>
  answer(new Request(`http://edge.test${path}`, init), byName, hostRules());

describe("edge handler over an origin keyed by file name", () => {
  it("answers every case as the Pages worker does", async () => {
    for (const [url, want] of CASES) expect([url, await answerOf(await get(url))]).toEqual([url, want]);
  });

  it("passes the origin's ETag and 304 on, and refuses other methods with 405", async () => {
    const etag = (await get("/api/public/v1/tournaments/42")).headers.get("etag");
    expect(etag).toBe('"api/public/v1/tournaments/42/index.json"');
    const again = await get("/api/public/v1/tournaments/42", { headers: { "If-None-Match": etag! } });
    expect([again.status, await again.text()]).toEqual([304, ""]);
    expect((await get("/", { method: "DELETE" })).status).toBe(405);
  });
});
