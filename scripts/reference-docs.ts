// The generated shelf of the docs, docs/reference/: the CLI reference from commander's help text,
// the endpoint table from the route table, the exit codes from the error table. Nothing in it is
// written by hand, so it cannot drift from the code: scripts/gen-docs.ts writes these files and
// test/unit/scripts/gen-docs.test.ts fails when the checked-in ones differ.
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Command } from "commander";
import * as prettier from "prettier";
import { program } from "../src/cli/program.ts";
import { hostRules } from "../src/hosting/rules.ts";
import { schemaId } from "../src/output/jsonschema.ts";
import { CACHE_LIFETIMES, CACHE_POLICY, ERROR_CACHE_POLICY } from "../src/routes/cache.ts";
import { ROUTES } from "../src/routes/table.ts";
import {
  ENDPOINTS,
  PAGE_ROUTES,
  pageCache,
  pathForms,
  STATIC_DIRS,
  type CacheClass,
  type Endpoint,
} from "../src/routes/urls.ts";
import { EXIT, EXIT_MEANINGS } from "../src/shared/errors.ts";

export const ROOT = fileURLToPath(new URL("../", import.meta.url));
export const REFERENCE_DIR = path.join(ROOT, "docs", "reference");

/** The one command that rewrites this shelf; the staleness test names it. */
export const REGENERATE = "npm run gen-docs";

const HEADER = (source: string) =>
  `<!-- Generated from ${source} by \`${REGENERATE}\`: do not edit by hand. -->\n\n`;

/** Commander wraps help at the terminal's width: the reference is written at a fixed 80 columns. */
const HELP_WIDTH = 80;

function helpOf(command: Command): string {
  command.configureOutput({ getOutHelpWidth: () => HELP_WIDTH, getOutHasColors: () => false });
  return command.helpInformation().trimEnd();
}

/** `build-api --help`, then each command's `--help`, in the order the program defines them. */
export function cliReference(): string {
  const commands = program.commands.filter((c) => c.name() !== "help");
  let md = HEADER("the commander program of src/cli/program.ts") + "# CLI reference\n\n";
  md +=
    "The help text of `build-api` and of each command, exactly as `build-api <command> --help` prints it. " +
    "Options marked `(required)` must be given. A usage error (an unknown option or command, a missing " +
    "required option, a bad value) prints one line and where to look, e.g. `error: unknown option '--bogus'` " +
    "then `(see 'build-api build --help')`, and exits with code 2 ([exit codes](exit-codes.md)).\n\n";
  md += commands.map((c) => `- [\`${c.name()}\`](#build-api-${c.name()})`).join("\n") + "\n\n";
  md += "## build-api\n\n```text\n" + helpOf(program) + "\n```\n";
  for (const c of commands) {
    md += `\n## build-api ${c.name()}\n\n\`\`\`text\n${helpOf(c)}\n\`\`\`\n`;
  }
  return md;
}

const code = (s: string) => `\`${s}\``;

function queryCell(e: Endpoint): string {
  if (!e.query) return "";
  const q = e.query;
  const parts = [code(q.name)];
  if (q.default !== undefined) parts.push(`(default ${code(q.default)})`);
  parts.push(q.unknown === "empty" ? "; an unknown value: the empty list" : "; an unknown value: 404");
  return parts.join(" ").replace(" ;", ";");
}

function table(head: string[], rows: string[][]): string {
  return [
    `| ${head.join(" | ")} |`,
    `| ${head.map(() => "---").join(" | ")} |`,
    ...rows.map((r) => `| ${r.join(" | ")} |`),
  ].join("\n");
}

