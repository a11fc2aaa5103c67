// Issue 13: the pages of the sample snapshot. Every page is well-formed HTML (no parse error of
// the HTML standard), every internal href/src resolves to a file of the snapshot and every page
// is reachable from `/`, pages and the embed stay within their compressed budgets, and the
// standings and round pages show the values of the JSON files built beside them.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import fg from "fast-glob";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildSample } from "../../support/e2e.ts";
import { removeTempDirs, tempDir } from "../../support/temp.ts";
import { attr, byTag, elements, hasClass, parseStrict, text, type Node } from "../../support/dom.ts";

afterAll(removeTempDirs);

let out: string;
let pages: string[];
const docs = new Map<string, Node>();

beforeAll(async () => {
  ({ out } = await buildSample(tempDir("pages")));
  pages = fg.sync("**/*.html", { cwd: out, followSymbolicLinks: true }).filter((f) => f !== "404.html");
}, 60_000);

function read(rel: string): string {
  return readFileSync(path.join(out, rel), "utf8");
}

function doc(rel: string): Node {
  let d = docs.get(rel);
  if (!d) {
    d = parseStrict(read(rel)).doc;
    docs.set(rel, d);
  }
  return d;
}

/** The snapshot file a same-origin URL path is served from (pages, API bodies, assets). */
function fileOf(urlPath: string): string | null {
  const p = decodeURIComponent(urlPath.split(/[?#]/)[0]!).slice(1);
  const candidates =
    p === "" || p.endsWith("/") ? [`${p}index.html`, `${p}index.json`] : [p, `${p}/index.json`];
  return candidates.find((c) => existsSync(path.join(out, c))) ?? null;
}

function links(d: Node): string[] {
  return elements(d, (e) => attr(e, "href") !== undefined || attr(e, "src") !== undefined).map(
    (e) => (attr(e, "href") ?? attr(e, "src"))!,
  );
}

describe("the pages of the sample snapshot", () => {
  it("include the index, and overview, standings and recaps pages (where it has recaps) of every published tournament", () => {
    expect(pages).toContain("index.html");
    const list = JSON.parse(read("api/public/v1/tournaments/index.json")) as { id: number | string }[];
    const ids = list.map((s) => String(s.id));
    expect(ids).toContain("9007199254740993"); // beyond 2^53, the same decimal string as the API
    let withRecaps = 0;
    for (const id of ids) {
      for (const p of ["", "standings/"]) expect(pages).toContain(`tournaments/${id}/${p}index.html`);
      // A recaps page only in a language that has recaps: an empty one would lead nowhere.
      for (const l of ["es", "en"]) {
        const json = JSON.parse(read(`api/public/v1/tournaments/${id}/recaps/language/${l}/index.json`));
        const page = `tournaments/${id}/recaps/${l}/index.html`;
        if (json.items.length > 0) withRecaps++;
        if (json.items.length > 0) expect(pages).toContain(page);
        else expect(pages).not.toContain(page);
      }
    }
    expect(withRecaps).toBeGreaterThan(0);
    // A tournament listed by a club only has no page (its public JSON does not exist either).
    expect(pages.some((p) => p.startsWith("tournaments/1245902/"))).toBe(false);
  });

  it("are well-formed HTML: no parse error in any page", () => {
    const bad: string[] = [];
    for (const rel of pages) {
      const { errors } = parseStrict(read(rel));
      if (errors.length) bad.push(`${rel}: ${errors.slice(0, 3).join("; ")}`);
    }
    expect(bad).toEqual([]);
    expect(pages.length).toBeGreaterThan(50);
  });

  it("link only to files of the snapshot, and every page is reachable from /", () => {
    const broken: string[] = [];
    const seen = new Set<string>(["index.html"]);
    const queue = ["index.html"];
    while (queue.length) {
      const rel = queue.shift()!;
      for (const href of links(doc(rel))) {
        if (/^https?:/i.test(href)) continue; // the results source
        if (href.startsWith("#")) continue;
        if (!href.startsWith("/")) {
          broken.push(`${rel}: relative link ${href}`);
          continue;
        }
        const file = fileOf(href);
        if (!file) broken.push(`${rel}: ${href}`);
        else if (file.endsWith(".html") && !seen.has(file)) {
          seen.add(file);
          queue.push(file);
        }
      }
    }
    expect(broken).toEqual([]);
    expect([...seen].sort()).toEqual([...pages].sort());
  });

  it("stay within the budgets: a page under 30 KB gzip, the embed under 15 KB gzip", () => {
    const gz = (rel: string) => gzipSync(readFileSync(path.join(out, rel))).length;
    const largest = pages.map((p) => [p, gz(p)] as const).sort((a, b) => b[1] - a[1])[0]!;
    expect(largest[1], largest[0]).toBeLessThan(30 * 1024);
    expect(gz("assets/site.css") + gz("assets/site.js")).toBeLessThan(10 * 1024);
    expect(gz("embed/build-api-embed.js")).toBeLessThan(15 * 1024);
  });

  it("show the standings of the JSON: names and points, row by row, with tie-breaks explained", () => {
    for (const rel of pages.filter((p) => p.endsWith("/standings/index.html"))) {
      const id = rel.split("/")[1]!;
      const json = JSON.parse(read(`api/public/v1/tournaments/${id}/standings/index.json`)) as {
        tieBreakLabels: string[];
        rows: { name: string; points: number | null; tieBreakValues: string[] }[];
      };
      const rows = elements(doc(rel), (e) => e.tagName === "tr" && attr(e, "data-player") !== undefined);
      const shown = rows.map((tr) => {
        const pts = elements(tr, (e) => hasClass(e, "pts"))[0]!;
        const p = attr(pts, "data-points")!;
        return {
          name: text(elements(tr, (e) => hasClass(e, "name"))[0]!),
          points: p === "" ? null : Number(p),
        };
      });
      expect(shown, rel).toEqual(json.rows.map((r) => ({ name: r.name, points: r.points })));
      const abbrs = byTag(doc(rel), "abbr").filter((a) => json.tieBreakLabels.includes(text(a)));
      if (json.rows.length) expect(abbrs.map(text), rel).toEqual(json.tieBreakLabels);
      for (const a of abbrs) expect(attr(a, "title"), rel).toMatch(/\w{4,}/);
    }
  });

  it("show the pairings of the JSON on every round and live page, results as 1–0, ½–½, 0–1, +/−, bye", () => {
    const labels = new Set<string>();
    for (const rel of pages.filter((p) => /^tournaments\/\d+\/(rounds\/\d+|live)\/index\.html$/.test(p))) {
      const api = `api/public/v1/${rel.replace(/index\.html$/, "index.json")}`;
      type Player = { name: string; title: string | null; federation: string | null; rating: number | null };
      const json = JSON.parse(read(api)) as { games: { white: Player | null; black: Player | null }[] };
      const games = elements(doc(rel), (e) => hasClass(e, "games")).flatMap((t) =>
        byTag(byTag(t, "tbody")[0]!, "tr"),
      );
      const shown = games.map((tr) =>
        elements(tr, (e) => hasClass(e, "player")).map((td) => {
          const name = elements(td, (e) => hasClass(e, "name"))[0];
          const title = elements(td, (e) => hasClass(e, "title"))[0];
          const meta = elements(td, (e) => hasClass(e, "meta"))[0];
          return name ? [text(name), title ? text(title) : null, meta ? text(meta) : ""] : "";
        }),
      );
      // A player's cell: the name, the title, and the federation and rating as far as known.
      const cell = (p: Player | null) =>
        p ? [p.name, p.title, [p.federation, p.rating].filter((x) => x !== null).join(" ")] : "";
      expect(shown, rel).toEqual(json.games.map((g) => [cell(g.white), cell(g.black)]));
      for (const tr of games) labels.add(text(elements(tr, (e) => hasClass(e, "result"))[0]!));
    }
    for (const l of ["1–0", "½–½", "0–1", "+/−", "bye"]) expect([...labels]).toContain(l);
  });

  it("ship scripts that parse: the live script and the embed", () => {
    for (const rel of ["assets/site.js", "embed/build-api-embed.js"]) {
      const source = read(rel);
      expect(() => new Function(source), rel).not.toThrow();
      expect(
        [...source].every((ch) => ch === "\n" || (ch >= " " && ch <= "~")),
        `${rel} is ASCII`,
      ).toBe(true);
    }
  });

  it("show titles and federations", () => {
    const html = read("tournaments/9007199254740993/standings/index.html");
    expect(html).toContain('<abbr class="title" title="Grandmaster">GM</abbr>');
    expect(html).toContain("<td>AZE</td>");
  });

  it("refresh only the live page of a Live tournament, at the live class's max-age", () => {
    const status = (id: string) =>
      (JSON.parse(read(`api/public/v1/tournaments/${id}/index.json`)) as { status: string }).status;
    for (const rel of pages.filter((p) => p.endsWith("/live/index.html"))) {
      const scripts = byTag(doc(rel), "script").map((s) => attr(s, "src"));
      const live = status(rel.split("/")[1]!) === "Live";
      expect(scripts, rel).toEqual(live ? ["/assets/site.js"] : []);
      if (live) expect(read(rel)).toMatch(/data-refresh="30"/);
    }
    // Besides the live pages, only the index's head has a script: the search (issue 47).
    expect(byTag(doc("index.html"), "script").map((s) => attr(s, "src"))).toEqual(["/assets/search.js"]);
    expect(
      pages
        .filter((p) => !p.endsWith("/live/index.html") && p !== "index.html")
        .every((p) => !read(p).includes("<script")),
    ).toBe(true);
  });
});

describe("the pages' Content-Security-Policy", () => {
  it("is satisfied by every page: no inline script, handler or style but the error page's hashed one", async () => {
    const { PAGE_CSP } = await import("../../../src/hosting/rules.ts");
    const { createHash } = await import("node:crypto");
    const hashes = [...PAGE_CSP.matchAll(/'sha256-([^']+)'/g)].map((m) => m[1]);
    for (const rel of [...pages, "404.html"]) {
      const html = read(rel);
      // Scripts only by src from this origin; no event handler attributes, no javascript: URLs.
      for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)) {
        expect(m[2], rel).toBe("");
        expect(m[1], rel).toMatch(/\bsrc="\/[^/]/);
      }
      expect(html, rel).not.toMatch(/\son[a-z]+=|javascript:|\sstyle=/i);
      // Stylesheets only from this origin; an inline <style> only when its hash is allowed.
      for (const m of html.matchAll(/<link\b[^>]*rel="stylesheet"[^>]*>/g))
        expect(m[0], rel).toMatch(/href="\/[^/]/);
      for (const m of html.matchAll(/<style>([\s\S]*?)<\/style>/g)) {
        const hash = createHash("sha256").update(m[1]!).digest("base64");
        expect(hashes, `${rel}: inline style`).toContain(hash);
      }
    }
    // The index filter lives in its own stylesheet, named by its bytes.
    const link = /<link rel="stylesheet" href="\/(assets\/tags-[0-9a-f]{12}\.css)">/.exec(read("index.html"));
    expect(link).not.toBeNull();
    expect(read(link![1]!)).toContain(":target");
  });
});
