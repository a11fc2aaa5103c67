// Issue 22: the extension pages of the sample snapshot show the values of the JSON built beside
// them: standings after each round, the crosstable in both orders, and every player card.
import { readFileSync } from "node:fs";
import path from "node:path";
import fg from "fast-glob";
import { beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import type {
  CrosstableResponse,
  PlayerCardsResponse,
  RoundStandingsResponse,
} from "../../../src/contracts/extensions.ts";
import { localeOf } from "../../../src/i18n/locale.ts";
import { aloneLabels, OUTCOME_SYMBOL } from "../../../src/pages/extensions.ts";
import { resultLabel, wordsOf } from "../../../src/pages/format.ts";

// The sample is built in English (build's default language).
const EN = localeOf("en");
const ALONE_LABEL = aloneLabels(EN);
const RESULT_TITLE = wordsOf(EN).resultTitle;
import { buildSample } from "../../support/e2e.ts";
import { tempDir } from "../../support/temp.ts";
import { attr, elements, hasClass, parseStrict, text, type Node } from "../../support/dom.ts";

let out: string;
let pages: string[];

beforeAll(async () => {
  ({ out } = await buildSample(tempDir("extension-pages")));
  pages = fg.sync("tournaments/**/*.html", { cwd: out });
}, 60_000);

const read = (rel: string) => readFileSync(path.join(out, rel), "utf8");
const json = <T>(rel: string) => JSON.parse(read(rel)) as T;
const doc = (rel: string): Node => parseStrict(read(rel)).doc;
const num = (s: string | undefined) => (s === undefined || s === "" ? null : Number(s));
const rowsOf = (d: Node, cls: string) =>
  elements(d, (e) => hasClass(e, cls)).flatMap((t) =>
    elements(t, (e) => e.tagName === "tr" && attr(e, "data-player") !== undefined),
  );
type PlayersOut = typeof PlayerCardsResponse;
const nameIn = (e: Node) => text(elements(e, (x) => hasClass(x, "name"))[0]!);

describe("extension pages of the sample", () => {
  it("exist for every published tournament, with the JSON beside them", () => {
    const ids = json<{ id: number | string }[]>("api/public/v1/tournaments/index.json").map((s) =>
      String(s.id),
    );
    for (const id of ids) {
      for (const p of ["crosstable/", "crosstable/starting-rank/"]) {
        expect(pages).toContain(`tournaments/${id}/${p}index.html`);
      }
      const x = json<z.output<typeof CrosstableResponse>>(
        `api/public/v1/tournaments/${id}/crosstable/index.json`,
      );
      // One cards file and one players page per tournament, a card for every crosstable row.
      expect(pages).toContain(`tournaments/${id}/players/index.html`);
      const cards = json<z.output<PlayersOut>>(`api/public/v1/tournaments/${id}/players/index.json`);
      expect(cards.players.map((p) => p.sourcePlayerNumber)).toEqual(
        x.rows.map((r) => r.sourcePlayerNumber).sort((a, b) => a - b),
      );
    }
    expect(pages.some((p) => /standings\/rounds\/\d+\/index\.html$/.test(p))).toBe(true);
  });

  it("standings after each round show the JSON's names and points, row by row", () => {
    const list = pages.filter((p) => /standings\/rounds\/\d+\/index\.html$/.test(p));
    for (const rel of list) {
      const v = json<z.output<typeof RoundStandingsResponse>>(
        `api/public/v1/${rel.replace(/index\.html$/, "index.json")}`,
      );
      const shown = rowsOf(doc(rel), "standings").map((tr) => ({
        player: Number(attr(tr, "data-player")),
        name: nameIn(tr),
        points: num(attr(elements(tr, (e) => hasClass(e, "pts"))[0]!, "data-points")),
      }));
      expect(shown, rel).toEqual(
        v.rows.map((r) => ({ player: r.sourcePlayerNumber, name: r.name, points: r.points })),
      );
    }
  });

  it("the crosstable shows every cell of the JSON, by rank and by starting rank", () => {
    for (const rel of pages.filter((p) => /\/crosstable\/(starting-rank\/)?index\.html$/.test(p))) {
      const id = rel.split("/")[1]!;
      const x = json<z.output<typeof CrosstableResponse>>(
        `api/public/v1/tournaments/${id}/crosstable/index.json`,
      );
      const byNumber = new Map(x.rows.map((r) => [r.sourcePlayerNumber, r]));
      const order = rel.includes("starting-rank") ? x.startingOrder.map((n) => byNumber.get(n)!) : x.rows;
      const shown = rowsOf(doc(rel), "crosstable").map((tr) => ({
        player: Number(attr(tr, "data-player")),
        name: nameIn(tr),
        points: num(attr(elements(tr, (e) => hasClass(e, "pts"))[0]!, "data-points")),
        games: elements(tr, (e) => hasClass(e, "cell")).map((td) => ({
          opponent: num(attr(td, "data-opponent")),
          points: num(attr(td, "data-points")),
          label: text(td),
        })),
      }));
      // A cell reads: the opponent's line in this order, the colour, the result symbol.
      const line = new Map(order.map((r, i) => [r.sourcePlayerNumber, i + 1]));
      const colour = (c: string | null) => (c === "white" ? "w" : c === "black" ? "b" : "");
      expect(shown, rel).toEqual(
        order.map((r) => ({
          player: r.sourcePlayerNumber,
          name: r.name,
          points: r.points,
          games: r.games.map((g) => ({
            opponent: g.opponent,
            points: g.points,
            label:
              g.opponent === null
                ? (ALONE_LABEL[g.outcome] ?? "")
                : `${line.get(g.opponent)}${colour(g.colour)} ${OUTCOME_SYMBOL[g.outcome] ?? ""}`,
          })),
        })),
      );
      expect(read(rel), rel).not.toMatch(/[\u0100-\uffff]/);
    }
  });

  it("no page per player: the cards are on one page per tournament", () => {
    expect(pages.filter((p) => /\/players\/\d+\//.test(p))).toEqual([]);
  });

  it("every card on the players page shows the JSON's rounds and rating figures", () => {
    let seen = 0;
    for (const rel of pages.filter((p) => /\/players\/index\.html$/.test(p))) {
      const all = json<z.output<PlayersOut>>(`api/public/v1/${rel.replace(/index\.html$/, "index.json")}`);
      const sections = elements(doc(rel), (e) => e.tagName === "section" && hasClass(e, "card"));
      expect(
        sections.map((e) => Number(attr(e, "data-player"))),
        rel,
      ).toEqual(all.players.map((p) => p.sourcePlayerNumber));
      for (const [i, v] of all.players.entries()) {
        const d = sections[i]!;
        expect(attr(elements(d, (e) => e.tagName === "h2")[0]!, "id")).toBe(`player-${v.sourcePlayerNumber}`);
        const rows = elements(d, (e) => e.tagName === "tr" && attr(e, "data-round") !== undefined);
        const shown = rows.map((tr) => {
          const opp = elements(tr, (e) => hasClass(e, "opponent"))[0]!;
          const result = elements(tr, (e) => hasClass(e, "result"))[0]!;
          return {
            result: text(result),
            title: attr(result, "title"),
            round: Number(attr(tr, "data-round")),
            opponent: num(attr(opp, "data-player")),
            points: num(attr(elements(tr, (e) => hasClass(e, "points"))[0]!, "data-points")),
            scoreAfter: num(attr(elements(tr, (e) => hasClass(e, "score"))[0]!, "data-points")),
            rankAfter: num(text(elements(tr, (e) => hasClass(e, "rank"))[0]!)),
          };
        });
        expect(shown, rel).toEqual(
          v.rounds.map((r) => ({
            result: r.result ? resultLabel(EN, r.result, r.resultText ?? "") : (ALONE_LABEL[r.outcome] ?? ""),
            title: r.result ? RESULT_TITLE[r.result] : undefined,
            round: r.round,
            opponent: r.opponent?.sourcePlayerNumber ?? null,
            points: r.points,
            scoreAfter: r.scoreAfter,
            rankAfter: r.rankAfter,
          })),
        );
        const figure = (key: string) => text(elements(d, (e) => attr(e, "data-figure") === key)[0]!);
        const f = v.ratingFigures;
        expect(figure("performanceRating"), rel).toBe(
          f.performanceRating === null ? "—" : String(f.performanceRating),
        );
        expect(figure("ratedGames"), rel).toBe(String(f.ratedGames));
        expect(figure("ratingChange"), rel).toBe(
          f.ratingChange === null ? "not known" : `${f.ratingChange > 0 ? "+" : ""}${f.ratingChange}`,
        );
        seen++;
      }
    }
    expect(seen).toBeGreaterThan(10);
    for (const rel of pages) expect(read(rel), rel).not.toMatch(/[\u0100-\uffff]/);
  });
});
