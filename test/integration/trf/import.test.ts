import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { BuildError, EXIT } from "../../../src/shared/errors.ts";
import { createStore } from "../../../src/store/write/init.ts";
import { importTrf } from "../../../src/trf/import.ts";
import { tempDir, removeTempDirs } from "../../support/temp.ts";

const work = tempDir("import-trf");
afterAll(removeTempDirs);
const SOURCE_URL = "https://chess-results.com/tnr1.aspx";
const NOW = "2026-11-22T12:00:00Z";
// The FIDE TEC exercise crosstable (MIT, see ../shared/data/real/README.md), kept as a fixture.
const TEC = new URL("../../fixtures/trf/fide-tec-2023-swiss16.trf", import.meta.url);

let n = 0;
function freshStore(withClub = false): string {
  const db = join(work, `store-${++n}.sqlite`);
  createStore(db);
  if (withClub) {
    const d = new Database(db);
    d.prepare("INSERT INTO clubs (uuid, slug, name) VALUES (?, ?, ?)").run(
      "3f0c8a52-8d0e-4c7e-9a55-1f2b3c4d5e6f",
      "hobsons-bay",
      "Hobsons Bay Chess Club",
    );
    d.close();
  }
  return db;
}

function tecFile(edit?: (text: string) => string): string {
  const file = join(work, `tec-${++n}.trf`);
  const text = readFileSync(TEC, "utf8");
  writeFileSync(file, edit ? edit(text) : text);
  return file;
}

function count(db: string, sql: string): number {
  const d = new Database(db, { readonly: true });
  try {
    return (d.prepare(sql).get() as { n: number }).n;
  } finally {
    d.close();
  }
}

function errorOf(f: () => unknown): BuildError {
  try {
    f();
  } catch (e) {
    return e as BuildError;
  }
  throw new Error("expected a BuildError");
}

