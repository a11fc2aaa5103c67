// The list files read page by page from the TournamentIndex: a full render writes exactly the
// pages paginate() models, and a tick renders the head of a changed list and keeps every page
// its change does not touch.
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { listsRecord, type ListsRecord, type TournamentState } from "../../../src/ledger/state.ts";
import { SnapshotValidator } from "../../../src/output/validate.ts";
import { Bookkeeping } from "../../../src/ledger/bookkeeping.ts";
import { renderLists } from "../../../src/render/lists.ts";
import { columnsOf, membersOf } from "../../../src/render/list-places.ts";
import { ROUTES } from "../../../src/routes/table.ts";
import { instanceFile } from "../../../src/routes/urls.ts";
import type { PublicSummary } from "../../../src/views/public.ts";
import { arrayLists, listSummary } from "../../support/lists.ts";
import { removeTempDirs, tempDir } from "../../support/temp.ts";

afterAll(removeTempDirs);
const validator = new SnapshotValidator();

/** 1 and 4 are live, the odd ones tagged blitz. */
const summary = (id: number, o: Partial<PublicSummary> = {}): PublicSummary =>
  listSummary(id, {
    status: id === 1 || id === 4 ? "Live" : "Complete",
    tags: id % 2 ? ["blitz"] : [],
    ...o,
  });

const state = (p: PublicSummary, o: Partial<TournamentState> = {}): TournamentState => ({
  id: String(p.id),
  fp: `fp${p.id}`,
  from: null,
  until: null,
  fileCount: 3,
  warnings: [],
  unknownResults: 0,
  stop: null,
  clubs: [],
  summary: null,
  public: p,
  ...o,
});

/** TournamentIndex.nearEnd for the renders of a test; undefined: the program's. */
let nearEnd: number | undefined;
afterEach(() => {
  nearEnd = undefined;
});

/** One render of the lists over a bookkeeping in `dir`, then its delta applied as a build does. */
function render(
  bk: Bookkeeping,
  put: PublicSummary[],
  previous: { record: ListsRecord; files: Map<string, string> } | null,
  generation: number,
  drop: string[] = [],
  /** What differs, besides its summary, in each state put (none of it shown by a list). */
  rest: (id: number) => Partial<TournamentState> = () => ({}),
): { record: ListsRecord; files: Map<string, string>; written: string[]; kept: string[] } {
  const rows = bk.index(previous !== null);
  if (nearEnd !== undefined) rows.nearEnd = nearEnd;
  const ix = rows;
  for (const p of put) {
    const t = state(p, rest(Number(p.id)));
    ix.put(t, columnsOf(t, String(p.id), Number(p.id)), membersOf(t));
  }
  for (const id of drop) ix.drop(id);
  const files = new Map<string, string>();
  const written: string[] = [];
  const kept: string[] = [];
  const out = renderLists({
    index: ix,
    clubs: [],
    clubTags: [],
    globalTags: ["blitz"],
    pageSize: 2,
    validator,
    fp: "lists",
    write: (file, text) => {
      files.set(file, text);
      written.push(file);
    },
    keepOwned: (owner) => {
      const paths = previous?.record.owners[owner];
      if (!paths) return false;
      for (const p of paths) files.set(p, previous!.files.get(p)!);
      kept.push(owner);
      return paths.length;
    },
  });
  const r = listsRecord(out.record);
  bk.stage(
    {
      files: new Map(),
      removed: [],
      completeFiles: false,
      records: r.records,
      removedRecords: r.removed,
      completeRecords: previous === null,
      restartLog: false,
      index: rows,
    },
    "1",
    generation,
  );
  bk.apply();
  return { record: out.record!, files, written, kept };
}

const SEVEN = [1, 2, 3, 4, 5, 6, 7].map((id) => summary(id));

/** SEVEN with each of `changed` in place of the summary of its id. */
const withChanges = (...changed: PublicSummary[]): PublicSummary[] =>
  SEVEN.map((s) => changed.find((c) => c.id === s.id) ?? s);

/** A first render of `summaries` into a bookkeeping of its own: what a tick must equal. */
const fullRender = (name: string, summaries: PublicSummary[]): ReturnType<typeof render> =>
  render(Bookkeeping.open(tempDir(name)), summaries, null, 1);

