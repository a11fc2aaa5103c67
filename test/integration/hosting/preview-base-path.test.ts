// Issue 24.7: `build-api preview` serves a snapshot built with --base-path under that path, as the
// hosts do: the index at /chess/, /chess redirected there, nothing outside it. Paged (page size
// 2): the lists' files and the index's parts carry Link headers under the base.
import type { AddressInfo } from "node:net";
import path from "node:path";
import type { Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build } from "../../../src/pipeline/build.ts";
import { createPreviewServer, snapshotBasePath } from "../../../src/hosting/preview.ts";
import { makeSampleStore, SAMPLE_NOW } from "../../support/e2e.ts";
import { tempDir } from "../../support/temp.ts";

let server: Server;
let origin: string;
let out: string;
beforeAll(async () => {
  const dir = tempDir("preview-base-path");
  out = path.join(dir, "dist");
  await build({ db: makeSampleStore(dir), out, now: SAMPLE_NOW, basePath: "/chess", pageSize: 2 });
  server = createPreviewServer(out);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 60_000);
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const get = (url: string) => fetch(origin + url, { redirect: "manual" });

describe("preview of a snapshot built under /chess/", () => {
  it("knows the base path from the snapshot", () => {
    expect(snapshotBasePath(out)).toBe("/chess");
  });

  it("serves the index and the API under it", async () => {
    const index = await get("/chess/");
    expect(index.status).toBe(200);
    expect(await index.text()).toContain('href="/chess/assets/site.css"');
    const css = await get("/chess/assets/site.css");
    expect([css.status, css.headers.get("content-type")]).toEqual([200, "text/css; charset=utf-8"]);
    const list = await get("/chess/api/public/v1/tournaments?tag=no-such-tag");
    expect([list.status, await list.json()]).toEqual([200, []]);
  });

  it("sends a Link header on every part of the split index, naming the pages it links", async () => {
    const list = await get("/chess/api/public/v1/tournaments");
    const k = Number(
      /<\/chess\/api\/public\/v1\/tournaments\/page\/(\d+)>; rel="next"/.exec(
        list.headers.get("link") ?? "",
      )?.[1],
    );
    expect(k).toBeGreaterThan(1);
    const head = await get("/chess/");
    expect(head.headers.get("link")).toBe(
      `</chess/>; rel="first", </chess/page/${k}/>; rel="next", </chess/page/1/>; rel="last"`,
    );
    for (let n = 1; n <= k; n++) {
      const part = await get(`/chess/page/${n}/`);
      const html = await part.text();
      const link = part.headers.get("link") ?? "";
      // What the page links as prev and next is what its header says.
      for (const m of html.matchAll(/<link rel="(prev|next)" href="([^"]+)">/g))
        expect(link, `page ${n}`).toContain(`<${m[2]}>; rel="${m[1]}"`);
      expect(link, `page ${n}`).toMatch(/^<\/chess\/>; rel="first", .*<\/chess\/page\/1\/>; rel="last"$/);
    }
    // A tournament's page, which is not split, sends none.
    const id = /<tr data-id="(\d+)"/.exec(await (await get("/chess/page/1/")).text())![1]!;
    expect((await get(`/chess/tournaments/${id}/`)).headers.get("link")).toBeNull();
  });

  it("redirects the base without its slash and answers 404 outside it", async () => {
    const bare = await get("/chess?x=1");
    expect([bare.status, bare.headers.get("location")]).toEqual([308, "/chess/?x=1"]);
    for (const url of ["/", "/api/public/v1/tournaments", "/assets/site.css"]) {
      const r = await get(url);
      expect(r.status, url).toBe(404);
      expect(await r.text()).toContain('<a href="/chess/">All tournaments</a>');
    }
    const api = await get("/chess/api/public/v1/nothing");
    expect([api.status, api.headers.get("content-type")]).toEqual([404, "application/json; charset=utf-8"]);
  });
});
