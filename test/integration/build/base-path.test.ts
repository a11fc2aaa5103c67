// Issue 24.7: the sample built with --base-path /chess/ against the same build at the root. Every
// URL a page, feed, calendar, JSON body or host file names is under /chess/; apart from those URLs
// the files are the same bytes; an empty or "/" base path is the root build itself.
import { readFileSync } from "node:fs";
import path from "node:path";
import fg from "fast-glob";
import { beforeAll, describe, expect, it } from "vitest";
import { build } from "../../../src/pipeline/build.ts";
import { parseBasePath } from "../../../src/routes/urls.ts";
import { attr, elements, parseStrict } from "../../support/dom.ts";
import { makeSampleStore, SAMPLE_NOW } from "../../support/e2e.ts";
import { tempDir } from "../../support/temp.ts";

let root: string;
let chess: string;
let slash: string;
beforeAll(async () => {
  const dir = tempDir("base-path");
  const db = makeSampleStore(dir);
  // A small page size: the lists have numbered pages, so Link headers are in the facts.
  const opts = { db, now: SAMPLE_NOW, pageSize: 2 };
  root = path.join(dir, "root");
  chess = path.join(dir, "chess");
  slash = path.join(dir, "slash");
  await build({ ...opts, out: root });
  await build({ ...opts, out: chess, basePath: parseBasePath("/chess/") });
  await build({ ...opts, out: slash, basePath: parseBasePath("/") });
}, 120_000);

/** The files a host serves or reads (build bookkeeping, which holds the code's hash, left out). */
const files = (dir: string) =>
  fg
    .sync("**/*", { cwd: dir, dot: true })
    .filter((f) => !/^(_build-api(-state)?\.json|\.build-api-)/.test(f))
    .sort();
const read = (dir: string, rel: string) => readFileSync(path.join(dir, rel), "utf8");
/** Host configurations: their URLs are under the base too, but their text is otherwise rewritten. */
const HOST_FILES = new Set(["_headers", "_redirects", "_worker.js", "nginx.conf", "nginx-http.conf"]);

/** iCalendar text with its folded lines joined again (RFC 5545 3.1). */
const unfold = (ics: string): string => ics.replaceAll("\r\n ", "");

describe("--base-path /chess/ on the sample", () => {
  it("writes the same files as the root build", () => {
    expect(files(chess)).toEqual(files(root));
    expect(files(root).filter((f) => f.endsWith(".html")).length).toBeGreaterThan(50);
  });

  it("names only URLs under /chess/ in every page: links, assets, feeds, the live page's JSON", () => {
    let n = 0;
    for (const f of files(chess).filter((x) => x.endsWith(".html"))) {
      const { doc } = parseStrict(read(chess, f));
      for (const e of elements(doc)) {
        for (const name of ["href", "src", "action", "data-live-url"]) {
          const v = attr(e, name);
          if (v === undefined || v.startsWith("#") || /^https?:\/\//.test(v)) continue;
          expect(v.startsWith("/chess/"), `${f}: ${name}="${v}"`).toBe(true);
          n++;
        }
      }
    }
    expect(n).toBeGreaterThan(1000);
  });

  it("names only URLs under /chess/ in feeds, calendars and the JSON bodies that carry one", () => {
    for (const f of files(chess).filter((x) => x.endsWith(".atom"))) {
      const hrefs = [...read(chess, f).matchAll(/href="([^"]*)"/g)].map((m) => m[1]!);
      expect(hrefs.length).toBeGreaterThan(0);
      for (const h of hrefs) expect(h.startsWith("/chess/"), `${f}: ${h}`).toBe(true);
    }
    const ics = files(chess).filter((x) => x.endsWith(".ics"));
    expect(ics.length).toBeGreaterThan(0);
    // Unfolded (RFC 5545 3.1): a long line may fold inside the URL. A club's calendar speaks the
    // club's language (the sample's Basque club: Spanish).
    for (const f of ics) {
      const text = unfold(read(chess, f));
      // A player's calendar without a game yet has no event, so no link.
      if (text.includes("BEGIN:VEVENT"))
        expect(text).toMatch(/(Pairings and results|Emparejamientos y resultados): \/chess\/tournaments\//);
    }
    const schedules = files(chess).filter((x) => x.endsWith("/schedule/index.json"));
    const paths = schedules.map(
      (f) => (JSON.parse(read(chess, f)) as { calendarPath: string | null }).calendarPath,
    );
    expect(paths.some((p) => p !== null)).toBe(true);
    for (const p of paths)
      if (p !== null) expect(p).toMatch(/^\/chess\/calendar\/(clubs\/[a-z0-9-]+\/)?\d+\.ics$/);
    const openapi = JSON.parse(read(chess, "api/public/v1/openapi.json")) as { servers: { url: string }[] };
    expect(openapi.servers).toEqual([{ url: "/chess" }]);
    const facts = JSON.parse(read(chess, "_build-api-edge.json")) as {
      links: Record<string, string>;
      basePath: string;
    };
    expect(facts.basePath).toBe("/chess");
    expect(Object.keys(facts.links).length).toBeGreaterThan(0);
    // A JSON list's links name its pages under /chess/api/, the index parts' the pages under /chess/.
    expect(Object.keys(facts.links)).toContain("page/1/index.html");
    for (const [file, l] of Object.entries(facts.links))
      for (const u of l.matchAll(/<([^>]*)>/g))
        expect(u[1]!, `${file}: ${l}`).toMatch(
          file.endsWith(".html") ? /^\/chess\/(page\/\d+\/)?$/ : /^\/chess\/api\//,
        );
    expect(read(chess, "404.html")).toContain('<a href="/chess/">');
  });

  it("differs from the root build only in those URLs", () => {
    let compared = 0;
    for (const f of files(root)) {
      // Host files and the edge facts are checked above: their text is more than URLs.
      if (HOST_FILES.has(f) || f === "_build-api-edge.json") continue;
      // iCalendar lines fold at 75 octets (RFC 5545 3.1): a longer URL moves the fold, not the text.
      const text = (dir: string) => (f.endsWith(".ics") ? unfold(read(dir, f)) : read(dir, f));
      const back = text(chess).replaceAll("/chess/", "/").replace('"url": "/chess"', '"url": "/"');
      expect(back === text(root), f).toBe(true);
      compared++;
    }
    // Every file of the root build but the host files and the edge facts was compared.
    expect(compared).toBe(
      files(root).filter((f) => !HOST_FILES.has(f) && f !== "_build-api-edge.json").length,
    );
    expect(compared).toBeGreaterThan(300);
  });

  it("with an empty base path (`/`) is the root build, byte for byte, host files included", () => {
    expect(files(slash)).toEqual(files(root));
    for (const f of files(root)) expect(read(slash, f) === read(root, f), f).toBe(true);
  });
});
