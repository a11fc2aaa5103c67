// `build-api import-trf`: reads a TRF file and writes the tournament, its players, rounds and games
// into an existing store, in one transaction: a failed import leaves the store as it was. Checks
// the points and ranks written in the file against the standings computed from the games.
import { existsSync } from "node:fs";
import { basename } from "node:path";
import Database from "better-sqlite3";
import { BuildError, EXIT, type Problem } from "../shared/errors.ts";
import type { Scoring, TiebreakPractice, TiebreakRuleSet, Tournament } from "../domain/types.ts";
import { validateTiebreaks } from "../domain/tiebreaks/acronyms.ts";
import { StoreWriter, writeTournament } from "../store/write/writer.ts";
import { updateTournament, type TournamentChanges } from "../store/write/update.ts";
import { tournamentProblems } from "../store/write/verify.ts";
import { requireWritableVersion } from "../store/write/version.ts";
import { regularFile } from "../shared/files.ts";
import { parseTrf, type TrfFile } from "./parse.ts";
import { readTrfFile } from "./read-file.ts";
import { convertTrf, type UnknownCell } from "./to-tournament.ts";
import { scoringFromTrf } from "./scoring.ts";
import { checkDeclaredStandings, type DeclaredMismatch } from "./check.ts";
import { tiebreaksFromTrfHeader } from "./tiebreak-codes.ts";
import { SCHEDULE_TEXT, scheduleWarnings, type RoundTimes } from "./schedule.ts";
import { checkGivenRounds, followRow, FOLLOW_TEXT, keepFollowing, storedTotalRounds } from "./follow.ts";
import { declaredTeamMismatches, teamEventOf } from "./team-import.ts";
import type { PrimaryScore } from "../domain/teams/types.ts";

export interface ImportTrfOptions {
  file: string;
  db: string;
  externalId: bigint;
  tiebreaks?: string[];
  rules?: TiebreakRuleSet;
  /** The program whose known tie-break practice to follow; default: the written rules. */
  practice?: TiebreakPractice | null;
  publish?: boolean;
  club?: string;
  /** Refuse the file (nothing written) when its declared points or ranks are not reproduced. */
  strict?: boolean;
  /** Import games whose result codes are unknown or contradict each other, as Unknown. */
  allowUnknownResults?: boolean;
  /** The tournament's page at the original results source (TRF files carry no URL). Required for
   * a new tournament; a re-import keeps the stored one when it is not given. */
  sourceUrl?: string;
  /** Team events: the team tie-breaks after the primary score (C.07 team acronyms). */
  teamTiebreaks?: string[];
  /** Team events: what ranks the teams first (default match points). */
  primaryScore?: PrimaryScore;
  /** Announced round start times (`--round-time`); TRF files carry none. */
  roundTimes?: RoundTimes;
  /** The number of rounds when the file has no XXR record (`--rounds`); a re-import keeps it. */
  rounds?: number;
  /** Follow the event (`--follow`): tracking on, the next import expected this many minutes on. */
  followMinutes?: number;
  now: string;
}

export interface ImportReport {
  externalId: bigint;
  name: string;
  players: number;
  /** Teams of a team event (TRF 310 / 013 records); 0 for an individual event. */
  teams: number;
  rounds: number;
  games: number;
  byes: number;
  tiebreaks: string[];
  rules: TiebreakRuleSet;
  practice: TiebreakPractice | null;
  /** Points per outcome: from the file's 162 / XXS records, else 1 / ½ / 0. */
  scoring: Scoring;
  /** Games stored as Unknown (only with allowUnknownResults), by round and board. */
  unknownResults: UnknownCell[];
  /** The round the file's points were checked after (the last round with games), or null. */
  checkedAfterRound: number | null;
  /** Points and ranks written in the file that the computation does not reproduce. */
  mismatches: DeclaredMismatch[];
  warnings: string[];
  published: boolean;
  club: string | null;
  /** "created" (a new tournament), "updated" (it was stored: updated in place), or "unchanged"
   * (stored, and the file changed nothing but the retrieval times). */
  action: "created" | "updated" | "unchanged";
  /** What the re-import changed; null for a new tournament. */
  changes: TournamentChanges | null;
}

/** The import's own warnings, in one place. */
const IMPORT_TEXT = {
  noTiebreaks: (file: string) =>
    `${file} names no tie-breaks (no usable record 202) and --tiebreaks was not given: players level ` +
    'on points share a rank (such as "13-16"); pass the event\'s tie-breaks in order, e.g. ' +
    "--tiebreaks BH-C1,BH,SB (a re-import keeps them)",
} as const;

