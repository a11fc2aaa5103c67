// Lists that stay small and cache classes, through build(): a store under the page size publishes
// what it always did; a long list is split into pages whose finished part keeps its bytes on a
// tick; Complete tournaments take the archive class from the data and --now alone.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import fg from "fast-glob";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build } from "../../../src/pipeline/build.ts";
import { ARCHIVE_AFTER_MS } from "../../../src/routes/cache.ts";
import { EDGE_FILE, hostRules } from "../../../src/hosting/rules.ts";
import { resolveRequest } from "../../../src/hosting/resolve.ts";
import { makeSampleStore, SAMPLE_NOW } from "../../support/e2e.ts";
import { removeTempDirs, tempDir } from "../../support/temp.ts";

const LIST = "api/public/v1/tournaments";
let dir: string;
let db: string;
let plain: string;

const read = (out: string, rel: string): string => readFileSync(path.join(out, rel), "utf8");
/** The tournament ids an index page shows, in its order. */
const rows = (html: string): string[] => [...html.matchAll(/<tr data-id="(\d+)"/g)].map((m) => m[1]!);
const apiFiles = (out: string): string[] => fg.sync("api/**/*.json", { cwd: out }).sort();
const facts = (out: string) =>
  JSON.parse(read(out, EDGE_FILE)) as { links: Record<string, string>; archived: string[] };

beforeAll(async () => {
  dir = tempDir("lists");
  db = makeSampleStore(dir);
  plain = path.join(dir, "plain");
  await build({ db, out: plain, now: SAMPLE_NOW, jobs: 1 });
}, 60_000);
afterAll(removeTempDirs);

