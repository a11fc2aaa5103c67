// The shared team events (test/fixtures/trf/teams, copied from shared/data/real-teams with their
// README's expected values): each TRF file is imported into a fresh store, read back as the build
// reads it, and must reproduce every official team value (rank, match points, game points, each
// team tie-break) from the stored team event, and every official individual value from the
// built standings endpoint. The TEC booklet's orders given without values (MPvGP, EDE) are
// checked too.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { build } from "../../src/pipeline/build.ts";
import { PublicStandingsResponse } from "../../src/contracts/public.ts";
import {
  TeamDetailResponse,
  TeamMatchesResponse,
  TeamStandingsResponse,
  TeamsResponse,
} from "../../src/contracts/teams.ts";
import { teamStandings } from "../../src/domain/teams/standings.ts";
import type { Tournament, TiebreakPractice } from "../../src/domain/types.ts";
import { openStore } from "../../src/store/read/open.ts";
import { createStore } from "../../src/store/write/init.ts";
import { importTrf } from "../../src/trf/import.ts";
import { compareWithExpected, type ExpectedFile, type KnownDepartures } from "../support/compare-expected.ts";
import { removeTempDirs, tempDir } from "../support/temp.ts";

const DIR = fileURLToPath(new URL("../fixtures/trf/teams/", import.meta.url));
const NOW = "2026-11-22T12:00:00Z";
const work = tempDir("real-teams");
afterAll(removeTempDirs);

interface ExpectedTeams extends ExpectedFile {
  team_tiebreaks: string[];
  teams: {
    teamNo: number;
    rank: number | null;
    mp: number;
    gp: number;
    tiebreaks: (number | null)[];
    tiedWithPrevious?: boolean;
  }[];
}

// Swiss-Manager's individual ranking of this team event is not an order by points and the two
// tie-breaks it prints (on 4½ points it ranks 28, 44, 20, 30, 9 with BH 25, 24½, 32, 26½, 26):
// `--practice swiss-manager` follows it (src/domain/teams/board-order.ts). compareWithExpected
// places a rank by points and the printed tie-breaks, which this order is not, so the built
// ranks are compared with the published ones, exactly, by the last test below.
const DEPARTURES: Record<string, KnownDepartures> = {
  "sm-2025-eschlkam-team-swiss": {
    reason: "Swiss-Manager's individual ranking of a team event",
    ranksNotComparable: "ranked by the share over the rounds lined up and the board (last test)",
  },
};

const FILES: { stem: string; practice: TiebreakPractice | null }[] = [
  { stem: "sm-2025-eschlkam-team-swiss", practice: "swiss-manager" },
  { stem: "fide-tec-2023-team-swiss14", practice: null },
];

function expectedOf(stem: string): ExpectedTeams {
  return JSON.parse(readFileSync(join(DIR, `${stem}.expected.json`), "utf8")) as ExpectedTeams;
}

/** Imports the file into a fresh store and reads the tournament back through the store reader. */
function imported(
  stem: string,
  practice: TiebreakPractice | null,
  teamTiebreaks: string[],
): { db: string; t: Tournament } {
  const expected = expectedOf(stem);
  const db = join(work, `${stem}-${Math.random().toString(36).slice(2)}.sqlite`);
  createStore(db);
  importTrf({
    file: join(DIR, `${stem}.trf`),
    db,
    externalId: 7000n,
    tiebreaks: expected.tiebreaks,
    rules: expected.rules === "unknown" ? "fide-2023" : expected.rules,
    practice,
    teamTiebreaks,
    publish: true,
    now: NOW,
    sourceUrl: `https://example.org/teams/${stem}`,
  });
  const store = openStore(db);
  try {
    const [only] = store.publishedTournaments();
    const loaded = store.loadTournament(only!.rowId);
    expect(loaded.problems).toEqual([]);
    return { db, t: loaded.value!.tournament };
  } finally {
    store.close();
  }
}

