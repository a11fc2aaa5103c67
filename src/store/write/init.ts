// `build-api init-store <file> [--sample]`: creates an empty store with the current schema, or
// one holding the embedded sample. (upgrade-store is in upgrade.ts, add-club in add-club.ts.)
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
