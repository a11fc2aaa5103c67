// The operator's loop on a real event: after each round the arbiter exports a TRF, build-api
// imports it over the stored tournament (update in place) and builds incrementally. The last
// snapshot equals the one of a single import of the final file, but for the times that say when
// a change was first seen; those move only for what changed.
//
// The two events are copies of ../shared/data/real (2025 Hobsons Bay Cup Juniors and Western
// Major; MIT, Hobsons-Bay-Chess-Club-AU/tournaments, see that directory's README), kept as fixtures
// so that the test runs in a checkout without the data set.
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { build, type BuildReport } from "../../../src/pipeline/build.ts";
import { addClub } from "../../../src/store/write/add-club.ts";
import { createStore } from "../../../src/store/write/init.ts";
import { importTrf, type ImportReport, type ImportTrfOptions } from "../../../src/trf/import.ts";
import { trfAfterRound } from "../../support/trf-rounds.ts";

const FIXTURES = fileURLToPath(new URL("../../fixtures/trf/", import.meta.url));
const EVENT = readFileSync(join(FIXTURES, "hbcc-2025-cup-juniors.trf"), "utf8"); // 41 players, 7 rounds
const OTHER = join(FIXTURES, "hbcc-2025-western-major.trf"); // a second tournament, never re-imported
const ROUNDS = 7;
const ID = 2025001n;
const OTHER_ID = 2025002n;
const work = mkdtempSync(join(tmpdir(), "round-by-round-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Import k happens at 10:00 on day k+1 of the event; builds at the same instant. */
const at = (k: number) => `2026-03-${String(k + 1).padStart(2, "0")}T10:00:00Z`;

function importFile(
  db: string,
  text: string,
  name: string,
  now: string,
  extra: Partial<ImportTrfOptions> = {},
) {
  const file = join(work, name);
  writeFileSync(file, text);
  return importTrf({
    file,
    db,
    externalId: ID,
    tiebreaks: ["BH", "BH-C1", "SB"],
    rules: "fide-2023",
    now,
    ...extra,
  });
}

function newStore(name: string): string {
  const db = join(work, name);
  createStore(db);
  addClub(db, {
    slug: "hobsons-bay",
    name: "Hobsons Bay Chess Club",
    uuid: "3f0c8a52-8d0e-4c7e-9a55-1f2b3c4d5e6f",
  });
  importTrf({
    file: OTHER,
    db,
    externalId: OTHER_ID,
    sourceUrl: "https://example.org/other",
    publish: true,
    now: at(0),
  });
  return db;
}

async function buildAt(db: string, out: string, now: string): Promise<BuildReport> {
  return build({ db, out, now: Date.parse(now), jobs: 1 });
}

function files(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out.set(relative(dir, p), readFileSync(p, "utf8"));
    }
  };
  walk(dir);
  return out;
}

/** The fields that say when a change was first seen; they differ between the two histories. */
const CHANGE_TIMES =
  /"(firstSeenAt|resultChangedAt|lastSourceChangeAt|createdAt|firstScrapedAt)":("[^"]*"|null)/g;

function rows(db: string, sql: string): unknown[] {
  const d = new Database(db, { readonly: true });
  try {
    return d.prepare(sql).all();
  } finally {
    d.close();
  }
}

