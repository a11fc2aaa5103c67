// Stores as older build-api versions wrote them, holding the sample's rows: version 3 from the
// schema it shipped (test/fixtures/store/v3.sql), versions 2 and 1 by taking away what 3 and 2 added.
import { readFileSync } from "node:fs";
import Database from "better-sqlite3";
import { createSampleStore, SAMPLE_SQL_URL } from "../../src/store/write/init.ts";
import { VERSION_5_TABLES } from "../../src/store/schema.ts";

const V3_SQL = new URL("../fixtures/store/v3.sql", import.meta.url);

/** Creates at `file` a version 3 store (its real triggers, no stamps) holding the sample's rows. */
export function sampleStoreV3(file: string): void {
  const db = new Database(file);
  try {
    db.pragma("journal_mode = DELETE");
    db.exec(readFileSync(V3_SQL, "utf8"));
    db.exec("BEGIN");
    db.exec(readFileSync(SAMPLE_SQL_URL, "utf8"));
    db.exec("COMMIT");
  } finally {
    db.close();
  }
}

/** Turns a version 3 store into what version 2 wrote: no tiebreak_practice column, no round
 * schedule nor its triggers. */
export function downgradeToVersion2(file: string): void {
  const db = new Database(file);
  try {
    db.exec("ALTER TABLE tournaments DROP COLUMN tiebreak_practice");
    for (const { name } of db
      .prepare<[], { name: string }>(
        "SELECT name FROM sqlite_schema WHERE type = 'trigger' AND tbl_name = 'round_schedule'",
      )
      .all())
      db.exec(`DROP TRIGGER "${name}"`);
    db.exec("DROP TABLE round_schedule");
    db.pragma("user_version = 2");
  } finally {
    db.close();
  }
}

/** Turns a version 2 or 3 store into what version 1 wrote: no revision tables, no triggers. */
export function downgradeToVersion1(file: string): void {
  downgradeToVersion2(file);
  const db = new Database(file);
  try {
    for (const { name } of db
      .prepare<[], { name: string }>("SELECT name FROM sqlite_schema WHERE type = 'trigger'")
      .all())
      db.exec(`DROP TRIGGER "${name}"`);
    db.exec("DROP TABLE tournament_revisions; DROP TABLE store_revisions");
    db.pragma("user_version = 1");
  } finally {
    db.close();
  }
}

/** A sample store of `version` (1, 2 or 3) at `file`. */
/** Creates at `file` a version 4 store holding the sample's rows: the current schema without
 * what version 5 added (the team tables and their triggers). */
export function sampleStoreV4(file: string): void {
  createSampleStore(file);
  const db = new Database(file);
  try {
    for (const table of VERSION_5_TABLES) {
      for (const name of db
        .prepare<[string], string>("SELECT name FROM sqlite_schema WHERE type = 'trigger' AND tbl_name = ?")
        .pluck()
        .all(table))
        db.exec(`DROP TRIGGER "${name}"`);
      db.exec(`DROP TABLE ${table}`);
    }
    db.pragma("user_version = 4");
  } finally {
    db.close();
  }
}

export function sampleStoreOfVersion(file: string, version: 1 | 2 | 3 | 4): void {
  if (version === 4) return sampleStoreV4(file);
  sampleStoreV3(file);
  if (version === 2) downgradeToVersion2(file);
  if (version === 1) downgradeToVersion1(file);
}