function usage(what: string, fix?: string): BuildError {
  return new BuildError("Cannot import the TRF file.", [fix ? { what, fix } : { what }], EXIT.usage);
}

function chooseTiebreaks(f: TrfFile, given: string[] | undefined, warnings: string[]): string[] {
  if (given) {
    const problems = validateTiebreaks(given);
    if (problems.length > 0) {
      throw new BuildError(
        "Cannot import the TRF file: the tie-break list is invalid.",
        problems.map((what) => ({ what, where: "--tiebreaks" })),
        EXIT.usage,
      );
    }
    return given;
  }
  const fromHeader = tiebreaksFromTrfHeader(f);
  warnings.push(...fromHeader.warnings);
  return fromHeader.tiebreaks;
}

/** `--round-time` entries that found no round date to go with. */
function droppedTimes(times: RoundTimes | undefined, t: Tournament): string[] {
  if (!times) return [];
  if (t.schedule.length === 0) return [SCHEDULE_TEXT.timesDropped];
  return [...times.byRound.keys()]
    .filter((round) => !t.schedule.some((r) => r.roundNumber === round))
    .map(SCHEDULE_TEXT.timeDropped);
}

/**
 * A store upgraded from version 3 or 4 keeps the CHECK its tiebreak_practice column was made with
 * (SQLite cannot change it in place), which knows only swiss-manager and vega.
 */
