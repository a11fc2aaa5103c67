// Size and range limits for store values. SQLite accepts any length and any integer, so these
// bound what a (possibly hostile) store can push into the snapshot. A value beyond a limit is a
// problem that names the row; it is never cut short silently.

/** Names, titles, labels, codes and other one-line values (player, club, tournament names ...). */
export const MAX_NAME_LENGTH = 200;
/** A recap headline. */
export const MAX_HEADLINE_LENGTH = 500;
/** URLs and paths (source_url, website_url, logo_path). */
export const MAX_URL_LENGTH = 2048;
/** Free text (description, location, arbiters, time control, preview, one paragraph ...). */
export const MAX_TEXT_LENGTH = 10_000;
/** A whole JSON column (paragraphs, tie_break_labels, tie_break_values) as stored. */
export const MAX_JSON_LENGTH = 200_000;
/** Paragraphs in one recap. */
export const MAX_PARAGRAPHS = 200;
/** Tie-break columns in the source's standings, and tie-breaks in the tiebreaks list. */
export const MAX_TIEBREAK_COLUMNS = 20;

/** Round numbers (and total_rounds) run 1..MAX_ROUND; more is absurd for a chess tournament. */
export const MAX_ROUND = 99;
/** Board numbers run 1..MAX_BOARD: one board per player of the largest tournament (byes take one). */
export const MAX_BOARD = 20_000;
/** Player numbers and ranks run 1..MAX_PLAYER_NUMBER. */
export const MAX_PLAYER_NUMBER = 99_999;
/** Ratings run 0..MAX_RATING. */
export const MAX_RATING = 4_000;
/** Scoring points per outcome lie within ±MAX_POINTS_PER_GAME; points totals within ±MAX_POINTS. */
export const MAX_POINTS_PER_GAME = 10;
export const MAX_POINTS = 1_000;

// Row counts. Each of a tournament's queries reads at most one row past its limit
// (store/read/sizes.ts), so a store far beyond them fails in milliseconds with bounded memory. The
// largest real events (national opens, school championships, online Swiss events) have a few
// thousand players and rarely more than 15 rounds.

/** Players of one tournament. */
export const MAX_PLAYERS = 20_000;
/** Rows in table rounds of one tournament (round numbers are 1..MAX_ROUND anyway). */
export const MAX_ROUNDS = MAX_ROUND;
/** Boards (games rows, byes included) of one round. */
export const MAX_BOARDS_PER_ROUND = MAX_BOARD;
/** Games rows of one tournament: e.g. 20,000 players over 25 rounds. */
export const MAX_GAMES = 250_000;
/** Rows of the source's standings after one round: one per player. */
export const MAX_STANDING_ROWS_PER_ROUND = MAX_PLAYERS;
/** Source standing rows of one tournament, all rounds together. */
export const MAX_STANDING_ROWS = 250_000;
/** Recaps (not drafts) of one tournament: every round in a dozen languages. */
export const MAX_RECAPS = 2_000;
/** Tags of one tournament on one surface (the global publication, or one club's catalog entry). */
export const MAX_TAGS_PER_TOURNAMENT = 50;

// Store-wide counts: each club gets a catalog file per tag of its surface, and each tournament a
// recaps file per language, so these multiply the number of files.

/** Enabled clubs. */
export const MAX_CLUBS = 1_000;
/** Distinct tags on one surface (publication_tags, or club_tournament_tags of enabled clubs). */
export const MAX_DISTINCT_TAGS = 200;
/** Distinct languages of published recaps. */
export const MAX_LANGUAGES = 50;

export const INT32_MIN = -2_147_483_648;
export const INT32_MAX = 2_147_483_647;
export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;
