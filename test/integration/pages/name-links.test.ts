// A source's table may spell a player otherwise than the directory. The extension pages link each
// name as the view they render holds it: the round's table as the source printed it, the crosstable
// and the cards as the directory has it, whichever page is rendered first.
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build } from "../../../src/pipeline/build.ts";
import { removeTempDirs, tempDir } from "../../support/temp.ts";
import { BASE, BASE_NOW, baseRows, storeFromRows, TS } from "../../support/stores.ts";
import { attr, elements, hasClass, parseStrict, text, type Node } from "../../support/dom.ts";

afterAll(removeTempDirs);

const SOURCE_NAME = "Player One (as the source printed it)";
const DIRECTORY_NAME = "Player 1-1";
let out: string;
const id = String(BASE.published);

beforeAll(async () => {
  const dir = tempDir("name-links");
  const rows = baseRows();
  const t = rows.tournaments!.find((r) => r.external_id === BASE.published)!;
  // The source's table after round 1: player 1 with another spelling and a title, player 3 with a title.
  rows.source_standings = [
    { tournament_id: t.tournament_id, after_round: 1, retrieved_at: TS, tie_break_labels: "[]" },
  ];
  rows.source_standing_rows = [1, 3, 2, 4].map((n, i) => ({
    tournament_id: t.tournament_id,
    after_round: 1,
    source_player_number: n,
    rank: i + 1,
    name: n === 1 ? SOURCE_NAME : `Player ${String(t.tournament_id)}-${n}`,
    // Player 3: the directory's spelling, with a title the directory does not give.
    title: n === 1 ? "GM" : n === 3 ? "IM" : null,
    points: n === 1 ? 1 : 0.5,
    tie_break_values: "[]",
  }));
  out = path.join(dir, "dist");
  await build({ db: storeFromRows(path.join(dir, "names.sqlite"), rows), out, now: BASE_NOW });
}, 60_000);

const doc = (rel: string): Node => parseStrict(readFileSync(path.join(out, rel), "utf8")).doc;
/** The text of every name link to player 1 on a page, and the titles shown before them. */
function linksToPlayerOne(rel: string): string[] {
  return elements(doc(rel), (e) => e.tagName === "a" && hasClass(e, "name"))
    .filter((a) => attr(a, "href")!.endsWith("#player-1"))
    .map((a) => text(a));
}

describe("name links on the extension pages", () => {
  it("give the source's spelling in the round's table, and the directory's elsewhere", () => {
    const table = doc(`tournaments/${id}/standings/rounds/1/index.html`);
    expect(linksToPlayerOne(`tournaments/${id}/standings/rounds/1/index.html`)).toEqual([SOURCE_NAME]);
    const titles = elements(table, (e) => e.tagName === "abbr" && hasClass(e, "title")).map((e) => text(e));
    expect(titles.sort()).toEqual(["GM", "IM"]);
    for (const rel of [
      `tournaments/${id}/crosstable/index.html`,
      `tournaments/${id}/crosstable/starting-rank/index.html`,
      `tournaments/${id}/players/index.html`,
    ]) {
      const names = linksToPlayerOne(rel);
      expect(names.length, rel).toBeGreaterThan(0);
      expect(new Set(names), rel).toEqual(new Set([DIRECTORY_NAME]));
      const badges = elements(doc(rel), (e) => e.tagName === "abbr" && hasClass(e, "title"));
      expect(
        badges.map((e) => text(e)),
        rel,
      ).toEqual([]);
    }
  });
});