describe("the shared team events reproduce their official team standings", () => {
  it.each(FILES)("$stem", ({ stem, practice }) => {
    const expected = expectedOf(stem);
    const { t } = imported(stem, practice, expected.team_tiebreaks);
    expect(t.team?.teams).toHaveLength(expected.teams.length);
    const s = teamStandings(t, t.team!, expected.rounds, {
      rules: t.tiebreakRules,
      practice,
      system: t.system,
    });
    const rows = new Map(s.rows.map((r) => [r.teamNumber, r]));
    let compared = 0;
    for (const want of expected.teams) {
      const got = rows.get(want.teamNo)!;
      expect([want.teamNo, got.matchPoints, got.gamePoints]).toEqual([want.teamNo, want.mp, want.gp]);
      if (want.rank !== null) expect([want.teamNo, got.rank]).toEqual([want.teamNo, want.rank]);
      if (want.tiedWithPrevious !== undefined) expect(got.tiedWithPrevious).toBe(want.tiedWithPrevious);
      want.tiebreaks.forEach((value, i) => {
        if (value === null) return;
        expect([want.teamNo, expected.team_tiebreaks[i], got.tiebreaks[i]]).toEqual([
          want.teamNo,
          expected.team_tiebreaks[i],
          value,
        ]);
        compared++;
      });
    }
    expect(compared).toBe(expected.teams.flatMap((x) => x.tiebreaks).filter((v) => v !== null).length);
  });

  it("Swiss-Manager's BH:MP needs its practice: the written rules miss its printed values", () => {
    const stem = "sm-2025-eschlkam-team-swiss";
    const expected = expectedOf(stem);
    const { t } = imported(stem, null, ["GP", "BH:MP"]);
    const s = teamStandings(t, t.team!, 7, { rules: "fide-2023", practice: null, system: "swiss" });
    const bh = new Map(s.rows.map((r) => [r.teamNumber, r.tiebreaks[1]]));
    const differ = expected.teams.filter((x) => bh.get(x.teamNo) !== x.tiebreaks[1]);
    expect(differ.length).toBeGreaterThan(0);
  });

  it("the TEC booklet's orders: MPvGP (exercise 34) and EDE (exercises 42-45)", () => {
    const { t } = imported("fide-tec-2023-team-swiss14", null, ["MPvGP"]);
    const order = (tiebreaks: string[]) =>
      teamStandings(t, { ...t.team!, tiebreaks }, 7, {
        rules: "fide-2023",
        practice: null,
        system: "swiss",
      }).rows.map((r) => `${r.tiedWithPrevious ? "=" : " "}${r.teamNumber}`);
    expect(order(["MPvGP"]).join("").trim()).toBe("5 1 2=4 3 8 6 9 7=13 10 11=14 12");
    // EDE: 4, 2, 1, 3, 5 on 10 MP; 6 before 8; 7, 9, 13 and 11, 14 stay tied.
    expect(order(["EDE"]).join("").trim()).toBe("4 2 1 3 5 6 8 7=9=13 10 11=14 12");
  });
});

type TeamJson = ReturnType<typeof TeamsResponse.parse>["teams"][number];
type StandingJson = ReturnType<typeof TeamStandingsResponse.parse>["rows"][number];

/** The text of each cell of each body row of the page's n-th table, tags dropped. */
function tableRows(html: string, n: number): string[][] {
  const body = html.split("<tbody>")[n + 1]!.split("</tbody>")[0]!;
  return body
    .split("</tr>")
    .filter((r) => r.includes("<tr>"))
    .map((r) => [...r.matchAll(/<t[hd][^>]*>(.*?)<\/t[hd]>/g)].map((c) => c[1]!.replace(/<[^>]+>/g, "")));
}

const half = (x: number): string => (x % 1 === 0 ? String(x) : `${Math.trunc(x) || ""}½`);

