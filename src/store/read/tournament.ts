// One tournament's rows, checked cell by cell and assembled into the domain's PublishedTournament.
// Every problem in the rows is collected; the tournament is handed over only when there is none.
import type { Problem } from "../../shared/errors.ts";
import { normalizeGameResult, resultDisplayText, type NormalizedResult } from "../../domain/results.ts";
import { validateTiebreaks } from "../../domain/tiebreaks/acronyms.ts";
import {
  BYE_KINDS,
  GAME_RESULTS,
  PAIRING_SYSTEMS,
  RECAP_KINDS,
  TIEBREAK_PRACTICES,
  TIEBREAK_RULE_SETS,
  type Game,
  type Player,
  type PublishedTournament,
  type Recap,
  type Round,
  type ScheduledRound,
  type SourceStandingRow,
  type SourceStandings,
  type Tournament,
} from "../../domain/types.ts";
import { RowCheck, showValue, type SqlCells, type SqlRow } from "./cells.ts";
import { DATE_FORMAT, HTTP_URL_FORMAT, LOCAL_TIME_FORMAT, TIMESTAMP_FORMAT, isIsoDate } from "../formats.ts";
import {
  MAX_BOARD,
  MAX_NAME_LENGTH,
  MAX_PARAGRAPHS,
  MAX_PLAYER_NUMBER,
  MAX_POINTS,
  MAX_POINTS_PER_GAME,
  MAX_RATING,
  MAX_ROUND,
  MAX_TEXT_LENGTH,
  MAX_TIEBREAK_COLUMNS,
} from "../limits.ts";
import { isValidSegment } from "../../shared/segments.ts";
import { readTeamEvent, type TeamRows } from "./teams.ts";

/** Everything the store holds about one tournament, as fetched by a few indexed queries. */
// Rows of a whole table are raw cells in the order of selectAll(table); the others are objects.
export interface TournamentRows extends TeamRows {
  tournament: SqlRow;
  /** round_schedule rows ordered by round_number (none before store version 3). */
  schedule: SqlCells[];
  /** Ordered by source_player_number. */
  players: SqlCells[];
  /** Ordered by round_number. */
  rounds: SqlCells[];
  /** Ordered by round_number, board_number. */
  games: SqlCells[];
  /** (round_number, board_number, n) of boards that occur n > 1 times. */
  duplicateBoards: SqlRow[];
  /** Ordered by after_round. */
  standings: SqlCells[];
  /** Ordered by after_round, rank. */
  standingRows: SqlCells[];
  /** Recaps that are not drafts (is_draft IS NOT 1), ordered by recap_id. */
  recaps: SqlCells[];
  /** publications LEFT JOIN publication_tags: no row when not published globally. */
  publication: SqlRow[];
  /** Enabled clubs JOIN club_tournaments LEFT JOIN club_tournament_tags, ordered by slug. */
  clubEntries: SqlRow[];
}

const PLAYER_NUMBER = { min: 1, max: MAX_PLAYER_NUMBER };
const ROUND_NUMBER = { min: 1, max: MAX_ROUND };
const RATING = { min: 0, max: MAX_RATING };

/** Turns one tournament's rows into a PublishedTournament, or lists every problem in them. */
export function assembleTournament(
  file: string,
  rows: TournamentRows,
): { value: PublishedTournament | null; problems: Problem[] } {
  const problems: Problem[] = [];
  const t = new RowCheck(file, "tournaments", rows.tournament, ["tournament_id"], problems);
  const isDraft = t.flag("is_draft");
  const published = rows.publication.length > 0 || rows.clubEntries.length > 0;
  if (isDraft || !published) {
    // Guards against a caller passing a row id that publishedTournaments() did not return.
    t.report(
      null,
      isDraft ? "the tournament is a draft" : "the tournament is not published",
      "load only the tournaments publishedTournaments() returns",
    );
    return { value: null, problems };
  }

  const header = tournamentHeader(t);
  const players = readPlayers(file, rows.players, problems);
  const numbers = new Set(players.map((p) => p.sourcePlayerNumber));
  // An invalid total_rounds is reported once; rounds are then not compared with a placeholder.
  const totalRounds = t.failed("total_rounds") ? null : header.totalRounds;
  const rounds = readRounds(file, rows, totalRounds, numbers, problems);
  const schedule = readSchedule(file, rows.schedule, totalRounds, problems);
  const sourceStandings = readStandings(file, rows, totalRounds, numbers, problems);
  const recaps = readRecaps(file, rows.recaps, totalRounds, problems);
  const globalTags = readGlobalTags(file, rows.publication, problems);
  const clubs = readClubEntries(file, rows.clubEntries, problems);
  const team = readTeamEvent(file, rows, numbers, totalRounds, problems);
  if (problems.length > 0) return { value: null, problems };

  const tournament: Tournament = {
    ...header,
    players,
    rounds,
    schedule,
    sourceStandings,
    recaps,
    ...(team && { team }),
  };
  return { value: { tournament, globalTags, clubs }, problems };
}

