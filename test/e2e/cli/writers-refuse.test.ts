// The writers (add-club, import-trf) refuse, through the CLI, every value that each later build
// would refuse, so one bad command can never block the publication of the whole site.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { EXIT } from "../../../src/shared/errors.ts";
import { runCli } from "../../support/run.ts";
import { removeTempDirs, tempDir } from "../../support/temp.ts";

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

  it("build --skip-invalid leaves out a club whose row is bad, its catalog and club pages", async () => {
    const dir = tempDir("skip-club");
    const db = path.join(dir, "s.sqlite");
    expect((await runCli(["init-store", db, "--sample"])).code).toBe(0);
    const d = new Database(db);
    const clubs = d.prepare("SELECT slug FROM clubs WHERE enabled = 1 ORDER BY slug").all() as {
      slug: string;
    }[];
    expect(clubs.length).toBeGreaterThan(1);
    const [bad, good] = [clubs[0]!.slug, clubs[1]!.slug];
    d.prepare("UPDATE clubs SET name = 'Evil\u202eClub' WHERE slug = ?").run(bad);
    d.close();
    const args = ["build", "--db", db, "--now", "2026-11-22T12:00:00Z"];
    const failed = await runCli([...args, "--out", path.join(dir, "strict")]);
    expect(failed.code).toBe(EXIT.storeData);
    const out = path.join(dir, "dist");
    const r = await runCli([...args, "--out", out, "--skip-invalid"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/skipped club \(club_id=\d+\), its catalog and club pages:/);
    expect(r.stderr).toMatch(/bidirectional control U\+202E/);
    expect(existsSync(path.join(out, "api", "clubs", bad))).toBe(false);
    expect(existsSync(path.join(out, "api", "clubs", good, "tournaments", "index.json"))).toBe(true);
    // Recorded without the private row key; a no-change build says the count.
    const again = await runCli([...args, "--out", out, "--skip-invalid"]);
    expect(again.stderr).toMatch(/skipped a club: 1 problem/);
    expect(readFileSync(path.join(out, "_build-api.json"), "utf8")).not.toMatch(/club_id/);
  });
});