describe("a real event imported round by round", () => {
  const db = newStore("rounds.sqlite");
  const out = join(work, "dist");
  const reports: ImportReport[] = [];
  const builds: BuildReport[] = [];

  it("updates the tournament in place after each round and builds incrementally", async () => {
    // Before round 1: the pairings only. Published globally and in a club's catalog.
    reports.push(
      importFile(db, trfAfterRound(EVENT, 0, true), "r0.trf", at(0), {
        sourceUrl: "https://example.org/cup-juniors",
        publish: true,
        club: "hobsons-bay",
      }),
    );
    expect(reports[0]!.action).toBe("created");
    // What other writers add to the tournament: a global tag and a recap.
    const d = new Database(db);
    d.prepare(
      "INSERT INTO publication_tags (tournament_id, tag) SELECT tournament_id, 'juniors' FROM tournaments WHERE external_id = ?",
    ).run(ID);
    d.prepare(
      "INSERT INTO recaps (tournament_id, language, kind, headline, paragraphs) SELECT tournament_id, 'en', 'Preview', 'Cup Juniors starts', '[\"Forty-one juniors.\"]' FROM tournaments WHERE external_id = ?",
    ).run(ID);
    d.close();
    builds.push(await buildAt(db, out, at(0)));
    const otherFiles = [...files(out).keys()].filter((f) => f.includes(String(OTHER_ID)));
    expect(otherFiles.length).toBeGreaterThan(0);

    for (let k = 1; k <= ROUNDS; k++) {
      const r = importFile(db, trfAfterRound(EVENT, k, k < ROUNDS), `r${k}.trf`, at(k));
      reports.push(r);
      expect(r.action).toBe("updated");
      // Round k's results arrive; round k+1's pairings appear.
      expect(r.changes!.rounds.changed).toEqual([k]);
      expect(r.changes!.rounds.added).toEqual(k < ROUNDS ? [k + 1] : []);
      expect(r.changes!.results.length).toBeGreaterThan(0);
      expect(r.changes!.results.every((c) => c.round === k && c.from === "Pending")).toBe(true);
      expect(r.changes!.players).toEqual({ added: [], changed: [], removed: [] });

      const before = files(out);
      const b = await buildAt(db, out, at(k));
      builds.push(b);
      expect(b.upToDate).toBe(false);
      const after = files(out);
      // Incremental: exactly the files whose bytes changed were written, none of the other
      // tournament's, and the unchanged ones kept their bytes.
      // (The manifest, the publication's own bookkeeping, is not a file of the snapshot.)
      const differing = [...after.keys()]
        .filter((f) => !f.startsWith(".build-api-") && before.get(f) !== after.get(f))
        .sort();
      expect(b.publish.changed.paths).toEqual(differing);
      expect(b.publish.filesWritten).toBe(differing.length);
      expect(b.publish.filesUnchanged).toBe(b.publish.files - differing.length);
      expect(differing.filter((f) => f.includes(String(OTHER_ID)))).toEqual([]);
      expect(b.publish.filesUnchanged).toBeGreaterThan(otherFiles.length);
    }
  });

  it("keeps its publication, club catalog, tag and recap", () => {
    expect(
      rows(
        db,
        "SELECT tag FROM publication_tags JOIN tournaments USING (tournament_id) WHERE external_id = 2025001",
      ),
    ).toEqual([{ tag: "juniors" }]);
    expect(rows(db, "SELECT headline FROM recaps")).toEqual([{ headline: "Cup Juniors starts" }]);
    expect(rows(db, "SELECT count(*) AS n FROM club_tournaments")).toEqual([{ n: 1 }]);
    expect(rows(db, "SELECT count(*) AS n FROM publications")).toEqual([{ n: 2 }]);
    expect(rows(db, "SELECT count(*) AS n FROM tournaments")).toEqual([{ n: 2 }]);
  });

  it("moves the change times only for what changed", () => {
    // A game is first seen with its pairing (the import before its round's results) and its
    // result changes once, when the round's results arrive.
    const games = rows(
      db,
      "SELECT round_number AS r, first_seen_at AS seen, result_changed_at AS changed, last_seen_at AS last, result FROM games JOIN tournaments USING (tournament_id) WHERE external_id = 2025001",
    ) as { r: number; seen: string; changed: string | null; last: string; result: string }[];
    expect(games.length).toBeGreaterThan(100);
    for (const g of games) {
      expect(g.seen, `round ${g.r}`).toBe(at(g.r - 1));
      // A bye is known with the pairings; a game's result arrives with the round's results.
      expect(g.changed, `round ${g.r}`).toBe(at(g.result === "Bye" ? g.r - 1 : g.r));
      expect(g.last).toBe(at(ROUNDS));
    }
    const rounds = rows(
      db,
      "SELECT round_number AS r, first_scraped_at AS first, last_scraped_at AS last, last_source_change_at AS changed FROM rounds WHERE tournament_id = (SELECT tournament_id FROM tournaments WHERE external_id = 2025001) ORDER BY r",
    );
    expect(rounds).toEqual(
      Array.from({ length: ROUNDS }, (_, i) => ({
        r: i + 1,
        first: at(i),
        last: at(ROUNDS),
        changed: at(i + 1),
      })),
    );
    expect(
      rows(
        db,
        "SELECT created_at AS c, last_scraped_at AS s, last_source_change_at AS x FROM tournaments WHERE external_id = 2025001",
      ),
    ).toEqual([{ c: at(0), s: at(ROUNDS), x: at(ROUNDS) }]);
  });

  it("ends with the snapshot of a single import of the final file", async () => {
    const once = newStore("once.sqlite");
    const r = importFile(once, EVENT, "final.trf", at(0), {
      sourceUrl: "https://example.org/cup-juniors",
      publish: true,
      club: "hobsons-bay",
    });
    expect(r.mismatches).toEqual([]);
    const d = new Database(once);
    d.prepare(
      "INSERT INTO publication_tags (tournament_id, tag) SELECT tournament_id, 'juniors' FROM tournaments WHERE external_id = ?",
    ).run(ID);
    d.prepare(
      "INSERT INTO recaps (tournament_id, language, kind, headline, paragraphs) SELECT tournament_id, 'en', 'Preview', 'Cup Juniors starts', '[\"Forty-one juniors.\"]' FROM tournaments WHERE external_id = ?",
    ).run(ID);
    // Same retrieval time as the last round-by-round import.
    d.prepare("UPDATE tournaments SET last_scraped_at = ? WHERE external_id = ?").run(at(ROUNDS), ID);
    const mine = "tournament_id = (SELECT tournament_id FROM tournaments WHERE external_id = ?)";
    d.prepare(`UPDATE rounds SET last_scraped_at = ? WHERE ${mine}`).run(at(ROUNDS), ID);
    d.prepare(`UPDATE games SET last_seen_at = ? WHERE ${mine}`).run(at(ROUNDS), ID);
    d.close();
    const outOnce = join(work, "dist-once");
    await buildAt(once, outOnce, at(ROUNDS));
    const a = files(out);
    const b = files(outOnce);
    expect([...a.keys()].sort()).toEqual([...b.keys()].sort());
    const differing: string[] = [];
    for (const [name, text] of a) {
      if (name.startsWith(".") || name.startsWith("_build-api")) continue; // bookkeeping
      if (text === b.get(name)) continue;
      // The Atom feeds are the history itself: round by round, each entry is dated when its round
      // was imported; a single import dates every entry at once. Both are right.
      // So are a player's calendars where no date is announced: a game is on the day it was paired.
      if (name.startsWith("feeds/") || name.startsWith("calendar/players/")) {
        differing.push(name);
        continue;
      }
      differing.push(name);
      expect(text.replace(CHANGE_TIMES, '"$1":"~"'), name).toBe(
        b.get(name)!.replace(CHANGE_TIMES, '"$1":"~"'),
      );
    }
    // Only files that carry change times differ at all: JSON with change-time fields, feeds, and
    // the players' calendars across events.
    expect(
      differing.every((f) => f.endsWith(".json") || f.endsWith(".atom") || f.startsWith("calendar/players/")),
    ).toBe(true);
  });

  it("reports a correction and an unchanged re-import", async () => {
    const final = trfAfterRound(EVENT, ROUNDS, false);
    const same = importFile(db, final, "again.trf", at(ROUNDS + 1));
    expect(same.action).toBe("unchanged");
    expect(same.changes!.changed).toBe(false);
    // Player 1's round 3 game (white against player 2, lost) corrected to a draw on both records.
    const lines = final.split("\n");
    const fix = (n: number) => {
      const i = lines.findIndex((l) => l.startsWith(`001 ${String(n).padStart(4)}`));
      const col = 91 + 2 * 10 + 7;
      lines[i] = lines[i]!.slice(0, col) + "=" + lines[i]!.slice(col + 1);
    };
    fix(1);
    fix(2);
    const corrected = importFile(db, lines.join("\n"), "corrected.trf", at(ROUNDS + 2));
    expect(corrected.action).toBe("updated");
    // Round 3 changed; later rounds may have new board numbers (boards follow the scores).
    expect(corrected.changes!.rounds.changed[0]).toBe(3);
    expect(corrected.changes!.rounds.added).toEqual([]);
    expect(corrected.changes!.results).toEqual([
      { round: 3, white: 1, black: 2, from: "BlackWin", to: "Draw" },
    ]);
    const changedAt = rows(
      db,
      "SELECT round_number AS r, result_changed_at AS c FROM games JOIN tournaments USING (tournament_id) WHERE external_id = 2025001 AND result_changed_at > '2026-03-08T10:00:00Z'",
    );
    expect(changedAt).toEqual([{ r: 3, c: at(ROUNDS + 2) }]);
  });
});
