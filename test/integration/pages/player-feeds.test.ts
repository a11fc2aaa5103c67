// Issue 44: follow a player. A real event (the FIDE TEC Swiss, 16 players) imported round by round
// with --follow: each player's Atom feed and iCalendar file parse (@xmldom/xmldom, ical.js) and
// hold exactly that player's games, each with the right opponent and colour; a tick that
// publishes one result writes the files of those two players, and no other player's. The cards
// link webcal: subscriptions only with the site's origin (build --origin), and a complete event's
// feeds go a week past its end.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { DOMParser, type Element } from "@xmldom/xmldom";
import fg from "fast-glob";
import ICAL from "ical.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build, type BuildReport } from "../../../src/pipeline/build.ts";
import { createStore } from "../../../src/store/write/init.ts";
import { importTrf } from "../../../src/trf/import.ts";
import { parseTrf } from "../../../src/trf/parse.ts";
import { removeTempDirs, tempDir } from "../../support/temp.ts";
import { trfAfterRound } from "../../support/trf-rounds.ts";

afterAll(removeTempDirs);

const FIXTURE = path.resolve(import.meta.dirname, "../../fixtures/trf/fide-tec-2023-swiss16.trf");
const EVENT = readFileSync(FIXTURE, "utf8");
const ATOM = "http://www.w3.org/2005/Atom";
const ID = "44";
const dir = tempDir("player-feeds");
const db = path.join(dir, "s.sqlite");
const out = path.join(dir, "dist");
let first: Map<string, string>;
let tick: BuildReport;
let second: Map<string, string>;

/** Round 4 paired, and the result of the game of players a and b taken from the final file. */
function withOneResult(text: string, a: number, b: number): string {
  const final = new Map(EVENT.split("\n").map((l) => [l.slice(0, 8), l]));
  const at = 91 + 3 * 10;
  return text
    .split("\n")
    .map((l) => {
      const n = Number(l.slice(4, 8));
      if (!l.startsWith("001") || (n !== a && n !== b)) return l;
      return l.padEnd(at).slice(0, at) + final.get(l.slice(0, 8))!.slice(at, at + 10);
    })
    .join("\n");
}

function playerFiles(): Map<string, string> {
  const files = fg.sync(["feeds/*/players/*.atom", "calendar/*/players/*.ics"], {
    cwd: out,
    followSymbolicLinks: true,
  });
  return new Map(files.map((f) => [f, readFileSync(path.join(out, f), "utf8")]));
}

async function importAndBuild(text: string, now: string, extra: object = {}): Promise<BuildReport> {
  const file = path.join(dir, "event.trf");
  writeFileSync(file, text);
  importTrf({ file, db, externalId: BigInt(ID), now, ...extra });
  return build({ db, out, now: Date.parse(now), jobs: 1 });
}

/** The players of round 4's first game, by the pairings of the file. */
const parsed = parseTrf(EVENT);
const p1 = parsed.players[0]!;
const [A, B] = [p1.startNo, p1.rounds[3]!.opponent!];

beforeAll(async () => {
  createStore(db);
  const paired = trfAfterRound(EVENT, 3, true);
  await importAndBuild(paired, "2026-11-22T09:00:00Z", {
    sourceUrl: "https://example.org/tec",
    publish: true,
    followMinutes: 240,
  });
  first = playerFiles();
  tick = await importAndBuild(withOneResult(paired, A, B), "2026-11-22T11:00:00Z");
  second = playerFiles();
}, 120_000);

function parseAtom(xml: string): Element {
  const errors: string[] = [];
  const doc = new DOMParser({
    onError: (level, msg) => void errors.push(`${level}: ${msg}`),
  }).parseFromString(xml, "application/xml");
  expect(errors).toEqual([]);
  expect(doc.documentElement!.namespaceURI).toBe(ATOM);
  return doc.documentElement!;
}

const atomEntries = (feed: Element) =>
  Array.from(feed.getElementsByTagNameNS(ATOM, "entry")).map((e) => ({
    title: e.getElementsByTagNameNS(ATOM, "title")[0]!.textContent ?? "",
    summary: e.getElementsByTagNameNS(ATOM, "summary")[0]!.textContent ?? "",
  }));

/** What the file says about player n's round r: opponent's name and colour, or null (a bye). */
function expected(n: number, r: number): { opponent: string; colour: string } | null {
  const cell = parsed.players.find((p) => p.startNo === n)!.rounds[r - 1]!;
  if (cell.opponent === null) return null;
  const opponent = parsed.players.find((p) => p.startNo === cell.opponent)!.name;
  // A forfeit written without colours lists the lower start number as White (to-tournament.ts).
  const white = cell.colour ? cell.colour === "w" : n < cell.opponent;
  return { opponent, colour: white ? "White" : "Black" };
}