describe("importTrf", () => {
  it("writes the tournament, players, rounds, games and byes, and publishes it", () => {
    const db = freshStore(true);
    const report = importTrf({
      file: tecFile(),
      db,
      externalId: 9007199254740993n,
      tiebreaks: ["BH-C1", "BH"],
      publish: true,
      club: "hobsons-bay",
      now: NOW,
      sourceUrl: SOURCE_URL,
    });
    expect(report).toMatchObject({
      players: 16,
      rounds: 5,
      rules: "fide-2023",
      tiebreaks: ["BH-C1", "BH"],
      checkedAfterRound: 5,
      mismatches: [],
      warnings: [],
      published: true,
      club: "hobsons-bay",
    });
    // 16 players x 5 rounds = 80 cells: 2 cells per game, 1 per bye, Z absences none.
    expect(report.byes).toBe(5);
    expect(report.games * 2 + report.byes + 3).toBe(80);

    const d = new Database(db, { readonly: true });
    d.defaultSafeIntegers(true);
    const t = d.prepare("SELECT * FROM tournaments").get() as Record<string, unknown>;
    expect(t.external_id).toBe(9007199254740993n);
    expect(t.tiebreaks).toBe("BH-C1,BH");
    expect(t.tiebreak_rules).toBe("fide-2023");
    expect(t.created_at).toBe(NOW);
    const byes = d
      .prepare(
        "SELECT round_number AS r, white_player_number AS p, bye_kind AS k FROM games WHERE result = 'Bye' ORDER BY r, p",
      )
      .all()
      .map((x) => {
        const row = x as { r: bigint; p: bigint; k: string };
        return [Number(row.r), Number(row.p), row.k];
      });
    expect(byes).toEqual([
      [2, 4, "half"],
      [2, 12, "pab"],
      [3, 6, "pab"],
      [3, 9, "half"],
      [5, 9, "pab"],
    ]);
    const forfeits = d
      .prepare(
        "SELECT white_player_number AS w, black_player_number AS b, result FROM games WHERE result LIKE '%Forfeit%' ORDER BY round_number",
      )
      .all() as { w: bigint; b: bigint; result: string }[];
    expect(forfeits.map((f) => [Number(f.w), Number(f.b), f.result])).toEqual([
      [12, 14, "WhiteForfeitWin"],
      [9, 11, "BlackForfeitWin"],
    ]);
    d.close();
    expect(count(db, "SELECT COUNT(*) AS n FROM publications")).toBe(1);
    expect(count(db, "SELECT COUNT(*) AS n FROM club_tournaments")).toBe(1);
  });

  it("reports points and ranks in the file that the computation does not reproduce", () => {
    const db = freshStore();
    // #1 Alyx declares 4.0 instead of 3.5 and rank 16; she is the only ranked player, so the computation puts her 1st.
    const file = tecFile((t) =>
      t.replace(
        "Alyx                              2200                             3.5     ",
        "Alyx                              2200                             4.0   16",
      ),
    );
    const report = importTrf({
      file,
      db,
      externalId: 1n,
      tiebreaks: ["BH"],
      now: NOW,
      sourceUrl: SOURCE_URL,
    });
    expect(report.mismatches).toEqual([
      { player: 1, name: "Alyx", field: "points", declared: 4, computed: "3.5" },
      { player: 1, name: "Alyx", field: "rank", declared: 16, computed: "1" },
    ]);
  });

  it("rejects an unknown tie-break before touching the store", () => {
    const db = freshStore();
    const e = errorOf(() =>
      importTrf({
        file: tecFile(),
        db,
        externalId: 1n,
        tiebreaks: ["BH", "XX"],
        now: NOW,
        sourceUrl: SOURCE_URL,
      }),
    );
    expect(e.exitCode).toBe(EXIT.usage);
    expect(e.message).toMatch(/unknown tie-break "XX"/);
    expect(count(db, "SELECT COUNT(*) AS n FROM tournaments")).toBe(0);
  });

  it("leaves the store as it was when the club does not exist", () => {
    const db = freshStore();
    const before = join(work, "before.sqlite");
    copyFileSync(db, before);
    const e = errorOf(() =>
      importTrf({
        file: tecFile(),
        db,
        externalId: 1n,
        club: "nobody",
        publish: true,
        now: NOW,
        sourceUrl: SOURCE_URL,
      }),
    );
    expect(e.exitCode).toBe(EXIT.usage);
    expect(e.message).toMatch(/no club with slug "nobody"/);
    for (const table of ["tournaments", "players", "rounds", "games", "publications"]) {
      expect(count(db, `SELECT COUNT(*) AS n FROM ${table}`)).toBe(0);
    }
  });

  it("updates the tournament of an external id already stored, in place", () => {
    const db = freshStore();
    const first = importTrf({ file: tecFile(), db, externalId: 7n, now: NOW, sourceUrl: SOURCE_URL });
    expect(first).toMatchObject({ action: "created", changes: null });
    // Another player name and no --source-url: the stored URL stays.
    const later = "2026-11-23T12:00:00Z";
    const again = importTrf({
      file: tecFile((t) =>
        t.replace(/^(001 {4}1.{6})(.{33})/m, (_, a: string) => `${a}${"Renamed, Player".padEnd(33)}`),
      ),
      db,
      externalId: 7n,
      now: later,
    });
    expect(again.action).toBe("updated");
    expect(again.changes).toMatchObject({
      players: { added: [], changed: [1], removed: [] },
      results: [],
      changed: true,
    });
    expect(count(db, "SELECT COUNT(*) AS n FROM tournaments")).toBe(1);
    expect(count(db, "SELECT COUNT(*) AS n FROM players")).toBe(16);
    const d = new Database(db, { readonly: true });
    try {
      expect(d.prepare("SELECT name FROM players WHERE source_player_number = 1").get()).toEqual({
        name: "Renamed, Player",
      });
      expect(
        d.prepare("SELECT source_url, created_at, last_source_change_at FROM tournaments").get(),
      ).toEqual({
        source_url: SOURCE_URL,
        created_at: NOW,
        last_source_change_at: later,
      });
    } finally {
      d.close();
    }
  });

  it("refuses values that every build would refuse, naming the line, and writes nothing", () => {
    const cases: [string, (t: string) => string, RegExp, RegExp][] = [
      [
        "a bidirectional control in a player's name",
        (t) => t.replace(/^(001 {4}3.{6})(.)/m, "$1\u202e"),
        /bidirectional control U\+202E/,
        /tec-\d+\.trf:\d+ \(player 3\); stored as .*table players, row \(tournament_id=\d+, source_player_number=3\), column name/,
      ],
      [
        "a control character in the name record",
        (t) => t.replace(/^012 (.*)$/m, "012 Bad\u0007name"),
        /control character U\+0007/,
        /record 012; stored as .*column name/,
      ],
      [
        "an absurd round count",
        (t) => t.replace(/^XXR .*$/m, "XXR 99999999"),
        /outside the range 1\.\.99/,
        /record XXR/,
      ],
      [
        "a 300-character event name",
        (t) => t.replace(/^012 (.*)$/m, `012 ${"x".repeat(300)}`),
        /longer than 200 characters/,
        /record 012/,
      ],
    ];
    for (const [label, edit, what, where] of cases) {
      const db = freshStore();
      const e = errorOf(() =>
        importTrf({ file: tecFile(edit), db, externalId: 5n, now: NOW, sourceUrl: SOURCE_URL }),
      );
      expect(e.exitCode, label).toBe(EXIT.trf);
      expect(e.message, label).toMatch(/holds values that every build would refuse; nothing was written/);
      expect(e.problems.map((p) => p.what).join("\n"), label).toMatch(what);
      expect(e.problems.map((p) => p.where).join("\n"), label).toMatch(where);
      expect(count(db, "SELECT COUNT(*) AS n FROM tournaments"), label).toBe(0);
      expect(count(db, "SELECT COUNT(*) AS n FROM publications"), label).toBe(0);
    }
  });

  it("refuses 120 rounds (the build's limit is 99)", () => {
    const db = freshStore();
    const cells = (me: number, other: number) =>
      Array.from(
        { length: 120 },
        (_, i) => `${String(other).padStart(4)} ${(i + me) % 2 ? "w" : "b"} =`,
      ).join("  ");
    // Columns: 5-8 start number, 15-47 name, 49-52 rating, 81-84 points, 86-89 rank, 92- rounds.
    const player = (n: number, name: string) =>
      `001 ${String(n).padStart(4)}      ${name.padEnd(33)} 1500`.padEnd(80) +
      "60.0    1  " +
      cells(n, 3 - n);
    const file = join(work, "long.trf");
    writeFileSync(file, ["012 Marathon", "XXR 120", player(1, "One, A"), player(2, "Two, B")].join("\n"));
    const e = errorOf(() => importTrf({ file, db, externalId: 6n, now: NOW, sourceUrl: SOURCE_URL }));
    expect(e.exitCode).toBe(EXIT.trf);
    expect(e.problems.map((p) => p.what).join("\n")).toMatch(/99/);
    expect(count(db, "SELECT COUNT(*) AS n FROM tournaments")).toBe(0);
  });

  it("refuses a new tournament without --source-url, importing nothing", () => {
    const db = freshStore();
    const e = errorOf(() => importTrf({ file: tecFile(), db, externalId: 8n, now: NOW }));
    expect(e.exitCode).toBe(EXIT.usage);
    expect(e.problems[0]!.what).toMatch(/a new one needs --source-url/);
    expect(count(db, "SELECT COUNT(*) AS n FROM tournaments")).toBe(0);
  });

  it("fails on a malformed line with its line and column, importing nothing", () => {
    const db = freshStore();
    const file = tecFile((t) => t.replace("10 b 1     7 w 1", "10 b 1     7 x 1"));
    const e = errorOf(() => importTrf({ file, db, externalId: 1n, now: NOW, sourceUrl: SOURCE_URL }));
    expect(e.exitCode).toBe(EXIT.trf);
    expect(e.problems[0]!.where).toMatch(/^tec-\d+\.trf:7:107$/);
    expect(count(db, "SELECT COUNT(*) AS n FROM tournaments")).toBe(0);
  });

  it("refuses an unknown result code naming round, board, line and column, importing nothing", () => {
    const db = freshStore();
    const file = tecFile((t) => t.replace("10 b 1     7 w 1", "10 b 1     7 w 7"));
    const e = errorOf(() => importTrf({ file, db, externalId: 1n, now: NOW, sourceUrl: SOURCE_URL }));
    expect(e.exitCode).toBe(EXIT.trf);
    expect(e.problems).toHaveLength(1);
    expect(e.problems[0]!.where).toMatch(/^tec-\d+\.trf:7:109$/);
    expect(e.problems[0]!.what).toMatch(/^round 2, board \d+ \(players 2 and 7\): result codes "7"\/"0"/);
    expect(e.problems[0]!.fix).toMatch(/--allow-unknown-results/);
    expect(count(db, "SELECT COUNT(*) AS n FROM tournaments")).toBe(0);
  });

  it("imports an unknown result code as Unknown when allowed, and lists it", () => {
    const db = freshStore();
    const file = tecFile((t) => t.replace("10 b 1     7 w 1", "10 b 1     7 w 7"));
    const r = importTrf({
      file,
      db,
      externalId: 1n,
      now: NOW,
      sourceUrl: SOURCE_URL,
      allowUnknownResults: true,
    });
    expect(r.unknownResults).toMatchObject([{ round: 2, players: [2, 7] }]);
    expect(count(db, "SELECT COUNT(*) AS n FROM games WHERE result = 'Unknown' AND round_number = 2")).toBe(
      1,
    );
  });

  it("needs an existing store", () => {
    const e = errorOf(() =>
      importTrf({
        file: tecFile(),
        db: join(work, "missing.sqlite"),
        externalId: 1n,
        now: NOW,
        sourceUrl: SOURCE_URL,
      }),
    );
    expect(e.exitCode).toBe(EXIT.storeUnreadable);
  });
});

describe("importTrf source URL", () => {
  it("refuses a source URL that is not absolute http(s), leaving the store as it was", () => {
    const db = freshStore(true);
    const before = readFileSync(db);
    const e = errorOf(() =>
      importTrf({ file: tecFile(), db, externalId: 3n, now: NOW, sourceUrl: "file:x.trf" }),
    );
    expect(e.message).toMatch(/--source-url "file:x.trf" is not an absolute http\(s\) URL/);
    expect(readFileSync(db).equals(before)).toBe(true);
  });
});
