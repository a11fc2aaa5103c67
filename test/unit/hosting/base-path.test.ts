// Issue 24.7: a snapshot built with a base path is served under it. The resolver (preview and the
// edge workers) reads base + site path and answers as at the root; the host renderers write every
// URL under the base (the snapshot is then the folder of that name in the document root).
import { describe, expect, it } from "vitest";
import { hostFiles } from "../../../src/hosting/hosts/index.ts";
import { resolveRequest, type Resolution } from "../../../src/hosting/resolve.ts";
import { hostRules, servedUnder } from "../../../src/hosting/rules.ts";
import { pageLinksOf } from "../../../src/routes/page-links.ts";
import { ASSET_FILES, CASES } from "../../support/host-files.ts";

const BASE = "/chess";
const root = hostRules();
const under = hostRules({ links: {}, archived: [], basePath: BASE });
const exists = (f: string) => ASSET_FILES.has(f);
const resolve = (rules: typeof root, url: string): Resolution => {
  const u = new URL(`http://x${url}`);
  return resolveRequest(rules, u.pathname, u.search, exists);
};

describe("the resolver under a base path", () => {
  it("answers every case at base + path as it does at the root, its URLs under the base", () => {
    let n = 0;
    for (const [url] of CASES) {
      const u = new URL(`http://x${url}`);
      try {
        decodeURIComponent(u.pathname);
      } catch {
        continue; // the servers refuse these before resolving
      }
      const want = resolve(root, url);
      const got = resolve(under, `${BASE}${url}`);
      if (want.kind === "redirect") expect(got).toEqual({ ...want, location: `${BASE}${want.location}` });
      else if (want.kind === "file") expect(got).toEqual({ ...want, url: `${BASE}${want.url}` });
      else expect(got).toEqual({ ...want, home: `${BASE}/` });
      n++;
    }
    expect(n).toBeGreaterThanOrEqual(40);
  });

  it("redirects the base without its slash to the index, keeping the query", () => {
    expect(resolve(under, `${BASE}?x=1`)).toEqual({ kind: "redirect", location: `${BASE}/?x=1` });
  });

  it("answers nothing outside the base: a 404 HTML page linking the index under the base", () => {
    for (const url of ["/", "/api/public/v1/tournaments", "/assets/site.css", "/chessx/", "/chess.html"]) {
      const r = resolve(under, url);
      expect(r).toMatchObject({ kind: "error", status: 404, json: false, home: `${BASE}/` });
    }
  });

  it("keeps API errors as problem JSON and club CORS under the base", () => {
    const r = resolve(under, `${BASE}/api/clubs/no-such-club/tournaments/1/standings`);
    expect(r).toMatchObject({ kind: "error", status: 404, json: true });
    if (r.kind !== "error") throw new Error("not an error");
    expect(r.headers).toContainEqual(["Access-Control-Allow-Origin", "*"]);
  });
});