const expectSameFiles = (a: { files: Map<string, string> }, b: { files: Map<string, string> }): void =>
  expect(Object.fromEntries(a.files)).toEqual(Object.fromEntries(b.files));

describe("renderLists", () => {
  it("writes the pages paginate() models, each JSON page beside its index page", () => {
    const { files } = fullRender("lists-full", SEVEN);
    const model = arrayLists({ publicSummaries: SEVEN, globalTags: ["blitz"], pageSize: 2 });
    const route = ROUTES.find((r) => r.id === "publicTournaments")!;
    if (route.scope !== "list") throw new Error("publicTournaments is a list");
    const expected = new Map<string, unknown>();
    route.render(model, (params, body) => expected.set(instanceFile(route, params), body));
    for (const [file, body] of expected) expect(JSON.parse(files.get(file)!), file).toEqual(body);
    const json = [...files.keys()].filter((f) => f.startsWith("api/"));
    expect(json.sort()).toEqual([...expected.keys()].sort());
    expect(files.has("index.html") && files.has("page/3/index.html")).toBe(true);
    expect(files.has("feeds/all.atom")).toBe(true);
  });

  it("renders only the head of a list whose unfinished tournament changed, and keeps its pages", () => {
    const bk = Bookkeeping.open(tempDir("lists-tick"));
    const first = render(bk, SEVEN, null, 1);
    // 1 (Live) alone heads both lists: the global one (1 | 4 2 | 3 5 | 6 7) and blitz's (1 3 | 5 7).
    const changed = summary(1, { location: "Elsewhere", playerCount: 12 });
    const tick = render(bk, [changed], first, 2);
    expect(tick.written.sort()).toEqual([
      "api/public/v1/tournaments/index.json",
      "api/public/v1/tournaments/tag/blitz/index.json",
      "feeds/all.atom",
      "index.html",
    ]);
    expect(tick.kept).toEqual(expect.arrayContaining(["l/p#1", "l/p#2", "l/p#3", "l/p/t/blitz#1"]));
    // The same files as a full render of the store after the change.
    const full = fullRender("lists-tick-full", withChanges(changed));
    expectSameFiles(tick, full);
    // The members counted from the change alone, as a full render counts them.
    expect(tick.record.counts).toEqual(full.record.counts);
  });

  it("renders the pages down to a finished tournament that became unfinished", () => {
    const bk = Bookkeeping.open(tempDir("lists-leave"));
    const first = render(bk, SEVEN, null, 1);
    // 6 (on page 1) is Live again: it moves to the unfinished part, and every page above it shifts.
    const moved = summary(6, { status: "Live" });
    const tick = render(bk, [moved], first, 2);
    const full = fullRender("lists-leave-full", withChanges(moved));
    expectSameFiles(tick, full);
    // The members counted from the change alone, as a full render counts them.
    expect(tick.record.counts).toEqual(full.record.counts);
    expect(tick.written).toContain("api/public/v1/tournaments/page/1/index.json");
  });

  it("adds a page when a new finished tournament needs one, counting only the change", () => {
    const bk = Bookkeeping.open(tempDir("lists-add"));
    const first = render(bk, SEVEN, null, 1);
    expect(first.record.counts).toMatchObject({ p: 7 });
    const added = summary(8, { status: "Complete" });
    const tick = render(bk, [added], first, 2);
    const full = fullRender("lists-add-full", [...SEVEN, added]);
    expectSameFiles(tick, full);
    expect(tick.record.counts).toEqual(full.record.counts);
    expect(tick.record.counts).toMatchObject({ p: 8 });
  });

  it("reads nothing of a member but its places and its face (catalog entries, summaries)", () => {
    // Two stores that differ only in what listFace leaves out give the same list files.
    const plain = fullRender("lists-face-a", SEVEN);
    const other = render(Bookkeeping.open(tempDir("lists-face-b")), SEVEN, null, 1, [], (id) => ({
      fp: `other${id}`,
      from: id,
      until: 1e13 + id,
      fileCount: 40 + id,
      warnings: [`warning ${id}`],
      unknownResults: id,
      stop: { afterRound: 1, round: 2, board: id },
    }));
    expectSameFiles(other, plain);
  });

  it("renders no list page for a tournament put again with the same places and face", () => {
    const bk = Bookkeeping.open(tempDir("lists-unmoved"));
    const first = render(bk, SEVEN, null, 1);
    // 6 sits on page 1: were it counted as changed, every page above it would be rendered again.
    const tick = render(bk, [summary(6)], first, 2, [], () => ({ fileCount: 9, warnings: ["a name fixed"] }));
    expect(tick.written).toEqual([]);
    expectSameFiles(tick, first);
    expect(tick.record.counts).toEqual(first.record.counts);
    // Beside a change at the head, it still costs no page below the head.
    const changed = summary(1, { location: "Elsewhere" });
    const both = render(bk, [changed, summary(6)], tick, 3);
    expect(both.written.sort()).toEqual([
      "api/public/v1/tournaments/index.json",
      "api/public/v1/tournaments/tag/blitz/index.json",
      "feeds/all.atom",
      "index.html",
    ]);
    expectSameFiles(both, fullRender("lists-unmoved-full", withChanges(changed)));
  });

  // A change in place is counted from the end of its list when it is near it, else from the head.
  it.each([
    ["from the end", undefined],
    ["from the head", 0],
  ])("renders only the page of a finished tournament whose summary changed in place (%s)", (_, near) => {
    nearEnd = near;
    const bk = Bookkeeping.open(tempDir("lists-in-place"));
    const first = render(bk, SEVEN, null, 1);
    // 5 keeps its rank (start date, name, id): page 2 of the global list (1 | 4 2 | 3 5 | 6 7) and
    // page 1 of blitz's (1 3 | 5 7) change; the heads and the pages above them stay.
    const changed = summary(5, { location: "Elsewhere", playerCount: 40 });
    const tick = render(bk, [changed], first, 2);
    expect(tick.written.sort()).toEqual([
      "api/public/v1/tournaments/page/2/index.json",
      "api/public/v1/tournaments/tag/blitz/page/1/index.json",
      "feeds/all.atom",
      "page/2/index.html",
    ]);
    expect(tick.kept).toEqual(expect.arrayContaining(["l/p#0", "l/p#1", "l/p#3", "l/p/t/blitz#0"]));
    const full = fullRender("lists-in-place-full", withChanges(changed));
    expectSameFiles(tick, full);
    expect(tick.record.counts).toEqual(full.record.counts);
    // Beside a move at the head, the head and the in-place page, nothing between.
    const head = summary(4, { name: "A new name" });
    const far = summary(6, { location: "Far" });
    const both = render(bk, [head, far], tick, 3);
    expectSameFiles(both, fullRender("lists-in-place-full2", withChanges(changed, head, far)));
    expect(both.written).not.toContain("api/public/v1/tournaments/page/2/index.json");
    // Several in place at once, on three pages (7 on 1, 3 on 2, 2 on 3): those pages, not the head.
    const many = [7, 3, 2].map((id) => summary(id, { location: `Moved ${id}` }));
    const three = render(bk, many, both, 4);
    expect(three.written.filter((f) => f.startsWith("api/public/v1/tournaments/page/")).sort()).toEqual([
      "api/public/v1/tournaments/page/1/index.json",
      "api/public/v1/tournaments/page/2/index.json",
      "api/public/v1/tournaments/page/3/index.json",
    ]);
    expect(three.written).not.toContain("api/public/v1/tournaments/index.json");
    expectSameFiles(three, fullRender("lists-in-place-full3", withChanges(changed, head, far, ...many)));
  });

  it("drops the oldest numbered page when a tournament leaves and the list needs one page fewer", () => {
    const bk = Bookkeeping.open(tempDir("lists-drop"));
    const first = render(bk, SEVEN, null, 1);
    const tick = render(bk, [], first, 2, ["7"]);
    const full = fullRender("lists-drop-full", SEVEN.slice(0, 6));
    expectSameFiles(tick, full);
    // The members counted from the change alone, as a full render counts them.
    expect(tick.record.counts).toEqual(full.record.counts);
    expect(tick.files.has("api/public/v1/tournaments/page/3/index.json")).toBe(false);
    expect(tick.record.owners["l/p#3"]).toBeUndefined();
  });
});
