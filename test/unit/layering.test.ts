// The pipeline's direction, enforced by folder: store → domain → views → routes → output → pages →
// render → publish, joined by pipeline/ and driven by cli/. Reads every import of src/ (static imports, `export ... from`, dynamic `import()`,
// type-only imports included: a type is a dependency of the design too) and every clock read,
// and fails on any that the matrix below does not allow.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const SRC = path.resolve(import.meta.dirname, "../..", "src");

/**
 * The layers are the folders of src/, in pipeline order; `cli.ts` at the root is the entry. A file
 * belongs to the layer of its top folder: no per-file exceptions.
 */
const LAYERS = [
  "shared",
  "i18n",
  "domain",
  "store",
  "trf",
  "contracts",
  "views",
  "routes",
  "output",
  "pages",
  "hosting",
  "ledger",
  "render",
  "publish",
  "deploy",
  "pipeline",
  "cli",
  "entry",
] as const;
type Layer = (typeof LAYERS)[number];

/**
 * What each layer may import besides itself. The domain is pure: nothing outside domain/, not
 * even shared/, and no package. The store reads rows into the domain; TRF import writes the store;
 * views turn the domain into contract objects; routes bind views to URLs; output turns contracts
 * into bytes, schemas and OpenAPI; pages render views; hosting knows URLs and error bodies, never
 * the views; the ledger owns the incremental state (docs/design/ledger.md); render joins a
 * tournament's routes and pages and reads and writes the ledger's tournament index; publish
 * writes files; pipeline joins the stages; the CLI calls the pipeline and the commands.
 */
const ALLOWED: Readonly<Record<Layer, readonly Layer[]>> = {
  shared: [],
  // The message catalogs and the locale object: words and Intl only, so every layer that shows
  // text to a person (pages, the error pages of output/, render's lists, the CLI's --language)
  // may take a locale without loading anything else.
  i18n: [],
  domain: [],
  store: ["shared", "domain"],
  trf: ["shared", "domain", "store"],
  contracts: ["domain"],
  views: ["shared", "domain", "contracts"],
  routes: ["shared", "domain", "contracts", "views"],
  output: ["shared", "i18n", "contracts", "routes"],
  pages: ["shared", "i18n", "domain", "contracts", "views", "routes", "output"],
  hosting: ["shared", "routes", "output"],
  // The ledger reads the store's revisions (its cursor) and records the views' summaries a list
  // shows; it knows nothing of files, URLs or pages, so it can live elsewhere than beside the
  // snapshot (docs/design/ledger.md).
  ledger: ["shared", "domain", "store", "views"],
  render: ["shared", "i18n", "domain", "store", "contracts", "views", "routes", "output", "pages", "ledger"],
  // publish stages the ledger's delta around its atomic switch (the crash protocol) and records
  // each written file's entry in it; it writes files and knows no other stage.
  publish: ["shared", "ledger"],
  // deploy uploads a published snapshot: the manifest (publish), each object's metadata and the
  // edge code from the rule list and resolver (hosting, routes), the error bodies' names and bytes
  // the edge code sends (output).
  // It reads what changed from the ledger's change log.
  deploy: ["shared", "routes", "output", "hosting", "ledger", "publish"],
  pipeline: ["shared", "domain", "store", "routes", "output", "hosting", "ledger", "render", "publish"],
  // cli reads routes/pagination.ts for the default of --page-size: a constant of a file that
  // imports nothing, so the help stays exact without loading the route table.
  cli: ["shared", "i18n", "domain", "store", "trf", "routes", "output", "hosting", "pipeline", "deploy"],
  entry: ["cli"],
};

/** Layers that may import no package and no node:* module. */
const NO_PACKAGES: ReadonlySet<string> = new Set(["domain"]);

/**
 * Where the clock may be read. The snapshot is a pure function of the store, the options and
 * `--now`, so no module that computes what is published may read the clock: only the CLI (it takes
 * `--now` or the clock; progress redraws), pipeline (it times the phases) and publish/ (the lock's
 * wait deadline and stale-lock age, the phase timings of the report) and deploy/ (its report's
 * timing; it uploads bytes already published), whose clock reads never reach a published byte.
 */