describe("each player's feed and calendar", () => {
  it("exist for every player of a followed tournament, and parse", () => {
    expect(first.size).toBe(parsed.players.length * 2);
    for (const [file, text] of first) {
      if (file.endsWith(".atom")) parseAtom(text);
      else expect(new ICAL.Component(ICAL.parse(text)).name).toBe("vcalendar");
    }
  });

  it("hold exactly that player's games, round by round, with opponent and colour", () => {
    for (const p of parsed.players) {
      const n = p.startNo;
      const entries = atomEntries(parseAtom(second.get(`feeds/${ID}/players/${n}.atom`)!));
      const cal = new ICAL.Component(ICAL.parse(second.get(`calendar/${ID}/players/${n}.ics`)!));
      const events = cal.getAllSubcomponents("vevent").map((e) => new ICAL.Event(e));
      // The rounds 1 to 4 (paired) the player is in (a zero-point bye, Z, is absence: no game),
      // newest first in the feed, in round order in the calendar.
      const rounds = [1, 2, 3, 4].filter(
        (r) => p.rounds[r - 1]!.opponent !== null || p.rounds[r - 1]!.code !== "Z",
      );
      expect(rounds.length).toBeGreaterThan(1);
      expect(entries.map((e) => Number(/^Round (\d+)/.exec(e.title)![1]))).toEqual([...rounds].reverse());
      expect(events.map((e) => e.uid)).toEqual(
        rounds.map((r) => `round-${r}.player-${n}.tournament-${ID}@build-api`),
      );
      for (const [i, r] of rounds.entries()) {
        const want = expected(n, r);
        const entry = entries[rounds.length - 1 - i]!;
        const event = events[i]!;
        if (want === null) {
          expect(entry.title).toMatch(/bye/);
          continue;
        }
        expect(entry.title, `player ${n} round ${r}`).toMatch(`${want.colour} against ${want.opponent}`);
        expect(event.summary).toContain(`${want.colour} against ${want.opponent}`);
      }
    }
  });

  it("say the result when known: round 4 is in play for all but the two players of the tick", () => {
    const a = atomEntries(parseAtom(second.get(`feeds/${ID}/players/${A}.atom`)!));
    expect(a[0]!.summary).not.toMatch(/result is not known/);
    expect(a[0]!.summary).toMatch(/Score after round 4/);
    const other = parsed.players.find(
      (p) => p.startNo !== A && p.startNo !== B && p.rounds[3]!.opponent !== null,
    )!;
    const o = atomEntries(parseAtom(second.get(`feeds/${ID}/players/${other.startNo}.atom`)!));
    expect(o[0]!.summary).toMatch(/result is not known/);
  });

  it("a tick that publishes one result rewrites the two players' files and no other", () => {
    const changed = [...second].filter(([f, text]) => first.get(f) !== text).map(([f]) => f);
    const files = (n: number) => [`calendar/${ID}/players/${n}.ics`, `feeds/${ID}/players/${n}.atom`];
    expect(changed.sort()).toEqual([...files(A), ...files(B)].sort());
    // The build wrote them, and no other player's file (the purge list names what was written).
    const written = tick.changedUrls!.paths.filter((p) => /\/players\/\d+\.(atom|ics)$/.test(p));
    expect(written.sort()).toEqual(changed.map((f) => `/${f}`).sort());
  });

  it("are linked from the player's card; webcal: only when the site's origin is known", async () => {
    const page = readFileSync(path.join(out, `tournaments/${ID}/players/index.html`), "utf8");
    for (const p of parsed.players) {
      expect(page).toContain(`href="/feeds/${ID}/players/${p.startNo}.atom"`);
      expect(page).toContain(`href="/calendar/${ID}/players/${p.startNo}.ics"`);
    }
    // webcal: needs an absolute URL: none without --origin, one per card with it.
    expect(page).not.toContain("webcal:");
    const withOrigin = path.join(dir, "dist-origin");
    await build({
      db,
      out: withOrigin,
      now: Date.parse("2026-11-22T11:00:00Z"),
      jobs: 1,
      origin: "https://results.example.org",
      basePath: "/chess",
    });
    const cards = readFileSync(path.join(withOrigin, `tournaments/${ID}/players/index.html`), "utf8");
    for (const p of parsed.players)
      expect(cards).toContain(
        `href="webcal://results.example.org/chess/calendar/${ID}/players/${p.startNo}.ics"`,
      );
    expect(cards.match(/href="webcal:/g)).toHaveLength(parsed.players.length);
  });

  it("go a week past the end once the event is Complete, and a build then removes them", async () => {
    // The whole file, its five rounds announced: Complete. The file has no end date (052), so the
    // feeds stay a week past the last round's change, then the first build after removes them.
    const done = "2026-11-22T12:00:00Z";
    await importAndBuild(EVENT, done, { rounds: 5 });
    const detail = JSON.parse(
      readFileSync(path.join(out, `api/public/v1/tournaments/${ID}/index.json`), "utf8"),
    );
    expect(detail.status).toBe("Complete");
    expect(playerFiles().size).toBe(parsed.players.length * 2);
    const later = Date.parse(done) + 8 * 86_400_000;
    const gone = await build({ db, out, now: later, jobs: 1 });
    expect(playerFiles().size).toBe(0);
    const removed = gone.changedUrls!.paths.filter((p) => /\/players\/\d+\.(atom|ics)$/.test(p));
    expect(removed).toHaveLength(parsed.players.length * 2);
    const page = readFileSync(path.join(out, `tournaments/${ID}/players/index.html`), "utf8");
    expect(page).not.toContain(".atom");
  });
});
