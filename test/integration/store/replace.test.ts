// Issue 23, point 1: every REPLACE and upsert path, on every table and every UNIQUE key of the
// store, moves the revision of each tournament (or of the clubs) whose rows it changed, the
// replaced row's owner included, even when that row belongs to another tournament than the one
// written. SQLite runs no DELETE trigger for a row that REPLACE removes (unless recursive_triggers
// is on), so this is what the triggers of schema/store.sql must cover themselves.
//
// The keys come from the reference schema (PRAGMA table_info / index_list), so a table or UNIQUE
// constraint added later is tested without editing this file. The oracle is generic: a snapshot of
// the table's rows grouped by owner before and after the write; every owner whose rows differ must
// show another revision token.
import { copyFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fromReferenceSchema } from "../../../src/store/schema.ts";
import { createSampleStore } from "../../../src/store/write/init.ts";
import { readRevisions, REVISION_TABLES } from "../../../src/store/read/revisions.ts";
import { removeTempDirs, tempDir } from "../../support/temp.ts";

afterAll(removeTempDirs);

type Row = Record<string, unknown>;

interface Key {
  table: string;
  /** The key's columns. */
  columns: string[];
  /** The table's primary key (locates a row for UPDATE). */
  pk: string[];
  /** True when the primary key is the rowid (INTEGER PRIMARY KEY): a new row can take a fresh one. */
  rowid: boolean;
}

/** Every UNIQUE key (primary keys included) of every table of schema/store.sql but the revision tables. */
const KEYS: Key[] = fromReferenceSchema((db) => {
  const tables = db
    .prepare<[], { name: string }>(
      "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name",
    )
    .all()
    .map((t) => t.name)
    .filter((t) => !REVISION_TABLES.includes(t));
  const keys: Key[] = [];
  for (const table of tables) {
    const info = db
      .prepare<[string], { name: string; pk: number; type: string }>(
        "SELECT name, pk, type FROM pragma_table_info(?)",
      )
      .all(table);
    const pk = info
      .filter((c) => c.pk > 0)
      .sort((a, b) => a.pk - b.pk)
      .map((c) => c.name);
    const withoutRowid =
      db.prepare("SELECT 1 FROM pragma_index_list(?) WHERE origin = 'pk'").get(table) !== undefined;
    const rowid = !withoutRowid && pk.length === 1 && info.find((c) => c.name === pk[0])!.type === "INTEGER";
    keys.push({ table, columns: pk, pk, rowid });
    for (const index of db
      .prepare<[string], { name: string }>(
        "SELECT name FROM pragma_index_list(?) WHERE \"unique\" = 1 AND origin <> 'pk'",
      )
      .all(table)) {
      const columns = db
        .prepare<[string], { name: string }>("SELECT name FROM pragma_index_info(?) ORDER BY seqno")
        .all(index.name)
        .map((c) => c.name);
      keys.push({ table, columns, pk, rowid });
    }
  }
  return keys;
});

/** Whose revision a row of `table` moves: its tournament's, or the clubs' scope. */
function ownerOf(table: string, row: Row): string {
  return table === "clubs" ? "clubs" : String(row.tournament_id);
}

/** The table's rows, grouped by owner, each group as sorted JSON lines. */
function rowsByOwner(db: Database.Database, table: string): Map<string, string> {
  const groups = new Map<string, string[]>();
  for (const row of db.prepare(`SELECT * FROM ${table}`).all() as Row[]) {
    const owner = ownerOf(table, row);
    if (!groups.has(owner)) groups.set(owner, []);
    groups.get(owner)!.push(JSON.stringify(row));
  }
  return new Map([...groups].map(([o, lines]) => [o, lines.sort().join("\n")]));
}

/** The revision token of every owner: tournament ids and "clubs". */
function tokens(db: Database.Database): Map<string, string> {
  const r = readRevisions(db)!;
  return new Map([...[...r.tournaments].map(([id, t]) => [String(id), t] as const), ["clubs", r.clubs]]);
}

type Write = "insert or replace" | "replace into" | "update or replace" | "upsert";
const WRITES: Write[] = ["insert or replace", "replace into", "update or replace", "upsert"];

/** Every column of a table that some UNIQUE key holds. */
function uniqueColumns(table: string): Set<string> {
  return new Set(KEYS.filter((k) => k.table === table).flatMap((k) => k.columns));
}

/**
 * Row R (the table's first row) and row S, of another owner: the write below makes S collide with
 * R on `key`. A table with rows of one owner only gets S as a copy of R under another tournament.
 */