type Header = Omit<Tournament, "players" | "rounds" | "schedule" | "sourceStandings" | "recaps" | "team">;

// Columns are read in schema order, so problems come out in the order of the table.
function tournamentHeader(t: RowCheck<"tournaments">): Header {
  const header: Header = {
    // A path segment of every tournament URL: safe-path refuses a leading "-".
    externalId: t.int64("external_id", 0n),
    sourceUrl: t.text("source_url", { format: HTTP_URL_FORMAT }),
    name: t.text("name"),
    location: t.optText("location"),
    federation: t.optText("federation"),
    organizer: t.optText("organizer"),
    tournamentDirector: t.optText("tournament_director"),
    chiefArbiter: t.optText("chief_arbiter"),
    deputyChiefArbiter: t.optText("deputy_chief_arbiter"),
    arbiters: t.optText("arbiters"),
    timeControl: t.optText("time_control"),
    tournamentType: t.optText("tournament_type"),
    ratingCalculation: t.optText("rating_calculation"),
    fideEventId: t.optInt64("fide_event_id", 1n),
    averageRating: t.optInt32("average_rating", RATING),
    averageAge: t.optInt32("average_age", { min: 0, max: 150 }),
    pairingProgram: t.optText("pairing_program"),
    sourceLastUpdated: t.optText("source_last_updated"),
    sourceCreator: t.optText("source_creator"),
    startDate: t.optText("start_date", { format: DATE_FORMAT }),
    endDate: t.optText("end_date", { format: DATE_FORMAT }),
    totalRounds: t.optInt32("total_rounds", ROUND_NUMBER),
    trackingEnabled: t.flag("tracking_enabled"),
    refreshIntervalSeconds: t.optInt32("refresh_interval_seconds", { min: 1 }),
    nextRefreshAt: t.optText("next_refresh_at", { format: TIMESTAMP_FORMAT }),
    createdAt: t.text("created_at", { format: TIMESTAMP_FORMAT }),
    lastScrapedAt: t.text("last_scraped_at", { format: TIMESTAMP_FORMAT }),
    lastSourceChangeAt: t.optText("last_source_change_at", { format: TIMESTAMP_FORMAT }),
    system: t.choice("pairing_system", PAIRING_SYSTEMS),
    tiebreaks: readTiebreakList(t),
    tiebreakRules: t.choice("tiebreak_rules", TIEBREAK_RULE_SETS),
    tiebreakPractice: t.optChoice("tiebreak_practice", TIEBREAK_PRACTICES),
    scoring: {
      win: t.real("points_win", MAX_POINTS_PER_GAME),
      draw: t.real("points_draw", MAX_POINTS_PER_GAME),
      loss: t.real("points_loss", MAX_POINTS_PER_GAME),
      forfeitWin: t.real("points_forfeit_win", MAX_POINTS_PER_GAME),
      forfeitLoss: t.real("points_forfeit_loss", MAX_POINTS_PER_GAME),
      pairingAllocatedBye: t.real("points_pairing_bye", MAX_POINTS_PER_GAME),
      fullBye: t.real("points_full_bye", MAX_POINTS_PER_GAME),
      halfBye: t.real("points_half_bye", MAX_POINTS_PER_GAME),
      zeroBye: t.real("points_zero_bye", MAX_POINTS_PER_GAME),
    },
  };
  const { startDate, endDate } = header;
  // Placeholders of bad dates are not dates; compare only two real ones.
  if (
    startDate !== null &&
    endDate !== null &&
    isIsoDate(startDate) &&
    isIsoDate(endDate) &&
    endDate < startDate
  ) {
    t.report("end_date", `${endDate} is before start_date ${startDate}`, "correct one of the two dates");
  }
  return header;
}

