// A clubs row checked and turned into the domain's Club.
import type { Club } from "../../domain/types.ts";
import type { RowCheck } from "./cells.ts";
import {
  BRAND_COLOR_FORMAT,
  EMAIL_FORMAT,
  HTTP_URL_FORMAT,
  TIME_ZONE_FORMAT,
  UUID_FORMAT,
  type TextFormat,
} from "../formats.ts";

/**
 * logo_path is a path or URL the consumer resolves. Only two kinds are allowed (an allow-list: a
 * denylist of schemes always misses one, `x:`, `blob:`): an absolute `https:` URL with a host,
 * or a relative reference without a scheme (`/logos/club.png`, `logos/club.png`); never `//host`
 * (it takes the scheme of whatever page shows it), whitespace, control characters or backslashes.
 */
export function isLogoPath(v: string): boolean {
  // eslint-disable-next-line no-control-regex
  if (v === "" || /[\s\u0000-\u001f\u007f\\]/.test(v)) return false;
  if (/^https:\/\//i.test(v)) {
    try {
      const u = new URL(v);
      return u.protocol === "https:" && u.hostname !== "" && u.username === "" && u.password === "";
    } catch {
      return false;
    }
  }
  // A relative reference: no scheme (no colon before the first / ? #) and no authority.
  return !/^[^/?#]*:/.test(v) && !v.startsWith("//");
}

const LOGO_PATH_FORMAT: TextFormat = {
  test: isLogoPath,
  expected: "an https URL or a relative path",
  fix: "write a path such as /logos/club.png or an https:// URL",
};

export function readClub(c: RowCheck<"clubs">): Club {
  return {
    clubId: c.text("uuid", { format: UUID_FORMAT }),
    slug: c.segment("slug", "slug"),
    name: c.text("name"),
    description: c.optText("description", { allowBlank: true }),
    logoPath: c.optText("logo_path", { format: LOGO_PATH_FORMAT }),
    websiteUrl: c.optText("website_url", { format: HTTP_URL_FORMAT }),
    contactEmail: c.optText("contact_email", { format: EMAIL_FORMAT }),
    defaultLanguage: c.optSegment("default_language", "language"),
    timeZone: c.optText("time_zone", { format: TIME_ZONE_FORMAT }),
    brandColor: c.optText("brand_color", { format: BRAND_COLOR_FORMAT }),
  };
}
