// The organiser's weekend loop through the CLI, with the build instant moving as the event does:
// a real event (the FIDE TEC Swiss, 16 players, 5 rounds, XXR 5) cut after each round as the
// arbiter would export it, imported with --follow, built after each import. The status follows
// the event (Upcoming, Live, ResultsPending, AwaitingNextRound, UpdateDelayed, Complete), never
// Imported; without XXR and --rounds the whole file is never Complete. The import warns, naming
// the fix, when the file gives no number of rounds or no tie-breaks.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../../support/run.ts";
import { removeTempDirs, tempDir } from "../../support/temp.ts";
import { trfAfterRound } from "../../support/trf-rounds.ts";

const FIXTURES = path.resolve(import.meta.dirname, "../../fixtures/trf");
const EVENT = readFileSync(path.join(FIXTURES, "fide-tec-2023-swiss16.trf"), "utf8");
afterAll(removeTempDirs);

/** Saturday and Sunday of the event, HH:MM UTC. */
const sat = (hm: string) => `2026-11-21T${hm}:00Z`;
const sun = (hm: string) => `2026-11-22T${hm}:00Z`;

async function ok(args: string[]): Promise<string> {
  const r = await runCli(args);
  expect(r.code, `${args.join(" ")}\n${r.stderr}`).toBe(0);
  return r.stderr;
}

function tournamentWorkspace() {
  const dir = tempDir("event-day");
  const db = path.join(dir, "club.sqlite");
  const out = path.join(dir, "dist");
  let n = 0;
  const write = (text: string) => {
    const file = path.join(dir, `export-${++n}.trf`);
    writeFileSync(file, text);
    return file;
  };
  const importAt = (text: string, now: string, id: string, extra: string[] = []) =>
    ok(["import-trf", write(text), "--db", db, "--id", id, "--now", now, "--json", ...extra]);
  const buildAt = (now: string) => ok(["build", "--db", db, "--out", out, "--now", now]);
  const status = (id: string): string =>
    JSON.parse(readFileSync(path.join(out, `api/public/v1/tournaments/${id}/index.json`), "utf8")).status;
  const page = (id: string, rest = ""): string =>
    readFileSync(path.join(out, `tournaments/${id}/${rest}index.html`), "utf8");
  return { db, importAt, buildAt, status, page };
}

describe("an event run round by round (import-trf --follow)", () => {
  it("shows each status of the weekend in turn, through the CLI with moving --now", async () => {
    const w = tournamentWorkspace();
    await ok(["init-store", w.db]);
    const first = ["--source-url", "https://example.org/tec", "--publish", "--follow", "240"];
    const seen: string[] = [];
    const step = async (text: string, importNow: string, buildNow: string, extra: string[] = []) => {
      await w.importAt(text, importNow, "5", extra);
      await w.buildAt(buildNow);
      seen.push(w.status("5"));
    };
    // Friday evening: the entry list, no pairings yet.
    await step(trfAfterRound(EVENT, 0, false), "2026-11-20T19:00:00Z", "2026-11-20T19:05:00Z", first);
    expect(seen.at(-1)).toBe("Upcoming");
    // Saturday: rounds 1 to 3, each paired then finished.
    const times = [
      ["09:00", "12:30"],
      ["13:30", "17:00"],
      ["17:30", "21:00"],
    ] as const;
    for (const [i, [paired, finished]] of times.entries()) {
      await step(trfAfterRound(EVENT, i, true), sat(paired), sat(paired));
      expect(seen.at(-1), `round ${i + 1} paired`).toBe("Live");
      expect(w.page("5", "live/")).toContain('data-status="Live"');
      await step(trfAfterRound(EVENT, i + 1, false), sat(finished), sat(finished));
      expect(seen.at(-1), `round ${i + 1} finished`).toBe("AwaitingNextRound");
    }
    // After round 3 of 5 the event is never Imported, and not Complete.
    expect(w.page("5")).toContain("Awaiting next round");
    // Overnight, more than 240 minutes and the grace period after the last import: delayed.
    await w.buildAt(sun("02:00"));
    expect(w.status("5")).toBe("UpdateDelayed");
    // Sunday: round 4 paired at 09:00; with no import for 6 hours the results are pending.
    await step(trfAfterRound(EVENT, 3, true), sun("09:00"), sun("09:05"), ["--follow", "480"]);
    expect(seen.at(-1)).toBe("Live");
    await w.buildAt(sun("15:30"));
    expect(w.status("5")).toBe("ResultsPending");
    await step(trfAfterRound(EVENT, 4, false), sun("15:40"), sun("15:40"));
    expect(seen.at(-1)).toBe("AwaitingNextRound");
    await step(trfAfterRound(EVENT, 4, true), sun("16:00"), sun("16:00"));
    expect(seen.at(-1)).toBe("Live");
    // The last round's results: Complete, and it stays so the day after.
    await step(EVENT, sun("19:00"), sun("19:00"));
    expect(seen.at(-1)).toBe("Complete");
    await w.buildAt("2026-11-23T12:00:00Z");
    expect(w.status("5")).toBe("Complete");
    expect(seen).not.toContain("Imported");
  }, 180_000);

  it("without XXR the file after round 3 of 5, and the whole file, are never Complete; --rounds fixes it", async () => {
    const w = tournamentWorkspace();
    await ok(["init-store", w.db]);
    const noXxr = (text: string) => text.replace(/^XXR.*\r?\n/m, "");
    expect(noXxr(EVENT)).not.toMatch(/^XXR/m);
    const args = ["--source-url", "https://example.org/tec", "--publish"];
    const warned = await w.importAt(noXxr(trfAfterRound(EVENT, 3, false)), sat("21:00"), "6", [
      ...args,
      "--follow",
      "600",
    ]);
    expect(warned).toMatch(/warning: .*no XXR record.*pass --rounds N/);
    expect(warned).toMatch(/warning: .*names no tie-breaks .*share a rank.*--tiebreaks BH-C1,BH,SB/);
    await w.buildAt(sat("21:05"));
    expect(w.status("6")).toBe("AwaitingNextRound");
    // The whole file without XXR: not followed, no end date, so never Complete.
    await w.importAt(noXxr(EVENT), sun("19:00"), "7", args);
    await w.buildAt("2027-01-01T00:00:00Z");
    expect(w.status("7")).toBe("Imported");
    // --rounds gives the total the file does not; a re-import without it keeps it.
    await w.importAt(noXxr(EVENT), sun("19:00"), "7", ["--rounds", "5", "--tiebreaks", "BH-C1,BH"]);
    const again = await w.importAt(noXxr(EVENT), sun("19:10"), "7");
    expect(again).not.toMatch(/no XXR record|names no tie-breaks/);
    await w.buildAt("2027-01-01T00:00:00Z");
    expect(w.status("7")).toBe("Complete");
    // --rounds may not contradict the file's XXR.
    const bad = await runCli([
      "import-trf",
      path.join(FIXTURES, "fide-tec-2023-swiss16.trf"),
      "--db",
      w.db,
      "--id",
      "8",
      "--rounds",
      "7",
      ...args,
    ]);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/announces 5 rounds \(XXR\) and --rounds says 7/);
  }, 120_000);
});
