// Issue 22: the Atom feeds of the sample. Each is well-formed XML in the Atom namespace with what
// RFC 4287 requires (feed and entries: one id, title and updated each; an author; a self link),
// entry ids are name-based UUIDs of the tournament and the event (the same in every build, and
// the same event has the same id in the tournament's feed and the snapshot's), links resolve to
// files of the snapshot, and two builds give the same bytes.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { DOMParser, type Element } from "@xmldom/xmldom";
import fg from "fast-glob";
import { beforeAll, describe, expect, it } from "vitest";
import { hostRules } from "../../../src/hosting/rules.ts";
import { stableId } from "../../../src/pages/feeds.ts";
import { buildSample } from "../../support/e2e.ts";
import { tempDir } from "../../support/temp.ts";

const ATOM = "http://www.w3.org/2005/Atom";
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

let out: string;
let again: string;
let feeds: string[];
beforeAll(async () => {
  ({ out } = await buildSample(tempDir("feeds")));
  ({ out: again } = await buildSample(tempDir("feeds-again")));
  feeds = fg.sync("feeds/*.atom", { cwd: out }).sort();
}, 120_000);

const read = (rel: string) => readFileSync(path.join(out, rel), "utf8");

function parse(xml: string): Element {
  const errors: string[] = [];
  const doc = new DOMParser({
    onError: (level, msg) => {
      errors.push(`${level}: ${msg}`);
    },
  }).parseFromString(xml, "application/xml");
  expect(errors).toEqual([]);
  return doc.documentElement!;
}

const children = (e: Element, name: string) =>
  Array.from(e.childNodes).filter(
    (n): n is Element =>
      n.nodeType === 1 && (n as Element).localName === name && (n as Element).namespaceURI === ATOM,
  );
const one = (e: Element, name: string) => {
  const list = children(e, name);
  expect(list, name).toHaveLength(1);
  return list[0]!.textContent ?? "";
};

describe("Atom feeds of the sample", () => {
  it("exist for every published tournament and for the snapshot", () => {
    const ids = (JSON.parse(read("api/public/v1/tournaments/index.json")) as { id: number | string }[]).map(
      (s) => `feeds/${s.id}.atom`,
    );
    expect(feeds).toEqual([...ids, "feeds/all.atom"].sort());
  });

  it("hold what RFC 4287 requires, with unique urn:uuid ids and links to files of the snapshot", () => {
    for (const rel of feeds) {
      const feed = parse(read(rel));
      expect(feed.localName).toBe("feed");
      expect(feed.namespaceURI).toBe(ATOM);
      expect(one(feed, "id")).toMatch(
        /^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      );
      expect(one(feed, "title")).not.toBe("");
      const updated = one(feed, "updated");
      expect(updated).toMatch(RFC3339);
      expect(children(feed, "author").length).toBeGreaterThan(0);
      const self = children(feed, "link").filter((l) => l.getAttribute("rel") === "self");
      expect(self.map((l) => l.getAttribute("href"))).toEqual([`/${rel}`]);
      const seen = new Set<string>();
      for (const entry of children(feed, "entry")) {
        const id = one(entry, "id");
        expect(seen.has(id), id).toBe(false);
        seen.add(id);
        expect(one(entry, "title")).not.toBe("");
        const u = one(entry, "updated");
        expect(u).toMatch(RFC3339);
        expect(u <= updated).toBe(true);
        for (const link of children(entry, "link")) {
          const href = link.getAttribute("href")!;
          expect(existsSync(path.join(out, href.slice(1), "index.html")), href).toBe(true);
        }
      }
    }
  });

  it("name each event by tournament and kind: the snapshot's entries are the tournaments' own", () => {
    const tournamentIds = new Set<string>();
    for (const rel of feeds.filter((f) => f !== "feeds/all.atom")) {
      const id = path.basename(rel, ".atom");
      for (const entry of children(parse(read(rel)), "entry")) {
        const eid = one(entry, "id");
        const title = one(entry, "title");
        const key = title.endsWith("final standings")
          ? "final"
          : `round-${/round (\d+)/.exec(title)![1]}-${title.endsWith("pairings") ? "pairings" : "results"}`;
        expect(eid, title).toBe(stableId(`tournament/${id}/${key}`));
        tournamentIds.add(eid);
      }
    }
    const all = children(parse(read("feeds/all.atom")), "entry").map((e) => one(e, "id"));
    expect(all.length).toBeGreaterThan(3);
    for (const id of all) expect(tournamentIds.has(id), id).toBe(true);
  });

  it("are the same bytes in two builds of the same store and instant", () => {
    for (const rel of feeds) expect(readFileSync(path.join(again, rel), "utf8"), rel).toBe(read(rel));
  });

  it("are served as application/atom+xml in the tournament JSON's cache class", () => {
    const rule = hostRules().statics.find((r) => r.ext === "atom")!;
    expect(rule).toMatchObject({
      prefix: "/feeds/",
      type: "application/atom+xml",
      cache: "current",
    });
  });
});

describe("stable ids", () => {
  it("are RFC 9562 version 5 UUIDs of the name", () => {
    expect(stableId("x")).toBe(stableId("x"));
    expect(stableId("x")).not.toBe(stableId("y"));
    expect(stableId("tournament/1/final")).toMatch(/^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab]/);
  });
});
