// Issue 5, "no leaks" on the sample: secret-looking values planted in every column that is not a
// contract field, and in every contract field of what must stay hidden (drafts, unpublished
// tournaments, tournaments only a disabled club lists, draft recaps, disabled clubs), never reach
// any file the build writes — host configs, manifest and marker included. Stronger still: the
// output does not change by a single byte.
import { copyFileSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { STATE_FILE } from "../../src/ledger/state.ts";
import { REVISION_TABLES } from "../../src/store/read/revisions.ts";
import { INPUTS_FILE } from "../../src/ledger/inputs.ts";
import { MANIFEST_NAME } from "../../src/publish/index.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build } from "../../src/pipeline/build.ts";
import { COLUMNS, type TableName } from "../../src/store/columns.ts";
import { makeSampleStore, SAMPLE_NOW } from "../support/e2e.ts";
import { removeTempDirs, tempDir } from "../support/temp.ts";
import { schemaColumns, type SchemaColumn } from "../support/schema.ts";

afterAll(removeTempDirs);

type Key = Record<string, unknown>;

/** Every regular file under `dir` (symlinks not followed: each version directory is read once). */
function everyFile(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (abs: string, rel: string): void => {
    for (const entry of readdirSync(abs, { withFileTypes: true })) {
      const a = path.join(abs, entry.name);
      const r = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(a, r);
      else if (entry.isFile()) files.set(r, readFileSync(a, "latin1"));
    }
  };
  walk(dir, "");
  return files;
}

/** The primary-key columns of `table`, or ["rowid"] for a rowid table without an explicit key. */
function keyColumns(db: Database.Database, table: string): string[] {
  const info = db
    .prepare(`SELECT name, pk FROM pragma_table_info(?) WHERE pk > 0 ORDER BY pk`)
    .all(table) as {
    name: string;
  }[];
  return info.length > 0 ? info.map((c) => c.name) : ["rowid"];
}

/** "clubs-3" or "players-1-17": a row's key in a secret. */
const keyText = (key: Key): string => Object.values(key).map(String).join("-");

let nextDay = 0;
/** A valid date (or timestamp) in 1901-1902 that no row of the sample holds. */
function uniqueDate(timestamp: boolean): string {
  const d = new Date(Date.UTC(1901, 0, 1) + nextDay++ * 86_400_000 + nextDay * 61_000);
  return timestamp ? d.toISOString().replace(".000Z", "Z") : d.toISOString().slice(0, 10);
}

/** The secret for one cell: a date for date columns, a timestamp for *_at, else SECRET-... */
function secretFor(col: SchemaColumn, key: Key): string {
  if (col.column.endsWith("_date")) return uniqueDate(false);
  if (col.column.endsWith("_at")) return uniqueDate(true);
  return `SECRET-${col.table}-${col.column}-${keyText(key)}`;
}

/**
 * Sets every TEXT column in `columns` of the rows of `table` that `where` selects to a secret,
 * one UPDATE per row (a key column may be among them). Returns the secrets.
 */
function plantText(
  db: Database.Database,
  table: string,
  where: string,
  columns: SchemaColumn[],
  params: unknown[] = [],
): string[] {
  const cols = columns.filter((c) => c.table === table && c.type === "TEXT" && !c.check);
  if (cols.length === 0) return [];
  const keys = keyColumns(db, table);
  const rows = db.prepare(`SELECT ${keys.join(", ")} FROM ${table} WHERE ${where}`).all(...params) as Key[];
  const update = db.prepare(
    `UPDATE ${table} SET ${cols.map((c) => `${c.column} = ?`).join(", ")} WHERE ${keys.map((k) => `${k} = ?`).join(" AND ")}`,
  );
  const secrets: string[] = [];
  for (const key of rows) {
    const values = cols.map((c) => secretFor(c, key));
    update.run(...values, ...keys.map((k) => key[k]));
    secrets.push(...values);
  }
  return secrets;
}

/** Moves every value of a private integer row id (and every column that references it) by `offset`. */
function renumber(db: Database.Database, column: string, tables: string[], offset: number): string[] {
  const ids = new Set<number>();
  for (const table of tables) {
    for (const id of db.prepare(`SELECT DISTINCT ${column} FROM ${table}`).pluck().all() as number[])
      ids.add(id);
    db.prepare(`UPDATE ${table} SET ${column} = ${column} + ?`).run(offset);
  }
  return [...ids].map((id) => String(id + offset));
}

const HIDDEN_TOURNAMENTS = `is_draft = 1 OR (
  tournament_id NOT IN (SELECT tournament_id FROM publications)
  AND tournament_id NOT IN (SELECT ct.tournament_id FROM club_tournaments ct JOIN clubs c USING (club_id) WHERE c.enabled = 1))`;

const schema = schemaColumns();
let sampleDir: string;
let sample: string;
let original: Map<string, string>;

beforeAll(async () => {
  sampleDir = tempDir("secrets");
  sample = makeSampleStore(sampleDir);
  const out = path.join(sampleDir, "original", "dist");
  await build({ db: sample, out, now: SAMPLE_NOW });
  original = everyFile(path.dirname(out));
});

describe("the documented private columns", () => {
  it("are exactly the columns the reader never selects, plus the local row ids", () => {
    const db = new Database(sample, { readonly: true });
    try {
      const tables = Object.keys(COLUMNS) as TableName[];
      const documented = new Set(schema.map((c) => `${c.table}.${c.column}`));
      const nonContract: string[] = [];
      const rowIds: string[] = [];
      for (const table of tables) {
        const info = db.prepare("SELECT name, type, pk FROM pragma_table_info(?)").all(table) as {
          name: string;
          type: string;
          pk: number;
        }[];
        for (const c of info) {
          // The parser of store.sql saw every column of the real table.
          expect(documented.has(`${table}.${c.name}`), `${table}.${c.name}`).toBe(true);
          if (!(c.name in COLUMNS[table])) nonContract.push(`${table}.${c.name}`);
          if (c.pk === 1 && c.type === "INTEGER" && info.filter((x) => x.pk > 0).length === 1)
            rowIds.push(`${table}.${c.name}`);
        }
      }
      const marked = schema.filter((c) => c.private).map((c) => `${c.table}.${c.column}`);
      expect(nonContract.length).toBeGreaterThanOrEqual(6);
      // Every column the reader leaves out is documented as private, and every other private
      // column is a table's own row id (read only as a key, never published).
      expect(marked.filter((c) => !nonContract.includes(c)).sort()).toEqual(
        rowIds.filter((c) => marked.includes(c)).sort(),
      );
      expect(nonContract.filter((c) => !marked.includes(c))).toEqual([]);
    } finally {
      db.close();
    }
  });
});

describe("secrets planted in the sample store", () => {
  let db: string;
  let privateSecrets: string[];
  let hiddenSecrets: string[];

  beforeAll(() => {
    db = path.join(sampleDir, "secrets.sqlite");
    copyFileSync(sample, db);
  });

  it("in every private column leave every output byte as it was", async () => {
    const d = new Database(db);
    try {
      d.pragma("foreign_keys = OFF");
      const privateText = schema.filter((c) => c.private && c.type === "TEXT");
      privateSecrets = [];
      for (const table of new Set(privateText.map((c) => c.table))) {
        privateSecrets.push(...plantText(d, table, "1", privateText));
      }
      // Private integer row ids: moved to values that occur nowhere else, references along.
      const withColumn = (column: string) => [
        // The revision tables are the triggers' bookkeeping: renumbering the rows moves them along.
        ...new Set(
          schema.filter((c) => c.column === column && !REVISION_TABLES.includes(c.table)).map((c) => c.table),
        ),
      ];
      privateSecrets.push(
        ...renumber(d, "tournament_id", withColumn("tournament_id"), 8_101_000_000),
        ...renumber(d, "club_id", withColumn("club_id"), 8_202_000_000),
        ...renumber(d, "recap_id", ["recaps"], 8_303_000_000),
      );
      // Every private text cell of every row now holds a secret.
      const planted = new Set(privateSecrets);
      expect(privateText.length).toBeGreaterThanOrEqual(6);
      for (const c of privateText) {
        const values = d.prepare(`SELECT ${c.column} FROM ${c.table}`).pluck().all();
        expect(values.length, `${c.table}.${c.column}`).toBeGreaterThan(0);
        for (const v of values) expect(planted.has(v as string), `${c.table}.${c.column}`).toBe(true);
      }
      const violations = d.pragma("foreign_key_check") as unknown[];
      expect(violations).toEqual([]);

      // Each planted date appears in no other cell of the store.
      const dates = privateSecrets.filter((s) => /^1901|^1902/.test(s));
      expect(dates.length).toBeGreaterThan(300);
      const others = schema
        .filter((c) => c.type === "TEXT" && !privateText.includes(c))
        .flatMap((c) => d.prepare(`SELECT ${c.column} FROM ${c.table}`).pluck().all())
        .join("\n");
      expect(others.length).toBeGreaterThan(10_000);
      expect(dates.filter((date) => others.includes(date.slice(0, 10)))).toEqual([]);
    } finally {
      d.close();
    }
    const out = path.join(sampleDir, "private", "dist");
    await build({ db, out, now: SAMPLE_NOW });
    const files = everyFile(path.dirname(out));
    expectNoSecret(files, privateSecrets);
    expect([...files.keys()]).toEqual([...original.keys()]);
    for (const [file, text] of original) expect(sameOutput(file, files.get(file), text), file).toBe(true);
  });

  it("in every field of drafts, hidden tournaments, draft recaps and disabled clubs change nothing either", async () => {
    const d = new Database(db);
    const hidden = { externalIds: [] as string[], newExternalIds: [] as string[], slugs: [] as string[] };
    try {
      d.pragma("foreign_keys = OFF");
      const ids = d
        .prepare(`SELECT tournament_id FROM tournaments WHERE ${HIDDEN_TOURNAMENTS}`)
        .pluck()
        .all();
      expect(ids.length).toBeGreaterThanOrEqual(3); // draft, unpublished, disabled-club only
      const inHidden = `tournament_id IN (SELECT tournament_id FROM tournaments WHERE ${HIDDEN_TOURNAMENTS})`;
      hiddenSecrets = [];
      // Hidden tournaments: the row, and every row that belongs to them.
      for (const table of [
        "players",
        "rounds",
        "games",
        "source_standings",
        "source_standing_rows",
        "recaps",
        "club_tournament_tags",
        "publication_tags",
      ]) {
        hiddenSecrets.push(...plantText(d, table, inHidden, schema));
      }
      hiddenSecrets.push(...plantText(d, "tournaments", HIDDEN_TOURNAMENTS, schema));
      hidden.externalIds = (
        d.prepare(`SELECT external_id FROM tournaments WHERE ${HIDDEN_TOURNAMENTS}`).pluck().all() as number[]
      ).map(String);
      d.prepare(
        `UPDATE tournaments SET external_id = external_id + 8404000000 WHERE ${HIDDEN_TOURNAMENTS}`,
      ).run();
      hidden.newExternalIds = hidden.externalIds.map((id) => String(Number(id) + 8_404_000_000));
      // Draft recaps of visible tournaments.
      const drafts = plantText(d, "recaps", "is_draft = 1", schema);
      expect(drafts.length).toBeGreaterThan(0);
      hiddenSecrets.push(...drafts);
      // Disabled clubs, and the tags of their catalog entries (some list visible tournaments).
      hidden.slugs = d.prepare("SELECT slug FROM clubs WHERE enabled = 0").pluck().all() as string[];
      expect(hidden.slugs.length).toBeGreaterThan(0);
      hiddenSecrets.push(
        ...plantText(
          d,
          "club_tournament_tags",
          "club_id IN (SELECT club_id FROM clubs WHERE enabled = 0)",
          schema,
        ),
        ...plantText(d, "clubs", "enabled = 0", schema),
      );
      hidden.slugs.push(...(d.prepare("SELECT slug FROM clubs WHERE enabled = 0").pluck().all() as string[]));
    } finally {
      d.close();
    }
    expect(hiddenSecrets.length).toBeGreaterThan(100);

    const out = path.join(sampleDir, "hidden", "dist");
    await build({ db, out, now: SAMPLE_NOW });
    const files = everyFile(path.dirname(out));
    expectNoSecret(files, [...privateSecrets, ...hiddenSecrets, ...hidden.newExternalIds]);
    for (const file of files.keys()) {
      for (const id of [...hidden.externalIds, ...hidden.newExternalIds])
        expect(file.includes(`/tournaments/${id}/`), file).toBe(false);
      for (const slug of hidden.slugs) expect(file.includes(`/clubs/${slug}/`), file).toBe(false);
    }
    expect([...files.keys()]).toEqual([...original.keys()]);
    for (const [file, text] of original) expect(sameOutput(file, files.get(file), text), file).toBe(true);
  });

  it("leave no store row id, revision stamp or hidden value in the ledger, nor the key it is kept under in any file", async () => {
    const out = path.join(sampleDir, "hidden", "dist");
    // A tick after a draft changed: the ledger then records the changed draft among the recent.
    const d = new Database(db);
    try {
      d.prepare(`UPDATE tournaments SET name = name || ' (edited)' WHERE is_draft = 1`).run();
    } finally {
      d.close();
    }
    await build({ db, out, now: SAMPLE_NOW });
    const store = new Database(db, { readonly: true });
    let rowIds: string[];
    let stamps: string[];
    try {
      rowIds = (store.prepare("SELECT tournament_id FROM tournaments").pluck().all() as number[]).map(String);
      stamps = [
        ...(store.prepare("SELECT hex(stamp) FROM tournament_revisions").pluck().all() as string[]),
        ...(store.prepare("SELECT hex(stamp) FROM store_revisions").pluck().all() as string[]),
      ];
    } finally {
      store.close();
    }
    // Renumbered by the first test: values that no count or size of the ledger can take.
    expect(rowIds.every((id) => Number(id) > 8_101_000_000)).toBe(true);
    expect(stamps.every((s) => /^[0-9A-F]{16}$/.test(s))).toBe(true);
    const secrets = [
      ...rowIds,
      ...stamps,
      ...stamps.map((s) => s.toLowerCase()),
      ...privateSecrets,
      ...hiddenSecrets,
    ];
    const ledger = new Database(path.join(sampleDir, "hidden", ".dist.snapshots", "bookkeeping.sqlite"), {
      readonly: true,
    });
    try {
      const tables = ledger
        .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        .pluck()
        .all() as string[];
      expect(tables).toEqual(expect.arrayContaining(["records", "recent", "files", "meta"]));
      let cells = 0;
      for (const table of tables) {
        for (const row of ledger.prepare(`SELECT * FROM "${table}"`).all() as Record<string, unknown>[]) {
          for (const [column, value] of Object.entries(row)) {
            cells++;
            const text = Buffer.isBuffer(value) ? value.toString("latin1") : String(value);
            for (const s of secrets)
              if (text.includes(s))
                expect.fail(`${JSON.stringify(s)} is in ${table}.${column}: ${text.slice(0, 80)}`);
          }
        }
      }
      expect(ledger.prepare("SELECT count(*) FROM recent").pluck().get()).toBeGreaterThan(3);
      expect(
        ledger.prepare("SELECT count(*) FROM records WHERE row IS NOT NULL").pluck().get(),
      ).toBeGreaterThan(3);
      expect(cells).toBeGreaterThan(1000);
    } finally {
      ledger.close();
    }
    // Nor the key those values are kept under: the stamps are in no file of the output either.
    expectNoSecret(everyFile(path.dirname(out)), [...stamps, ...stamps.map((s) => s.toLowerCase())]);
  });
});

/** Equal bytes, except the hash of the (changed) store that the inputs record names. */
function sameOutput(file: string, a: string | undefined, b: string): boolean {
  // The bookkeeping database beside the versions is no output: its change log's id is random and
  // its fingerprints follow the store's revisions. expectNoSecret reads it like any other file.
  if (/bookkeeping\.sqlite(-wal|-shm)?$/.test(file)) return a !== undefined;
  // The record and the fingerprints (the store's revisions moved), and their lines in the
  // manifest, differ only by those hashes; the record's `checked` holds the store's counts and
  // digests of revisions (no value of a row).
  const mask = (t: string | undefined) =>
    t
      ?.replace(/"store": "(revisions:|sha256:)?[0-9a-f]{64}"/, '"store": "…"')
      .replace(/"checked": \{[^}]*\}/, '"checked": "…"')
      .replace(/"fp":"[0-9a-f]{64}"/g, '"fp":"…"')
      .replace(/("path":"_build-api(-state)?\.json","sha256":")[0-9a-f]{64}/g, "$1…");
  if (!file.endsWith(INPUTS_FILE) && !file.endsWith(MANIFEST_NAME) && !file.endsWith(STATE_FILE))
    return a === b;
  return mask(a) === mask(b) && a !== b;
}

/** Fails with the first file that holds a secret. */
function expectNoSecret(files: Map<string, string>, secrets: string[]): void {
  expect(secrets.length).toBeGreaterThan(0);
  // Secrets are ASCII; the files are read as latin1 so that any byte sequence is searchable.
  for (const [file, text] of files) {
    for (const s of secrets) {
      if (text.includes(s) || file.includes(s)) expect.fail(`${JSON.stringify(s)} is in ${file}`);
    }
  }
}
