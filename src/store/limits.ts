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
/** Board numbers run 1..MAX_BOARD. */
export const MAX_BOARD = 9_999;
/** Player numbers and ranks run 1..MAX_PLAYER_NUMBER. */
export const MAX_PLAYER_NUMBER = 99_999;
/** Ratings run 0..MAX_RATING. */
export const MAX_RATING = 4_000;
/** Scoring points per outcome lie within ±MAX_POINTS_PER_GAME; points totals within ±MAX_POINTS. */
export const MAX_POINTS_PER_GAME = 10;
export const MAX_POINTS = 1_000;

export const INT32_MIN = -2_147_483_648;
export const INT32_MAX = 2_147_483_647;
export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;
