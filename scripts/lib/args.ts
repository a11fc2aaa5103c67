// The command lines of the scripts (node:util parseArgs, strict). `--help` prints the script's
// opening comment, which is where each script states its usage; an unknown option, a missing
// value or a bad one is one line that names it and exit code 2, not a stack trace.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs, type ParseArgsConfig } from "node:util";

/** A wrong value on a script's command line (thrown by code that checks the parsed values). */
export class UsageError extends Error {}

/** The opening `//` comment of a script's source, without the slashes (triple-slash lines skipped). */
export function usageOf(source: string): string {
  const lines: string[] = [];
  for (const line of source.split("\n")) {
    if (line.startsWith("///")) continue;
    if (!line.startsWith("//")) break;
    lines.push(line.replace(/^\/\/ ?/, ""));
  }
  return lines.join("\n");
}

type Options = NonNullable<ParseArgsConfig["options"]>;

/**
 * Parses `argv` (default: this process's arguments) against `options` for the script at
 * `scriptUrl` (its import.meta.url). `--help` or `-h` prints its usage and exits with 0; a parse
 * error exits with 2 (exitWithUsage).
 */
export function scriptArgs<const O extends Options>(
  scriptUrl: string,
  options: O,
  argv: string[] = process.argv.slice(2),
): ReturnType<typeof parseArgs<{ options: O; strict: true }>>["values"] {
  if (argv.includes("--help") || argv.includes("-h")) {
    console.log(usageOf(readFileSync(fileURLToPath(scriptUrl), "utf8")));
    process.exit(0);
  }
  try {
    return parseArgs({ args: argv, options, strict: true }).values;
  } catch (e) {
    return exitWithUsage(scriptUrl, (e as Error).message);
  }
}

/** Prints one line naming the script and the problem, pointing at --help, and exits with 2. */
export function exitWithUsage(scriptUrl: string, message: string): never {
  const name = path.basename(fileURLToPath(scriptUrl));
  console.error(`${name}: ${message} (node scripts/${name} --help shows the usage)`);
  process.exit(2);
}
