// The writers (add-club, import-trf) refuse, through the CLI, every value that each later build
// would refuse, so one bad command can never block the publication of the whole site.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { EXIT } from "../../../src/shared/errors.ts";
import { removeTempDirs, runCli, tempDir } from "../../support/run.ts";

const FIXTURES = path.resolve(import.meta.dirname, "../../fixtures/trf");
afterAll(removeTempDirs);

async function store(): Promise<{ dir: string; db: string }> {
  const dir = tempDir("writers");
  const db = path.join(dir, "s.sqlite");
  expect((await runCli(["init-store", db])).code).toBe(0);
  return { dir, db };
}

function count(db: string, table: string): number {
  const d = new Database(db, { readonly: true });
  try {
    return (d.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
  } finally {
    d.close();
  }
}

describe("writers refuse what every build refuses", () => {
  it("add-club: control, bidirectional and too-long values, each named by its option", async () => {
    const { dir, db } = await store();
    const cases: [string[], RegExp][] = [
      [["--name", "Evil\u202eClub"], /--name: contains the bidirectional control U\+202E/],
      [["--name", "Bell\u0007"], /--name: contains the control character U\+0007/],
      [["--name", "Two\nlines"], /--name: contains a tab or line break/],
      [["--name", "x".repeat(300)], /--name: is longer than 200 characters/],
      [
        ["--name", "Fine", "--description", "bad\u0001text"],
        /--description: contains the control character U\+0001/,
      ],
    ];
    for (const [args, message] of cases) {
      const r = await runCli(["add-club", "bad-club", "--db", db, ...args]);
      expect(r.code, r.stderr).toBe(EXIT.usage);
      expect(r.stderr).toMatch(/every build would refuse; nothing was written/);
      expect(r.stderr).toMatch(message);
    }
    expect(count(db, "clubs")).toBe(0);
    // A good club is still added, and a build of the store succeeds.
    const ok = await runCli(["add-club", "good-club", "--db", db, "--name", "Good Club"]);
    expect(ok.code, ok.stderr).toBe(0);
    const built = await runCli([
      "build",
      "--db",
      db,
      "--out",
      path.join(dir, "dist"),
      "--now",
      "2026-11-22T12:00:00Z",
    ]);
    expect(built.code, built.stderr).toBe(0);
  });

  it("import-trf: a player name with U+202E is refused with its line, exit 9", async () => {
    const { dir, db } = await store();
    const text = readFileSync(path.join(FIXTURES, "fide-tec-2023-swiss16.trf"), "utf8");
    const file = path.join(dir, "bidi.trf");
    writeFileSync(file, text.replace(/^(001 {4}2.{6})(.)/m, "$1\u202e"));
    const r = await runCli([
      "import-trf",
      file,
      "--db",
      db,
      "--id",
      "5",
      "--source-url",
      "https://example.org/t",
      "--publish",
    ]);
    expect(r.code, r.stderr).toBe(EXIT.trf);
    expect(r.stderr).toMatch(/bidi\.trf:\d+ \(player 2\)/);
    expect(r.stderr).toMatch(/bidirectional control U\+202E/);
    expect(count(db, "tournaments")).toBe(0);
  });
});
