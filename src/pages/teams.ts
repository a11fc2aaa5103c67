// The team page of a team event (issue 46): team standings, then each round as match cards (a
// small table per match, its boards from the first-named team's side), then the rosters. Rendered
// from the views of the team JSON routes (views/teams.ts); text from the message catalogs (src/i18n).
import { teamViews, type TeamMatchesView, type TeamStandingsView, type TeamsView } from "../views/teams.ts";
import type { TournamentContext } from "../views/context.ts";
import { pointsHtml } from "./format.ts";
import { esc, layout, scrollTable } from "./html.ts";
import { pageSitePaths } from "./links.ts";
import { crumbs, header, jsonLink, pageFile, titled, type PageFile, type Shared } from "./tournament.ts";
import type { MessageKey } from "../i18n/catalog.ts";
import { teamPage, teamTiebreakTitle } from "./team.ts";

/** A forfeited match's words, by the forfeit code. */
const FORFEIT: Record<string, MessageKey> = {
  "+-": "teams.forfeitWhite",
  "-+": "teams.forfeitBlack",
  "--": "teams.forfeitBoth",
};

function standingsTable(s: Shared, v: TeamStandingsView, names: Map<number, string>): string {
  const l = s.l;
  if (v.afterRound === null) return `<p>${esc(l.t("teams.noStandings"))}</p>`;
  const tbs = v.tieBreakLabels
    .map((l) => `<th scope="col"><abbr title="${esc(teamTiebreakTitle(s.l, l))}">${esc(l)}</abbr></th>`)
    .join("");
  const head =
    `<tr><th scope="col">${esc(l.t("col.rank"))}</th><th scope="col">${esc(l.t("teams.team"))}</th>` +
    `<th scope="col"><abbr title="${esc(l.t("teams.mpTitle"))}">${esc(l.t("teams.mp"))}</abbr></th>` +
    `<th scope="col"><abbr title="${esc(l.t("teams.gpTitle"))}">${esc(l.t("teams.gp"))}</abbr></th>${tbs}</tr>`;
  const rows = v.rows
    .map(
      (r) =>
        `<tr><td>${r.tiedWithPrevious ? "" : r.rank}</td><th scope="row"><a href="${esc(s.urls.page.team(s.id, r.teamNumber))}">` +
        `${esc(names.get(r.teamNumber) ?? r.name)}</a></th><td>${pointsHtml(r.matchPoints)}</td>` +
        `<td>${pointsHtml(r.gamePoints)}</td>${r.tieBreakValues.map((x) => `<td>${esc(x)}</td>`).join("")}</tr>`,
    )
    .join("\n");
  const caption = l.t("teams.after", { n: v.afterRound });
  return scrollTable(
    caption,
    `<table><caption>${esc(caption)}</caption><thead>${head}</thead><tbody>\n${rows}\n</tbody></table>`,
  );
}

const RESULT: Record<string, string> = { win: "1", draw: "½", loss: "0", forfeitWin: "+", forfeitLoss: "−" };

function matchCard(
  s: Shared,
  m: TeamMatchesView["matches"][number],
  names: ReadonlyMap<number, string>,
  players: ReadonlyMap<number, string>,
): string {
  const l = s.l;
  const white = names.get(m.whiteTeam) ?? String(m.whiteTeam);
  const black = names.get(m.blackTeam) ?? String(m.blackTeam);
  // Each team's name leads to its page.
  const link = (n: number, name: string): string =>
    `<a href="${esc(s.urls.page.team(s.id, n))}">${esc(name)}</a>`;
  const score = m.forfeit
    ? esc(FORFEIT[m.forfeit] ? l.t(FORFEIT[m.forfeit]) : m.forfeit)
    : `${pointsHtml(m.whiteGamePoints)} – ${pointsHtml(m.blackGamePoints)}${m.complete ? "" : ` (${esc(l.t("teams.pending"))})`}`;
  const caption = `${link(m.whiteTeam, white)} ${score} ${link(m.blackTeam, black)}`;
  if (m.boards.length === 0) return `<h3>${caption}</h3>`;
  const rows = m.boards
    .map((b) => {
      const mine = RESULT[b.outcome] ?? "";
      const theirs = { "1": "0", "½": "½", "0": "1", "+": "−", "−": "+" }[mine] ?? "";
      // Word joiners keep "½–½" on one line in a narrow column.
      return `<tr><td>${b.board}</td><td>${esc(b.name)}</td><td>${mine}\u2060–\u2060${theirs}</td><td>${esc(b.opponent === null ? "" : (players.get(b.opponent) ?? ""))}</td></tr>`;
    })
    .join("");
  const head = `<tr><th scope="col">${esc(l.t("col.board"))}</th><th scope="col">${esc(white)}</th><th scope="col"></th><th scope="col">${esc(black)}</th></tr>`;
  // The score heads the card, outside the scrolling table, so a phone shows it whole.
  const table = `<table><thead>${head}</thead><tbody>${rows}</tbody></table>`;
  return `<h3>${caption}</h3>\n${scrollTable(l.t("teams.match", { white, black }), table)}`;
}

function roster(s: Shared, t: TeamsView["teams"][number]): string {
  const members = t.members.map((m) => `<li>${esc(m.name)}${m.rating ? ` (${m.rating})` : ""}</li>`).join("");
  const name = `<a href="${esc(s.urls.page.team(s.id, t.teamNumber))}">${esc(t.name)}</a>`;
  return `<section id="team-${t.teamNumber}"><h3>${name}</h3><ol>${members}</ol></section>`;
}

function teamsPage(
  s: Shared,
  standings: TeamStandingsView,
  teams: TeamsView,
  rounds: TeamMatchesView[],
): string {
  const names = new Map(teams.teams.map((t) => [t.teamNumber, t.name]));
  // The cards name each board's opponent by the player's name.
  const players = new Map(
    teams.teams.flatMap((t) => t.members.map((m) => [m.sourcePlayerNumber, m.name] as const)),
  );
  let body = `${header(s, "teams")}\n<h2>${esc(s.l.t("teams.standings"))}</h2>\n${standingsTable(s, standings, names)}`;
  for (const r of [...rounds].reverse()) {
    const cards = r.matches.map((m) => matchCard(s, m, names, players)).join("\n");
    body += `\n<section><h2>${esc(s.l.t("round.title", { n: r.round }))}</h2>\n${cards}</section>`;
  }
  body += `\n<h2>${esc(s.l.t("teams.rosters"))}</h2>\n${teams.teams.map((t) => roster(s, t)).join("\n")}`;
  return layout({
    l: s.l,
    urls: s.urls,
    title: titled(s, s.l.t("tab.teams")),
    body,
    crumbs: crumbs(s, s.l.t("tab.teams"), s.urls.page.teams(s.id)),
    links: [jsonLink(s, "publicTeamStandings", { id: s.id })],
  });
}

/** The teams page of a team event published on the global surface, and a page per team; none
 * for other tournaments. */
export function teamPages(c: TournamentContext, s: Shared): PageFile[] {
  const v = teamViews(c);
  if (!v) return [];
  const names = new Map(v.teams.teams.map((t) => [t.teamNumber, t.name]));
  return [
    [pageFile(pageSitePaths.teams(s.id)), teamsPage(s, v.standings, v.teams, v.matches)],
    ...v.teams.teams.map((t): PageFile => [
      pageFile(pageSitePaths.team(s.id, t.teamNumber)),
      teamPage(s, c, v.standings, t, names),
    ]),
  ];
}
