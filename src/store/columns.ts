// The columns build-api reads from each table: contract fields and computation inputs only.
// Private columns (internal_notes, birth_date, email, generator, published_at) are never selected;
// they are listed in PRIVATE_COLUMNS, for the store writer only.
//
// The number is the longest text accepted in that column (null: not a text column). SELECT lists
// are generated from this table and cut every text at limit + 1 characters inside SQLite, so a
// hostile store with a huge string cannot exhaust memory, and the check still sees it is too long.
import {
  MAX_HEADLINE_LENGTH,
  MAX_JSON_LENGTH,
  MAX_NAME_LENGTH,
  MAX_TEXT_LENGTH,
  MAX_URL_LENGTH,
} from "./limits.ts";

const NAME = MAX_NAME_LENGTH;
const TEXT = MAX_TEXT_LENGTH;
const LINK = MAX_URL_LENGTH;
const JSON_ = MAX_JSON_LENGTH;
/** Slugs, tags and languages: long enough to show a bad value, short enough to stay cheap. */
const SEGMENT = NAME;

export const COLUMNS = {
  clubs: {
    club_id: null,
    uuid: NAME,
    slug: SEGMENT,
    name: NAME,
    description: TEXT,
    logo_path: LINK,
    website_url: LINK,
    contact_email: NAME,
    default_language: SEGMENT,
    time_zone: NAME,
    brand_color: NAME,
    enabled: null,
  },
  tournaments: {
    tournament_id: null,
    external_id: null,
    source_url: LINK,
    name: NAME,
    location: TEXT,
    federation: NAME,
    organizer: TEXT,
    tournament_director: TEXT,
    chief_arbiter: TEXT,
    deputy_chief_arbiter: TEXT,
    arbiters: TEXT,
    time_control: TEXT,
    tournament_type: TEXT,
    rating_calculation: TEXT,
    fide_event_id: null,
    average_rating: null,
    average_age: null,
    pairing_program: TEXT,
    source_last_updated: TEXT,
    source_creator: TEXT,
    start_date: NAME,
    end_date: NAME,
    total_rounds: null,
    tracking_enabled: null,
    refresh_interval_seconds: null,
    next_refresh_at: NAME,
    created_at: NAME,
    last_scraped_at: NAME,
    last_source_change_at: NAME,
    is_draft: null,
    pairing_system: NAME,
    tiebreaks: TEXT,
    tiebreak_rules: NAME,
    tiebreak_practice: NAME,
    points_win: null,
    points_draw: null,
    points_loss: null,
    points_forfeit_win: null,
    points_forfeit_loss: null,
    points_pairing_bye: null,
    points_full_bye: null,
    points_half_bye: null,
    points_zero_bye: null,
  },
  players: {
    tournament_id: null,
    source_player_number: null,
    starting_rank: null,
    fide_id: null,
    name: NAME,
    title: NAME,
    rating: null,
    national_rating: null,
    federation: NAME,
    club: NAME,
    gender: NAME,
    player_type: NAME,
    player_group: NAME,
  },
  rounds: {
    tournament_id: null,
    round_number: null,
    first_scraped_at: NAME,
    last_scraped_at: NAME,
    last_source_change_at: NAME,
  },
  round_schedule: {
    tournament_id: null,
    round_number: null,
    scheduled_date: NAME,
    scheduled_time: NAME,
  },
  team_events: {
    tournament_id: null,
    primary_score: NAME,
    match_win: null,
    match_draw: null,
    match_loss: null,
    pab_match_points: null,
    pab_game_points: null,
    team_tiebreaks: JSON_,
  },
  teams: { tournament_id: null, team_number: null, name: NAME, short_name: NAME },
  team_members: { tournament_id: null, team_number: null, board_order: null, source_player_number: null },
  team_byes: { tournament_id: null, round_number: null, team_number: null, kind: NAME },
  team_forfeited_matches: {
    tournament_id: null,
    round_number: null,
    white_team: null,
    black_team: null,
    result: NAME,
  },
  games: {
    tournament_id: null,
    round_number: null,
    board_number: null,
    white_player_number: null,
    black_player_number: null,
    raw_result: NAME,
    result: NAME,
    bye_kind: NAME,
    provisional_points: null,
    first_seen_at: NAME,
    last_seen_at: NAME,
    result_changed_at: NAME,
  },
  source_standings: {
    tournament_id: null,
    after_round: null,
    retrieved_at: NAME,
    tie_break_labels: JSON_,
  },
  source_standing_rows: {
    tournament_id: null,
    after_round: null,
    source_player_number: null,
    rank: null,
    name: NAME,
    title: NAME,
    international_rating: null,
    national_rating: null,
    gender: NAME,
    player_type: NAME,
    player_group: NAME,
    federation: NAME,
    club: NAME,
    points: null,
    tie_break_values: JSON_,
  },
  recaps: {
    recap_id: null,
    tournament_id: null,
    language: SEGMENT,
    kind: NAME,
    round_number: null,
    headline: MAX_HEADLINE_LENGTH,
    preview: TEXT,
    paragraphs: JSON_,
    is_draft: null,
  },
  club_tournaments: {
    club_id: null,
    tournament_id: null,
    display_order: null,
  },
  club_tournament_tags: {
    club_id: null,
    tournament_id: null,
    tag: SEGMENT,
  },
  publications: {
    tournament_id: null,
  },
  publication_tags: {
    tournament_id: null,
    tag: SEGMENT,
  },
} as const satisfies Record<string, Record<string, number | null>>;

