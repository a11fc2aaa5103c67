// Output paths come partly from store values (slugs, tags, languages), so every path the build
// writes is checked against a strict allow-list before it touches the disk. Anything outside the
// list is refused, never "cleaned up": silently rewriting a hostile path could make two store
// values collide on one file.
import { BuildError, EXIT } from "../shared/errors.ts";

/** One path segment: ASCII letters, digits, ".", "_" and "-", starting with a letter, digit or "_". */
const SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9._-]*$/;
const MAX_SEGMENT = 255;
const MAX_PATH = 1024;
/** Device names that Windows (and tools that mirror its rules) refuse, with or without extension. */
const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$/i;

/**
 * Returns `relPath` unchanged if it is a safe relative output path, else throws a BuildError
 * (EXIT.unsafeOutput) that names the path. Allowed: "/"-separated segments of [A-Za-z0-9._-],
 * each starting with a letter, digit or "_" (so "_headers" is fine, dotfiles are not). Refused:
 * empty paths or segments, absolute paths, ".", "..", "\\", NUL and other control characters,
 * "%" escapes, any non-ASCII character (look-alikes such as "ａ" or "․"), segments ending in ".",
 * Windows device names, and over-long paths.
 */
export function safeRelativePath(relPath: string): string {
  const reason = unsafeReason(relPath);
  if (reason !== undefined) {
    throw new BuildError(
      `Refusing to write an unsafe output path ${JSON.stringify(relPath)}.`,
      [
        {
          what: reason,
          where: JSON.stringify(relPath),
          fix: "output paths may only use segments of A-Z a-z 0-9 . _ - separated by /",
        },
      ],
      EXIT.unsafeOutput,
    );
  }
  return relPath;
}

function unsafeReason(relPath: string): string | undefined {
  if (typeof relPath !== "string" || relPath.length === 0) return "the path is empty";
  if (relPath.length > MAX_PATH) return `the path is longer than ${MAX_PATH} characters`;
  // Checked over the whole string first so the message names the real problem.
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(relPath)) return "the path contains a NUL or control character";
  if (/[^\u0020-\u007e]/.test(relPath)) return "the path contains a non-ASCII character";
  if (relPath.includes("\\")) return 'the path contains a backslash "\\"';
  if (relPath.includes("%")) return 'the path contains "%" (percent-escapes are not allowed)';
  if (relPath.startsWith("/")) return "the path is absolute";
  for (const segment of relPath.split("/")) {
    if (segment === "") return "the path has an empty segment (leading, trailing or doubled /)";
    if (segment === "." || segment === "..") return `the path has a "${segment}" segment`;
    if (segment.length > MAX_SEGMENT) return `a segment is longer than ${MAX_SEGMENT} characters`;
    if (segment.startsWith(".")) return `the segment ${JSON.stringify(segment)} starts with "." (reserved)`;
    if (!SEGMENT.test(segment)) return `the segment ${JSON.stringify(segment)} has a disallowed character`;
    if (segment.endsWith(".")) return `the segment ${JSON.stringify(segment)} ends with "."`;
    if (WINDOWS_RESERVED.test(segment)) return `the segment ${JSON.stringify(segment)} is a reserved name`;
  }
  return undefined;
}
