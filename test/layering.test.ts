// The pipeline's direction, enforced: store → domain → views → emit/pages, with the CLI's edge
// around it. Reads every import of src/ (static imports, `export ... from`, dynamic `import()`,
// type-only imports included: a type is a dependency of the design too) and every clock read,
// and fails on any that the matrix below does not allow.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const SRC = path.resolve(import.meta.dirname, "..", "src");

/**
 * The layers, by path under src/ (first match wins). `shared` is what every layer may use: the
 * error type and exit codes, the package version, the URL path-segment patterns (the store checks
 * values against them, emit writes them into host rules). `edge` is the CLI's edge: it joins I/O,
 * the clock and every layer, and no layer imports it.
 */
const LAYERS: readonly (readonly [layer: string, test: RegExp])[] = [
  ["shared", /^(errors|version|segments)\.ts$/],
  // render/ runs tournaments on worker threads, fingerprint.ts keeps the per-tournament state of
  // incremental builds, purge.ts maps changed files to URLs: all three serve build.ts.
  ["edge", /^(cli|build|render|preview|progress|up-to-date|program-files|fingerprint|purge)\.ts$|^render\//],
  ["routes", /^routes\.ts$/],
  ["domain", /^domain\//],
  ["store", /^store\//],
  ["trf", /^trf\//],
  ["contracts", /^contracts\//],
  ["views", /^views\//],
  ["emit", /^emit\//],
  // The club embed is a page of its own: pages/ bundles it, it renders with pages/ helpers.
  ["pages", /^(pages|embed)\//],
  ["publish", /^publish\//],
];

/**
 * What each layer may import besides itself. The domain is pure: nothing outside domain/, not
 * even the shared modules, and no package. The store reads rows into the domain; TRF import writes
 * the store; views turn the domain into contract objects; the route table binds views to URLs;
 * emit knows contracts and routes, never the store or the domain's innards; pages render views
 * (and take emit's cache classes); publish only writes files. `edge` may import anything.
 */
const ALLOWED: Readonly<Record<string, readonly string[] | "*">> = {
  shared: [],
  domain: [],
  store: ["shared", "domain"],
  trf: ["shared", "domain", "store"],
  contracts: ["domain"],
  views: ["shared", "domain", "contracts"],
  routes: ["shared", "domain", "contracts", "views"],
  emit: ["shared", "contracts", "routes"],
  pages: ["shared", "domain", "contracts", "views", "routes", "emit"],
  publish: ["shared"],
  edge: "*",
};

/** Layers that may import no package and no node:* module. */
const NO_PACKAGES = new Set(["domain"]);

/**
 * Where the clock may be read. The snapshot is a pure function of the store, the options and
 * `--now`, so no module that computes what is published may read the clock: only the CLI's edge
 * (cli.ts takes `--now` or the clock, progress.ts and build.ts time the phases) and publish/ (the
 * lock's wait deadline and stale-lock age, the phase timings of the report), whose clock reads
 * never reach a published byte.
 */
const CLOCK_ALLOWED: ReadonlySet<string> = new Set(["edge", "publish"]);

interface SourceFacts {
  /** Import specifiers as written, with the line of each. */
  imports: { specifier: string; line: number }[];
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
      facts.imports.push({ specifier: node.moduleSpecifier.text, line: line(node) });
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const arg = node.arguments[0];
      // A computed specifier cannot be checked: it is reported as such.
      const specifier = arg && ts.isStringLiteralLike(arg) ? arg.text : "<computed>";
      facts.imports.push({ specifier, line: line(node) });
    } else if (ts.isImportTypeNode(node)) {
      const arg = node.argument;
      if (ts.isLiteralTypeNode(arg) && ts.isStringLiteral(arg.literal)) {
        facts.imports.push({ specifier: arg.literal.text, line: line(node) });
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

function layerOf(file: string): string | undefined {
  return LAYERS.find(([, test]) => test.test(file))?.[0];
}

/** Every violation of the matrix in a graph of files (paths relative to src/, "/" separators). */
function violations(graph: ReadonlyMap<string, SourceFacts>): string[] {
  const out: string[] = [];
  for (const [file, facts] of graph) {
    const layer = layerOf(file);
    if (!layer) {
      out.push(`${file}: belongs to no layer (add it to LAYERS)`);
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
      } else if (targetLayer !== layer && allowed !== "*" && !allowed.includes(targetLayer)) {
        out.push(`${file}:${line}: ${layer} imports ${targetLayer} (${target}), against the pipeline`);
      }
    }
    if (!CLOCK_ALLOWED.has(layer)) {
      for (const { what, line } of facts.clockReads) {
        out.push(`${file}:${line}: reads the clock (${what}) outside the CLI's edge`);
      }
    }
  }
  return out;
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

  it("has no import against the pipeline and no clock read outside the edge", () => {
    expect(graph.size).toBeGreaterThan(50);
    expect(violations(graph)).toEqual([]);
  });

  it("reads static, export-from, type-only and dynamic imports of the real sources", () => {
    const specifiers = (file: string): string[] => graph.get(file)!.imports.map((i) => i.specifier);
    // build.ts loads the store only when there is work to do, through import().
    expect(specifiers("build.ts")).toContain("./store/open.ts");
    expect(specifiers("cli.ts")).toContain("./build.ts");
    expect(specifiers("emit/rules.ts")).toContain("../segments.ts");
    expect(graph.get("cli.ts")!.clockReads.map((c) => c.what)).toContain("Date.now");
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
      ["domain/status.ts", facts(`import { x } from "../store/read.ts";\nimport fs from "node:fs";`)],
      ["emit/rules.ts", facts(`import { SLUG_PATTERN } from "../store/patterns.ts";`)],
      ["views/club.ts", facts(`const m = await import("../emit/cache.ts");`)],
      ["store/read.ts", facts(`import type { T } from "../views/context.ts";`)],
      ["publish/publish.ts", facts(`import { build } from "../build.ts";`)],
      ["domain/extra.ts", facts(`import "../../scripts/x.ts";`)],
      ["newdir/thing.ts", facts(``)],
      // Allowed: a layer into an earlier one it may use, into itself, and the edge into anything.
      ["views/public.ts", facts(`import { a } from "../domain/types.ts";\nimport { b } from "./club.ts";`)],
      ["cli.ts", facts(`import { c } from "./store/init.ts";\nimport { d } from "./emit/openapi.ts";`)],
      ["emit/openapi.ts", facts(`import { SLUG_PATTERN } from "../segments.ts";`)],
    ]);
    expect(violations(graph)).toEqual([
      "domain/status.ts:1: domain imports store (store/read.ts), against the pipeline",
      "domain/status.ts:2: domain imports the package node:fs",
      "emit/rules.ts:1: emit imports store (store/patterns.ts), against the pipeline",
      "views/club.ts:1: views imports emit (emit/cache.ts), against the pipeline",
      "store/read.ts:1: store imports views (views/context.ts), against the pipeline",
      "publish/publish.ts:1: publish imports edge (build.ts), against the pipeline",
      "domain/extra.ts:1: imports ../../scripts/x.ts, outside src/",
      "newdir/thing.ts: belongs to no layer (add it to LAYERS)",
    ]);
  });

  it("fails on clock reads outside the edge, in a synthetic graph", () => {
    const graph = new Map<string, SourceFacts>([
      ["domain/status.ts", facts(`export const now = () => Date.now();`)],
      ["views/public.ts", facts(`const t = new Date();`)],
      ["render.ts", facts(`const t = performance.now();`)],
      ["publish/lock.ts", facts(`const t = performance.now();`)],
      ["store/open.ts", facts(`const d = new Date("2026-01-01T00:00:00Z");`)],
    ]);
    expect(violations(graph)).toEqual([
      "domain/status.ts:1: reads the clock (Date.now) outside the CLI's edge",
      "views/public.ts:1: reads the clock (new Date()) outside the CLI's edge",
    ]);
  });
});