/** A team's page shows its standings row, its roster in board order with the board played and the
 * points of each round, and a row per round of its matches with the match points. */
function checkTeamPage(html: string, team: TeamJson, row: StandingJson): void {
  expect(html).toContain(`<h2>${team.name}</h2>`);
  expect(html).toContain(
    `<dd>${half(row.matchPoints)}</dd><dt>Game points</dt><dd>${half(row.gamePoints)}</dd>`,
  );
  for (const v of row.tieBreakValues) expect(html).toContain(`<dd>${v}</dd>`);
  const roster = tableRows(html, 0);
  // The name cell may lead with the player's title (CM, FM, ...).
  expect(roster.map((r, i) => r[1]!.endsWith(team.members[i]!.name))).toEqual(team.members.map(() => true));
  const rounds = team.rounds.map((r) => r.round);
  team.members.forEach((m, i) => {
    const cells = roster[i]!.slice(3, 3 + rounds.length);
    let total = 0;
    team.rounds.forEach((r, k) => {
      const b = r.boards.find((x) => x.sourcePlayerNumber === m.sourcePlayerNumber);
      total += b?.points ?? 0;
      expect(cells[k]).toEqual(b ? expect.stringMatching(new RegExp(`\\(${b.board}\\)$`)) : "");
    });
    expect(roster[i]!.at(-1)).toBe(half(total));
  });
  const matches = tableRows(html, 1);
  expect(matches.map((r) => Number(r[0]))).toEqual(rounds);
  expect(matches.map((r) => r[4])).toEqual(team.rounds.map((r) => half(r.matchPoints)));
}

/** The team numbers of the teams resource. */
function roster0(read: (rel: string) => unknown): number[] {
  return TeamsResponse.parse(read("teams")).teams.map((t) => t.teamNumber);
}