const CLOCK_ALLOWED: ReadonlySet<string> = new Set(["cli", "pipeline", "publish", "deploy"]);

interface SourceFacts {
  /** Import specifiers as written, with the line of each. */
  imports: { specifier: string; line: number; typeOnly: boolean; dynamic?: true }[];
  clockReads: { what: string; line: number }[];
}

function text(node: ts.Node): string {
  if (ts.isIdentifier(node)) return node.text;
  if (ts.isPropertyAccessExpression(node)) return `${text(node.expression)}.${node.name.text}`;
  if (ts.isParenthesizedExpression(node)) return text(node.expression);
  return "";
}

const CLOCK_PROPERTIES = new Set([
  "Date.now",
  "globalThis.Date.now",
  "performance.now",
  "globalThis.performance.now",
  "process.hrtime",
  "globalThis.process.hrtime",
]);

/** Imports and clock reads of one module's source text. */
function scan(source: string, fileName = "module.ts"): SourceFacts {
  const sf = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const facts: SourceFacts = { imports: [], clockReads: [] };
  const line = (n: ts.Node): number => sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1;
  const visit = (node: ts.Node): void => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      // `import type` and `export type` load nothing at run time (`import { type A }` does load).
      const typeOnly = ts.isImportDeclaration(node)
        ? Boolean(node.importClause?.isTypeOnly)
        : node.isTypeOnly;
      facts.imports.push({ specifier: node.moduleSpecifier.text, line: line(node), typeOnly });
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const arg = node.arguments[0];
      // A computed specifier cannot be checked: it is reported as such.
      const specifier = arg && ts.isStringLiteralLike(arg) ? arg.text : "<computed>";
      facts.imports.push({ specifier, line: line(node), typeOnly: false, dynamic: true });
    } else if (ts.isImportTypeNode(node)) {
      const arg = node.argument;
      if (ts.isLiteralTypeNode(arg) && ts.isStringLiteral(arg.literal)) {
        facts.imports.push({ specifier: arg.literal.text, line: line(node), typeOnly: true });
      }
    }
    if (ts.isPropertyAccessExpression(node) && CLOCK_PROPERTIES.has(text(node))) {
      facts.clockReads.push({ what: text(node), line: line(node) });
    } else if (
      (ts.isNewExpression(node) || ts.isCallExpression(node)) &&
      ["Date", "globalThis.Date"].includes(text(node.expression)) &&
      (node.arguments?.length ?? 0) === 0
    ) {
      facts.clockReads.push({ what: `${ts.isNewExpression(node) ? "new " : ""}Date()`, line: line(node) });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return facts;
}

function layerOf(file: string): Layer | undefined {
  if (!file.includes("/")) return file === "cli.ts" ? "entry" : undefined;
  const top = file.slice(0, file.indexOf("/"));
  return (LAYERS as readonly string[]).includes(top) ? (top as Layer) : undefined;
}

/** Every violation of the matrix in a graph of files (paths relative to src/, "/" separators). */
function violations(graph: ReadonlyMap<string, SourceFacts>): string[] {
  const out: string[] = [];
  for (const [file, facts] of graph) {
    const layer = layerOf(file);
    if (!layer) {
      out.push(`${file}: belongs to no layer (put it in a stage folder, or add the folder to LAYERS)`);
      continue;
    }
    const allowed = ALLOWED[layer]!;
    for (const { specifier, line } of facts.imports) {
      if (specifier === "<computed>") {
        out.push(`${file}:${line}: an import() whose specifier is computed cannot be checked`);
        continue;
      }
      if (!specifier.startsWith(".")) {
        if (NO_PACKAGES.has(layer)) out.push(`${file}:${line}: ${layer} imports the package ${specifier}`);
        continue;
      }
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier));
      if (target.startsWith("../")) {
        out.push(`${file}:${line}: imports ${specifier}, outside src/`);
        continue;
      }
      const targetLayer = layerOf(target);
      if (!targetLayer) {
        out.push(`${file}:${line}: imports ${target}, which belongs to no layer`);
      } else if (targetLayer !== layer && !allowed.includes(targetLayer)) {
        out.push(`${file}:${line}: ${layer} imports ${targetLayer} (${target}), against the pipeline`);
      }
    }
    if (!CLOCK_ALLOWED.has(layer)) {
      for (const { what, line } of facts.clockReads) {
        out.push(`${file}:${line}: reads the clock (${what}) outside cli/, pipeline/, publish/ and deploy/`);
      }
    }
  }
  return out;
}

