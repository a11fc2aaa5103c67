// Issue 5, hostile and broken stores, through the real CLI in a child process: every broken store
// gets the exit code of its class and a message naming file, table, row and column, and the
// snapshot already in --out stays byte for byte what it was. Also: every problem of a store is
// reported, --skip-invalid, unsafe --out paths and bad usage. Issue 12: size limits, problem lists
// of any length, values that would make unsafe paths, and text (bidi and format characters,
// invalid UTF-8) are store problems (exit 5) naming the row, and skippable.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { INPUTS_FILE } from "../../src/ledger/inputs.ts";
import { EXIT } from "../../src/shared/errors.ts";
import { MARKER_NAME } from "../../src/publish/manifest.ts";
import { REPO_ROOT, runCli, type CliResult } from "../support/run.ts";
import { removeTempDirs, tempDir } from "../support/temp.ts";
import { hashTree, readTree } from "../support/tree.ts";
import { BASE, baseRows, cloneRows, storeFromRows, TS, type StoreRows } from "../support/stores.ts";
import { STORE_SCHEMA_VERSION } from "../../src/store/schema.ts";

afterAll(removeTempDirs);

const NOW = "2026-11-22T12:00:00Z";
/** Broken-store builds run in this many lanes at once, each lane with its own --out. */
const LANES = 3;

interface Case {
  name: string;
  code: number;
  /** Writes the broken store to `file`. */
  make(file: string): void;
  /** What stderr must contain besides the file name. */
  stderr: (string | RegExp)[];
  /** Problems the message lists (lines "  - "), when the case fixes the count. */
  problems?: number;
  /** Longest stderr allowed (default 5,000 characters). */
  maxStderr?: number;
}

/** A base store with `edit` applied to its rows, then `change` run on it. */
function store(edit: (rows: StoreRows) => void, change?: (db: Database.Database) => void) {
  return (file: string): void => {
    const rows = cloneRows(baseRows());
    edit(rows);
    storeFromRows(file, rows, change);
  };
}

/** A good store beside `file`, to break at the byte level. */
function goodStore(file: string): string {
  return storeFromRows(file.replace(/\.sqlite$/, "-good.sqlite"), baseRows());
}

/** The root page of `table` in a store file. */
function rootPage(file: string, table: string): number {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare("SELECT rootpage FROM sqlite_schema WHERE name = ?").pluck().get(table) as number;
  } finally {
    db.close();
  }
}

const row = (where: string, column: string): string => `${where}, column ${column}`;