/** The spec's endpoints, their path forms and files, the pages, static files and cache classes. */
export function endpointReference(): string {
  const schemaOf = new Map(ROUTES.map((r) => [r.id, schemaId(r.schema)]));
  const rules = hostRules();
  let md = HEADER("the route table (src/routes/urls.ts, src/routes/table.ts, src/routes/cache.ts)");
  md += "# Endpoints, pages and cache classes\n\n";
  md +=
    "The route table is the one model of URLs: files, every host config, the preview, the edge worker, " +
    "purge lists, the OpenAPI document and the tests derive from it. Only GET and HEAD exist; any other " +
    "method is a 405 with `Allow: GET, HEAD`.\n\n";

  md += "## Endpoints\n\n";
  md += table(
    ["#", "path", "query", "response", "cache class", "surface", "summary"],
    ENDPOINTS.map((e) => [
      String(e.n),
      code(e.path),
      queryCell(e),
      schemaOf.get(e.id) ?? "",
      code(e.cache),
      e.surface === "club" ? "club (CORS `*`)" : "public",
      e.summary,
    ]),
  );
  md += "\n\n";

  md += "## Path forms and files\n\n";
  md +=
    "A static host cannot read a query string, so each query form is also a path, and every response " +
    "is the file `<path form>/index.json` of the snapshot. Each path form answers bare and with a " +
    "trailing slash.\n\n";
  md += table(
    ["#", "path form", "file"],
    ENDPOINTS.flatMap((e) =>
      pathForms(e).map((form) => [String(e.n), code(form), code(`${form.slice(1)}/index.json`)]),
    ),
  );
  md += "\n\n";
  md += rules.files
    .map((f) => `${code(f.url)}: the OpenAPI document, cache class ${code(f.cache)}.`)
    .join("\n");
  md += "\n\n";

  md += "## Pages\n\n";
  md +=
    "Each page is `index.html` in its directory, `text/html; charset=utf-8`; the URL without its trailing " +
    "slash redirects to it. A page follows the cache class of the endpoint whose data it shows.\n\n";
  const byId = new Map(ENDPOINTS.map((e) => [e.id, e]));
  md += table(
    ["page", "path", "shows endpoint", "cache class"],
    PAGE_ROUTES.map((p) => [
      p.id,
      code(p.path),
      `${byId.get(p.follows)!.n} (${code(byId.get(p.follows)!.path)})`,
      code(pageCache(p)),
    ]),
  );
  md += "\n\n";

  md += "## Static files\n\n";
  md += "Served as they are, by extension; any other file in the directory is a 404.\n\n";
  md += table(
    ["directory", "extension", "Content-Type", "CORS", "cache class"],
    STATIC_DIRS.flatMap((d) =>
      Object.entries(d.types).map(([ext, type]) => {
        const rule = rules.statics.find((s) => s.prefix === d.prefix && s.ext === ext);
        return [code(d.prefix), code(ext), code(type), d.cors ? "`*`" : "no", rule ? code(rule.cache) : ""];
      }),
    ),
  );
  md += "\n\n";

  md += "## Cache classes\n\n";
  const users = (cls: CacheClass): string => {
    const names = [
      ...ENDPOINTS.filter((e) => e.cache === cls).map((e) => `endpoint ${e.n}`),
      ...PAGE_ROUTES.filter((p) => pageCache(p) === cls).map((p) => code(p.path)),
      ...rules.files.filter((f) => f.cache === cls).map((f) => code(f.url)),
      ...STATIC_DIRS.filter((d) => rules.statics.some((s) => s.prefix === d.prefix && s.cache === cls)).map(
        (d) => code(d.prefix),
      ),
    ];
    return names.join(", ");
  };
  md += table(
    ["class", "Cache-Control", "used by"],
    [
      ...(Object.keys(CACHE_LIFETIMES) as CacheClass[]).map((cls) => [
        code(cls),
        code(CACHE_POLICY[cls]),
        users(cls),
      ]),
      [
        "errors",
        code(ERROR_CACHE_POLICY),
        "every error answer: `404.json`, `404.html`, the 400 and 405 bodies",
      ],
    ],
  );
  md += "\n";
  return md;
}

/** Every exit code of the CLI with what it means. */
export function exitCodeReference(): string {
  let md = HEADER("EXIT and EXIT_MEANINGS in src/shared/errors.ts") + "# Exit codes\n\n";
  md +=
    "Every command exits with one of these codes. Errors name what is wrong, where, and the fix, on " +
    "stderr.\n\n";
  const names = Object.keys(EXIT) as (keyof typeof EXIT)[];
  md += table(
    ["code", "name", "meaning"],
    names
      .sort((a, b) => EXIT[a] - EXIT[b])
      .map((name) => [String(EXIT[name]), code(name), EXIT_MEANINGS[name]]),
  );
  md += "\n";
  return md;
}

/** File name under docs/reference/ → its text, formatted as `npm run lint` (Prettier) wants it. */
export async function referenceDocs(): Promise<Map<string, string>> {
  const raw: [string, string][] = [
    ["cli.md", cliReference()],
    ["endpoints.md", endpointReference()],
    ["exit-codes.md", exitCodeReference()],
  ];
  const out = new Map<string, string>();
  for (const [name, text] of raw) {
    const filepath = path.join(REFERENCE_DIR, name);
    const options = (await prettier.resolveConfig(filepath)) ?? {};
    out.set(name, await prettier.format(text, { ...options, filepath }));
  }
  return out;
}
