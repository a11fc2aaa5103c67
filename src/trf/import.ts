// `build-api import-trf`: reads a TRF file and writes the tournament, its players, rounds and games
// into an existing store, in one transaction: a failed import leaves the store as it was. Checks
// the points and ranks written in the file against the standings computed from the games.
import { existsSync, readFileSync } from "node:fs";
import { basename } from "node:path";
import Database from "better-sqlite3";
import { BuildError, EXIT } from "../shared/errors.ts";
import type { Scoring, TiebreakPractice, TiebreakRuleSet, Tournament } from "../domain/types.ts";
import { validateTiebreaks } from "../domain/tiebreaks/acronyms.ts";
import { STORE_SCHEMA_VERSION } from "../store/schema.ts";
import { StoreWriter, writeTournament } from "../store/write/writer.ts";
import { parseTrf, type TrfFile } from "./parse.ts";
import { convertTrf, type UnknownCell } from "./to-tournament.ts";
import { scoringFromTrf } from "./scoring.ts";
import { checkDeclaredStandings, type DeclaredMismatch } from "./check.ts";
import { tiebreaksFromTrfHeader } from "./tiebreak-codes.ts";

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
  /** Import games whose result codes are unknown or contradict each other, as Unknown. */
  allowUnknownResults?: boolean;
  /** The tournament's page at the original results source (TRF files carry no URL). */
  sourceUrl: string;
  now: string;
}

export interface ImportReport {
  externalId: bigint;
  name: string;
  players: number;
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
}

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

/** Team tournaments (TRF `310` team records) have no place in the API: refused with exit 9. */
function refuseTeamFile(f: TrfFile): void {
  const teams = (f.headers.get("310") ?? []).length;
  if (teams === 0) return;
  throw new BuildError(
    `Cannot import the TRF file ${f.fileName}: it is a team tournament.`,
    [
      {
        what:
          `the file has ${teams} team record(s) (310); the Public Tournament Read API has no team ` +
          "concept (no teams, matches or match points), so its standings would be wrong",
        where: f.fileName,
        fix: "import individual tournaments only",
      },
    ],
    EXIT.trf,
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
  if (!existsSync(opts.file)) throw usage(`TRF file ${opts.file} does not exist`);
  if (!/^https?:\/\/[^\s/]+/.test(opts.sourceUrl)) {
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
  const text = readFileSync(opts.file, "utf8");
  const parsed = parseTrf(text, basename(opts.file));
  refuseTeamFile(parsed);
  const warnings: string[] = [];
  const tiebreaks = chooseTiebreaks(parsed, opts.tiebreaks, warnings);
  const rules = opts.rules ?? "fide-2023";
  const scoring = scoringFromTrf(parsed, warnings);
  const conversion = convertTrf(parsed, {
    externalId: opts.externalId,
    tiebreaks,
    rules,
    practice: opts.practice ?? null,
    now: opts.now,
    sourceUrl: opts.sourceUrl,
    ...(scoring ? { scoring } : {}),
  });
  warnings.push(...conversion.warnings);
  refuseUnknownResults(parsed, conversion.unknown, opts.allowUnknownResults === true);
  const t = conversion.tournament;
  const check = checkDeclaredStandings(parsed, t);

  let db: Database.Database;
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
    const version = db.pragma("user_version", { simple: true }) as number;
    if (version !== STORE_SCHEMA_VERSION) {
      throw new BuildError(
        `Cannot import into ${opts.db}: store schema version ${version}, expected ${STORE_SCHEMA_VERSION}.`,
        version === 1 || version === 2
          ? [
              {
                what: `a version ${version} store`,
                where: opts.db,
                fix: `run \`build-api upgrade-store ${opts.db}\` first`,
              },
            ]
          : [],
        EXIT.storeSchema,
      );
    }
    db.transaction(() => writeImported(db, t, opts))();
  } finally {
    db.close();
  }

  const games = t.rounds.reduce((n, r) => n + r.games.filter((g) => g.result !== "Bye").length, 0);
  const byes = t.rounds.reduce((n, r) => n + r.games.filter((g) => g.result === "Bye").length, 0);
  return {
    externalId: t.externalId,
    name: t.name,
    players: t.players.length,
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
  };
}

/** Writes the tournament through the store's one writer (named columns, src/store/write/writer.ts). */
function writeImported(db: Database.Database, t: Tournament, opts: ImportTrfOptions): void {
  const w = new StoreWriter(db);
  if (w.tournamentIdOf(t.externalId) !== null) {
    throw usage(
      `the store already holds a tournament with external id ${t.externalId}`,
      "choose another --id",
    );
  }
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
  writeTournament(w, t, {
    ...(opts.publish ? { publishedAt: opts.now } : {}),
    ...(clubId !== undefined ? { clubId } : {}),
  });
}
