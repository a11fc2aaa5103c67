// Warnings that scale: a tick lists the warnings of what it rendered and counts the standing ones
// (of tournaments it kept) in one line; --verbose lists them all.
import { readFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { generateStore, REFERENCE_NOW } from "../../../scripts/gen-store.ts";
import { runCli } from "../../support/run.ts";
import { removeTempDirs, tempDir } from "../../support/temp.ts";

// Generous: the generated snapshots hold thousands of files, slow to delete on a busy disk.
afterAll(removeTempDirs, 180_000);

const warningLines = (stderr: string): string[] => stderr.split("\n").filter((l) => l.startsWith("warning:"));

/** A generated store of `tournaments` and its first build, which must succeed. */
async function fullBuild(name: string, tournaments: number) {
  const dir = tempDir(name);
  const db = path.join(dir, "s.sqlite");
  const out = path.join(dir, "dist");
  generateStore({ tournaments, seed: "7", out: db });
  const args = ["build", "--db", db, "--out", out, "--now", REFERENCE_NOW];
  const full = await runCli(args);
  expect(full.code, full.stderr).toBe(0);
  return { db, out, args, full };
}

describe("build warnings", () => {
  it("a tick lists what it rendered and counts the standing warnings in one line", async () => {
    const { db, out, args, full } = await fullBuild("warnings", 40);
    const all = warningLines(full.stderr);
    const stops = all.filter((l) => l.includes("standings stop at round"));
    // The generator makes tournaments with unrecognized results: the test needs some.
    expect(stops.length).toBeGreaterThan(1);

    // Rename one player of a tournament without warnings.
    const stopped = new Set(stops.map((l) => /tournament (\d+)/.exec(l)![1]));
    const w = new Database(db);
    const quiet = w
      .prepare<[], { tournament_id: number; external_id: number }>(
        "SELECT tournament_id, external_id FROM tournaments ORDER BY external_id",
      )
      .all()
      .find((t) => !stopped.has(String(t.external_id)))!;
    w.prepare(
      "UPDATE players SET name = name || ' Jr' WHERE tournament_id = ? AND source_player_number = 1",
    ).run(quiet.tournament_id);
    w.close();

    const tick = await runCli(args);
    expect(tick.code, tick.stderr).toBe(0);
    expect(tick.stderr).toContain("; 1 tournament rendered");
    const lines = warningLines(tick.stderr);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(
      `standing, in tournaments this build kept unchanged: ${stops.length} standings stops`,
    );
    expect(lines[0]).toContain("--verbose");

    // The snapshot's record counts the warnings; it does not hold them (it would grow with the
    // store, and every tick rewrites it).
    const record = JSON.parse(readFileSync(path.join(out, "_build-api.json"), "utf8"));
    expect(record.render.standingsStopCount).toBe(stops.length);
    const others = all.filter((l) => !l.includes("standings stop at round") && !l.includes("(Unknown)"));
    expect(record.render.warningCount).toBe(others.length);
    expect(record.render).not.toHaveProperty("warnings");
    expect(record.render).not.toHaveProperty("standingsStops");

    // --verbose lists them all: read from the bookkeeping when nothing changed, rendered anew
    // by --rebuild.
    const again = await runCli([...args, "--verbose"]);
    expect(again.stderr).toContain("up to date");
    expect(warningLines(again.stderr)).toEqual(all);
    const verbose = await runCli([...args, "--rebuild", "--verbose"]);
    expect(warningLines(verbose.stderr)).toEqual(all);
    const json = await runCli([...args.slice(0, -2), "--now", "2026-11-22T12:00:01Z", "--json"]);
    const report = JSON.parse(json.stdout);
    expect(report.render.standingsStops).toHaveLength(stops.length);
    expect(report.render.standingsStopCount).toBe(stops.length);
    expect(report.render.warnings).toHaveLength(report.render.warningCount);
  }, 120_000);

  it("a build that renders many lists the first 20 of each kind and counts the rest in one line", async () => {
    const { args, full } = await fullBuild("warnings-many", 240);
    // Up to date: --verbose lists every warning from the bookkeeping, in the same order.
    const verbose = await runCli([...args, "--verbose"]);
    expect(verbose.stderr).toContain("up to date");
    expect(verbose.stderr).not.toContain("more standings stops");
    const isStop = (l: string) => l.includes("standings stop at round");
    const stops = warningLines(verbose.stderr).filter(isStop);
    // The generator's unrecognized results give more stops than are listed: the test needs them.
    expect(stops.length).toBeGreaterThan(20);

    const lines = warningLines(full.stderr);
    expect(lines.filter(isStop)).toEqual(stops.slice(0, 20));
    expect(lines).toContain(
      `warning: ${stops.length - 20} more standings stops in tournaments this build rendered (--verbose or --json lists them)`,
    );
  }, 120_000);
});
