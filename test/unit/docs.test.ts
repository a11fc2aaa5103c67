// The docs name the code by path and link each other: both go stale when a file moves. Every
// relative link of the README and docs/ must reach an existing file (and heading, for a #anchor,
// slugged as GitHub does), and every repository path written in backticks (`src/...`,
// `test/...`, `scripts/...`, ...) must exist, so a move that forgets the docs fails here.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import GithubSlugger from "github-slugger";
import { describe, expect, it } from "vitest";
import { program } from "../../src/cli/program.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");

function markdownFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) return markdownFiles(rel);
    return e.name.endsWith(".md") ? [rel] : [];
  });
}

const DOCS = ["README.md", ...markdownFiles("docs")];

/** The text outside fenced code blocks (links and paths in examples are not references). */
function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, "");
}

/** The anchors of a document's headings, as GitHub makes them. */
function anchors(markdown: string): Set<string> {
  const slugger = new GithubSlugger();
  const out = new Set<string>();
  for (const [, heading] of prose(markdown).matchAll(/^#{1,6} (.+)$/gm)) out.add(slugger.slug(heading!));
  return out;
}

/** Relative link targets: [text](target), images included; web and mail links left out. */
function links(markdown: string): string[] {
  // Inline code is left out too: a regex in backticks may hold "](".
  return [
    ...prose(markdown)
      .replace(/`[^`\n]*`/g, "")
      .matchAll(/\]\(([^)\s]+)\)/g),
  ]
    .map((m) => m[1]!)
    .filter((t) => !/^[a-z]+:/i.test(t));
}

/** Repository paths in backticks: `src/x.ts`, `test/unit/`, `scripts/probe.ts`, `docs/...`. */
function codePaths(markdown: string): string[] {
  return [...prose(markdown).matchAll(/`((?:src|test|scripts|docs|schema|bin|data)\/[\w./-]*)`/g)]
    .map((m) => m[1]!)
    .filter((p) => !/[{}*<>]/.test(p));
}

describe("the docs", () => {
  it("are found", () => {
    expect(DOCS).toContain("docs/guide/getting-started.md");
    expect(DOCS).toContain("docs/reference/cli.md");
    expect(DOCS.length).toBeGreaterThanOrEqual(15);
  });

  it.each(DOCS)("%s: every relative link reaches a file and a heading", (doc) => {
    const text = readFileSync(path.join(ROOT, doc), "utf8");
    for (const target of links(text)) {
      const [file, anchor] = target.split("#") as [string, string | undefined];
      const resolved =
        file === "" ? doc : path.posix.normalize(path.posix.join(path.posix.dirname(doc), file));
      // A clone holds the repository only: a link out of it is broken there.
      expect(resolved.startsWith("../"), `${doc}: link to ${target} leaves the repository`).toBe(false);
      expect(existsSync(path.join(ROOT, resolved)), `${doc}: link to ${target}`).toBe(true);
      if (anchor && resolved.endsWith(".md")) {
        const heads = anchors(readFileSync(path.join(ROOT, resolved), "utf8"));
        expect(heads.has(anchor), `${doc}: link to ${target}: no such heading`).toBe(true);
      }
    }
  });

  it.each(DOCS)("%s: every repository path it names exists", (doc) => {
    for (const p of codePaths(readFileSync(path.join(ROOT, doc), "utf8"))) {
      // Paths a build or a script creates are not in the repository.
      if (/^(?:data\/.*\.sqlite|lib\/|bin\/.*\.js$)/.test(p) && !p.startsWith("bin/build-api.js")) continue;
      expect(existsSync(path.join(ROOT, p)), `${doc} names ${p}, which does not exist`).toBe(true);
    }
  });

  it("keep the README short, its web links on the local preview, the tests' time stated", () => {
    const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
    expect(
      readme.split("\n").length,
      "README.md: at most 150 lines; move detail into a guide",
    ).toBeLessThanOrEqual(151);
    const web = [...prose(readme).matchAll(/\]\((\w+:[^)\s]+)\)|<(\w+:[^>\s]+)>/g)].map((m) => m[1] ?? m[2]!);
    expect(web.filter((u) => !u.startsWith("http://127.0.0.1:3000/"))).toEqual([]);
    // The first screen says how long the tests take, as measured (docs/benchmarks.md#tests).
    const head = readme.split("\n").slice(0, 40).join("\n");
    expect(head).toMatch(/`npm test` takes about [\d.]+ minutes .*2-core machine/);
    expect(head).toContain("](docs/benchmarks.md#tests)");
  });

  it("have a glossary of the words they lean on, linked from the README and the development notes", () => {
    const glossary = readFileSync(path.join(ROOT, "docs/glossary.md"), "utf8");
    const terms = [...glossary.matchAll(/^\*\*([^*]+)\*\*/gm)].map((m) => m[1]!.toLowerCase());
    for (const word of [
      "tick",
      "floor",
      "owner",
      "generation",
      "pair",
      "second version",
      "standby",
      "live",
    ]) {
      expect(terms, `docs/glossary.md defines ${word}`).toContain(word);
    }
    expect(readFileSync(path.join(ROOT, "README.md"), "utf8")).toContain("](docs/glossary.md)");
    expect(readFileSync(path.join(ROOT, "docs/design/development.md"), "utf8")).toContain(
      "](../glossary.md)",
    );
  });

  it("list every command of the CLI in the README's command table", () => {
    const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
    for (const c of program.commands.filter((c) => c.name() !== "help")) {
      expect(readme, `README.md: add a row for build-api ${c.name()}`).toMatch(
        new RegExp(`^\\| \`build-api ${c.name()}\`\\s+\\|`, "m"),
      );
    }
  });

  it("catch a broken link, a missing heading and a moved file", () => {
    expect(links("[x](a.md#b), <https://x.org>, [y](https://x.org), `[a](b)`, ![z](../i.png)")).toEqual([
      "a.md#b",
      "../i.png",
    ]);
    expect(codePaths("`src/emit/hosts/` and `test/{id}/`\n```\n`src/in-code.ts`\n```\n")).toEqual([
      "src/emit/hosts/",
    ]);
    expect(existsSync(path.join(ROOT, "src/emit/hosts/"))).toBe(false);
    expect(anchors("# A title\n## Install from the tarball\n```\n# not a heading\n```")).toEqual(
      new Set(["a-title", "install-from-the-tarball"]),
    );
  });
});
