// The formats the schemas name, one definition for both the validator generator and the generated
// validators (which import it): ajv-formats' full checks for dates and UUIDs, and OpenAPI's
// integer formats, whose bounds the schemas carry themselves.
import formats from "ajv-formats/dist/formats.js";

const { fullFormats } = formats;

/** How many distinct strings a memoized check remembers before it starts afresh. */
export const MEMO_SIZE = 4096;

/**
 * A pure string check that remembers its answers: the same instants and dates recur in a
 * tournament's files and in every list page a summary is on, and the full date-time check
 * (a regex, then a calendar and a clock test) was about 3% of a render worker. Bounded, so a
 * full build's memory does not grow with the distinct instants.
 */
export function memoized(check: (s: string) => boolean): (s: string) => boolean {
  const seen = new Map<string, boolean>();
  return (s) => {
    let ok = seen.get(s);
    if (ok === undefined) {
      ok = check(s);
      if (seen.size >= MEMO_SIZE) seen.clear();
      seen.set(s, ok);
    }
    return ok;
  };
}

/** ajv-formats' definition of a string format, its check memoized. */
function memoizedFormat(name: "date" | "date-time"): { type: "string"; validate: (s: string) => boolean } {
  const f = fullFormats[name];
  if (typeof f !== "object" || f instanceof RegExp || typeof f.validate !== "function")
    throw new Error(`ajv-formats' ${name} is not a format definition with a validate function`);
  const check = f.validate as (s: string) => boolean;
  return { type: "string", validate: memoized(check) };
}

export const FORMATS = {
  date: memoizedFormat("date"),
  "date-time": memoizedFormat("date-time"),
  uuid: fullFormats.uuid,
  int64: { type: "number", validate: Number.isSafeInteger },
  int32: { type: "number", validate: Number.isInteger },
} as const;