describe("host files under a base path", () => {
  // A paged list's head and the parts of a split index page, as pageLinksOf names them.
  const indexLinks = pageLinksOf(["index.html", "page/1/index.html"], BASE);
  const files = hostFiles(undefined, {
    links: {
      "api/public/v1/tournaments/index.json": `</chess/api/public/v1/tournaments/page/1>; rel="last"`,
      ...indexLinks,
    },
    archived: [],
    basePath: BASE,
  });

  it("name every URL under the base: nginx locations, _headers and _redirects lines", () => {
    const nginx = files.get("nginx.conf")!;
    const locations = [
      ...nginx.replace(/\(\?<\w+>/g, "").matchAll(/^\s*location (?:= |~ ")?\^?([^ "]*)/gm),
    ].map((m) => m[1]!);
    expect(locations.length).toBeGreaterThan(20);
    // The one location at the base itself redirects it to the index (`/chess` → `/chess/`).
    for (const l of locations) expect(l.startsWith(`${BASE}/`) || l === `${BASE})$`, l).toBe(true);
    expect(locations).toContain(`${BASE})$`);
    expect(files.get("nginx-http.conf")).toContain(`"~^${BASE}/api/clubs/" "*";`);
    expect(files.get("nginx-http.conf")).toContain(`/chess/api/public/v1/tournaments/index.json '</chess/`);
    for (const name of ["_headers", "_redirects"]) {
      const lines = files
        .get(name)!
        .split("\n")
        .filter((l) => l.startsWith("/"));
      expect(lines.length).toBeGreaterThan(20);
      for (const l of lines) expect(l.startsWith(`${BASE}/`), `${name}: ${l}`).toBe(true);
      // Every target of a rewrite is under the base too.
      for (const l of lines)
        for (const t of l
          .split(" ")
          .slice(1)
          .filter((w) => w.startsWith("/")))
          expect(t.startsWith(`${BASE}/`), `${name}: ${l}`).toBe(true);
    }
  });

  it("send the Link header of each part of a split index page, under the base, by file and by URL", () => {
    expect(indexLinks["page/1/index.html"]).toBe(
      '</chess/>; rel="first", </chess/>; rel="prev", </chess/page/1/>; rel="last"',
    );
    // nginx: by the file try_files found, in the index's page locations only.
    for (const [file, link] of Object.entries(indexLinks))
      expect(files.get("nginx-http.conf")).toContain(`    /chess/${file} '${link}';\n`);
    const locations = files.get("nginx.conf")!.split(/\n(?=location )/);
    const linked = locations.filter((l) => l.includes("add_header Link ")).map((l) => l.split("\n")[0]);
    expect(linked.filter((l) => !l.includes("/api/"))).toEqual([
      'location ~ "^/chess/$" {',
      'location ~ "^/chess/page/(?<build_api_p_page>[1-9][0-9]{0,8})/$" {',
    ]);
    // _headers: a page by its URL, as Netlify serves it (`/chess/page/1/` from its index.html).
    const headers = files.get("_headers")!;
    expect(headers).toContain(`\n/chess/\n  Link: ${indexLinks["index.html"]}\n`);
    expect(headers).toContain(`\n/chess/page/1/\n  Link: ${indexLinks["page/1/index.html"]}\n`);
    expect(headers).not.toContain("index.html\n  Link:");
  });

  it("nginx: the 400 problem body for a request under the base only, nginx's own 400 elsewhere", () => {
    // A request nginx refuses (`%00`) reaches no location: only a server-level error_page sees
    // it (a location's own error_page 400 does not: tried with nginx 1.22). Its target comes from
    // the request line, so a 400 outside the base is nginx's, as if build-api were not included.
    const nginx = files.get("nginx.conf")!;
    const serverLevel = nginx.split("\n").filter((l) => l.startsWith("error_page"));
    expect(serverLevel).toEqual(["error_page 400 $build_api_bad_uri;"]);
    expect(files.get("nginx-http.conf")).toContain(
      [
        "map $request $build_api_bad_uri {",
        `    "~^[A-Z]+ ${BASE}/" ${BASE}/.build-api-400;`,
        `    default ${BASE}/.build-api-400-elsewhere;`,
        "}",
      ].join("\n"),
    );
    expect(nginx).toContain(
      [
        `location = ${BASE}/.build-api-400-elsewhere {`,
        "    internal;",
        `    error_page 404 ${BASE}/404.html;`,
        "    return 400;",
        "}",
      ].join("\n"),
    );
    const problem = nginx.split(`location = ${BASE}/.build-api-400 {`)[1]!.split("\n}\n")[0]!;
    expect(problem).toContain(`return 400 '{"type":"about:blank","title":"Bad Request"`);
    // A dot of the base path is a dot in the maps' regexes, not any character.
    const dotted = hostFiles(undefined, { links: {}, archived: [], basePath: "/club.chess" });
    expect(dotted.get("nginx-http.conf")).toContain('"~^[A-Z]+ /club\\.chess/" /club.chess/.build-api-400;');
    expect(dotted.get("nginx-http.conf")).toContain('"~^/club\\.chess/api/clubs/" "*";');
  });

  it("link the 404 page and give the worker the base path", () => {
    expect(files.get("404.html")).toContain(`<a href="${BASE}/">All tournaments</a>`);
    expect(files.get("_worker.js")).toContain(`"basePath": "${BASE}"`);
  });

  it("are the root's files when the base path is empty", () => {
    expect(servedUnder(root)).toBe(root);
    const plain = hostFiles(undefined, { links: {}, archived: [] });
    expect(plain.get("nginx.conf")).toContain("location /api/ {");
    // The snapshot owns the server: every 400 nginx refuses is its problem body.
    expect(plain.get("nginx.conf")).toContain("\nerror_page 400 /.build-api-400;\n");
    expect(plain.get("nginx-http.conf")).not.toContain("build_api_bad_uri");
    // The facts the renderer puts in front of the bundle (the bundle's code reads the field).
    expect(plain.get("_worker.js")!.split("};")[0]).not.toContain("basePath");
    expect(plain.get("404.html")).toContain('<a href="/">All tournaments</a>');
  });
});