/** The comma-separated tiebreaks column: "DE,BH-C1,BH"; empty means none. */
function readTiebreakList(t: RowCheck<"tournaments">): string[] {
  const text = t.text("tiebreaks", { allowBlank: true });
  if (text.trim() === "") return [];
  const list = text.split(",").map((s) => s.trim());
  const fix = 'write FIDE C.07 acronyms separated by commas, e.g. "DE,BH-C1,BH"';
  if (list.some((s) => s === "")) {
    t.report("tiebreaks", `has an empty entry in ${JSON.stringify(text)}`, fix);
    return [];
  }
  if (list.length > MAX_TIEBREAK_COLUMNS) {
    t.report("tiebreaks", `lists ${list.length} tie-breaks, more than ${MAX_TIEBREAK_COLUMNS}`, fix);
    return [];
  }
  for (const message of validateTiebreaks(list)) t.report("tiebreaks", message, fix);
  return list;
}

function readPlayers(file: string, rows: SqlCells[], problems: Problem[]): Player[] {
  const players: Player[] = [];
  let previous: number | null = null;
  for (const row of rows) {
    const c = new RowCheck(file, "players", row, ["tournament_id", "source_player_number"], problems);
    const number = c.int32("source_player_number", PLAYER_NUMBER);
    if (!c.failed("source_player_number") && number === previous) {
      c.report(null, `player ${number} appears more than once`, "keep one row per player number");
    }
    previous = number;
    players.push({
      sourcePlayerNumber: number,
      startingRank: c.optInt32("starting_rank", PLAYER_NUMBER),
      fideId: c.optInt64("fide_id", 1n),
      name: c.text("name"),
      title: c.optText("title"),
      rating: c.optInt32("rating", RATING),
      nationalRating: c.optInt32("national_rating", RATING),
      federation: c.optText("federation"),
      club: c.optText("club"),
      gender: c.optText("gender"),
      type: c.optText("player_type"),
      group: c.optText("player_group"),
    });
  }
  return players;
}

function readSchedule(
  file: string,
  rows: SqlCells[],
  totalRounds: number | null,
  problems: Problem[],
): ScheduledRound[] {
  const schedule: ScheduledRound[] = [];
  const seen = new Set<number>();
  for (const row of rows) {
    const c = new RowCheck(file, "round_schedule", row, ["tournament_id", "round_number"], problems);
    const number = c.int32("round_number", ROUND_NUMBER);
    if (!c.failed("round_number") && totalRounds !== null && number > totalRounds) {
      c.report(
        "round_number",
        `round ${number} is scheduled beyond total_rounds ${totalRounds} of the tournament`,
        "correct the round number or raise total_rounds in table tournaments",
      );
    }
    if (!c.failed("round_number") && seen.has(number)) {
      c.report(null, `round ${number} is scheduled more than once`, "keep one row per round");
    }
    seen.add(number);
    schedule.push({
      roundNumber: number,
      date: c.optText("scheduled_date", { format: DATE_FORMAT }),
      time: c.optText("scheduled_time", { format: LOCAL_TIME_FORMAT }),
    });
  }
  return schedule;
}