const CASES: Case[] = [
  // --- EXIT.storeUnreadable: not SQLite, truncated, corrupt ---
  {
    name: "a text file that is not SQLite",
    code: EXIT.storeUnreadable,
    make: (file) => writeFileSync(file, "club;tournament;player\nriver;open;ann\n".repeat(300)),
    stderr: ["is not a SQLite database"],
  },
  {
    name: "a store truncated to half its size",
    code: EXIT.storeUnreadable,
    make: (file) => {
      const bytes = readFileSync(goodStore(file));
      writeFileSync(file, bytes.subarray(0, Math.floor(bytes.length / 2)));
    },
    stderr: [/corrupt|truncated|malformed/],
  },
  {
    name: "a store whose players table page header is overwritten",
    code: EXIT.storeUnreadable,
    make: (file) => {
      const good = goodStore(file);
      const bytes = readFileSync(good);
      const pageSize = bytes.readUInt16BE(16);
      const start = (rootPage(good, "players") - 1) * pageSize;
      bytes.fill(0xa5, start, start + 16);
      writeFileSync(file, bytes);
    },
    stderr: [/corrupt|malformed/],
  },
  // --- EXIT.storeSchema: versions, missing tables and columns ---
  ...[0, STORE_SCHEMA_VERSION + 1, 99].map((version): Case => ({
    name: `a store with user_version ${version}`,
    code: EXIT.storeSchema,
    make: store(
      () => {},
      (db) => db.pragma(`user_version = ${version}`),
    ),
    stderr: [
      "PRAGMA user_version",
      version === 0
        ? "no schema version (0)"
        : `schema version ${version}, ${version > 1 ? "newer" : "different"}`,
    ],
  })),
  {
    name: "a store without the recaps table and without the players.club column",
    code: EXIT.storeSchema,
    make: store(
      (rows) => delete rows.recaps,
      (db) => db.exec("DROP TABLE recaps; ALTER TABLE players DROP COLUMN club"),
    ),
    stderr: ["table players, column club: the column is missing", "table recaps: the table is missing"],
    problems: 2,
  },
  // --- EXIT.storeData: one bad cell or row each ---
  {
    name: "text in an INTEGER column (wrong type)",
    code: EXIT.storeData,
    make: store((rows) => (rows.players![1]!.rating = "high")),
    stderr: [
      row("table players, row (tournament_id=1, source_player_number=2)", "rating"),
      'holds the text "high", expected an integer',
    ],
    problems: 1,
  },
  {
    name: "a game pointing to a player that does not exist",
    code: EXIT.storeData,
    make: store((rows) => (rows.games![0]!.white_player_number = 99)),
    stderr: [
      row("table games, row (tournament_id=1, round_number=1, board_number=1)", "white_player_number"),
      "player 99 does not exist",
    ],
    problems: 1,
  },
  {
    name: "duplicate board numbers in a foreign store without the primary key",
    code: EXIT.storeData,
    make: store(
      () => {},
      (db) => {
        // Same columns and user_version, but no primary key: a duplicate board can be stored.
        db.exec(`CREATE TABLE loose AS SELECT * FROM games; DROP TABLE games; ALTER TABLE loose RENAME TO games;
          INSERT INTO games SELECT * FROM games WHERE tournament_id = 2 AND round_number = 2 AND board_number = 1;`);
      },
    ),
    stderr: [
      row("table games, row (tournament_id=2, round_number=2, board_number=1)", "board_number"),
      "board 1 occurs 2 times in round 2",
    ],
    problems: 1,
  },
  {
    name: "a negative and an absurd round number",
    code: EXIT.storeData,
    make: store((rows) =>
      rows.rounds!.push(
        { tournament_id: 1, round_number: -1, first_scraped_at: TS, last_scraped_at: TS },
        { tournament_id: 2, round_number: 100_000, first_scraped_at: TS, last_scraped_at: TS },
      ),
    ),
    stderr: [
      row("table rounds, row (tournament_id=1, round_number=-1)", "round_number") + ": is -1, outside",
      row("table rounds, row (tournament_id=2, round_number=100000)", "round_number") +
        ": is 100000, outside",
    ],
    problems: 2,
  },
  {
    name: "a date that is not a calendar day",
    code: EXIT.storeData,
    make: store((rows) => (rows.tournaments![0]!.start_date = "2026-02-30")),
    stderr: [row("table tournaments, row (tournament_id=1)", "start_date"), '"2026-02-30"'],
    problems: 1,
  },
  {
    name: "a one-megabyte player name",
    code: EXIT.storeData,
    make: store((rows) => (rows.players![4]!.name = "Ä".repeat(1 << 20))),
    stderr: [
      row("table players, row (tournament_id=2, source_player_number=1)", "name"),
      "longer than 200 characters",
    ],
    problems: 1,
  },
  {
    name: 'a club slug ".."',
    code: EXIT.storeData,
    make: store((rows) => (rows.clubs![0]!.slug = "..")),
    stderr: [row("table clubs, row (club_id=1)", "slug"), 'slug ".." does not match'],
    problems: 1,
  },
  {
    name: 'a reserved-word club slug "tag"',
    code: EXIT.storeData,
    make: store((rows) => (rows.clubs![0]!.slug = "tag")),
    stderr: [row("table clubs, row (club_id=1)", "slug"), "reserved path word"],
    problems: 1,
  },
  {
    name: 'a club tag with "/"',
    code: EXIT.storeData,
    make: store((rows) => (rows.club_tournament_tags![0]!.tag = "junior/open")),
    stderr: [
      row('table club_tournament_tags, row (club_id=1, tournament_id=2, tag="junior/open")', "tag"),
      "does not match the tag pattern",
    ],
    problems: 1,
  },
  {
    name: 'a recap language "%2e"',
    code: EXIT.storeData,
    make: store((rows) => (rows.recaps![0]!.language = "%2e")),
    stderr: [row("table recaps, row (recap_id=1)", "language"), 'language "%2e" does not match'],
    problems: 1,
  },
  // --- Issue 12: sizes, values that would make unsafe paths, text ---
  {
    name: "a tournament with 1,000,000 players",
    code: EXIT.storeData,
    make: store(
      () => {},
      (db) =>
        db.exec(`INSERT INTO players (tournament_id, source_player_number, name)
          WITH RECURSIVE n(i) AS (SELECT 5 UNION ALL SELECT i + 1 FROM n WHERE i < 1000000)
          SELECT 1, i, 'Player ' || i FROM n`),
    ),
    stderr: [
      "table players, rows (tournament_id=1): the tournament has more than the limit of 20,000 players",
    ],
    problems: 1,
  },
  {
    name: "a round with 20,001 boards",
    code: EXIT.storeData,
    make: store(
      () => {},
      (db) =>
        db.exec(`INSERT INTO games (tournament_id, round_number, board_number, first_seen_at, last_seen_at)
          WITH RECURSIVE n(i) AS (SELECT 3 UNION ALL SELECT i + 1 FROM n WHERE i < 20001)
          SELECT 2, 1, i, '${TS}', '${TS}' FROM n`),
    ),
    stderr: [
      "table games, rows (tournament_id=2, round_number=1): round 1 has 20,001 boards, more than the limit of 20,000",
    ],
    problems: 1,
  },
  {
    name: "a tournament with 300,000 bad cells",
    code: EXIT.storeData,
    make: store(
      (rows) => (rows.tournaments![0]!.total_rounds = 12),
      // 150,000 boards over 10 rounds, each with two bad timestamps: one problem list of 300,000.
      (db) =>
        db.exec(`INSERT INTO rounds (tournament_id, round_number, first_scraped_at, last_scraped_at)
            WITH RECURSIVE n(i) AS (SELECT 3 UNION ALL SELECT i + 1 FROM n WHERE i < 12)
            SELECT 1, i, '${TS}', '${TS}' FROM n;
          INSERT INTO games (tournament_id, round_number, board_number, first_seen_at, last_seen_at)
            WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 149999)
            SELECT 1, 3 + i / 15000, 1 + i % 15000, 'then', 'now' FROM n`),
    ),
    stderr: [
      "The store has 300000 problem(s)",
      row("table games, row (tournament_id=1, round_number=3, board_number=1)", "first_seen_at"),
      "\n  ... and 299,950 more\n",
    ],
    // The first 50 problems, one line each, then the count of the others.
    problems: 50,
    maxStderr: 20_000,
  },
  {
    name: "201 distinct tags on the global surface",
    code: EXIT.storeData,
    make: store((rows) => {
      for (let i = 1; i <= 200; i++) rows.publication_tags!.push({ tournament_id: 1, tag: `t${i}` });
    }),
    stderr: [
      "table publication_tags: the store has more than the limit of 200 distinct tags on the global surface",
    ],
    problems: 1,
  },
  {
    name: "a tournament with 51 tags in a club's catalog",
    code: EXIT.storeData,
    make: store((rows) => {
      for (let i = 1; i <= 50; i++)
        rows.club_tournament_tags!.push({ club_id: 1, tournament_id: 2, tag: `t${i}` });
    }),
    stderr: [
      "table club_tournament_tags, rows (club_id=1, tournament_id=2): the tournament has more than the limit of 50 tags in this catalog",
    ],
    problems: 1,
  },
  {
    name: 'a club tag "con" (a Windows device name)',
    code: EXIT.storeData,
    make: store((rows) => (rows.club_tournament_tags![0]!.tag = "con")),
    stderr: [
      row('table club_tournament_tags, row (club_id=1, tournament_id=2, tag="con")', "tag"),
      'tag "con" is a device name that Windows cannot use',
    ],
    problems: 1,
  },
  {
    name: 'a club slug "aux" and a recap language "nul"',
    code: EXIT.storeData,
    make: store((rows) => {
      rows.clubs![0]!.slug = "aux";
      rows.recaps![0]!.language = "nul";
    }),
    stderr: [
      row("table clubs, row (club_id=1)", "slug") + ': slug "aux" is a device name',
      row("table recaps, row (recap_id=1)", "language") + ': language "nul" is a device name',
    ],
    problems: 2,
  },
  {
    name: "an external_id of -5",
    code: EXIT.storeData,
    make: store((rows) => (rows.tournaments![1]!.external_id = -5)),
    stderr: [
      row("table tournaments, row (tournament_id=2)", "external_id") + ": is -5, outside the range 0..",
    ],
    problems: 1,
  },
  {
    name: "a player name with a right-to-left override",
    code: EXIT.storeData,
    make: store((rows) => (rows.players![0]!.name = "Carlsen \u202e1-0")),
    stderr: [
      row("table players, row (tournament_id=1, source_player_number=1)", "name") +
        ": contains the bidirectional control U+202E",
    ],
    problems: 1,
  },
  {
    name: "invisible format characters and line breaks in one-line text",
    code: EXIT.storeData,
    make: store((rows) => {
      rows.players![1]!.club = "River\u200bClub"; // zero-width space
      rows.tournaments![0]!.name = "River\nOpen";
      rows.recaps![0]!.paragraphs = JSON.stringify(["Round one.", "Soft\u00adhyphen"]);
    }),
    stderr: [
      row("table players, row (tournament_id=1, source_player_number=2)", "club") +
        ": contains the invisible format character U+200B",
      row("table tournaments, row (tournament_id=1)", "name") + ": contains a tab or line break (U+000A)",
      row("table recaps, row (recap_id=1)", "paragraphs") +
        ": contains the invisible format character U+00AD",
    ],
    problems: 3,
  },
  {
    name: "invalid UTF-8 in a player name and a headline",
    code: EXIT.storeData,
    make: store(
      () => {},
      (db) => {
        // "An\xffa": the byte FF never occurs in UTF-8. A real U+FFFD before it stays valid.
        db.exec(`UPDATE players SET name = CAST(X'416EFF61' AS TEXT)
            WHERE tournament_id = 2 AND source_player_number = 3;
          UPDATE recaps SET headline = CAST(X'EFBFBD20C3' AS TEXT) WHERE recap_id = 2`);
      },
    ),
    stderr: [
      row("table players, row (tournament_id=2, source_player_number=3)", "name") +
        ": is not valid UTF-8 (byte 2 of the stored text)",
      row("table recaps, row (recap_id=2)", "headline") + ": is not valid UTF-8 (byte 4 of the stored text)",
    ],
    problems: 2,
  },
];