export type TableName = keyof typeof COLUMNS;
export type ColumnOf<T extends TableName> = keyof (typeof COLUMNS)[T] & string;

/**
 * Private columns: written to the store (by the store writer, src/store/write/writer.ts) but never read
 * by build-api, so never selected. A table without private columns is not listed.
 */
export const PRIVATE_COLUMNS = {
  clubs: ["internal_notes"],
  tournaments: ["internal_notes"],
  players: ["birth_date", "email"],
  recaps: ["generator"],
  publications: ["published_at"],
} as const satisfies Partial<Record<TableName, readonly string[]>>;

type PrivateColumns = typeof PRIVATE_COLUMNS;
export type PrivateColumnOf<T extends TableName> = T extends keyof PrivateColumns
  ? PrivateColumns[T][number]
  : never;
/** Every column the store writer may name in an INSERT into `T`. */
export type WritableColumnOf<T extends TableName> = ColumnOf<T> | PrivateColumnOf<T>;

const WRITABLE = Object.fromEntries(
  Object.entries(COLUMNS).map(([table, columns]) => [
    table,
    new Set([
      ...Object.keys(columns),
      ...((PRIVATE_COLUMNS as Partial<Record<string, readonly string[]>>)[table] ?? []),
    ]),
  ]),
) as Partial<Record<string, ReadonlySet<string>>>;

/** Is `column` a column of `table` that the store writer may name (read or private)? */
export function isWritableColumn(table: TableName, column: string): boolean {
  return Object.hasOwn(WRITABLE, table) && WRITABLE[table]!.has(column);
}

/** Longest text accepted in a column, or null when it is not a text column. */
export function textLimit<T extends TableName>(table: T, column: ColumnOf<T>): number | null {
  return (COLUMNS[table] as Record<string, number | null>)[column] ?? null;
}

/** One SELECT-list item; text columns are cut at limit + 1 characters (type kept: substr of a
 * BLOB is a BLOB, and numbers are never that long). */
export function selectColumn<T extends TableName>(table: T, column: ColumnOf<T>, alias?: string): string {
  const ref = alias ? `${alias}.${column}` : column;
  const limit = textLimit(table, column);
  if (limit === null) return `${ref} AS ${column}`;
  return `CASE WHEN length(${ref}) > ${limit} THEN substr(${ref}, 1, ${limit + 1}) ELSE ${ref} END AS ${column}`;
}

/** The SELECT list of every column read from `table`; a column in `absent` (one an older store
 * version lacks) is read as NULL. */
export function selectAll<T extends TableName>(
  table: T,
  alias?: string,
  absent: ReadonlySet<string> = new Set(),
): string {
  return (Object.keys(COLUMNS[table]) as ColumnOf<T>[])
    .map((c) => (absent.has(c) ? `NULL AS ${c}` : selectColumn(table, c, alias)))
    .join(", ");
}

/** Position of every column of `table` in its selectAll() list, i.e. in a raw row (an array). */
export type ColumnPositions = Readonly<Record<string, number>>;

const POSITIONS = Object.fromEntries(
  Object.entries(COLUMNS).map(([table, columns]) => [
    table,
    Object.fromEntries(Object.keys(columns).map((column, i) => [column, i])),
  ]),
) as Record<TableName, ColumnPositions>;

export function columnPositions(table: TableName): ColumnPositions {
  return POSITIONS[table];
}
