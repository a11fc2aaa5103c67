// A team event's own data, beside the individual tournament (players, rounds, games) it is built
// on: the teams and their members in board order, the match-point scoring, and the unplayed
// matches that no board game records (pairing-allocated byes, requested byes, forfeited matches).
// Plain data, as the store and the TRF import hand it over (TRF-2026 records 310, 320, 240, 330,
// 362, or the legacy 013).

export interface Team {
  /** The team's number in the event (TRF 310 columns 5-7; 013 teams are numbered in file order). */
  teamNumber: number;
  name: string;
  shortName: string | null;
  /** The members' start numbers (TRF 001 columns 5-8), in the team's board order. */
  members: number[];
}

/** Match points per match outcome (TRF-2026 `362`; 2 / 1 / 0 by default). */
export interface MatchPointScoring {
  win: number;
  draw: number;
  loss: number;
}

export const DEFAULT_MATCH_POINTS: MatchPointScoring = { win: 2, draw: 1, loss: 0 };

/**
 * A match no board game records. `pab`: the pairing-allocated bye (TRF 320), scored at the event's
 * PAB values; `full` / `half` / `zero`: a requested bye or justified absence (TRF 240 F / H / Z),
 * scored as a win, a draw or a loss with all, half or none of the boards' game points.
 */
export type TeamByeKind = "pab" | "full" | "half" | "zero";

export interface TeamBye {
  round: number;
  team: number;
  kind: TeamByeKind;
}

/** A match decided without play (TRF 330): `+-` white team wins, `-+` black team wins, `--` both lose. */
export interface ForfeitedMatch {
  round: number;
  whiteTeam: number;
  blackTeam: number;
  result: "+-" | "-+" | "--";
}

/** Which score ranks the teams first; the other is the secondary score. */
export type PrimaryScore = "MP" | "GP";

export interface TeamEvent {
  teams: Team[];
  matchPoints: MatchPointScoring;
  /** What a pairing-allocated bye gives (TRF 320 columns 5-8 and 10-13); null: a win and every
   * board's game point. */
  pab: { matchPoints: number; gamePoints: number } | null;
  byes: TeamBye[];
  forfeitedMatches: ForfeitedMatch[];
  primary: PrimaryScore;
  /** Team tie-breaks after the primary score (C.07 team acronyms: "BH:MP", "EMGSB/C1", ...). */
  tiebreaks: string[];
}
