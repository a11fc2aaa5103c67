// `build-api add-club`: adds the club that `import-trf --club` publishes into, to an existing
// store, after checking every value the operator typed (each bad one is named with its option).
import { randomUUID } from "node:crypto";
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
import { regularFile } from "../../shared/files.ts";
import { StoreWriter } from "./writer.ts";
import { clubProblems } from "./verify.ts";
import { requireWritableVersion } from "./version.ts";

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

/** The add-club argument or option that sets each clubs column, for messages. */
const OPTION_OF_COLUMN: Record<string, string> = {
  uuid: "--uuid",
  slug: "<slug>",
  name: "--name",
  description: "--description",
  website_url: "--website-url",
  contact_email: "--contact-email",
  default_language: "--default-language",
  time_zone: "--time-zone",
  brand_color: "--brand-color",
};

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
  regularFile(file, "the store", EXIT.storeUnreadable, "create one first with `build-api init-store <file>`");
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
    requireWritableVersion(db, file, "add the club to");
    const taken = db.prepare("SELECT 1 FROM clubs WHERE slug = ? OR uuid = ?").get(club.slug, uuid);
    if (taken) {
      throw new BuildError(
        `Cannot add the club: a club with slug ${JSON.stringify(club.slug)} (or this uuid) already exists in ${file}.`,
        [],
        EXIT.usage,
      );
    }
    db.transaction(() => {
      const clubId = new StoreWriter(db).insert("clubs", {
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
      // The build's own checks of a clubs row (control characters, lengths ...): a value every
      // build would refuse is refused here, and the transaction rolls back.
      const refused = clubProblems(db, file, clubId);
      if (refused.length > 0) {
        throw new BuildError(
          "Cannot add the club: it holds values that every build would refuse; nothing was written.",
          refused.map((p) => {
            const column = /column (\w+)$/.exec(p.where ?? "")?.[1] ?? "";
            return { ...p, where: OPTION_OF_COLUMN[column] ?? p.where };
          }),
          EXIT.usage,
        );
      }
    })();
  } finally {
    db.close();
  }
  return { uuid };
}