function pickRows(db: Database.Database, key: Key): { r: Row; s: Row } {
  const order = `ORDER BY ${key.pk.join(", ")}`;
  const rows = db.prepare(`SELECT * FROM ${key.table} ${order}`).all() as Row[];
  const r = rows[0]!;
  // Every clubs row has one owner (the clubs' scope): S is another club.
  let s = key.table === "clubs" ? rows[1] : rows.find((x) => ownerOf(key.table, x) !== ownerOf(key.table, r));
  if (!s) {
    const other = db
      .prepare("SELECT tournament_id FROM tournaments WHERE tournament_id IS NOT ? ORDER BY 1 LIMIT 1")
      .pluck()
      .get(r.tournament_id);
    const copy: Row = { ...r, tournament_id: other };
    if (key.rowid) delete copy[key.pk[0]!];
    // A copy that differs from R beyond its key, so that R rewritten with S's values changes.
    const text = Object.keys(copy).find(
      (c) => typeof copy[c] === "string" && !uniqueColumns(key.table).has(c),
    );
    if (text) copy[text] = `${String(copy[text])} (copy)`;
    const columns = Object.keys(copy);
    db.prepare(
      `INSERT INTO ${key.table} (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`,
    ).run(...columns.map((c) => copy[c]));
    s = (db.prepare(`SELECT * FROM ${key.table} ${order}`).all() as Row[]).find(
      (x) => ownerOf(key.table, x) !== ownerOf(key.table, r),
    )!;
  }
  return { r, s };
}

/** Writes, with `how`, a row built from S that collides with R on `key`. */
function collide(db: Database.Database, key: Key, how: Write, r: Row, s: Row): void {
  const row: Row = { ...s };
  for (const c of key.columns) row[c] = r[c];
  // An upsert's row collides with R alone (another key's collision would abort it).
  if (how === "upsert") for (const c of uniqueColumns(key.table)) row[c] = r[c];
  // A new rowid where the key is not the rowid: the write then collides on `key` alone.
  else if (key.rowid && key.columns.join() !== key.pk.join()) delete row[key.pk[0]!];
  const columns = Object.keys(row);
  const values = columns.map((c) => row[c]);
  const list = columns.join(", ");
  const marks = columns.map(() => "?").join(", ");
  switch (how) {
    case "insert or replace":
      db.prepare(`INSERT OR REPLACE INTO ${key.table} (${list}) VALUES (${marks})`).run(...values);
      break;
    case "replace into":
      db.prepare(`REPLACE INTO ${key.table} (${list}) VALUES (${marks})`).run(...values);
      break;
    case "update or replace": {
      // S takes R's key: R goes.
      const set = key.columns.map((c) => `${c} = ?`).join(", ");
      const where = key.pk.map((c) => `${c} IS ?`).join(" AND ");
      db.prepare(`UPDATE OR REPLACE ${key.table} SET ${set} WHERE ${where}`).run(
        ...key.columns.map((c) => r[c]),
        ...key.pk.map((c) => s[c]),
      );
      break;
    }
    case "upsert": {
      // R takes S's other columns, its owner included where no key holds it.
      const rest = columns.filter((c) => !uniqueColumns(key.table).has(c));
      const update = rest.length
        ? `DO UPDATE SET ${rest.map((c) => `${c} = excluded.${c}`).join(", ")}`
        : "DO NOTHING";
      db.prepare(
        `INSERT INTO ${key.table} (${list}) VALUES (${marks}) ON CONFLICT (${key.columns.join(", ")}) ${update}`,
      ).run(...values);
      break;
    }
  }
}

let sample: string;
beforeAll(() => {
  sample = join(tempDir("replace-sample"), "sample.sqlite");
  createSampleStore(sample);
  addTeamEvents(sample);
});

/** The sample store has no team event: two of its tournaments get one each (two teams of their
 * first four players, a bye and a forfeited match), with values that differ beyond their keys, so
 * that every team table has rows of two owners to collide. */
function addTeamEvents(file: string): void {
  const db = new Database(file);
  try {
    const ids = db
      .prepare(
        "SELECT tournament_id FROM players GROUP BY tournament_id HAVING count(*) >= 4 ORDER BY 1 LIMIT 2",
      )
      .pluck()
      .all();
    ids.forEach((id, i) => {
      const players = db
        .prepare("SELECT source_player_number FROM players WHERE tournament_id = ? ORDER BY 1 LIMIT 4")
        .pluck()
        .all(id) as number[];
      // The second event lists its members the other way round: its rows differ beyond the keys.
      if (i === 1) players.reverse();
      db.prepare("INSERT INTO team_events (tournament_id, primary_score) VALUES (?, ?)").run(
        id,
        ["MP", "GP"][i],
      );
      for (const team of [1, 2]) {
        db.prepare("INSERT INTO teams (tournament_id, team_number, name) VALUES (?, ?, ?)").run(
          id,
          team,
          `Team ${team}.${i}`,
        );
        for (const board of [1, 2]) {
          db.prepare(
            "INSERT INTO team_members (tournament_id, team_number, board_order, source_player_number) VALUES (?, ?, ?, ?)",
          ).run(id, team, board, players[(team - 1) * 2 + board - 1]);
        }
      }
      db.prepare(
        "INSERT INTO team_byes (tournament_id, round_number, team_number, kind) VALUES (?, 1, 1, ?)",
      ).run(id, ["pab", "half"][i]);
      db.prepare(
        "INSERT INTO team_forfeited_matches (tournament_id, round_number, white_team, black_team, result) VALUES (?, 2, 1, 2, ?)",
      ).run(id, ["+-", "-+"][i]);
    });
  } finally {
    db.close();
  }
}

