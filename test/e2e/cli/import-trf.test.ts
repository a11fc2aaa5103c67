// import-trf through the CLI: a team file is refused (exit 9); an unknown result code fails the
// import unless --allow-unknown-results, and the build then names where the standings stop.
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { EXIT } from "../../../src/shared/errors.ts";
import { CLI, runCli } from "../../support/run.ts";
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
  it("prints a summary on a terminal, JSON with --json; --strict refuses undeclared totals", async () => {
    const { dir, db } = await store();
    const text = readFileSync(path.join(FIXTURES, "fide-tec-2023-swiss16.trf"), "utf8");
    // Player 1's declared points (columns 81-84) one point too high.
    const line = text.split("\n").find((l) => l.startsWith("001    1"))!;
    const declared = Number(line.slice(80, 84));
    const wrong = path.join(dir, "wrong.trf");
    writeFileSync(
      wrong,
      text.replace(line, line.slice(0, 80) + (declared + 1).toFixed(1).padStart(4) + line.slice(84)),
    );
    const strict = await runCli([...importArgs(wrong, db), "--strict"]);
    expect(strict.code).toBe(EXIT.trf);
    expect(strict.stderr).toMatch(/--strict.*not reproduced/);
    expect(strict.stderr).toMatch(/player 1 .*declared points/);
    // Without --strict: imported, the mismatch a warning on stderr, JSON on a pipe.
    const lax = await runCli([...importArgs(wrong, db), "--json"]);
    expect(lax.code, lax.stderr).toBe(0);
    expect(JSON.parse(lax.stdout).mismatches).toHaveLength(1);
    expect(lax.stderr).toMatch(/^warning: player 1 .*declares points/m);
    // On a terminal (a pseudo-terminal made by script(1)): a short summary, not JSON.
    const tty = spawnSync(
      "script",
      [
        "-qec",
        [process.execPath, CLI, "import-trf", wrong, "--db", db, "--id", "77", "--now", NOW]
          .map((a) => `'${a}'`)
          .join(" "),
        "/dev/null",
      ],
      { encoding: "utf8" },
    );
    expect(tty.status, tty.stdout).toBe(0);
    expect(tty.stdout).toMatch(/unchanged tournament 77 ".*": 16 players, 5 rounds/);
    expect(tty.stdout).not.toMatch(/^\{/m);
  });

  it("updates a tournament already stored when its id is imported again", async () => {
    const { dir, db } = await store();
    const file = path.join(FIXTURES, "fide-tec-2023-swiss16.trf");
    const first = await runCli(importArgs(file, db));
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ action: "created", changes: null });
    // The same file again, without --source-url: nothing but the retrieval times moves.
    const again = await runCli([
      "import-trf",
      file,
      "--db",
      db,
      "--id",
      "77",
      "--now",
      "2026-11-23T12:00:00Z",
    ]);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ action: "unchanged", changes: { changed: false } });
    // Round 5 dropped from the file (as exported after round 4): the round is removed.
    const text = readFileSync(file, "utf8");
    const cut = path.join(dir, "after-r4.trf");
    writeFileSync(cut, text.replace(/^(001.{87}.{40}).*$/gm, "$1"));
    const fewer = await runCli([
      "import-trf",
      cut,
      "--db",
      db,
      "--id",
      "77",
      "--now",
      "2026-11-24T12:00:00Z",
    ]);
    expect(fewer.code, fewer.stderr).toBe(0);
    expect(JSON.parse(fewer.stdout)).toMatchObject({
      action: "updated",
      changes: { rounds: { added: [], changed: [], removed: [5] } },
    });
  });

  it("imports a team event (310 records) with its teams, and refuses contradicting team records", async () => {
    const { dir, db } = await store();
    const r = await runCli([
      ...importArgs(path.join(FIXTURES, "team-two-teams.trf"), db),
      ...["--tiebreaks", "BH,SB"],
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ players: 4, teams: 2, warnings: [] });
    // A team with a pairing-allocated bye (320) and a half-point bye (240 H) in the same round.
    const text = readFileSync(path.join(FIXTURES, "team-two-teams.trf"), "utf8");
    const bad = path.join(dir, "bad-teams.trf");
    writeFileSync(bad, `${text}320  2.0  2.0   1\n240 H   1    1\n`);
    const refused = await runCli(importArgs(bad, db));
    expect(refused.code).toBe(EXIT.trf);
    expect(refused.stderr).toMatch(/team 1 has two byes in round 1 \(320 and 240 H\)/);
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