function requirePracticeColumn(db: Database.Database, file: string, practice: TiebreakPractice | null): void {
  if (practice === null) return;
  const ddl = String(
    db.prepare("SELECT sql FROM sqlite_schema WHERE name = 'tournaments'").pluck().get() ?? "",
  );
  // Only a CHECK that lists the practices and misses this one refuses it.
  if (!/tiebreak_practice\s+IN\s*\(/i.test(ddl) || ddl.includes(`'${practice}'`)) return;
  throw new BuildError(
    `Cannot import into ${file}: its tournaments table does not accept the practice ${practice}.`,
    [
      {
        what: "the store was made before this practice existed; its tiebreak_practice CHECK lists the earlier ones",
        where: `${file}: table tournaments, column tiebreak_practice`,
        fix: "create a new store with build-api init-store and import into it, or import with another --practice",
      },
    ],
    EXIT.usage,
  );
}

/** Unknown or contradicting result codes stop the standings at the round before: refused unless
 * allowed, each named by round, board and line. */
function refuseUnknownResults(f: TrfFile, unknown: UnknownCell[], allowed: boolean): void {
  if (unknown.length === 0 || allowed) return;
  throw new BuildError(
    `Cannot import the TRF file ${f.fileName}: ${unknown.length} game result(s) not recognized.`,
    unknown.map((u) => ({
      what:
        `round ${u.round}, board ${u.board} (player${u.players.length > 1 ? "s" : ""} ` +
        `${u.players.join(" and ")}): result codes ${u.codes} are not a result`,
      where: `${f.fileName}:${u.line}:${u.column}`,
      fix:
        "correct the codes (1 0 = W L D + - U F H Z), or pass --allow-unknown-results to import " +
        "the game as Unknown (the standings then stop before its round)",
    })),
    EXIT.trf,
  );
}

/** Imports a TRF file into a store. Throws a BuildError; the store is unchanged on failure. */
export function importTrf(opts: ImportTrfOptions): ImportReport {
  // A regular file, bounded, decoded (UTF-8 or Windows-1252): see read-file.ts.
  const read = readTrfFile(opts.file, basename(opts.file));
  if (opts.sourceUrl !== undefined && !/^https?:\/\/[^\s/]+/.test(opts.sourceUrl)) {
    throw usage(
      `--source-url ${JSON.stringify(opts.sourceUrl)} is not an absolute http(s) URL`,
      "pass the tournament's page at the results source, e.g. https://chess-results.com/tnr123456.aspx",
    );
  }
  if (!existsSync(opts.db)) {
    throw new BuildError(
      `Cannot import into ${opts.db}: the store does not exist.`,
      [{ what: "the store file is missing", where: opts.db, fix: "create it with build-api init-store" }],
      EXIT.storeUnreadable,
    );
  }
  regularFile(opts.db, "the store", EXIT.storeUnreadable, "create it with build-api init-store");
  const parsed = parseTrf(read.text, basename(opts.file));
  const warnings: string[] = [...read.warnings];
  const tiebreaks = chooseTiebreaks(parsed, opts.tiebreaks, warnings);
  checkGivenRounds(parsed, opts.rounds);
  const rules = opts.rules ?? "fide-2023";
  const scoring = scoringFromTrf(parsed, warnings);
  const conversion = convertTrf(parsed, {
    externalId: opts.externalId,
    tiebreaks,
    rules,
    practice: opts.practice ?? null,
    now: opts.now,
    ...(opts.sourceUrl !== undefined ? { sourceUrl: opts.sourceUrl } : {}),
    ...(scoring ? { scoring } : {}),
    ...(opts.roundTimes ? { roundTimes: opts.roundTimes } : {}),
    ...(opts.rounds !== undefined ? { totalRounds: opts.rounds } : {}),
  });
  warnings.push(...scheduleWarnings(parsed, conversion.tournament.startDate, conversion.tournament.endDate));
  warnings.push(...droppedTimes(opts.roundTimes, conversion.tournament));
  // On a re-import, what neither the options nor the file say keeps its stored value.
  const keep = new Set<string>();
  if (opts.tiebreaks === undefined && tiebreaks.length === 0) keep.add("tiebreaks");
  if (opts.rules === undefined) keep.add("tiebreak_rules");
  if (!scoring) for (const c of POINTS_COLUMNS) keep.add(c);
  if (opts.sourceUrl === undefined) keep.add("source_url");
  warnings.push(...conversion.warnings);
  refuseUnknownResults(parsed, conversion.unknown, opts.allowUnknownResults === true);
  const team = teamEventOf(read.text, parsed, opts, warnings);
  const t = team ? { ...conversion.tournament, team: team.event } : conversion.tournament;
  const check = checkDeclaredStandings(parsed, t);
  if (team && check.afterRound !== null)
    warnings.push(...declaredTeamMismatches(t, team.declared, check.afterRound));
  if (opts.strict && check.mismatches.length > 0) {
    throw new BuildError(
      `Cannot import the TRF file ${parsed.fileName} (--strict): ${check.mismatches.length} declared value(s) are not reproduced.`,
      check.mismatches.map((m) => ({
        what: `player ${m.player} (${m.name}): declared ${m.field} ${m.declared}, computed ${m.computed}`,
        where: `${parsed.fileName}:${parsed.players.find((p) => p.startNo === m.player)?.line ?? 1}`,
        fix: "check the results, the scoring (162 / XXS records) and the tie-breaks, or import without --strict",
      })),
      EXIT.trf,
    );
  }

  let db: Database.Database;
  let written: TournamentChanges | null = null;
  try {
    db = new Database(opts.db, { fileMustExist: true });
  } catch (e) {
    throw new BuildError(
      `Cannot open the store ${opts.db}.`,
      [{ what: (e as Error).message, where: opts.db }],
      EXIT.storeUnreadable,
    );
  }
  try {
    requireWritableVersion(db, opts.db, "import into");
    requirePracticeColumn(db, opts.db, t.tiebreakPractice);
    written = db.transaction(() => writeImported(db, t, opts, keep, parsed, warnings))();
  } finally {
    db.close();
  }

  const games = t.rounds.reduce((n, r) => n + r.games.filter((g) => g.result !== "Bye").length, 0);
  const byes = t.rounds.reduce((n, r) => n + r.games.filter((g) => g.result === "Bye").length, 0);
  return {
    externalId: t.externalId,
    name: t.name,
    players: t.players.length,
    teams: t.team?.teams.length ?? 0,
    rounds: t.rounds.length,
    games,
    byes,
    tiebreaks,
    rules,
    practice: t.tiebreakPractice,
    scoring: t.scoring,
    unknownResults: conversion.unknown,
    checkedAfterRound: check.afterRound,
    mismatches: check.mismatches,
    warnings,
    published: opts.publish === true,
    club: opts.club ?? null,
    action: written === null ? "created" : written.changed ? "updated" : "unchanged",
    changes: written,
  };
}

const POINTS_COLUMNS = [
  "points_win",
  "points_draw",
  "points_loss",
  "points_forfeit_win",
  "points_forfeit_loss",
  "points_pairing_bye",
  "points_full_bye",
  "points_half_bye",
  "points_zero_bye",
];

/** The TRF record a tournaments column comes from, for messages. */
const HEADER_OF_COLUMN: Record<string, string> = {
  name: "012",
  location: "022",
  federation: "032",
  start_date: "042",
  end_date: "052",
  tournament_type: "092",
  chief_arbiter: "102",
  deputy_chief_arbiter: "112",
  time_control: "122 (or 222)",
  total_rounds: "XXR",
};

/** Values every build would refuse (the build's own checks, run on the written rows) stop the
 * import: the transaction rolls back. Each problem names the TRF line or record it comes from. */
function refuseUnpublishable(f: TrfFile, problems: Problem[]): void {
  if (problems.length === 0) return;
  const lineOf = new Map(f.players.map((p) => [p.startNo, p.line]));
  throw new BuildError(
    `Cannot import the TRF file ${f.fileName}: it holds values that every build would refuse; nothing was written.`,
    problems.map((p) => {
      const player =
        /table (?:players|games), row \(tournament_id=\d+, (?:source_player_number|round_number)=(\d+)/.exec(
          p.where ?? "",
        );
      const column = /table tournaments, .*column (\w+)$/.exec(p.where ?? "")?.[1];
      const from =
        player && /table players/.test(p.where ?? "") && lineOf.has(Number(player[1]))
          ? `${f.fileName}:${lineOf.get(Number(player[1]))} (player ${player[1]})`
          : column && HEADER_OF_COLUMN[column]
            ? `${f.fileName}: record ${HEADER_OF_COLUMN[column]}`
            : f.fileName;
      return {
        ...p,
        where: `${from}; stored as ${p.where}`,
        fix: `correct the file (${p.fix ?? "see above"})`,
      };
    }),
    EXIT.trf,
  );
}

/** Writes the tournament through the store's one writer (named columns, src/store/write/writer.ts):
 * a new one whole, a stored one updated in place (src/store/write/update.ts). Returns the changes
 * of an update, null for a new tournament. */
function writeImported(
  db: Database.Database,
  t: Tournament,
  opts: ImportTrfOptions,
  keep: ReadonlySet<string>,
  parsed: TrfFile,
  warnings: string[],
): TournamentChanges | null {
  const w = new StoreWriter(db);
  let clubId: number | bigint | undefined;
  if (opts.club !== undefined) {
    const found = w.clubIdOf(opts.club);
    if (found === null) {
      throw usage(
        `no club with slug "${opts.club}" in the store`,
        "create it first (build-api add-club <slug> --db <store> --name <name>) or fix --club",
      );
    }
    clubId = found;
  }
  const existing = w.tournamentIdOf(t.externalId);
  if (existing === null) {
    if (opts.sourceUrl === undefined) {
      throw usage(
        `the store holds no tournament with external id ${t.externalId}, and a new one needs --source-url`,
        "pass the tournament's page at the results source, e.g. --source-url https://chess-results.com/tnr123456.aspx",
      );
    }
    const id = writeTournament(w, t, {
      ...(opts.publish ? { publishedAt: opts.now } : {}),
      ...(clubId !== undefined ? { clubId } : {}),
    });
    if (opts.followMinutes !== undefined)
      w.update("tournaments", { tournament_id: id }, followRow(opts.now, opts.followMinutes * 60));
    if (t.totalRounds === null) warnings.push(FOLLOW_TEXT.noTotal(parsed.fileName));
    if (t.tiebreaks.length === 0) warnings.push(IMPORT_TEXT.noTiebreaks(parsed.fileName));
    refuseUnpublishable(parsed, tournamentProblems(db, opts.db, id));
    return null;
  }
  const changes = updateTournament(w, existing, t, opts.now, keep);
  keepFollowing(w, existing, opts.now, opts.followMinutes);
  if (t.totalRounds === null && !storedTotalRounds(w, existing))
    warnings.push(FOLLOW_TEXT.noTotal(parsed.fileName));
  const [stored] = w.select("tournaments", ["tiebreaks"], { tournament_id: existing });
  if (t.tiebreaks.length === 0 && !stored?.["tiebreaks"])
    warnings.push(IMPORT_TEXT.noTiebreaks(parsed.fileName));
  refuseUnpublishable(parsed, tournamentProblems(db, opts.db, existing));
  // Publication and catalogs are only ever added by a re-import, never taken away.
  if (opts.publish && w.select("publications", ["tournament_id"], { tournament_id: existing }).length === 0) {
    w.insert("publications", { tournament_id: existing, published_at: opts.now });
  }
  if (
    clubId !== undefined &&
    w.select("club_tournaments", ["tournament_id"], { club_id: clubId, tournament_id: existing }).length === 0
  ) {
    w.insert("club_tournaments", {
      club_id: clubId,
      tournament_id: existing,
      display_order: w.nextDisplayOrder(clubId),
    });
  }
  return changes;
}
