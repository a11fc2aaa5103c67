// The human text of the team pages, in one place (the page text moves to message catalogs).
export const TEAM_TAB = "Teams";

export const TEAM_TEXT = {
  title: "Teams",
  standings: "Team standings",
  standingsAfter: (round: number) => `Team standings after round ${round}`,
  noStandings: "No round is complete yet.",
  rank: "Rank",
  team: "Team",
  matchPoints: "MP",
  matchPointsTitle: "Match points",
  gamePoints: "GP",
  gamePointsTitle: "Game points",
  round: (n: number) => `Round ${n}`,
  match: (white: string, black: string) => `${white} against ${black}`,
  board: "Board",
  forfeit: { "+-": "won by forfeit", "-+": "lost by forfeit", "--": "forfeited by both" } as Record<
    string,
    string
  >,
  pending: "in progress",
  byes: "Byes",
  rosters: "Rosters",
} as const;
