// The team event of a TRF file (TRF-2026 team records, or the legacy 013): its teams, scoring and
// unplayed matches, with the team tie-breaks the import names. The members must be players of the
// file; the published match points, game points and ranks of 310 records are compared with the
// computed ones, and each difference is a warning of the import report.
import { BuildError, EXIT } from "../shared/errors.ts";
import { validateTeamTiebreaks } from "../domain/teams/acronyms.ts";
import { teamStandings } from "../domain/teams/standings.ts";
import type { PrimaryScore, TeamEvent } from "../domain/teams/types.ts";
import type { Tournament } from "../domain/types.ts";
import type { TrfFile } from "./parse.ts";
import { readTeamRecords, type DeclaredTeam } from "./team-records.ts";

interface TeamImportOptions {
  teamTiebreaks?: string[];
  primaryScore?: PrimaryScore;
}

/** The file's team event; null for an individual event (no 310 or 013 record). */
export function teamEventOf(
  text: string,
  f: TrfFile,
  opts: TeamImportOptions,
  warnings: string[],
): { event: TeamEvent; declared: DeclaredTeam[] } | null {
  const records = readTeamRecords(text, f.fileName);
  if (records === null) {
    if (opts.teamTiebreaks !== undefined)
      warnings.push("--team-tiebreaks: the file has no team records; ignored");
    return null;
  }
  const primary = opts.primaryScore ?? "MP";
  const tiebreaks = opts.teamTiebreaks ?? [];
  const problems = validateTeamTiebreaks(tiebreaks, primary);
  if (problems.length > 0) {
    throw new BuildError(
      "Cannot import the TRF file: the team tie-break list is invalid.",
      problems.map((what) => ({ what, where: "--team-tiebreaks" })),
      EXIT.usage,
    );
  }
  const players = new Set(f.players.map((p) => p.startNo));
  for (const team of records.teams) {
    const missing = team.members.find((p) => !players.has(p));
    if (missing !== undefined) {
      throw new BuildError(
        `Cannot import the TRF file ${f.fileName}: team ${team.teamNumber} names a player the file does not have.`,
        [
          {
            what: `team ${team.teamNumber} (${team.name}) lists start number ${missing}, which has no 001 record`,
            where: f.fileName,
            fix: "correct the team record's start numbers or add the player",
          },
        ],
        EXIT.trf,
      );
    }
  }
  const { declared, boardColours: _colours, ...event } = records;
  return { event: { ...event, primary, tiebreaks }, declared };
}

/** Differences between the 310 records' published values and the computed team standings. */
export function declaredTeamMismatches(
  t: Tournament,
  declared: readonly DeclaredTeam[],
  afterRound: number,
): string[] {
  if (!t.team) return [];
  const s = teamStandings(t, t.team, afterRound, {
    rules: t.tiebreakRules,
    practice: t.tiebreakPractice,
    system: t.system,
  });
  const rows = new Map(s.rows.map((r) => [r.teamNumber, r]));
  return declared.flatMap((d) => {
    const r = rows.get(d.teamNumber);
    if (!r) return [];
    const out: string[] = [];
    if (d.matchPoints !== null && d.matchPoints !== r.matchPoints)
      out.push(
        `team ${d.teamNumber}: declared match points ${d.matchPoints}, computed ${r.matchPoints} (line ${d.line})`,
      );
    if (d.gamePoints !== null && d.gamePoints !== r.gamePoints)
      out.push(
        `team ${d.teamNumber}: declared game points ${d.gamePoints}, computed ${r.gamePoints} (line ${d.line})`,
      );
    return out;
  });
}