/** Ten independent problems in six tables, both tournaments and a second club. */
const MANY: Case = {
  name: "a store with ten problems",
  code: EXIT.storeData,
  make: store((rows) => {
    rows.clubs![0]!.brand_color = "red";
    rows.clubs!.push({
      club_id: 2,
      uuid: "7a2d3b63-4e1f-4c9f-8b68-3a7e2d1c0f22",
      slug: "river-\u0441lub", // a Cyrillic look-alike "с"
      name: "Look-alike Club",
    });
    rows.club_tournaments!.push({ club_id: 1, tournament_id: 77, display_order: 9 });
    rows.tournaments![1]!.end_date = "2026-11-31";
    rows.players![2]!.rating = 12.5;
    rows.games![1]!.black_player_number = 42;
    rows.games![3]!.first_seen_at = "20/11/2026 10:00";
    rows.recaps![1]!.language = "EN";
    rows.publication_tags!.push({ tournament_id: 1, tag: "tournaments" });
    rows.rounds!.push({ tournament_id: 2, round_number: 0, first_scraped_at: TS, last_scraped_at: TS });
  }),
  stderr: [
    "The store has 10 problem(s)",
    row("table clubs, row (club_id=1)", "brand_color"),
    row("table clubs, row (club_id=2)", "slug"),
    row("table club_tournaments, rows (tournament_id=77)", "tournament_id"),
    row("table tournaments, row (tournament_id=2)", "end_date"),
    row("table players, row (tournament_id=1, source_player_number=3)", "rating"),
    row("table games, row (tournament_id=1, round_number=1, board_number=2)", "black_player_number"),
    row("table games, row (tournament_id=1, round_number=2, board_number=2)", "first_seen_at"),
    row("table recaps, row (recap_id=2)", "language"),
    row('table publication_tags, row (tournament_id=1, tag="tournaments")', "tag"),
    row("table rounds, row (tournament_id=2, round_number=0)", "round_number"),
  ],
  problems: 10,
};
CASES.push(MANY);