describe("the shared team events reproduce their official individual standings", () => {
  it.each(FILES)("$stem", async ({ stem, practice }) => {
    const expected = expectedOf(stem);
    const { db } = imported(stem, practice, expected.team_tiebreaks);
    const out = join(work, `${stem}-${Math.random().toString(36).slice(2)}`, "dist");
    await build({ db, out, now: Date.parse(NOW) });
    const file = join(out, "api/public/v1/tournaments/7000/standings/index.json");
    const standings = PublicStandingsResponse.parse(JSON.parse(readFileSync(file, "utf8")));
    const result = compareWithExpected(expected, standings.rows, DEPARTURES[stem] ?? null);
    // The team extensions of the same build: the team standings give the official values.
    const read = (rel: string): unknown =>
      JSON.parse(readFileSync(join(out, "api/public/v1/tournaments/7000", rel, "index.json"), "utf8"));
    const teams = TeamStandingsResponse.parse(read("teams/standings"));
    expect(teams.afterRound).toBe(expected.rounds);
    expect(teams.tieBreakLabels).toEqual(expected.team_tiebreaks);
    const byTeam = new Map(teams.rows.map((r) => [r.teamNumber, r]));
    for (const want of expected.teams) {
      const got = byTeam.get(want.teamNo)!;
      expect([got.matchPoints, got.gamePoints, want.rank === null ? null : got.rank]).toEqual([
        want.mp,
        want.gp,
        want.rank,
      ]);
      want.tiebreaks.forEach((v, i) => v !== null && expect(Number(got.tieBreakValues[i])).toBe(v));
    }
    const round1 = TeamStandingsResponse.parse(read("teams/standings/rounds/1"));
    expect(round1.rows.reduce((n, r) => n + r.matchPoints, 0)).toBeGreaterThan(0);
    // Round 1 of both events: every team but a bye team plays a full match of four boards.
    const matches = TeamMatchesResponse.parse(read("teams/matches/1"));
    const boards = matches.matches.reduce((n, m) => n + m.boards.length, 0);
    expect(boards).toBe(Math.floor(expected.teams.length / 2) * 4);
    // The team page: every team in the standings, every match of round 1 as a card.
    const page = readFileSync(join(out, "tournaments/7000/teams/index.html"), "utf8");
    for (const t of roster0(read)) expect(page).toContain(`href="/tournaments/7000/teams/${t}/"`);
    expect(page).toContain('aria-current="page">Teams</a>');
    expect(page.match(/<h3>/g)?.length).toBeGreaterThanOrEqual(Math.floor(expected.teams.length / 2));
    const roster = TeamsResponse.parse(read("teams"));
    expect(roster.teams.map((t) => t.teamNumber).sort((a, b) => a - b)).toEqual(
      expected.teams.map((t) => t.teamNo).sort((a, b) => a - b),
    );
    // A page per team, linked from the standings and from each match card naming it.
    for (const team of roster.teams) {
      const html = readFileSync(join(out, `tournaments/7000/teams/${team.teamNumber}/index.html`), "utf8");
      checkTeamPage(html, team, byTeam.get(team.teamNumber)!);
      // The team's own resource: its standings row, its roster with each member's boards, its
      // rounds; the page links it as its JSON.
      const own = TeamDetailResponse.parse(read(`teams/${team.teamNumber}`));
      expect(own.standing).toEqual(byTeam.get(team.teamNumber));
      expect([own.afterRound, own.tieBreakLabels]).toEqual([teams.afterRound, teams.tieBreakLabels]);
      expect(own.rounds).toEqual(team.rounds);
      expect(own.members.map((m) => m.sourcePlayerNumber)).toEqual(
        team.members.map((m) => m.sourcePlayerNumber),
      );
      for (const m of own.members) {
        const boards = team.rounds.flatMap((r) =>
          r.boards
            .filter((b) => b.sourcePlayerNumber === m.sourcePlayerNumber)
            .map((b) => [r.round, b.board]),
        );
        expect(m.rounds.map((r) => [r.round, r.board])).toEqual(boards);
        expect(m.points).toBe(m.rounds.reduce((n, r) => n + r.points, 0));
      }
      expect(html).toContain(`href="/api/public/v1/tournaments/7000/teams/${team.teamNumber}"`);
    }
    const cards = page.split("<h3>").slice(1);
    for (const m of matches.matches)
      expect(
        cards.some((c) => c.includes(`/teams/${m.whiteTeam}/"`) && c.includes(`/teams/${m.blackTeam}/"`)),
      ).toBe(true);
    expect(result.failures).toEqual([]);
    expect(result.compared.points).toBe(expected.rows.length);
    for (const acronym of expected.tiebreaks) expect(result.compared[acronym]).toBe(expected.rows.length);
  });
});

describe("Swiss-Manager's individual ranking of the Eschlkam team Swiss", () => {
  it("is the built standings' order under --practice swiss-manager, not under the written rules", async () => {
    const stem = "sm-2025-eschlkam-team-swiss";
    const expected = expectedOf(stem);
    const published = [...expected.rows].sort((a, b) => a.rank! - b.rank!).map((r) => [r.startNo, r.rank]);
    const built = async (practice: TiebreakPractice | null) => {
      const { db } = imported(stem, practice, expected.team_tiebreaks);
      const out = join(work, `${stem}-rank-${Math.random().toString(36).slice(2)}`, "dist");
      await build({ db, out, now: Date.parse(NOW) });
      const file = join(out, "api/public/v1/tournaments/7000/standings/index.json");
      return PublicStandingsResponse.parse(JSON.parse(readFileSync(file, "utf8"))).rows;
    };
    // All 47 ranks, distinct, in the published order.
    expect((await built("swiss-manager")).map((r) => [r.sourcePlayerNumber, r.rank])).toEqual(published);
    // The written rules rank by points, BH and SB: not Swiss-Manager's order.
    expect((await built(null)).map((r) => [r.sourcePlayerNumber, r.rank])).not.toEqual(published);
  });
});
