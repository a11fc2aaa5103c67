// import-trf --practice: the program whose known tie-break practice a tournament follows is
// stored with it (tournaments.tiebreak_practice) and reaches the domain through the store reader.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import type { TiebreakPractice } from "../../../src/domain/types.ts";
import { openStore } from "../../../src/store/read/open.ts";
import { createStore } from "../../../src/store/write/init.ts";
import { importTrf } from "../../../src/trf/import.ts";

const work = mkdtempSync(join(tmpdir(), "import-practice-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
// The FIDE TEC exercise crosstable (MIT, see ../shared/data/real/README.md), kept as a fixture.
const TEC = fileURLToPath(new URL("../../fixtures/trf/fide-tec-2023-swiss16.trf", import.meta.url));

let n = 0;
function imported(practice: TiebreakPractice | undefined): { db: string; reported: TiebreakPractice | null } {
  const db = join(work, `store-${++n}.sqlite`);
  createStore(db);
  const report = importTrf({
    file: TEC,
    db,
    externalId: 7n,
    tiebreaks: ["BH"],
    ...(practice ? { practice } : {}),
    publish: true,
    now: "2026-11-22T12:00:00Z",
    sourceUrl: "https://example.org/tec",
  });
  return { db, reported: report.practice };
}

function storedPractice(db: string): unknown {
  const d = new Database(db, { readonly: true });
  try {
    return d.prepare("SELECT tiebreak_practice FROM tournaments").pluck().get();
  } finally {
    d.close();
  }
}

function readPractice(db: string): TiebreakPractice | null {
  const store = openStore(db);
  try {
    const [entry] = store.publishedTournaments();
    return store.loadTournament(entry!.rowId).value!.tournament.tiebreakPractice;
  } finally {
    store.close();
  }
}

describe("import-trf --practice", () => {
  it("stores the written rules (NULL) by default", () => {
    const { db, reported } = imported(undefined);
    expect(reported).toBeNull();
    expect(storedPractice(db)).toBeNull();
    expect(readPractice(db)).toBeNull();
  });

  it.each(["vega", "swiss-manager"] as const)(
    "stores %s and reads it back into the tournament",
    (practice) => {
      const { db, reported } = imported(practice);
      expect(reported).toBe(practice);
      expect(storedPractice(db)).toBe(practice);
      expect(readPractice(db)).toBe(practice);
    },
  );
});