/** Problem lines of a BuildError message on stderr. */
function problemLines(stderr: string): string[] {
  return stderr.split("\n").filter((l) => l.startsWith("  - "));
}

interface Lane {
  dir: string;
  out: string;
  good: Record<string, string>;
}

async function goodSnapshot(dir: string): Promise<Lane> {
  const db = storeFromRows(path.join(dir, "good.sqlite"), baseRows());
  const out = path.join(dir, "dist");
  const built = await runCli(["build", "--db", db, "--out", out, "--now", NOW]);
  expect(built.stderr).toContain("built");
  expect(built.code).toBe(EXIT.ok);
  return { dir, out, good: hashTree(out) };
}

const lanes: Lane[] = [];
const results = new Map<string, { db: string; run: CliResult; after: Record<string, string> }>();

beforeAll(async () => {
  const dirs = Array.from({ length: LANES }, (_, i) => tempDir(`hostile-lane${i}`));
  lanes.push(...(await Promise.all(dirs.map(goodSnapshot))));
  // Each lane builds its share of the broken stores one after another into its own --out.
  await Promise.all(
    lanes.map(async (lane, i) => {
      for (const c of CASES.filter((_, k) => k % LANES === i)) {
        const db = path.join(lane.dir, `${c.name.replace(/[^a-z0-9]+/gi, "-")}.sqlite`);
        c.make(db);
        const run = await runCli(["build", "--db", db, "--out", lane.out, "--now", NOW]);
        results.set(c.name, { db, run, after: hashTree(lane.out) });
      }
    }),
  );
}, 120_000);

