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

/** logo_path is a path or URL the consumer resolves; it must not smuggle a script scheme in. */
const LOGO_PATH_FORMAT: TextFormat = {
  test: (v) => !/^\s*(?:javascript|data|vbscript|file):/i.test(v) && v.trim() !== "",
  expected: "a path or an http(s) URL",
  fix: "write a path such as /logos/club.png or an https URL",
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