function readRounds(
  file: string,
  rows: TournamentRows,
  totalRounds: number | null,
  players: Set<number>,
  problems: Problem[],
): Round[] {
  const rounds: Round[] = [];
  const byNumber = new Map<number, Round>();
  for (const row of rows.rounds) {
    const c = new RowCheck(file, "rounds", row, ["tournament_id", "round_number"], problems);
    const number = c.int32("round_number", ROUND_NUMBER);
    if (!c.failed("round_number") && totalRounds !== null && number > totalRounds) {
      c.report(
        "round_number",
        `round ${number} is beyond total_rounds ${totalRounds} of the tournament`,
        "correct the round number or raise total_rounds in table tournaments",
      );
    }
    if (!c.failed("round_number") && byNumber.has(number)) {
      c.report(null, `round ${number} appears more than once`, "keep one row per round");
    }
    const round: Round = {
      roundNumber: number,
      firstScrapedAt: c.text("first_scraped_at", { format: TIMESTAMP_FORMAT }),
      lastScrapedAt: c.text("last_scraped_at", { format: TIMESTAMP_FORMAT }),
      lastSourceChangeAt: c.optText("last_source_change_at", { format: TIMESTAMP_FORMAT }),
      games: [],
    };
    if (!byNumber.has(number)) byNumber.set(number, round);
    rounds.push(round);
  }

  for (const dup of rows.duplicateBoards) {
    const c = new RowCheck(file, "games", dup, ["tournament_id", "round_number", "board_number"], problems);
    c.report(
      "board_number",
      `board ${showValue(c.value("board_number"))} occurs ${showValue(dup["n"] ?? null)} times in round ${showValue(c.value("round_number"))}`,
      "give every board of a round its own number",
    );
  }

  // Which board each player already sits at, per round: a player plays at most once a round.
  const seated = new Map<number, Map<number, number>>();
  const results = new ResultMemo();
  for (const row of rows.games) {
    const c = new RowCheck(file, "games", row, ["tournament_id", "round_number", "board_number"], problems);
    const roundNumber = c.int32("round_number", ROUND_NUMBER);
    const game = readGame(c, players, results);
    const round = byNumber.get(roundNumber);
    if (!round) {
      if (!c.failed("round_number")) {
        c.report(
          "round_number",
          `round ${roundNumber} does not exist in the tournament (no row in table rounds)`,
          "add the round to table rounds or correct the round number",
        );
      }
      continue;
    }
    let seats = seated.get(roundNumber);
    if (!seats) seated.set(roundNumber, (seats = new Map()));
    if (!c.failed("board_number")) {
      seat(c, seats, "white_player_number", game.whitePlayerNumber, game.boardNumber, roundNumber);
      seat(c, seats, "black_player_number", game.blackPlayerNumber, game.boardNumber, roundNumber);
    }
    round.games.push(game);
  }
  return rounds;
}

/** Seats `player` at `board` of the round, or reports the board where the round already has them. */
function seat(
  c: RowCheck<"games">,
  seats: Map<number, number>,
  column: "white_player_number" | "black_player_number",
  player: number | null,
  board: number,
  roundNumber: number,
): void {
  if (player === null || c.failed(column)) return;
  const other = seats.get(player);
  if (other !== undefined && other !== board) {
    c.report(
      column,
      `player ${player} also plays on board ${other} of round ${roundNumber}`,
      "a player has one game per round: remove or correct one of the pairings",
    );
  } else {
    seats.set(player, board);
  }
}

/** normalizeGameResult of the raw results of one tournament's games, each worked out once: a
 * tournament has a handful of distinct ones. Its value depends on raw and which players are set. */
class ResultMemo {
  private readonly bySides = [
    new Map<string, NormalizedResult>(),
    new Map<string, NormalizedResult>(),
    new Map<string, NormalizedResult>(),
    new Map<string, NormalizedResult>(),
  ];

  normalize(raw: string | null, hasWhite: boolean, hasBlack: boolean): NormalizedResult {
    const memo = this.bySides[(hasWhite ? 2 : 0) + (hasBlack ? 1 : 0)]!;
    // normalizeGameResult reads a NULL raw as "".
    const key = raw ?? "";
    let result = memo.get(key);
    if (result === undefined) memo.set(key, (result = normalizeGameResult({ raw, hasWhite, hasBlack })));
    return result;
  }
}

const BOARD_NUMBER = { min: 1, max: MAX_BOARD };

