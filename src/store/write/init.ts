// `build-api init-store <file> [--sample]`: creates an empty store with the current schema, or
// one holding the embedded sample. (upgrade-store is in upgrade.ts, add-club in add-club.ts.)
import { createHash } from "node:crypto";
import { existsSync, lstatSync, readFileSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import Database from "better-sqlite3";
import { BuildError, EXIT } from "../../shared/errors.ts";
import { storeSql } from "../schema.ts";

/** The embedded sample's SQL (data/sample.sql, shipped in the npm package beside lib/). */
export const SAMPLE_SQL_URL = new URL("../../../data/sample.sql", import.meta.url);

export function createStore(file: string): void {
  let link = false;
  try {
    link = lstatSync(file).isSymbolicLink();
  } catch {
    // nothing at this path: the usual case
  }
  if (existsSync(file) || link) {
    throw new BuildError(
      `Refusing to create a store: ${file} already exists${link ? " (a symbolic link)" : ""}.`,
      [
        {
          what: link ? "a symbolic link is at this path" : "a file is at this path",
          where: file,
          fix: "pass a new path",
        },
      ],
      EXIT.usage,
    );
  }
  const dir = dirname(resolve(file));
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new BuildError(
      `Cannot create the store ${file}: the directory ${dir} does not exist.`,
      [{ what: "the directory is missing", where: dir, fix: `create it first (mkdir -p ${dir})` }],
      EXIT.usage,
    );
  }
  const db = new Database(file);
  try {
    db.pragma("journal_mode = DELETE");
    db.exec(storeSql());
  } finally {
    db.close();
  }
}

/**
 * Gives every revision a stamp derived from the SQL text instead of the random one its triggers
 * drew, so the same SQL always gives the same bytes. Sound: two stores made from the same text hold
 * the same rows, so they may share revisions; the first change to either draws a random stamp again
 * (schema/store.sql, "Revisions").
 */
function stampsFromText(db: Database.Database, sql: string): void {
  const seed = createHash("sha256").update(sql).digest();
  const stamp = (key: string): Buffer =>
    createHash("sha256").update(seed).update(key).digest().subarray(0, 8);
  const scopes = db.prepare<[], { scope: string }>("SELECT scope FROM store_revisions").all();
  const setScope = db.prepare<[Buffer, string]>("UPDATE store_revisions SET stamp = ? WHERE scope = ?");
  for (const { scope } of scopes) setScope.run(stamp(`scope:${scope}`), scope);
  const ids = db.prepare<[], { id: number }>("SELECT tournament_id AS id FROM tournament_revisions").all();
  const setTournament = db.prepare<[Buffer, number]>(
    "UPDATE tournament_revisions SET stamp = ? WHERE tournament_id = ?",
  );
  for (const { id } of ids) setTournament.run(stamp(`tournament:${id}`), id);
}

/**
 * Creates a store at `file` (which must not exist) holding the rows of `sqlPath`, by default the
 * embedded sample. The same SQL always gives the same bytes (the file is vacuumed).
 */
export function createSampleStore(file: string, sqlPath: string | URL = SAMPLE_SQL_URL): void {
  const sql = readFileSync(sqlPath, "utf8");
  createStore(file);
  const db = new Database(file);
  try {
    db.pragma("foreign_keys = ON");
    db.exec("BEGIN");
    try {
      db.exec(sql);
      stampsFromText(db, sql);
      db.exec("COMMIT");
    } catch (error) {
      db.exec("ROLLBACK");
      throw error;
    }
    const violations = db.pragma("foreign_key_check") as unknown[];
    if (violations.length > 0) {
      throw new Error(
        `${String(sqlPath)} breaks ${violations.length} foreign key(s): ${JSON.stringify(violations[0])}`,
      );
    }
    // Rewrites the file compactly so that its bytes depend only on its contents.
    db.exec("VACUUM");
  } finally {
    db.close();
  }
}
