// The page of one team of a team event (issue 46): its place in the team standings (MP, GP and
// the team tie-breaks), its roster in board order with each member's result on each round, and
// its matches round by round. The data is the team's entry of the teams resource and its row of
// the team standings (views/teams.ts), which the team's own resource (publicTeam) holds too, and
// the page links it as its JSON; text from the message catalogs (src/i18n).
import type { TeamStandingsView, TeamsView } from "../views/teams.ts";
import type { TournamentContext } from "../views/context.ts";
import { pointsHtml, tiebreakTitle } from "./format.ts";
import { esc, layout, scrollTable } from "./html.ts";
import { crumbs, header, jsonLink, nameLink, titled, type Shared } from "./tournament.ts";
import type { MessageKey } from "../i18n/catalog.ts";
import type { Locale } from "../i18n/locale.ts";

type Team = TeamsView["teams"][number];
type TeamRound = Team["rounds"][number];

/** A board's result from the member's side, as the crosstable and the match cards print it. */
export const BOARD_RESULT: Record<string, string> = {
  win: "1",
  draw: "½",
  loss: "0",
  forfeitWin: "+",
  forfeitLoss: "−",
  pending: "*",
};

/**
 * What a team tie-break label means (C.07 team acronyms): GP and MPvGP are the game points; `BH:MP`
 * and `BH:GP/C1` the individual tie-break's name on match or game points; the extended
 * Sonneborn-Berger family (EMGSB, ...) and EDE by their individual kin; else tiebreakTitle's.
 */
export function teamTiebreakTitle(l: Locale, label: string): string {
  if (label === "GP" || label === "MPvGP") return l.t("teams.gpTitle");
  const on = /^([A-Z]+):(MP|GP)(?:\/(C1|C2|M1|M2))?$/.exec(label);
  if (on) {
    const name = tiebreakTitle(l, on[3] ? `${on[1]}-${on[3]}` : on[1]!);
    return l.t("teams.tiebreakOn", { name, score: l.t(on[2] === "MP" ? "teams.mpTitle" : "teams.gpTitle") });
  }
  if (/^E[MG][MG]SB(\/C1)?$/.test(label)) return `${tiebreakTitle(l, "SB")} (${label})`;
  if (label === "EDE") return tiebreakTitle(l, "DE");
  return tiebreakTitle(l, label);
}

/** The team's place: rank, match and game points, then each team tie-break with its label. */
function summary(s: Shared, standings: TeamStandingsView, teamNumber: number): string {
  const l = s.l;
  const row = standings.rows.find((r) => r.teamNumber === teamNumber);
  if (standings.afterRound === null || row === undefined) return `<p>${esc(l.t("teams.noStandings"))}</p>`;
  const facts: [string, string][] = [
    [l.t("col.rank"), String(row.rank)],
    [l.t("teams.mpTitle"), pointsHtml(row.matchPoints)],
    [l.t("teams.gpTitle"), pointsHtml(row.gamePoints)],
  ].map(([k, v]): [string, string] => [esc(k), v]);
  // Each tie-break by its label, as the standings table heads it, its name in the abbr's title.
  for (const [i, label] of standings.tieBreakLabels.entries())
    facts.push([
      `<abbr title="${esc(teamTiebreakTitle(l, label))}">${esc(label)}</abbr>`,
      esc(row.tieBreakValues[i] ?? ""),
    ]);
  const dl = facts.map(([k, v]) => `<dt>${k}</dt><dd>${v}</dd>`).join("");
  return `<p>${esc(l.t("teams.after", { n: standings.afterRound }))}</p><dl class="facts">${dl}</dl>`;
}

