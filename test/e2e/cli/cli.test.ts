// The CLI as an operator uses it: init-store, import-trf, build --json, and usage errors.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { EXIT } from "../../../src/shared/errors.ts";
import { STORE_SCHEMA_VERSION } from "../../../src/store/schema.ts";
import { runCli } from "../../support/run.ts";
import { removeTempDirs, tempDir } from "../../support/temp.ts";

const TEC = path.resolve(import.meta.dirname, "../../fixtures/trf/fide-tec-2023-swiss16.trf");
const NOW = "2026-11-22T12:00:00Z";

afterAll(removeTempDirs);

describe("build-api CLI", () => {
  it("creates a store, imports a TRF file, builds it and reports as JSON", async () => {
    const dir = tempDir("cli");
    const db = path.join(dir, "club.sqlite");
    const init = await runCli(["init-store", db]);
    expect(init.code, init.stderr).toBe(0);
    const d = new Database(db, { readonly: true });
    expect(d.pragma("user_version", { simple: true })).toBe(STORE_SCHEMA_VERSION);
    d.close();

    const again = await runCli(["init-store", db]);
    expect(again.code).toBe(EXIT.usage);
    expect(again.stderr).toContain("already exists");

    const imported = await runCli([
      "import-trf",
      TEC,
      "--db",
      db,
      "--id",
      "424242",
      "--source-url",
      "https://example.org/tec",
      "--tiebreaks",
      "BH-C1,BH,SB",
      "--publish",
      "--now",
      NOW,
    ]);
    expect(imported.code, imported.stderr).toBe(0);
    expect(JSON.parse(imported.stdout)).toMatchObject({
      players: 16,
      rounds: 5,
      tiebreaks: ["BH-C1", "BH", "SB"],
    });

    const out = path.join(dir, "dist");
    const built = await runCli(["build", "--db", db, "--out", out, "--now", NOW, "--json"]);
    expect(built.code, built.stderr).toBe(0);
    const report = JSON.parse(built.stdout);
    expect(report.render.tournaments).toBe(1);
    expect(report.publish.filesWritten).toBe(report.publish.files);
    // Why each tournament and list was rendered (render/plan.ts).
    expect(report.render.plan).toEqual({
      tournaments: [{ id: "424242", reason: "first-build" }],
      lists: [{ list: "*", reason: "first-build" }],
    });
    const standings = JSON.parse(
      readFileSync(path.join(out, "api/public/v1/tournaments/424242/standings/index.json"), "utf8"),
    );
    expect(standings.tieBreakLabels).toEqual(["BH-C1", "BH", "SB"]);
    expect(standings.rows).toHaveLength(16);

    const rebuilt = await runCli(["build", "--db", db, "--out", out, "--now", NOW, "--json"]);
    expect(JSON.parse(rebuilt.stdout).publish).toMatchObject({ filesWritten: 0, filesRemoved: 0 });

    const explained = await runCli([
      "build",
      "--db",
      db,
      "--out",
      out,
      "--now",
      NOW,
      "--rebuild",
      "--explain",
    ]);
    expect(explained.code, explained.stderr).toBe(0);
    expect(explained.stderr).toContain("explain: tournament 424242: --rebuild\n");
    expect(explained.stderr).toContain("explain: every list: --rebuild\n");
  });

  it("refuses a malformed TRF line naming line and column, and leaves the store as it was", async () => {
    const dir = tempDir("cli-trf");
    const db = path.join(dir, "s.sqlite");
    await runCli(["init-store", db]);
    const before = readFileSync(db);
    const bad = path.join(dir, "bad.trf");
    const lines = readFileSync(TEC, "utf8").split("\n");
    const i = lines.findIndex((l) => l.startsWith("001"));
    lines[i] = lines[i]!.slice(0, 80) + "x.5" + lines[i]!.slice(83);
    await import("node:fs").then((fs) => fs.writeFileSync(bad, lines.join("\n")));
    const r = await runCli([
      "import-trf",
      bad,
      "--db",
      db,
      "--id",
      "1",
      "--source-url",
      "https://example.org/x",
    ]);
    expect(r.code).toBe(EXIT.trf);
    expect(r.stderr).toMatch(new RegExp(`bad\\.trf:${i + 1}:\\d+`));
    expect(readFileSync(db).equals(before)).toBe(true);
    expect(existsSync(path.join(dir, "dist"))).toBe(false);
  });

  it("prints usage errors with exit code 2", async () => {
    const r = await runCli(["build", "--db", "x.sqlite"]);
    expect(r.code).toBe(EXIT.usage);
    expect(r.stderr).toContain("--out");
    const unknown = await runCli(["publish-everything"]);
    expect(unknown.code).toBe(EXIT.usage);
    const help = await runCli(["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("import-trf");
  });
});
