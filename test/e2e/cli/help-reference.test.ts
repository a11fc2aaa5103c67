// docs/reference/cli.md is generated from the commander program without running it; here the
// installed way of running it (bin/build-api.js, compiled lib/, stdout a pipe) must print exactly
// the help the reference shows, so "as `build-api <command> --help` prints it" stays true.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT, runCli } from "../../support/run.ts";

const reference = readFileSync(path.join(REPO_ROOT, "docs", "reference", "cli.md"), "utf8");
const sections = [...reference.matchAll(/^## build-api ?(\S*)\n\n```text\n([\s\S]*?)\n```/gm)].map(
  (m) => [m[1]!, m[2]!] as const,
);

describe("the CLI reference", () => {
  it("has a section for the program and each command", () => {
    expect(sections.map(([name]) => name)).toContain("");
    expect(sections.length).toBeGreaterThanOrEqual(7);
  });

  it.each(sections)("shows what `build-api %s --help` prints", async (name, help) => {
    const r = await runCli(name ? [name, "--help"] : ["--help"]);
    expect(r.code).toBe(0);
    expect(r.stdout.trimEnd()).toBe(help);
  });
});
