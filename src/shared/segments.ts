// Slugs, tags and languages become URL path segments, so they must match these patterns (the
// same ones documented in the header of schema/store.sql) and must not be a reserved path word.
// The patterns are ASCII-only and anchored: no "..", "/", "\", NUL, "%" or look-alike letters can
// pass.

/** Club slug: lowercase letters, digits and inner hyphens, 1 to 64 characters. */
export const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;

/** Tag on either surface: same shape as a slug. */
export const TAG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;

/** BCP 47 language with an optional region: "es", "en-GB", "ast". */
export const LANGUAGE_PATTERN = /^[a-z]{2,3}(?:-[A-Z]{2})?$/;

/** Words that are path segments of the API itself; a slug, tag or language may not be one. */
export const RESERVED_PATH_WORDS: readonly string[] = Object.freeze([
  "tag",
  "language",
  "rounds",
  "standings",
  "live",
  "recaps",
  "tournaments",
  "openapi.json",
]);

/** Device names Windows refuses as a file or directory name (the rule src/publish/safe-path.ts
 * enforces on every output path). Each fits the tag and slug patterns, and con, prn, aux and nul
 * fit the language pattern, so they are refused here, as a problem that names the store row. */
export const WINDOWS_DEVICE_NAME = /^(?:con|prn|aux|nul|com[0-9]|lpt[0-9])$/i;

export type SegmentKind = "slug" | "tag" | "language";

const PATTERNS: Record<SegmentKind, RegExp> = {
  slug: SLUG_PATTERN,
  tag: TAG_PATTERN,
  language: LANGUAGE_PATTERN,
};

const EXAMPLES: Record<SegmentKind, string> = {
  slug: "lowercase letters, digits and inner hyphens, at most 64 characters, e.g. madrid-chess-club",
  tag: "lowercase letters, digits and inner hyphens, at most 64 characters, e.g. junior-open",
  language: 'a 2 or 3 letter lowercase language with an optional uppercase region, e.g. "es" or "en-GB"',
};

/** Why `value` cannot be a path segment of this kind, or null when it can. */
export function segmentProblem(kind: SegmentKind, value: string): { what: string; fix: string } | null {
  if (!PATTERNS[kind].test(value)) {
    return {
      what: `${kind} ${quote(value)} does not match the ${kind} pattern ${PATTERNS[kind].source}`,
      fix: `use ${EXAMPLES[kind]}`,
    };
  }
  if (RESERVED_PATH_WORDS.includes(value)) {
    return {
      what: `${kind} ${quote(value)} is a reserved path word (${RESERVED_PATH_WORDS.join(", ")})`,
      fix: `choose another ${kind}`,
    };
  }
  if (WINDOWS_DEVICE_NAME.test(value)) {
    return {
      what: `${kind} ${quote(value)} is a device name that Windows cannot use as a file or directory name`,
      fix: `choose another ${kind}`,
    };
  }
  return null;
}

export function isValidSegment(kind: SegmentKind, value: unknown): value is string {
  return typeof value === "string" && segmentProblem(kind, value) === null;
}

/** A store value quoted for a message: escaped, and cut short so a megabyte string stays readable. */
export function quote(value: string, max = 60): string {
  const cut = value.length > max ? `${value.slice(0, max)}…` : value;
  return JSON.stringify(cut);
}
