// The store's writers for an operator starting out: `build-api init-store <file> [--sample]`
// creates an empty store with the current schema (or the embedded sample), and `build-api
// add-club` adds the club that `import-trf --club` publishes into.
import { randomUUID } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import Database from "better-sqlite3";
import { BuildError, EXIT, type Problem } from "../../shared/errors.ts";
import { segmentProblem } from "../../shared/segments.ts";
import {
  BRAND_COLOR_FORMAT,
  EMAIL_FORMAT,
  HTTP_URL_FORMAT,
  TIME_ZONE_FORMAT,
  UUID_FORMAT,
  type TextFormat,
} from "../formats.ts";
import { StoreWriter } from "./writer.ts";
import { STORE_SCHEMA_VERSION, storeSql, VERSION_3_COLUMNS } from "../schema.ts";

/** The embedded sample's SQL (data/sample.sql, shipped in the npm package beside lib/). */
export const SAMPLE_SQL_URL = new URL("../../../data/sample.sql", import.meta.url);

export function createStore(file: string): void {
  if (existsSync(file)) {
    throw new BuildError(`Refusing to create a store: ${file} already exists.`, [], EXIT.usage);
  }
  const db = new Database(file);
  try {
    db.pragma("journal_mode = DELETE");
    db.exec(storeSql());
  } finally {
    db.close();
  }
}

/** Where schema/store.sql starts the part that version 2 added to version 1. */
const VERSION_2_MARKER = "-- Revisions (schema version 2)";

/**
 * Upgrades a version 1 or 2 store in place to the current version, in one transaction. From 1 to
 * 2: adds the revision tables and their triggers (the version 2 part of schema/store.sql) and
 * gives every existing tournament revision 0. From 2 to 3: adds the columns of VERSION_3_COLUMNS
 * (NULL in every existing row). Returns the version the store had; a current store is left as it is.
 */
export function upgradeStore(file: string): number {
  if (!existsSync(file)) {
    throw new BuildError(`Cannot upgrade ${file}: it does not exist.`, [], EXIT.storeUnreadable);
  }
  let db: Database.Database;
  try {
    db = new Database(file, { fileMustExist: true });
    db.pragma("user_version", { simple: true });
  } catch (e) {
    throw new BuildError(
      `Cannot upgrade ${file}: not a SQLite store (${(e as Error).message}).`,
      [],
      EXIT.storeUnreadable,
    );
  }
  try {
    const version = db.pragma("user_version", { simple: true }) as number;
    if (version === STORE_SCHEMA_VERSION) return version;
    if (version !== 1 && version !== 2) {
      throw new BuildError(
        `Cannot upgrade ${file}: store schema version ${version}; build-api upgrades versions 1 and 2 only.`,
        [],
        EXIT.storeSchema,
      );
    }
    db.transaction(() => {
      if (version === 1) {
        const sql = storeSql();
        const at = sql.indexOf(VERSION_2_MARKER);
        if (at < 0) throw new Error(`schema/store.sql has no "${VERSION_2_MARKER}" section`);
        db.exec(sql.slice(at));
        db.exec(
          "INSERT INTO tournament_revisions (tournament_id, revision) SELECT tournament_id, 0 FROM tournaments",
        );
      }
      for (const c of VERSION_3_COLUMNS) db.exec(`ALTER TABLE ${c.table} ADD COLUMN ${c.ddl}`);
      db.pragma(`user_version = ${STORE_SCHEMA_VERSION}`);
    })();
    return version;
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

export interface NewClub {
  slug: string;
  name: string;
  /** Default: a random UUID. */
  uuid?: string;
  description?: string;
  websiteUrl?: string;
  contactEmail?: string;
  defaultLanguage?: string;
  timeZone?: string;
  brandColor?: string;
}

/** Adds an enabled club to an existing store; refuses a bad value or a slug already taken. */
export function addClub(file: string, club: NewClub): { uuid: string } {
  const uuid = club.uuid ?? randomUUID();
  const problems: Problem[] = [];
  const slugProblem = segmentProblem("slug", club.slug);
  if (slugProblem) problems.push({ where: "slug", ...slugProblem });
  if (club.defaultLanguage !== undefined) {
    const p = segmentProblem("language", club.defaultLanguage);
    if (p) problems.push({ where: "--default-language", ...p });
  }
  if (club.name.trim() === "")
    problems.push({ where: "--name", what: "the name is blank", fix: "give the club's name" });
  const formatted: [string, string | undefined, TextFormat][] = [
    ["--uuid", uuid, UUID_FORMAT],
    ["--website-url", club.websiteUrl, HTTP_URL_FORMAT],
    ["--contact-email", club.contactEmail, EMAIL_FORMAT],
    ["--time-zone", club.timeZone, TIME_ZONE_FORMAT],
    ["--brand-color", club.brandColor, BRAND_COLOR_FORMAT],
  ];
  for (const [where, value, format] of formatted) {
    if (value !== undefined && !format.test(value)) {
      problems.push({ where, what: `${JSON.stringify(value)} is not ${format.expected}`, fix: format.fix });
    }
  }
  if (problems.length > 0) throw new BuildError("Cannot add the club.", problems, EXIT.usage);
  if (!existsSync(file)) {
    throw new BuildError(
      `Cannot add the club: ${file} does not exist.`,
      [{ what: "no store at this path", fix: "create one first with `build-api init-store <file>`" }],
      EXIT.storeUnreadable,
    );
  }
  let db: Database.Database;
  try {
    db = new Database(file, { fileMustExist: true });
    db.prepare("SELECT 1 FROM clubs LIMIT 1").get();
  } catch (e) {
    throw new BuildError(
      `Cannot add the club: ${file} is not a build-api store (${(e as Error).message}).`,
      [{ what: "not a store", fix: "create one with `build-api init-store <file>`" }],
      EXIT.storeUnreadable,
    );
  }
  try {
    const taken = db.prepare("SELECT 1 FROM clubs WHERE slug = ? OR uuid = ?").get(club.slug, uuid);
    if (taken) {
      throw new BuildError(
        `Cannot add the club: a club with slug ${JSON.stringify(club.slug)} (or this uuid) already exists in ${file}.`,
        [],
        EXIT.usage,
      );
    }
    new StoreWriter(db).insert("clubs", {
      uuid,
      slug: club.slug,
      name: club.name,
      description: club.description ?? null,
      website_url: club.websiteUrl ?? null,
      contact_email: club.contactEmail ?? null,
      default_language: club.defaultLanguage ?? null,
      time_zone: club.timeZone ?? null,
      brand_color: club.brandColor ?? null,
      enabled: 1,
    });
  } finally {
    db.close();
  }
  return { uuid };
}