/** Relative imports resolved to files of the graph (type-only and dynamic ones included). */
function edges(graph: ReadonlyMap<string, SourceFacts>, file: string): string[] {
  return graph
    .get(file)!
    .imports.filter((i) => i.specifier.startsWith("."))
    .map((i) => path.posix.normalize(path.posix.join(path.posix.dirname(file), i.specifier)))
    .filter((t) => graph.has(t));
}

/** Every import cycle between files, each once, as "a.ts → b.ts → a.ts" (Tarjan's SCCs). */
function cycles(graph: ReadonlyMap<string, SourceFacts>): string[] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[] = [];
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of edges(graph, v)) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1) out.push([...scc.sort(), scc[0]].join(" → "));
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return out;
}

/**
 * Every file and package that loading `file` loads, by static and dynamic imports (not type-only
 * ones); with `staticOnly`, what loads before any `import()` runs.
 */
function reach(
  graph: ReadonlyMap<string, SourceFacts>,
  file: string,
  staticOnly = false,
): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const walk = (f: string): void => {
    if (files.has(f)) return;
    files.add(f);
    for (const { specifier, typeOnly, dynamic } of graph.get(f)!.imports) {
      if (typeOnly || (staticOnly && dynamic)) continue;
      if (!specifier.startsWith(".")) packages.add(specifier);
      else {
        const t = path.posix.normalize(path.posix.join(path.posix.dirname(f), specifier));
        if (graph.has(t)) walk(t);
      }
    }
  };
  walk(file);
  return { files, packages };
}

function sourceGraph(): Map<string, SourceFacts> {
  const graph = new Map<string, SourceFacts>();
  for (const rel of readdirSync(SRC, { recursive: true }) as string[]) {
    if (!/\.(ts|tsx|mts|js)$/.test(rel) || rel.endsWith(".d.ts")) continue;
    const file = rel.split(path.sep).join("/");
    graph.set(file, scan(readFileSync(path.join(SRC, rel), "utf8"), file));
  }
  return graph;
}

