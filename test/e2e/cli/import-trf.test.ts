// import-trf through the CLI: a team file is refused (exit 9); an unknown result code fails the
// import unless --allow-unknown-results, and the build then names where the standings stop.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { EXIT } from "../../../src/shared/errors.ts";
import { runCli } from "../../support/run.ts";
import { removeTempDirs, tempDir } from "../../support/temp.ts";

const FIXTURES = path.resolve(import.meta.dirname, "../../fixtures/trf");
const NOW = "2026-11-22T12:00:00Z";
afterAll(removeTempDirs);

async function store(): Promise<{ dir: string; db: string }> {
  const dir = tempDir("trf-cli");
  const db = path.join(dir, "s.sqlite");
  const init = await runCli(["init-store", db]);
  expect(init.code, init.stderr).toBe(0);
  return { dir, db };
}

const importArgs = (file: string, db: string) => [
  "import-trf",
  file,
  "--db",
  db,
  "--id",
  "77",
  "--source-url",
  "https://example.org/t",
  "--publish",
  "--now",
  NOW,
];

describe("import-trf", () => {
  it("refuses a team tournament (310 records) with exit 9 and says why", async () => {
    const { db } = await store();
    const r = await runCli(importArgs(path.join(FIXTURES, "team-two-teams.trf"), db));
    expect(r.code).toBe(EXIT.trf);
    expect(r.stderr).toMatch(/team tournament/);
    expect(r.stderr).toMatch(/2 team record\(s\) \(310\)/);
    expect(r.stderr).toMatch(/no team concept/);
  });

  it("fails on an unknown result code, and imports it as Unknown when told to", async () => {
    const { dir, db } = await store();
    // Round 4 of the TEC crosstable: #1 beat #15 ("15 b 1"); write an unknown code instead.
    const text = readFileSync(path.join(FIXTURES, "fide-tec-2023-swiss16.trf"), "utf8");
    const bad = path.join(dir, "bad.trf");
    expect(text).toContain("    15 b 1");
    writeFileSync(bad, text.replace("    15 b 1", "    15 b 9"));

    const refused = await runCli(importArgs(bad, db));
    expect(refused.code).toBe(EXIT.trf);
    expect(refused.stderr).toMatch(/round 4, board \d+ \(players 15 and 1\): result codes "0"\/"9"/);
    expect(refused.stderr).toContain("--allow-unknown-results");

    const allowed = await runCli([...importArgs(bad, db), "--allow-unknown-results"]);
    expect(allowed.code, allowed.stderr).toBe(0);

    const out = path.join(dir, "dist");
    const built = await runCli(["build", "--db", db, "--out", out, "--now", NOW]);
    expect(built.code, built.stderr).toBe(0);
    expect(built.stderr).toMatch(/tournament 77: standings stop at round 3 because of board \d+ of round 4/);
  });
});
