// Issue 13, item 6: the sample's recaps tell the truth. Read from the built JSON (the recaps,
// the player directory, the standings): names are spelled as in the directory, and every claim
// the English recaps make in a checkable form (player and federation counts, "on 3/5", "on 2½",
// "second", "the podium", "the chasing group", "last") holds for the players the clause names.
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildSample } from "../../support/e2e.ts";
import { removeTempDirs, tempDir } from "../../support/temp.ts";

afterAll(removeTempDirs);

interface Recap {
  kind: string;
  round: number | null;
  headline: string;
  preview: string | null;
  paragraphs: string[];
}
interface Player {
  name: string;
  federation: string | null;
}
interface Row {
  rank: number;
  name: string;
  points: number | null;
}
interface Tournament {
  id: string;
  recaps: Recap[];
  players: Player[];
  standings: { afterRound: number | null; rows: Row[] };
}

let tournaments: Tournament[];

beforeAll(async () => {
  const { out } = await buildSample(tempDir("recaps"));
  const read = (p: string) => JSON.parse(readFileSync(path.join(out, p), "utf8")) as unknown;
  const list = read("api/public/v1/tournaments/index.json") as { id: number | string }[];
  const catalogs = ["hobsons-bay", "gros-xake-taldea"].flatMap((slug) =>
    (
      read(`api/clubs/${slug}/tournaments/index.json`) as {
        tournaments: { tournament: { tournamentId: number | string } }[];
      }
    ).tournaments.map((e) => [slug, String(e.tournament.tournamentId)] as const),
  );
  tournaments = list.map((s) => {
    const id = String(s.id);
    const club = catalogs.find(([, t]) => t === id)?.[0];
    // The player directory (with federations) is on the club surface only.
    const players = club
      ? (read(`api/clubs/${club}/tournaments/${id}/index.json`) as { players: Player[] }).players
      : (read(`api/public/v1/tournaments/${id}/standings/index.json`) as { rows: Player[] }).rows;
    const recaps = ["en", "es"].flatMap(
      (l) =>
        (read(`api/public/v1/tournaments/${id}/recaps/language/${l}/index.json`) as { items: Recap[] }).items,
    );
    const standings = read(`api/public/v1/tournaments/${id}/standings/index.json`) as Tournament["standings"];
    return { id, recaps, players, standings };
  });
}, 60_000);

const fold = (s: string) => s.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
const texts = (r: Recap) => [r.headline, r.preview ?? "", ...r.paragraphs];

/** "Buckley, Gerard" → "Gerard Buckley"; "Mirzoev Azer" → "Azer Mirzoev" (surname first). */
function spoken(name: string): { full: string; surname: string } {
  const comma = name.split(",").map((x) => x.trim());
  if (comma.length === 2) return { full: `${comma[1]!.split(" ")[0]} ${comma[0]}`, surname: comma[0]! };
  const words = name.split(" ");
  return { full: `${words.at(-1)} ${words[0]}`, surname: words[0]! };
}

const NUMBERS: Record<string, number> = {
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  fourteen: 14,
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
};
function numberWord(w: string): number {
  return w
    .toLowerCase()
    .split("-")
    .reduce((sum, part) => sum + (NUMBERS[part] ?? (part === "one" ? 1 : NaN)), 0);
}
const points = (s: string) => Number(s.replace("½", ".5").replace(/^\./, "0."));

describe("the sample's recaps", () => {
  it("spell every player as the player directory does", () => {
    const wrong: string[] = [];
    for (const t of tournaments) {
      const tokens = new Map<string, string>();
      for (const p of t.players)
        for (const w of p.name.split(/[\s,]+/)) if (w.length >= 4) tokens.set(fold(w), w);
      for (const r of t.recaps)
        for (const word of texts(r)
          .join(" ")
          .split(/[^\p{L}'-]+/u)) {
          const d = tokens.get(fold(word));
          if (d && d !== word) wrong.push(`${t.id}: "${word}" is "${d}" in the directory`);
        }
    }
    expect(wrong).toEqual([]);
  });

  it("count players and federations as the directory does", () => {
    let checked = 0;
    for (const t of tournaments)
      for (const r of t.recaps)
        for (const s of texts(r)) {
          const m =
            /\b([A-Z][a-z]+(?:-[a-z]+)?) (?:players|juniors)(?: from (\w+) federations| took part| have registered)/.exec(
              s,
            );
          if (!m) continue;
          expect(numberWord(m[1]!), `${t.id}: ${s}`).toBe(t.players.length);
          if (m[2])
            expect(numberWord(m[2]), `${t.id}: ${s}`).toBe(new Set(t.players.map((p) => p.federation)).size);
          checked++;
        }
    expect(checked).toBeGreaterThanOrEqual(3);
  });

  it("give the named players the points and places the standings give them", () => {
    let checked = 0;
    for (const t of tournaments) {
      const rows = t.standings.rows;
      const last = Math.max(...rows.map((r) => r.rank));
      const surnames = rows.map((r) => spoken(r.name).surname);
      for (const r of t.recaps.filter((x) => /^[\x20-\x7e½]*$/.test(texts(x).join("")))) {
        for (const clause of texts(r).flatMap((s) => s.split(/[.;]/))) {
          const named = rows.filter((row) => {
            const { full, surname } = spoken(row.name);
            return (
              clause.includes(full) ||
              (surnames.filter((x) => x === surname).length === 1 && clause.includes(surname))
            );
          });
          if (named.length === 0) continue;
          const where = `${t.id}: "${clause.trim()}"`;
          const score = /\bon (\d*½?)\/(\d+)/.exec(clause) ?? /\bon (\d+½?|½)(?: points)?\s*$/.exec(clause);
          if (score) {
            if (score[2]) expect(t.standings.afterRound, where).toBe(Number(score[2]));
            for (const row of named) expect(row.points, `${where}: ${row.name}`).toBe(points(score[1]!));
            checked++;
          }
          if (/\bsecond\b/.test(clause) && named.length === 1) {
            expect(named[0]!.rank, where).toBe(2);
            checked++;
          }
          if (/\bpodium\b/.test(clause)) {
            for (const row of named) expect(row.rank, `${where}: ${row.name}`).toBeLessThanOrEqual(3);
            checked++;
          }
          if (/\bchasing\b/.test(clause)) {
            const leader = Math.max(...rows.map((x) => x.points ?? 0));
            for (const row of named)
              expect(row.points, `${where}: ${row.name}`).toBeGreaterThanOrEqual(leader - 1);
            checked++;
          }
          if (/\bfinished last\b/.test(clause)) {
            expect(
              named.map((x) => x.rank),
              where,
            ).toEqual([last]);
            checked++;
          }
        }
      }
    }
    expect(checked).toBeGreaterThanOrEqual(6);
  });
});