function readGame(c: RowCheck<"games">, players: Set<number>, results: ResultMemo): Game {
  const board = c.int32("board_number", BOARD_NUMBER);
  const white = c.optInt32("white_player_number", PLAYER_NUMBER);
  const black = c.optInt32("black_player_number", PLAYER_NUMBER);
  if (white !== null && !players.has(white)) unknownPlayer(c, "white_player_number", white);
  if (black !== null && !players.has(black)) unknownPlayer(c, "black_player_number", black);
  if (white !== null && white === black && !c.failed("white_player_number")) {
    c.report(
      "black_player_number",
      `white and black are both player ${white}`,
      "correct one of the two numbers",
    );
  }
  const rawResult = c.optText("raw_result", { allowBlank: true });
  const stored = c.optChoice("result", GAME_RESULTS);
  const storedByeKind = c.optChoice("bye_kind", BYE_KINDS);
  const hasWhite = white !== null;
  const hasBlack = black !== null;
  // The stored result wins; raw_result is normalized only when result is NULL. An explicit
  // bye_kind wins over the one read from raw_result.
  const normalized = results.normalize(rawResult, hasWhite, hasBlack);
  const result = stored ?? normalized.result;
  let byeKind = null;
  if (result === "Bye") {
    byeKind = storedByeKind ?? normalized.byeKind ?? "pab";
    if (stored === "Bye" && hasWhite === hasBlack) {
      c.report(
        "result",
        "is Bye but a bye row has exactly one player",
        "set one player, or correct the result",
      );
    }
  } else if (storedByeKind !== null) {
    c.report(
      "bye_kind",
      `is ${storedByeKind} but the result is ${result}, not Bye`,
      "clear bye_kind or correct the result",
    );
  }
  // The raw text's own display text when it agrees with the stored result (a double loss
  // "0 - 0" stored as DoubleForfeit keeps its text), else the stored result's.
  const agrees = normalized.result === result && normalized.byeKind === byeKind;
  const resultText =
    (stored === null && storedByeKind === null) || agrees
      ? normalized.text
      : resultDisplayText(result, byeKind);
  return {
    boardNumber: board,
    whitePlayerNumber: white,
    blackPlayerNumber: black,
    result,
    resultText,
    rawResult,
    byeKind,
    provisionalPoints: c.optReal("provisional_points", MAX_POINTS),
    firstSeenAt: c.text("first_seen_at", { format: TIMESTAMP_FORMAT }),
    lastSeenAt: c.text("last_seen_at", { format: TIMESTAMP_FORMAT }),
    resultChangedAt: c.optText("result_changed_at", { format: TIMESTAMP_FORMAT }),
  };
}

function unknownPlayer(
  c: RowCheck<"games">,
  column: "white_player_number" | "black_player_number",
  player: number,
): void {
  if (c.failed(column)) return;
  c.report(
    column,
    `player ${player} does not exist in tournament ${showValue(c.value("tournament_id"))}`,
    "add the player or correct the number",
  );
}

function readStandings(
  file: string,
  rows: TournamentRows,
  totalRounds: number | null,
  players: Set<number>,
  problems: Problem[],
): SourceStandings[] {
  const list: SourceStandings[] = [];
  const byRound = new Map<number, SourceStandings>();
  // Headers whose labels could not be read: their rows are not compared with them (no echo).
  const badHeaders = new Set<SourceStandings>();
  for (const row of rows.standings) {
    const c = new RowCheck(file, "source_standings", row, ["tournament_id", "after_round"], problems);
    const afterRound = c.int32("after_round", ROUND_NUMBER);
    if (!c.failed("after_round") && totalRounds !== null && afterRound > totalRounds) {
      c.report(
        "after_round",
        `round ${afterRound} is beyond total_rounds ${totalRounds} of the tournament`,
        "correct the round number or raise total_rounds in table tournaments",
      );
    }
    if (!c.failed("after_round") && byRound.has(afterRound)) {
      c.report(null, `standings after round ${afterRound} appear more than once`, "keep one row per round");
    }
    const standings: SourceStandings = {
      afterRound,
      retrievedAt: c.text("retrieved_at", { format: TIMESTAMP_FORMAT }),
      tieBreakLabels: c.jsonStrings("tie_break_labels", MAX_TIEBREAK_COLUMNS, MAX_NAME_LENGTH),
      rows: [],
    };
    if (!byRound.has(afterRound)) byRound.set(afterRound, standings);
    if (c.failed("tie_break_labels")) badHeaders.add(standings);
    list.push(standings);
  }

  const seen = new Set<string>();
  for (const row of rows.standingRows) {
    const c = new RowCheck(
      file,
      "source_standing_rows",
      row,
      ["tournament_id", "after_round", "source_player_number"],
      problems,
    );
    const afterRound = c.int32("after_round", ROUND_NUMBER);
    const player = c.int32("source_player_number", PLAYER_NUMBER);
    const standingRow: SourceStandingRow = {
      rank: c.int32("rank", PLAYER_NUMBER),
      sourcePlayerNumber: player,
      name: c.text("name"),
      title: c.optText("title"),
      internationalRating: c.optInt32("international_rating", RATING),
      nationalRating: c.optInt32("national_rating", RATING),
      gender: c.optText("gender"),
      type: c.optText("player_type"),
      group: c.optText("player_group"),
      federation: c.optText("federation"),
      club: c.optText("club"),
      points: c.optReal("points", MAX_POINTS),
      tieBreakValues: c.jsonStrings("tie_break_values", MAX_TIEBREAK_COLUMNS, MAX_NAME_LENGTH),
    };
    if (c.failed("after_round")) continue;
    const standings = byRound.get(afterRound);
    if (!standings) {
      c.report(
        "after_round",
        `standings after round ${afterRound} do not exist (no row in table source_standings)`,
        "add the standings header or correct after_round",
      );
      continue;
    }
    if (c.failed("source_player_number")) continue;
    if (!players.has(player)) {
      c.report(
        "source_player_number",
        `player ${player} does not exist in the tournament`,
        "add the player or correct the number",
      );
    }
    const key = `${afterRound}/${player}`;
    if (seen.has(key)) {
      c.report(
        null,
        `player ${player} appears more than once in the standings after round ${afterRound}`,
        "keep one row per player",
      );
    }
    seen.add(key);
    const labels = standings.tieBreakLabels.length;
    if (
      !badHeaders.has(standings) &&
      !c.failed("tie_break_values") &&
      standingRow.tieBreakValues.length !== labels
    ) {
      c.report(
        "tie_break_values",
        `has ${standingRow.tieBreakValues.length} values but the standings have ${labels} tie-break labels`,
        "store one value per label of source_standings.tie_break_labels",
      );
    }
    standings.rows.push(standingRow);
  }
  return list;
}