describe("hostile and broken stores leave the previous snapshot untouched", () => {
  it("the good snapshot is a real one", () => {
    for (const lane of lanes) {
      expect(lane.good[MARKER_NAME]).toBeDefined();
      expect(lane.good[`api/public/v1/tournaments/${BASE.published}/index.json`]).toBeDefined();
      expect(lane.good[`api/clubs/river-club/tournaments/${BASE.clubOnly}/index.json`]).toBeDefined();
    }
  });

  it.each(CASES.map((c, i) => [c.name, c, i] as const))("%s", (_name, c, i) => {
    const r = results.get(c.name)!;
    expect(r.run.stdout).toBe("");
    expect(r.run.code, r.run.stderr).toBe(c.code);
    expect(r.run.stderr).toMatch(/^build-api: /);
    // The file — its full path for open and schema failures, its base name in row problems —
    // then table, row and column, on one line.
    const file = c.code === EXIT.storeData ? path.basename(r.db) : r.db;
    expect(r.run.stderr).toContain(`${file}: `);
    for (const s of c.stderr) {
      if (typeof s !== "string") expect(r.run.stderr).toMatch(s);
      else expect(r.run.stderr).toContain(s.startsWith("table ") ? `${file}: ${s}` : s);
    }
    if (c.problems !== undefined) expect(problemLines(r.run.stderr)).toHaveLength(c.problems);
    // A megabyte value never floods the terminal.
    expect(r.run.stderr.length).toBeLessThan(c.maxStderr ?? 5_000);
    // Read through --out: the snapshot the target points to is byte for byte the good one.
    expect(r.after).toEqual(lanes[i % LANES]!.good);
  });

  it("leaves no staging directory, temporary link or lock behind", () => {
    for (const lane of lanes) {
      const entries = readdirSync(lane.dir).filter((e) => !e.endsWith(".sqlite"));
      expect(entries.sort()).toEqual([".dist.snapshots", "dist"]);
      // The two versions of the pair (a first build links the second), beside the bookkeeping
      // database (and its WAL while a reader has it open) and the pair's record.
      const versions = readdirSync(path.join(lane.dir, ".dist.snapshots")).filter(
        (e) => !e.startsWith(".") && !e.startsWith("bookkeeping.sqlite") && e !== "pair.json",
      );
      expect(versions.sort()).toEqual(["1", "2"]);
    }
  });
});

