// Prints how many official values of the real events (../shared/data/real, the files that carry
// official tie-break values) the computed standings reproduce: points, ranks and every listed
// tie-break, per file, once with the written rules and once with the practice of the program that
// published the file (Vega, Swiss-Manager). The comparison is the real-data test's
// (test/support/compare-expected.ts); the test asserts it, this script only counts.
//
//   node scripts/real-data-figures.ts [--data ../shared/data/real]
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { scriptArgs } from "./lib/args.ts";
import { currentStandings } from "../src/domain/standings.ts";
import type { TiebreakPractice, TiebreakRuleSet } from "../src/domain/types.ts";
import { openStore } from "../src/store/read/open.ts";
import { createStore } from "../src/store/write/init.ts";
import { importTrf } from "../src/trf/import.ts";
import { compareWithExpected, type ExpectedFile } from "../test/support/compare-expected.ts";

const values = scriptArgs(import.meta.url, { data: { type: "string" } });

function findRealData(): string {
  for (let dir = fileURLToPath(new URL("../", import.meta.url)); ; dir = dirname(dir)) {
    const candidate = join(dir, "..", "shared", "data", "real");
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) throw new Error("shared/data/real not found above the repository");
  }
}

/** The practice of the program that published a file, from its `software` field. */
function practiceOf(expected: ExpectedFile): TiebreakPractice | null {
  if (expected.software === "Vega") return "vega";
  if (expected.software.startsWith("Swiss-Manager")) return "swiss-manager";
  return null;
}

const real = values.data ?? findRealData();
const work = mkdtempSync(join(tmpdir(), "real-data-figures-"));
let n = 0;

function reproduce(stem: string, expected: ExpectedFile, practice: TiebreakPractice | null) {
  const db = join(work, `${++n}.sqlite`);
  createStore(db);
  const rules: TiebreakRuleSet = expected.rules === "unknown" ? "fide-2023" : expected.rules;
  importTrf({
    file: join(real, `${stem}.trf`),
    db,
    externalId: 1n,
    tiebreaks: expected.tiebreaks,
    rules,
    practice,
    publish: true,
    now: "2026-11-22T12:00:00Z",
    sourceUrl: `https://example.org/real/${stem}`,
  });
  const store = openStore(db);
  try {
    const [entry] = store.publishedTournaments();
    const { tournament } = store.loadTournament(entry!.rowId).value!;
    const rows = currentStandings(tournament).rows;
    const result = compareWithExpected(expected, rows, null);
    const total = Object.values(result.compared).reduce((s, k) => s + k, 0);
    return { total, wrong: result.failures.length, failures: result.failures };
  } finally {
    store.close();
  }
}

try {
  let sum = { total: 0, written: 0, practiced: 0 };
  console.log("file | software | values | reproduced (written rules) | reproduced (program's practice)");
  for (const stem of readdirSync(real)
    .filter((f) => f.endsWith(".expected.json"))
    .map((f) => f.slice(0, -".expected.json".length))
    .sort()) {
    const expected = JSON.parse(readFileSync(join(real, `${stem}.expected.json`), "utf8")) as ExpectedFile;
    if (expected.tiebreaks.length === 0) continue;
    const practice = practiceOf(expected);
    const written = reproduce(stem, expected, null);
    const practiced = practice ? reproduce(stem, expected, practice) : written;
    sum = {
      total: sum.total + written.total,
      written: sum.written + written.total - written.wrong,
      practiced: sum.practiced + practiced.total - practiced.wrong,
    };
    console.log(
      `${stem} | ${expected.software} | ${written.total} | ${written.total - written.wrong} | ` +
        `${practiced.total - practiced.wrong}${practice ? ` (${practice})` : " (none)"}`,
    );
    for (const f of practiced.failures.slice(0, 5)) console.log(`    ${f}`);
  }
  console.log(
    `all | | ${sum.total} | ${sum.written} | ${sum.practiced} ` +
      "(points, ranks and tie-break values of the files with official tie-breaks)",
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