function readRecaps(
  file: string,
  rows: SqlCells[],
  totalRounds: number | null,
  problems: Problem[],
): Recap[] {
  const recaps: Recap[] = [];
  for (const row of rows) {
    const c = new RowCheck(file, "recaps", row, ["recap_id"], problems);
    // The query leaves out is_draft = 1; anything here but 0 is a broken flag, never published.
    c.flag("is_draft");
    const kind = c.choice("kind", RECAP_KINDS);
    const round = c.optInt32("round_number", ROUND_NUMBER);
    if (!c.failed("kind") && kind === "Round" && round === null) {
      c.report("round_number", "is NULL but a recap of kind Round needs its round", "set the round number");
    }
    if (!c.failed("round_number") && round !== null && totalRounds !== null && round > totalRounds) {
      c.report(
        "round_number",
        `round ${round} is beyond total_rounds ${totalRounds} of the tournament`,
        "correct the round number or raise total_rounds in table tournaments",
      );
    }
    recaps.push({
      language: c.segment("language", "language"),
      kind,
      round,
      headline: c.text("headline"),
      preview: c.optText("preview", { allowBlank: true }),
      paragraphs: c.jsonStrings("paragraphs", MAX_PARAGRAPHS, MAX_TEXT_LENGTH),
    });
  }
  return recaps;
}

function readGlobalTags(file: string, rows: SqlRow[], problems: Problem[]): string[] | null {
  if (rows.length === 0) return null;
  const tags: string[] = [];
  for (const row of rows) {
    if (row["tag"] === null) continue; // published without tags
    const c = new RowCheck(file, "publication_tags", row, ["tournament_id", "tag"], problems);
    tags.push(c.segment("tag", "tag"));
  }
  return tags.sort();
}

function readClubEntries(file: string, rows: SqlRow[], problems: Problem[]): PublishedTournament["clubs"] {
  const entries: PublishedTournament["clubs"] = [];
  let current: { clubId: unknown; entry: PublishedTournament["clubs"][number] } | null = null;
  for (const row of rows) {
    const slug = row["slug"];
    // A club with a bad slug is reported by checkStore(); it never gets a catalog path.
    if (!isValidSegment("slug", slug)) continue;
    if (current === null || current.clubId !== row["club_id"]) {
      const c = new RowCheck(file, "club_tournaments", row, ["club_id", "tournament_id"], problems);
      current = { clubId: row["club_id"], entry: { slug, tags: [], displayOrder: c.int32("display_order") } };
      entries.push(current.entry);
    }
    if (row["tag"] === null) continue;
    const c = new RowCheck(file, "club_tournament_tags", row, ["club_id", "tournament_id", "tag"], problems);
    current.entry.tags.push(c.segment("tag", "tag"));
  }
  for (const entry of entries) entry.tags.sort();
  return entries;
}