describe("--skip-invalid", () => {
  it("publishes the valid tournaments into the same --out and lists the skipped ones", async () => {
    const { dir, out, good } = lanes[0]!;
    const rows = cloneRows(baseRows());
    rows.tournaments![1]!.start_date = "2026-13-01"; // tournament 5002
    rows.players![5]!.rating = "high"; // tournament 5002, player 2
    const db = storeFromRows(path.join(dir, "half-bad.sqlite"), rows);

    const r = await runCli(["build", "--db", db, "--out", out, "--now", NOW, "--skip-invalid"]);
    expect(r.code, r.stderr).toBe(EXIT.ok);
    expect(r.stderr).toContain(": 1 tournament, ");
    const at = r.stderr.indexOf(`skipped tournament ${BASE.clubOnly}:`);
    expect(at).toBeGreaterThan(0);
    expect(problemLines(r.stderr.slice(at))).toEqual([
      expect.stringContaining(row("half-bad.sqlite: table tournaments, row (tournament_id=2)", "start_date")),
      expect.stringContaining(
        row("half-bad.sqlite: table players, row (tournament_id=2, source_player_number=2)", "rating"),
      ),
    ]);

    const tree = readTree(out);
    const files = [...tree.keys()];
    expect(files).toContain(`api/public/v1/tournaments/${BASE.published}/index.json`);
    expect(files).toContain(`api/clubs/river-club/tournaments/${BASE.published}/index.json`);
    // The skipped tournament was in the previous snapshot; it is gone from the new one.
    expect(Object.keys(good).filter((f) => f.includes(`/${BASE.clubOnly}/`)).length).toBeGreaterThan(0);
    expect(files.filter((f) => f.includes(`/${BASE.clubOnly}/`))).toEqual([]);
    const catalog = JSON.parse(tree.get("api/clubs/river-club/tournaments/index.json")!.toString("utf8")) as {
      tournaments: { tournament: { tournamentId: number } }[];
    };
    expect(catalog.tournaments.map((e) => e.tournament.tournamentId)).toEqual([BASE.published]);

    // Nothing of the report reaches a file of the snapshot, served or not (_build-api.json is
    // uploaded by host deploys): not the store's file name, not a private row key, not the bad
    // cells' values. The record keeps the skipped tournament's public id and its problem count.
    expect(JSON.parse(tree.get(INPUTS_FILE)!.toString("utf8")).render.skipped).toEqual([
      { externalId: String(BASE.clubOnly), problems: [], problemCount: 2 },
    ]);
    for (const [file, bytes] of tree) {
      const text = bytes.toString("utf8");
      for (const secret of ["half-bad", "tournament_id", "2026-13-01", '"high"'])
        expect([file, text.includes(secret)]).toEqual([file, false]);
    }
  });
});

