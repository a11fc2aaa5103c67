// Issue 44: the player at the centre. On the sample snapshot, every player name of the standings,
// round, live and crosstable pages links to that player's card (an anchor that exists on the
// players page); the players page is a tab, and each page's tabs mark at most one tab as the
// current page, the one whose link is the page itself. Recaps list only the languages that have
// recaps, each by its own name.
import { readFileSync } from "node:fs";
import path from "node:path";
import fg from "fast-glob";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildSample } from "../../support/e2e.ts";
import { removeTempDirs, tempDir } from "../../support/temp.ts";
import { attr, elements, hasClass, parseStrict, text, type Node } from "../../support/dom.ts";

afterAll(removeTempDirs);

let out: string;
let pages: string[];

beforeAll(async () => {
  ({ out } = await buildSample(tempDir("player-links")));
  pages = fg.sync("tournaments/**/*.html", { cwd: out, followSymbolicLinks: true });
}, 60_000);

const read = (rel: string) => readFileSync(path.join(out, rel), "utf8");
const doc = (rel: string): Node => parseStrict(read(rel)).doc;
const ids = () => [...new Set(pages.map((p) => p.split("/")[1]!))];

/** The ids of the cards on a tournament's players page. */
function cardAnchors(id: string): Set<string> {
  return new Set(
    elements(doc(`tournaments/${id}/players/index.html`), (e) =>
      /^player-\d+$/.test(attr(e, "id") ?? ""),
    ).map((e) => attr(e, "id")!),
  );
}

describe("every player name leads to the player's card", () => {
  it("in every standings row, round and live table, crosstable row", () => {
    let checked = 0;
    for (const id of ids()) {
      const anchors = cardAnchors(id);
      expect(anchors.size, id).toBeGreaterThan(0);
      const tables = pages.filter(
        (p) =>
          p.startsWith(`tournaments/${id}/`) && /\/(standings|rounds\/\d+|live|crosstable)\//.test(`/${p}`),
      );
      for (const rel of tables) {
        // Each element that holds a player (a standings row, a game's player cell) names them once.
        const holders = elements(
          doc(rel),
          (e) => attr(e, "data-player") !== undefined && (e.tagName === "tr" || hasClass(e, "player")),
        );
        for (const h of holders) {
          const n = attr(h, "data-player")!;
          const link = elements(h, (e) => e.tagName === "a" && hasClass(e, "name"))[0];
          expect(link, `${rel}: player ${n} is not a link`).toBeDefined();
          const href = attr(link!, "href")!;
          expect(href, rel).toBe(`/tournaments/${id}/players/#player-${n}`);
          expect(anchors.has(`player-${n}`), `${rel}: no card for player ${n}`).toBe(true);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(200);
  });

  it("the live page's script rebuilds the names as links to the same cards", () => {
    const live = pages.find((p) => p.endsWith("/live/index.html"))!;
    const box = elements(doc(live), (e) => attr(e, "data-live-url") !== undefined)[0]!;
    expect(attr(box, "data-players-url")).toBe(`/tournaments/${live.split("/")[1]}/players/`);
    expect(read("assets/site.js")).toMatch(/"#player-"\+p\.sourcePlayerNumber/);
  });
});

describe("the tabs", () => {
  it("include Players, and mark as current only the tab whose link is the page", () => {
    for (const rel of pages) {
      const nav = elements(doc(rel), (e) => e.tagName === "nav" && hasClass(e, "tabs"))[0];
      if (!nav) continue;
      const tabs = elements(nav, (e) => e.tagName === "a");
      expect(
        tabs.map((a) => text(a)),
        rel,
      ).toContain("Players");
      const current = tabs.filter((a) => attr(a, "aria-current") === "page");
      expect(current.length, rel).toBeLessThanOrEqual(1);
      if (rel.endsWith("/players/index.html")) expect(current.map((a) => text(a))).toEqual(["Players"]);
      if (rel.match(/^tournaments\/\d+\/crosstable\/index\.html$/))
        expect(current.map((a) => text(a))).toEqual(["Crosstable"]);
      // The page a "current page" tab names is the page itself; a section's tab says "true".
      for (const a of current) expect(`/${rel.replace(/index\.html$/, "")}`, rel).toBe(attr(a, "href"));
      const section = tabs.filter((a) => attr(a, "aria-current") === "true").map((a) => text(a));
      if (/\/standings\/rounds\/\d+\/index\.html$/.test(rel)) expect(section, rel).toEqual(["Standings"]);
      if (rel.endsWith("/crosstable/starting-rank/index.html")) expect(section, rel).toEqual(["Crosstable"]);
    }
  });
});

describe("recaps", () => {
  it("list only the languages that have recaps, each by its own name", () => {
    let listed = 0;
    for (const id of ids()) {
      const overview = doc(`tournaments/${id}/index.html`);
      const section = elements(
        overview,
        (e) => e.tagName === "section" && attr(e, "aria-labelledby") === "recaps",
      )[0]!;
      const links = elements(section, (e) => e.tagName === "a");
      for (const l of ["es", "en"]) {
        const json = JSON.parse(read(`api/public/v1/tournaments/${id}/recaps/language/${l}/index.json`));
        const link = links.find((a) => attr(a, "hreflang") === l);
        if (json.items.length === 0) {
          expect(link, `${id}: ${l} has no recaps`).toBeUndefined();
          continue;
        }
        listed++;
        expect(text(link!)).toBe(l === "es" ? "Español" : "English");
        expect(attr(link!, "lang")).toBe(l);
      }
      if (links.length === 0) expect(text(section)).toMatch(/No recaps yet/);
    }
    expect(listed).toBeGreaterThan(0);
  });
});