/** The roster: one row per member in board order, a cell per round (result, board played). */
function rosterTable(s: Shared, c: TournamentContext, team: Team, roundNumbers: number[]): string {
  const l = s.l;
  const played = new Map<string, { board: number; outcome: string; points: number }>();
  for (const r of team.rounds) for (const b of r.boards) played.set(`${b.sourcePlayerNumber}/${r.round}`, b);
  const heads = roundNumbers.map((n) => `<th scope="col">${esc(l.t("col.roundShort", { n }))}</th>`).join("");
  const rows = team.members
    .map((m) => {
      let total = 0;
      const cells = roundNumbers
        .map((n) => {
          const b = played.get(`${m.sourcePlayerNumber}/${n}`);
          if (b === undefined) return "<td></td>";
          total += b.points;
          return `<td>${BOARD_RESULT[b.outcome] ?? ""}\u00a0(${b.board})</td>`;
        })
        .join("");
      const title = c.players.get(m.sourcePlayerNumber)?.title ?? null;
      return (
        `<tr><td>${m.boardOrder}</td><th scope="row">${nameLink(s, m.sourcePlayerNumber, m.name, title)}</th>` +
        `<td>${m.rating ?? ""}</td>${cells}<td>${pointsHtml(total)}</td></tr>`
      );
    })
    .join("\n");
  const head =
    `<tr><th scope="col">${esc(l.t("col.board"))}</th><th scope="col">${esc(l.t("col.player"))}</th>` +
    `<th scope="col">${esc(l.t("col.rating"))}</th>${heads}<th scope="col">${esc(l.t("col.points"))}</th></tr>`;
  const caption = l.t("teams.rosterCaption", { team: team.name });
  return scrollTable(
    caption,
    `<table><caption>${esc(caption)}</caption><thead>${head}</thead><tbody>\n${rows}\n</tbody></table>`,
  );
}

/** What a round was for the team: its match's score, or the bye or forfeit in words. */
function roundResult(s: Shared, r: TeamRound): string {
  const score =
    r.opponentGamePoints === null
      ? pointsHtml(r.gamePoints)
      : `${pointsHtml(r.gamePoints)}\u2060–\u2060${pointsHtml(r.opponentGamePoints)}`;
  if (r.outcome === "win" || r.outcome === "draw" || r.outcome === "loss") return score;
  if (r.outcome === "pending") return `${score} (${esc(s.l.t("teams.pending"))})`;
  return `${esc(s.l.t(`playerFeed.outcome.${r.outcome}` as MessageKey))} (${score})`;
}

/** The team's matches round by round: opponent (a link to its page), colour, score, MP. */
function matchesTable(s: Shared, team: Team, names: ReadonlyMap<number, string>): string {
  const l = s.l;
  const rows = team.rounds
    .map((r) => {
      const opp = r.opponentTeam === null ? "" : (names.get(r.opponentTeam) ?? String(r.opponentTeam));
      const oppCell =
        r.opponentTeam === null
          ? ""
          : `<a href="${esc(s.urls.page.team(s.id, r.opponentTeam))}">${esc(opp)}</a>`;
      const colour = r.colour === null ? "" : l.t(r.colour === "white" ? "col.white" : "col.black");
      return (
        `<tr><td>${r.round}</td><td>${oppCell}</td><td>${esc(colour)}</td>` +
        `<td>${roundResult(s, r)}</td><td>${pointsHtml(r.matchPoints)}</td></tr>`
      );
    })
    .join("\n");
  const head =
    `<tr><th scope="col">${esc(l.t("col.round"))}</th><th scope="col">${esc(l.t("col.opponent"))}</th>` +
    `<th scope="col">${esc(l.t("col.colour"))}</th><th scope="col">${esc(l.t("col.result"))}</th>` +
    `<th scope="col"><abbr title="${esc(l.t("teams.mpTitle"))}">${esc(l.t("teams.mp"))}</abbr></th></tr>`;
  const caption = l.t("teams.matchesCaption", { team: team.name });
  return scrollTable(
    caption,
    `<table><caption>${esc(caption)}</caption><thead>${head}</thead><tbody>\n${rows}\n</tbody></table>`,
  );
}

/** The page of one team; `names` names every team of the event by its number. */
export function teamPage(
  s: Shared,
  c: TournamentContext,
  standings: TeamStandingsView,
  team: Team,
  names: ReadonlyMap<number, string>,
): string {
  const l = s.l;
  const roundNumbers = c.pairedRounds.map((r) => r.roundNumber);
  const body =
    `${header(s, "teams", s.urls.page.team(s.id, team.teamNumber))}\n<h2>${esc(team.name)}</h2>\n` +
    `${summary(s, standings, team.teamNumber)}\n<h3>${esc(l.t("teams.roster"))}</h3>\n<p>${esc(l.t("teams.rosterNote"))}</p>\n` +
    `${rosterTable(s, c, team, roundNumbers)}\n<h3>${esc(l.t("teams.matches"))}</h3>\n${matchesTable(s, team, names)}`;
  return layout({
    l,
    urls: s.urls,
    title: titled(s, team.name),
    body,
    crumbs: [
      ...crumbs(s, l.t("tab.teams"), s.urls.page.teams(s.id)),
      [team.name, s.urls.page.team(s.id, team.teamNumber)],
    ],
    links: [jsonLink(s, "publicTeam", { id: s.id, team: String(team.teamNumber) })],
  });
}