describe("REPLACE and upserts move the revision of every owner whose rows they change", () => {
  it("finds the keys that can take a row from another tournament among the schema's keys", () => {
    const names = KEYS.map((k) => `${k.table}(${k.columns.join(", ")})`);
    expect(names).toEqual(
      expect.arrayContaining([
        "recaps(recap_id)",
        "tournaments(external_id)",
        "tournaments(tournament_id)",
        "clubs(uuid)",
        "clubs(slug)",
        "players(tournament_id, source_player_number)",
        "round_schedule(tournament_id, round_number)",
      ]),
    );
    // Every table of the store but the revision tables has a key here.
    expect(new Set(KEYS.map((k) => k.table)).size).toBe(18);
  });

  const cases = KEYS.flatMap((key) =>
    WRITES.flatMap((how) =>
      [false, true].map((recursive) => ({
        key,
        how,
        recursive,
        name: `${key.table}(${key.columns.join(", ")})`,
      })),
    ),
  );

  it.each(cases)("$how on $name (recursive_triggers $recursive)", ({ key, how, recursive }) => {
    const file = join(tempDir("replace"), "store.sqlite");
    copyFileSync(sample, file);
    const db = new Database(file);
    try {
      // As the sqlite3 shell writes: foreign keys not enforced.
      db.pragma("foreign_keys = OFF");
      db.pragma(`recursive_triggers = ${recursive ? "ON" : "OFF"}`);
      const { r, s } = pickRows(db, key);
      const rowsBefore = rowsByOwner(db, key.table);
      const before = tokens(db);
      collide(db, key, how, r, s);
      const rowsAfter = rowsByOwner(db, key.table);
      const after = tokens(db);
      const changed = [...new Set([...rowsBefore.keys(), ...rowsAfter.keys()])].filter(
        (o) => rowsBefore.get(o) !== rowsAfter.get(o),
      );
      // The write changed something, and each owner it changed moved. Only a table whose key holds
      // every column (tags), or whose keys together do (team_members), can be rewritten with the
      // same row, by an insert: nothing changes then.
      const everyColumnInKey = Object.keys(r).every((c) => uniqueColumns(key.table).has(c));
      if (changed.length === 0) expect(everyColumnInKey && how !== "update or replace").toBe(true);
      const unmoved = changed.filter((o) => after.get(o) === undefined || after.get(o) === before.get(o));
      expect(unmoved).toEqual([]);
    } finally {
      db.close();
    }
  });

  it("the issue's repro: INSERT OR REPLACE of recap 11 into tournament 1 moves the recap's own tournament", () => {
    const file = join(tempDir("replace"), "store.sqlite");
    copyFileSync(sample, file);
    const db = new Database(file);
    try {
      const owner = db
        .prepare("SELECT tournament_id FROM recaps WHERE recap_id = 11")
        .pluck()
        .get() as number;
      expect(owner).not.toBe(1);
      const before = readRevisions(db)!;
      db.exec(
        `INSERT OR REPLACE INTO recaps (recap_id, tournament_id, language, kind, headline, paragraphs)
         VALUES (11, 1, 'en', 'Preview', 'New preview', '["p"]')`,
      );
      const after = readRevisions(db)!;
      expect(after.tournaments.get(owner)).not.toBe(before.tournaments.get(owner));
      expect(after.tournaments.get(1)).not.toBe(before.tournaments.get(1));
    } finally {
      db.close();
    }
  });

  it("an ordinary insert moves only its own tournament (the REPLACE triggers do not fire without a collision)", () => {
    const file = join(tempDir("replace"), "store.sqlite");
    copyFileSync(sample, file);
    const db = new Database(file);
    try {
      const count = () =>
        db.prepare("SELECT revision FROM store_revisions WHERE scope = 'all'").pluck().get();
      const was = count() as number;
      const before = readRevisions(db)!;
      db.exec(
        `INSERT INTO recaps (tournament_id, language, kind, headline, paragraphs) VALUES (1, 'en', 'Preview', 'x', '["p"]')`,
      );
      const after = readRevisions(db)!;
      const moved = [...after.tournaments]
        .filter(([id, t]) => before.tournaments.get(id) !== t)
        .map(([id]) => id);
      expect(moved).toEqual([1]);
      // One change counted.
      expect(count()).toBe(was + 1);
    } finally {
      db.close();
    }
  });
});