describe("layering of src/", () => {
  const graph = sourceGraph();

  it("has no import against the pipeline and no clock read outside cli/, pipeline/, publish/ and deploy/", () => {
    expect(graph.size).toBeGreaterThan(50);
    expect(violations(graph)).toEqual([]);
  });

  it("holds only the entry at the root of src/", () => {
    expect([...graph.keys()].filter((f) => !f.includes("/"))).toEqual(["cli.ts"]);
  });

  it("has no import cycle, between folders or between files", () => {
    expect(cycles(graph)).toEqual([]);
  });

  it("loads neither zod nor the views for the host rules, the preview and the purge list", () => {
    for (const file of ["hosting/hosts/index.ts", "hosting/preview.ts", "hosting/purge.ts"]) {
      const { files, packages } = reach(graph, file);
      expect(
        [...packages].filter((p) => p === "zod" || p === "ajv"),
        file,
      ).toEqual([]);
      expect(
        [...files].filter((f) => /^(views|contracts|domain)\//.test(f) || f === "routes/table.ts"),
        file,
      ).toEqual([]);
    }
  });

  it("keeps each host in its own folder: no host imports another, no runtime loads node:*", () => {
    const hostOf = (f: string): string | undefined => /^hosting\/hosts\/([^/]+)\//.exec(f)?.[1];
    const hosts = new Set([...graph.keys()].map(hostOf).filter((h) => h !== undefined));
    expect([...hosts].sort()).toEqual(["cloudflare-pages", "cloudfront", "netlify", "nginx", "r2"]);
    const crossings: string[] = [];
    for (const file of graph.keys()) {
      const host = hostOf(file);
      if (!host) continue;
      const { files, packages } = reach(graph, file);
      for (const f of files) if (hostOf(f) && hostOf(f) !== host) crossings.push(`${file} → ${f}`);
      if (file.includes("/runtime/")) {
        for (const p of packages) if (p.startsWith("node:")) crossings.push(`${file} → ${p}`);
      }
    }
    expect(crossings).toEqual([]);
  });

  it("loads no renderer, route table or contract before a build knows it has work", () => {
    // An up-to-date snapshot costs start-up plus the check: build.ts loads the heavy modules (the
    // schemas, the views behind the route table, the pages, the renderer) by import() once there
    // is work; what it and the CLI load statically must not reach them.
    const cli = reach(graph, "cli.ts", true);
    const build = reach(graph, "pipeline/build.ts", true);
    const early = new Set([...cli.files, ...build.files]);
    // zod alone takes longer to load than the whole check (about 0.1 s on the bench machine).
    expect([...cli.packages, ...build.packages].filter((p) => p === "zod" || p === "ajv")).toEqual([]);
    const heavy = ["render/snapshot.ts", "routes/table.ts", "contracts/index.ts", "pages/index.ts"];
    expect(heavy.filter((f) => graph.has(f))).toEqual(heavy);
    expect([...early].filter((f) => heavy.includes(f))).toEqual([]);
    // Followed through import(), they are all reached: the rule above is about when, not whether.
    const all = reach(graph, "pipeline/build.ts").files;
    expect(heavy.filter((f) => !all.has(f))).toEqual([]);
  });

  it("reads static, export-from, type-only and dynamic imports of the real sources", () => {
    const specifiers = (file: string): string[] => graph.get(file)!.imports.map((i) => i.specifier);
    // build.ts loads the store only when there is work to do, through import().
    expect(specifiers("pipeline/build.ts")).toContain("../store/read/open.ts");
    expect(specifiers("cli/program.ts")).toContain("../pipeline/build.ts");
    expect(specifiers("hosting/rules.ts")).toContain("../shared/segments.ts");
    expect(graph.get("cli/program.ts")!.clockReads.map((c) => c.what)).toContain("Date.now");
  });
});

describe("the layering checker", () => {
  const facts = (source: string): SourceFacts => scan(source);

  it("finds every kind of import and clock read", () => {
    const f = scan(
      [
        `import a from "./a.ts";`,
        `import type { B } from "../b.ts";`,
        `export { c } from "./c.ts";`,
        `export * from "./d.ts";`,
        `const e = await import("./e.ts");`,
        `type F = import("./f.ts").F;`,
        `const g = await import(name);`,
        `Date.now(); new Date(); new Date; Date(); new Date(0); new Date(x);`,
        `globalThis.Date.now(); performance.now(); globalThis.performance.now();`,
        `process.hrtime(); process.hrtime.bigint(); Date.UTC(2026, 0, 1);`,
      ].join("\n"),
    );
    expect(f.imports.map((i) => i.specifier)).toEqual([
      "./a.ts",
      "../b.ts",
      "./c.ts",
      "./d.ts",
      "./e.ts",
      "./f.ts",
      "<computed>",
    ]);
    expect(f.imports.map((i) => i.typeOnly)).toEqual([false, true, false, false, false, true, false]);
    expect(f.clockReads.map((c) => c.what)).toEqual([
      "Date.now",
      "new Date()",
      "new Date()",
      "Date()",
      "globalThis.Date.now",
      "performance.now",
      "globalThis.performance.now",
      "process.hrtime",
      "process.hrtime",
    ]);
  });

  it("fails on imports against the pipeline, in a synthetic graph", () => {
    const graph = new Map<string, SourceFacts>([
      ["domain/status.ts", facts(`import { x } from "../store/read/reader.ts";\nimport fs from "node:fs";`)],
      ["hosting/rules.ts", facts(`import { SLUG_PATTERN } from "../store/formats.ts";`)],
      ["views/club.ts", facts(`const m = await import("../hosting/rules.ts");`)],
      ["store/read/reader.ts", facts(`import type { T } from "../../views/context.ts";`)],
      ["publish/publish.ts", facts(`import { build } from "../pipeline/build.ts";`)],
      ["domain/extra.ts", facts(`import "../../scripts/x.ts";`)],
      // The ledger holds no file system, URL or page: it must be able to live in a bucket.
      [
        "ledger/state.ts",
        facts(
          `import { x } from "../render/snapshot.ts";\nimport { y } from "../publish/layout.ts";\nimport type { Z } from "../pages/feed-files.ts";`,
        ),
      ],
      ["newdir/thing.ts", facts(``)],
      ["loose.ts", facts(``)],
      // Allowed: a layer into an earlier one it may use, into itself, the CLI into the pipeline.
      ["views/public.ts", facts(`import { a } from "../domain/types.ts";\nimport { b } from "./club.ts";`)],
      [
        "cli/program.ts",
        facts(`import { c } from "../store/write/init.ts";\nimport { d } from "../pipeline/build.ts";`),
      ],
      ["output/openapi.ts", facts(`import { SLUG_PATTERN } from "../shared/segments.ts";`)],
      ["render/lists.ts", facts(`import type { TournamentIndex } from "../ledger/tournament-index.ts";`)],
      ["publish/staging-writer.ts", facts(`import { Bookkeeping } from "../ledger/bookkeeping.ts";`)],
    ]);
    expect(violations(graph)).toEqual([
      "domain/status.ts:1: domain imports store (store/read/reader.ts), against the pipeline",
      "domain/status.ts:2: domain imports the package node:fs",
      "hosting/rules.ts:1: hosting imports store (store/formats.ts), against the pipeline",
      "views/club.ts:1: views imports hosting (hosting/rules.ts), against the pipeline",
      "store/read/reader.ts:1: store imports views (views/context.ts), against the pipeline",
      "publish/publish.ts:1: publish imports pipeline (pipeline/build.ts), against the pipeline",
      "domain/extra.ts:1: imports ../../scripts/x.ts, outside src/",
      "ledger/state.ts:1: ledger imports render (render/snapshot.ts), against the pipeline",
      "ledger/state.ts:2: ledger imports publish (publish/layout.ts), against the pipeline",
      "ledger/state.ts:3: ledger imports pages (pages/feed-files.ts), against the pipeline",
      "newdir/thing.ts: belongs to no layer (put it in a stage folder, or add the folder to LAYERS)",
      "loose.ts: belongs to no layer (put it in a stage folder, or add the folder to LAYERS)",
    ]);
  });

  it("fails on import cycles, in a synthetic graph", () => {
    const graph = new Map<string, SourceFacts>([
      ["store/read/cells.ts", facts(`import { InvalidUtf8 } from "./utf8.ts";`)],
      ["store/read/utf8.ts", facts(`import type { SqlRow } from "./cells.ts";`)],
      ["pages/index.ts", facts(`import { a } from "./embed.ts";`)],
      ["pages/embed.ts", facts(`import { b } from "./tournament.ts";`)],
      ["pages/tournament.ts", facts(``)],
      ["domain/a.ts", facts(`import "./b.ts";`)],
      ["domain/b.ts", facts(`import "./c.ts";`)],
      ["domain/c.ts", facts(`import "./a.ts";`)],
    ]);
    expect(cycles(graph)).toEqual([
      "domain/a.ts → domain/b.ts → domain/c.ts → domain/a.ts",
      "store/read/cells.ts → store/read/utf8.ts → store/read/cells.ts",
    ]);
  });

  it("fails on clock reads outside cli/, pipeline/, publish/ and deploy/, in a synthetic graph", () => {
    const graph = new Map<string, SourceFacts>([
      ["domain/status.ts", facts(`export const now = () => Date.now();`)],
      ["views/public.ts", facts(`const t = new Date();`)],
      ["pipeline/build.ts", facts(`const t = performance.now();`)],
      ["publish/lock.ts", facts(`const t = performance.now();`)],
      ["store/read/open.ts", facts(`const d = new Date("2026-01-01T00:00:00Z");`)],
    ]);
    expect(violations(graph)).toEqual([
      "domain/status.ts:1: reads the clock (Date.now) outside cli/, pipeline/, publish/ and deploy/",
      "views/public.ts:1: reads the clock (new Date()) outside cli/, pipeline/, publish/ and deploy/",
    ]);
  });
});
