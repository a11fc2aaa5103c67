// The checks every host makes before the resolver (as the preview does): a method other than GET
// and HEAD is a 405; a path that cannot be decoded or decodes to a control character or a
// backslash is a 400; a segment longer than any file name is a 404. Shared by both edge entries.
import type { ErrorStatus } from "../../output/problem.ts";

const MAX_SEGMENT = 255;

export function precheck(method: string, pathname: string): ErrorStatus | undefined {
  if (method !== "GET" && method !== "HEAD") return 405;
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return 400;
  }
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (/[\u0000-\u001f\u007f\\]/.test(decoded)) return 400;
  if (pathname.split("/").some((s) => s.length > MAX_SEGMENT)) return 404;
  return undefined;
}
