// A deploy's key prefix: plain segments under the bucket, never `.` or `..`. Some servers resolve
// those in a key's URL path, so `../` or `site/../../` would put objects outside the prefix (or
// outside the bucket), and `./` would alias the root prefix.

/** Why `value` is no key prefix, or undefined when it is one. */
export function prefixProblem(value: string): string | undefined {
  if (value === "") return undefined;
  if (!/^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*\/?$/.test(value))
    return "expected key segments of letters, digits, '.', '_', '-' separated by '/'";
  const dots = value.split("/").find((s) => s === "." || s === "..");
  if (dots !== undefined)
    return `the segment '${dots}' would place objects outside the prefix (or alias another one): name the folder plainly, e.g. site/`;
  return undefined;
}