describe("--skip-invalid skips values that would make unsafe paths or text", () => {
  it("skips the tournaments with external_id -5, the tag con, a bidi override or 20,001 players, and publishes the rest", async () => {
    const dir = tempDir("skip-unsafe");
    const out = path.join(dir, "dist");
    const rows = cloneRows(baseRows());
    rows.tournaments![1]!.external_id = -5; // tournament 2, club only
    rows.publication_tags![0]!.tag = "con"; // tournament 1, the global surface
    rows.tournaments!.push({
      ...rows.tournaments![0]!,
      tournament_id: 3,
      external_id: 5003,
      name: "Bidi \u202eOpen",
    });
    rows.club_tournaments!.push({ club_id: 1, tournament_id: 3, display_order: 3 });
    rows.tournaments!.push({ ...rows.tournaments![0]!, tournament_id: 4, external_id: 5004 });
    rows.club_tournaments!.push({ club_id: 1, tournament_id: 4, display_order: 4 });
    rows.tournaments!.push({ ...rows.tournaments![0]!, tournament_id: 5, external_id: 5005 });
    rows.club_tournaments!.push({ club_id: 1, tournament_id: 5, display_order: 5 });
    const db = storeFromRows(path.join(dir, "unsafe-values.sqlite"), rows, (d) =>
      d.exec(`INSERT INTO players (tournament_id, source_player_number, name)
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20001)
        SELECT 5, i, 'Player ' || i FROM n`),
    );

    const refused = await runCli(["build", "--db", db, "--out", out, "--now", NOW]);
    expect(refused.code, refused.stderr).toBe(EXIT.storeData);
    expect(problemLines(refused.stderr)).toHaveLength(4);

    const r = await runCli(["build", "--db", db, "--out", out, "--now", NOW, "--skip-invalid"]);
    expect(r.code, r.stderr).toBe(EXIT.ok);
    expect(r.stderr).toContain(": 1 tournament, ");
    expect(r.stderr).toContain("skipped tournament -5:");
    expect(r.stderr).toContain(
      row("unsafe-values.sqlite: table tournaments, row (tournament_id=2)", "external_id"),
    );
    expect(r.stderr).toContain(`skipped tournament ${BASE.published}:`);
    expect(r.stderr).toContain(
      'unsafe-values.sqlite: table publication_tags, row (tournament_id=1, tag="con"), column tag',
    );
    expect(r.stderr).toContain("skipped tournament 5003:");
    expect(r.stderr).toContain("column name: contains the bidirectional control U+202E");
    expect(r.stderr).toContain("skipped tournament 5005:");
    expect(r.stderr).toContain("more than the limit of 20,000 players");
    const files = [...readTree(out).keys()];
    expect(files).toContain("api/clubs/river-club/tournaments/5004/index.json");
    expect(files.filter((f) => /\/(-5|con|5001|5003|5005)\//.test(f))).toEqual([]);
  });
});

describe("text that is published as it is", () => {
  it("keeps the joiners of Persian and Indic names, and line breaks in recap bodies", async () => {
    const dir = tempDir("text-ok");
    const out = path.join(dir, "dist");
    const rows = cloneRows(baseRows());
    rows.players![0]!.name = "Mohammad\u200cReza Amiri"; // zero-width non-joiner
    rows.recaps![0]!.paragraphs = JSON.stringify(["First line\nsecond line"]);
    rows.recaps![0]!.preview = "Two\r\nlines\tand a tab";
    const db = storeFromRows(path.join(dir, "text.sqlite"), rows);
    const r = await runCli(["build", "--db", db, "--out", out, "--now", NOW]);
    expect(r.code, r.stderr).toBe(EXIT.ok);
    const text = [...readTree(out).values()].map((b) => b.toString("utf8")).join("\n");
    expect(text).toContain(JSON.stringify("Mohammad\u200cReza Amiri"));
    expect(text).toContain(JSON.stringify("First line\nsecond line"));
  });
});

describe("unsafe --out", () => {
  let db: string;
  beforeAll(() => {
    db = storeFromRows(path.join(tempDir("unsafe-db"), "good.sqlite"), baseRows());
  });

  const build = (out: string, extra: string[] = [], opts: Parameters<typeof runCli>[1] = {}) =>
    runCli(["build", "--db", db, "--out", out, "--now", NOW, ...extra], opts);

  /** Writes a few files of someone else's under `dir` and returns their hashes. */
  function someoneElses(dir: string): Record<string, string> {
    mkdirSync(path.join(dir, "photos"), { recursive: true });
    writeFileSync(path.join(dir, "notes.txt"), "mine\n");
    writeFileSync(path.join(dir, "photos", "cat.jpg"), "meow");
    return hashTree(dir);
  }

  it("refuses the file system root, the home directory and the repository root", async () => {
    const home = path.join(tempDir("home"), "alice");
    const homeFiles = someoneElses(home);
    const elsewhere = tempDir("cwd");
    const [root, homeForced, repoRoot] = await Promise.all([
      build("/"),
      // HOME points at a scratch home, so a broken guard could never touch the real one.
      build(home, ["--force"], { env: { ...process.env, HOME: home }, cwd: elsewhere }),
      // The real repository root, without --force: refused for what it is, not for being non-empty.
      build(REPO_ROOT),
    ]);
    expect(root.code, root.stderr).toBe(EXIT.unsafeOutput);
    expect(root.stderr).toContain("file system root");
    expect(homeForced.code, homeForced.stderr).toBe(EXIT.unsafeOutput);
    expect(homeForced.stderr).toContain("home directory");
    expect(hashTree(home)).toEqual(homeFiles);
    expect(readdirSync(path.dirname(home))).toEqual(["alice"]);
    expect(repoRoot.code, repoRoot.stderr).toBe(EXIT.unsafeOutput);
    expect(repoRoot.stderr).toMatch(/current directory|contains \.git/);
    expect(repoRoot.stderr).not.toContain("non-empty directory");
  });

  it("refuses a non-empty directory without the marker, and replaces it with --force", async () => {
    const out = path.join(tempDir("nonempty"), "site");
    const theirs = someoneElses(out);
    const refused = await build(out);
    expect(refused.code).toBe(EXIT.unsafeOutput);
    expect(refused.stderr).toContain(out);
    expect(refused.stderr).toContain("non-empty directory without the snapshot marker");
    expect(refused.stderr).toContain("--force");
    expect(hashTree(out)).toEqual(theirs);
    expect(readdirSync(path.dirname(out))).toEqual(["site"]);

    const forced = await build(out, ["--force"]);
    expect(forced.code).toBe(EXIT.ok);
    const files = Object.keys(hashTree(out));
    expect(files).toContain(MARKER_NAME);
    expect(files).toContain(`api/public/v1/tournaments/${BASE.published}/index.json`);
    expect(files).not.toContain("notes.txt");
  });
});

describe("bad usage", () => {
  it("exits with the usage code for a missing --db and for a --now without a zone", async () => {
    const out = path.join(tempDir("usage"), "dist");
    const db = path.join(path.dirname(out), "never-read.sqlite");
    const [noDb, badNow, badDay] = await Promise.all([
      runCli(["build", "--out", out, "--now", NOW]),
      runCli(["build", "--db", db, "--out", out, "--now", "2026-11-22"]),
      // Date.parse would roll this over to 2 March.
      runCli(["build", "--db", db, "--out", out, "--now", "2026-02-30T00:00:00Z"]),
    ]);
    expect(badDay.code, badDay.stderr).toBe(EXIT.usage);
    expect(badDay.stderr).toContain("not a valid calendar time");
    expect(noDb.code, noDb.stderr).toBe(EXIT.usage);
    expect(noDb.stderr).toContain("--db");
    expect(badNow.code, badNow.stderr).toBe(EXIT.usage);
    expect(badNow.stderr).toContain("--now");
    expect(badNow.stderr).toContain("with a zone");
    expect(readdirSync(path.dirname(out))).toEqual([]);
  });
});
