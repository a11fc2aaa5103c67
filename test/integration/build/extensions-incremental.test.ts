// Issue 22: the extension files are files of their tournament for incremental builds. A second
// render of an unchanged store writes none of them; a changed schedule of one tournament rewrites
// that tournament's files (its calendar and schedule among them) and no other tournament's.
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { DEFAULT_STATUS_OPTIONS } from "../../../src/domain/status.ts";
import { tournamentOwner, type ListsRecord, type StateRecord } from "../../../src/ledger/state.ts";
import { SnapshotValidator } from "../../../src/output/validate.ts";
import { Bookkeeping } from "../../../src/ledger/bookkeeping.ts";
import { renderSnapshot } from "../../../src/render/snapshot.ts";
import type { TournamentIndex } from "../../../src/ledger/tournament-index.ts";
import { openStore } from "../../../src/store/read/open.ts";
import { makeSampleStore, SAMPLE_NOW } from "../../support/e2e.ts";
import { tempDir } from "../../support/temp.ts";

const file = makeSampleStore(tempDir("ext-incremental"));
const validator = new SnapshotValidator();
// The records and list places live in a real bookkeeping; the files by owner in memory.
const bookkeeping = Bookkeeping.open(tempDir("ext-incremental-bk"));
let generation = 0;

interface Memory {
  owners: Map<string, string[]>;
}

async function render(
  memory: Memory | null,
): Promise<{ written: string[]; memory: Memory; lists: ListsRecord | null; index: TournamentIndex }> {
  const store = openStore(file);
  const written: string[] = [];
  const next: Memory = { owners: new Map() };
  const rows = bookkeeping.index(memory !== null);
  let records: { records: Map<string, StateRecord>; removed: string[] } | undefined;
  // Closed after each render: an open store holds a read transaction that would block the update.
  await renderSnapshot(
    store,
    {
      write: (p, _d, owner = "") => {
        written.push(p);
        next.owners.set(owner, [...(next.owners.get(owner) ?? []), p]);
      },
      keepOwned: (owner) => {
        const files = memory?.owners.get(owner);
        if (!files) return false;
        next.owners.set(owner, files);
        return files.length;
      },
      setRecords: (put, removed) => {
        records = { records: put, removed: [...removed] };
      },
    },
    {
      now: SAMPLE_NOW,
      statusOptions: DEFAULT_STATUS_OPTIONS,
      skipInvalid: false,
      validator,
      openApi: "{}",
      hostFiles: new Map(),
      programKey: "test",
      index: rows,
    },
  ).finally(() => store.close());
  const r = records!;
  bookkeeping.stage(
    {
      files: new Map(),
      removed: [],
      completeFiles: false,
      records: r.records,
      removedRecords: r.removed,
      completeRecords: memory === null,
      restartLog: false,
      index: rows,
    },
    "1",
    ++generation,
  );
  bookkeeping.apply();
  const index = bookkeeping.index(true);
  return { written, memory: next, lists: index.previousLists, index };
}

const isExtension = (f: string) =>
  /^(calendar|feeds)\/|\/(crosstable|progression|schedule|players|standings\/rounds)\//.test(f);

describe("extension files in incremental builds", () => {
  it("belong to their tournament, are kept when it is unchanged, and rewritten when its schedule changes", async () => {
    const first = await render(null);
    const gros = first.memory.owners.get(tournamentOwner("9007199254740993"))!;
    expect(gros).toContain("calendar/9007199254740993.ics");
    expect(gros).toContain("feeds/9007199254740993.atom");
    expect(gros).toContain("api/public/v1/tournaments/9007199254740993/crosstable/index.json");
    // Its club's copies (the club surface's extensions and calendar) are its files too.
    expect(gros).toContain("api/clubs/gros-xake-taldea/tournaments/9007199254740993/players/index.json");
    expect(gros).toContain("calendar/clubs/gros-xake-taldea/9007199254740993.ics");
    expect(Object.values(first.lists!.owners).flat()).toContain("feeds/all.atom");
    expect(first.index.loadPrevious("9007199254740993")?.fileCount).toBe(gros.length);

    const second = await render(first.memory);
    expect(second.written.filter(isExtension)).toEqual([]);

    const db = new Database(file);
    db.prepare(
      "UPDATE round_schedule SET scheduled_time = '18:00' WHERE tournament_id = 3 AND round_number = 9",
    ).run();
    db.close();
    const third = await render(second.memory);
    const tournamentsWritten = new Set(
      third.written
        .filter((f) => /tournaments\/\d+\//.test(f))
        .map((f) => /tournaments\/(\d+)\//.exec(f)![1]),
    );
    expect([...tournamentsWritten]).toEqual(["9007199254740993"]);
    expect(third.written).toContain("calendar/9007199254740993.ics");
    expect(third.written).toContain("api/public/v1/tournaments/9007199254740993/schedule/index.json");
    expect(third.written).toContain(
      "api/clubs/gros-xake-taldea/tournaments/9007199254740993/schedule/index.json",
    );
    expect(third.written.filter((f) => f.startsWith("calendar/")).sort()).toEqual([
      "calendar/9007199254740993.ics",
      "calendar/clubs/gros-xake-taldea/9007199254740993.ics",
    ]);
  });
});