describe("pages of long lists", () => {
  it("publishes exactly today's files when every list fits the page size", async () => {
    const n = (JSON.parse(read(plain, `${LIST}/index.json`)) as unknown[]).length;
    const out = path.join(dir, "fits");
    await build({ db, out, now: SAMPLE_NOW, jobs: 1, pageSize: n });
    expect(apiFiles(out)).toEqual(apiFiles(plain));
    for (const f of apiFiles(plain)) expect(read(out, f), f).toBe(read(plain, f));
    expect(read(out, "index.html")).toBe(read(plain, "index.html"));
    expect(fg.sync("page/**", { cwd: out })).toEqual([]);
    expect(read(out, "feeds/all.atom")).toBe(read(plain, "feeds/all.atom"));
    expect(facts(out).links).toEqual({});
  });

  it("splits a longer list into a head and numbered pages of the list's schema, with Link facts", async () => {
    const out = path.join(dir, "paged");
    const report = await build({ db, out, now: SAMPLE_NOW, jobs: 1, pageSize: 2 });
    const full = JSON.parse(read(plain, `${LIST}/index.json`)) as { id: number; status: string }[];
    const head = JSON.parse(read(out, `${LIST}/index.json`)) as { id: number }[];
    const pages = fg.sync(`${LIST}/page/*/index.json`, { cwd: out }).sort();
    const k = Math.floor((full.length - 1) / 2);
    expect(pages).toHaveLength(k);
    const all = [head, ...pages.map((p) => JSON.parse(read(out, p)) as { id: number }[])];
    for (const p of all.slice(1)) expect(p).toHaveLength(2);
    expect(head.length).toBe(full.length - 2 * k);
    expect(
      all
        .flat()
        .map((s) => s.id)
        .sort(),
    ).toEqual(full.map((s) => s.id).sort());
    // Page 1 holds the oldest finished tournaments.
    const page1 = JSON.parse(read(out, `${LIST}/page/1/index.json`)) as { status: string }[];
    expect(page1.every((s) => s.status === "Complete")).toBe(true);
    const links = facts(out).links;
    expect(links[`${LIST}/index.json`]).toBe(
      `</${LIST}>; rel="first", </${LIST}/page/${k}>; rel="next", </${LIST}/page/1>; rel="last"`,
    );
    expect(Object.keys(links).filter((f) => f.startsWith(`${LIST}/page/`))).toHaveLength(k);
    expect(report.changedTags?.tags).toContain("list-public");
  });

  it("cuts the index page for people as the list: page n shows the tournaments of JSON page n", async () => {
    const out = path.join(dir, "paged-index");
    await build({ db, out, now: SAMPLE_NOW, jobs: 1, pageSize: 2 });
    const jsonPages = fg.sync(`${LIST}/page/*/index.json`, { cwd: out });
    const k = jsonPages.length;
    expect(k).toBeGreaterThan(1);
    const pages = Array.from({ length: k }, (_, i) => `page/${i + 1}/index.html`);
    expect(fg.sync("page/**", { cwd: out }).sort()).toEqual([...pages].sort());
    const ids = (json: string): string[] => (JSON.parse(json) as { id: number }[]).map((s) => String(s.id));
    const all: string[] = [];
    for (const [n, file] of [[0, "index.html"] as const, ...pages.map((f, i) => [i + 1, f] as const)]) {
      const html = read(out, file);
      const shown = rows(html);
      expect(shown, file).toEqual(
        ids(read(out, n === 0 ? `${LIST}/index.json` : `${LIST}/page/${n}/index.json`)),
      );
      const json = n === 0 ? `/${LIST}` : `/${LIST}/page/${n}`;
      expect(html, file).toContain(`<a href="${json}">`);
      expect(html.includes('<nav aria-label="Pages"'), file).toBe(true);
      all.push(...shown);
    }
    const published = ids(read(plain, `${LIST}/index.json`));
    expect([...all].sort()).toEqual([...published].sort());
    // The hosts serve a numbered page at its slash URL (the preview's resolver, over the files),
    // every part with the Link header of its JSON page but for the URLs: the pages' own.
    const links = facts(out).links;
    const rules = hostRules(facts(out));
    const exists = (f: string): boolean => existsSync(path.join(out, f));
    const r = resolveRequest(rules, "/page/1/", "", exists);
    expect(r.kind === "file" && r.file).toBe("page/1/index.html");
    expect(resolveRequest(rules, `/page/${k + 1}/`, "", exists).kind).toBe("error");
    expect(links["index.html"]).toBe(`</>; rel="first", </page/${k}/>; rel="next", </page/1/>; rel="last"`);
    for (const [n, file] of [[0, "index.html"] as const, ...pages.map((f, i) => [i + 1, f] as const)]) {
      const json = links[n === 0 ? `${LIST}/index.json` : `${LIST}/page/${n}/index.json`]!;
      const asPages = json.replace(/<\/api\/public\/v1\/tournaments(\/page\/\d+)?>/g, (_, p?: string) =>
        p ? `<${p}/>` : "</>",
      );
      expect(links[file], file).toBe(asPages);
      const answer = resolveRequest(rules, n === 0 ? "/" : `/page/${n}/`, "", exists);
      expect(answer.kind === "file" && new Map(answer.headers).get("Link"), file).toBe(asPages);
    }
    // The snapshot's feed keeps the newest page-size entries of the whole one.
    const entries = (atom: string): string[] =>
      [...atom.matchAll(/<entry>\n {4}<id>([^<]+)</g)].map((m) => m[1]!);
    const whole = entries(read(plain, "feeds/all.atom"));
    expect(whole.length).toBeGreaterThan(2);
    expect(entries(read(out, "feeds/all.atom"))).toEqual(whole.slice(0, 2));
  });

  it("keeps the finished pages' bytes on a tick that changes an unfinished tournament", async () => {
    const store = path.join(dir, "tick.sqlite");
    const src = new Database(db, { readonly: true });
    await src.backup(store);
    src.close();
    const out = path.join(dir, "tick");
    await build({ db: store, out, now: SAMPLE_NOW, jobs: 1, pageSize: 2 });
    const page1 = read(out, `${LIST}/page/1/index.json`);
    const htmlPages = fg.sync("page/*/index.html", { cwd: out }).sort();
    const before = new Map(htmlPages.map((f) => [f, read(out, f)]));
    const w = new Database(store);
    w.prepare("UPDATE tournaments SET name = name || ' (renamed)' WHERE external_id = 1270466").run();
    w.close();
    const tick = await build({ db: store, out, now: SAMPLE_NOW, jobs: 1, pageSize: 2 });
    expect(tick.upToDate).toBe(false);
    const changed = tick.publish.changed.paths.filter((p) => p.startsWith(`${LIST}/`));
    expect(changed.length).toBeGreaterThan(0);
    expect(changed.filter((p) => p.startsWith(`${LIST}/page/1/`))).toEqual([]);
    expect(read(out, `${LIST}/page/1/index.json`)).toBe(page1);
    // The index pages for people likewise: a numbered page of finished tournaments keeps its
    // bytes and is no changed path; the page that shows the renamed tournament is rewritten.
    const finishedOnly = htmlPages.filter((f) => {
      const json = JSON.parse(read(out, `${LIST}/${f.replace("index.html", "index.json")}`)) as {
        status: string;
      }[];
      return json.every((s) => s.status === "Complete");
    });
    expect(finishedOnly.length).toBeGreaterThan(0);
    for (const f of finishedOnly) {
      expect(tick.publish.changed.paths, f).not.toContain(f);
      expect(read(out, f), f).toBe(before.get(f));
    }
    const shown = htmlPages.concat("index.html").find((f) => rows(read(out, f)).includes("1270466"))!;
    expect(read(out, shown)).toContain("(renamed)");
    expect(tick.publish.changed.paths).toContain(shown);
    expect(tick.changedTags?.tags).toEqual(expect.arrayContaining(["list-public", "tournament-1270466"]));
    expect(tick.changedTags?.tags).not.toContain("tournament-1187520");
  });
});

describe("the archive class", () => {
  // 1187520 is Complete, last fetched 2026-08-05T01:00Z.
  const archivedAt = Date.parse("2026-08-05T01:00:00Z") + ARCHIVE_AFTER_MS;

  it("comes from the data and --now: a build before the instant is valid only until it", async () => {
    const out = path.join(dir, "archive");
    const before = await build({ db, out, now: archivedAt - 3600_000, jobs: 1 });
    expect(facts(out).archived).not.toContain("1187520");
    expect(before.render.validUntil).toBeLessThanOrEqual(archivedAt);
    const after = await build({ db, out, now: archivedAt, jobs: 1 });
    expect(after.upToDate).toBe(false);
    expect(facts(out).archived).toContain("1187520");
    // The worker and nginx carry the archived ids; the JSON bodies are the same bytes.
    expect(read(out, "_worker.js")).toContain('"archived": ["1187520"');
    // nginx maps the id to the archived flag, and the flag to the archive class's Cache-Control.
    const http = read(out, "nginx-http.conf");
    expect(http).toMatch(/\n {4}1187520 1;\n/);
    expect(http).toMatch(
      /\$build_api_archived \$build_api_cc_current \{\n {4}1 "public, max-age=3600, s-maxage=86400/,
    );
    expect(facts(plain).archived).toEqual(["1187520", "1201344"]);
  });
});
