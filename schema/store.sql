-- The store: the input contract between the system that imports tournaments and build-api.
--
-- build-api opens this file read-only and never changes it. `build-api init-store <file>` creates
-- an empty store from this file. The schema version is PRAGMA user_version; build-api refuses a
-- store whose version it does not know.
--
-- Conventions
--   * Timestamps are ISO 8601 text in UTC with a "Z" suffix: 2026-11-22T12:00:00Z (fractional
--     seconds allowed). Dates are YYYY-MM-DD.
--   * Booleans are INTEGER 0 or 1.
--   * Text columns marked "contract" reach the published API as they are; columns marked
--     "private" are for the importer and operators only and never reach the snapshot.
--   * Slugs, tags and languages become URL path segments and must match these patterns:
--       slug      ^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$   (not a reserved path word)
--       tag       ^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$   (not a reserved path word)
--       language  ^[a-z]{2,3}(?:-[A-Z]{2})?$              (BCP 47 language, optional region)
--     Reserved path words: tag, language, rounds, standings, live, recaps, tournaments, openapi.json.
--     Windows device names (con, prn, aux, nul, com0-com9, lpt0-lpt9) are refused as well, and
--     external_id, the tournament's path segment, must be 0 or more.
--   * Text that reaches the API holds no control character (C0, DEL, C1), no U+2028/U+2029 and no
--     invisible format character (Unicode category Cf: bidirectional controls such as U+202E, the
--     marks U+200E/U+200F/U+061C, U+00AD, U+FEFF, ...), except the joiners U+200C and U+200D.
--     One-line columns (names, titles, labels, headlines, codes, URLs) hold no tab or line break;
--     free-text columns (description, location, organizer, arbiters and the other 10,000-character
--     columns below, recap preview and paragraphs) may hold tab, LF and CR. Text must be valid
--     UTF-8. A value that breaks a rule is refused with its row named (exit code 5), never cleaned.
--
-- Limits (src/store/limits.ts). Generous for real events (national opens and school
-- championships with thousands of players, online Swiss events with many rounds) and bounded so a
-- hostile store cannot exhaust memory or disk. Row counts are checked with SQL before any row is
-- read; a breach is exit code 5 naming the table, the row key and the limit (per tournament, so
-- --skip-invalid can skip it; store-wide limits stop the build).
--   per tournament   players 20,000 | rows in rounds 99 (round numbers 1..99) | games rows
--                    250,000 | boards per round 20,000 (board numbers 1..20,000) | source_standings
--                    rows 99 | source_standing_rows 250,000, and 20,000 per round | non-draft
--                    recaps 2,000 | tags 50 on the global surface and 50 in each club's catalog
--   per store        enabled clubs 1,000 | distinct tags 200 per surface | distinct languages of
--                    published recaps 50
--   values           player numbers and ranks 1..99,999 | ratings 0..4,000 | points per outcome
--                    within +-10, totals within +-1,000 | tie-break columns 20 | recap paragraphs
--                    200
--   text (characters, Unicode code points)   names, titles, codes, dates, one-line values 200 |
--                    recap headline 500 | URLs 2,048 | free text and one paragraph 10,000 | a whole
--                    JSON column 200,000 | slugs and tags 64

PRAGMA user_version = 5;

-- A club that may publish a catalog under /api/clubs/{slug}/tournaments.
CREATE TABLE clubs (
  club_id          INTEGER PRIMARY KEY,            -- private: local row id
  uuid             TEXT    NOT NULL UNIQUE,        -- contract: clubId (UUID)
  slug             TEXT    NOT NULL UNIQUE,        -- contract: slug, the URL segment
  name             TEXT    NOT NULL,               -- contract
  description      TEXT,                           -- contract
  logo_path        TEXT,                           -- contract: logoPath
  website_url      TEXT,                           -- contract: websiteUrl
  contact_email    TEXT,                           -- contract: contactEmail
  default_language TEXT,                           -- contract: defaultLanguage
  time_zone        TEXT,                           -- contract: timeZone (IANA name)
  brand_color      TEXT,                           -- contract: brandColor (#rrggbb)
  enabled          INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)), -- a disabled club publishes nothing
  internal_notes   TEXT                            -- private: operator notes
);

-- A tournament as retrieved from the original results source.
CREATE TABLE tournaments (
  tournament_id            INTEGER PRIMARY KEY,    -- private: local row id
  external_id              INTEGER NOT NULL UNIQUE,-- contract: externalId / id / tournamentId (int64)
  source_url               TEXT    NOT NULL,       -- contract: sourceUrl
  name                     TEXT    NOT NULL,       -- contract
  location                 TEXT,                   -- contract
  federation               TEXT,                   -- contract
  organizer                TEXT,                   -- contract
  tournament_director      TEXT,                   -- contract
  chief_arbiter            TEXT,                   -- contract
  deputy_chief_arbiter     TEXT,                   -- contract
  arbiters                 TEXT,                   -- contract
  time_control             TEXT,                   -- contract
  tournament_type          TEXT,                   -- contract: the source's own wording
  rating_calculation       TEXT,                   -- contract
  fide_event_id            INTEGER,                -- contract (int64)
  average_rating           INTEGER,                -- contract (int32)
  average_age              INTEGER,                -- contract (int32)
  pairing_program          TEXT,                   -- contract
  source_last_updated      TEXT,                   -- contract: free text as the source prints it
  source_creator           TEXT,                   -- contract
  start_date               TEXT,                   -- contract: YYYY-MM-DD
  end_date                 TEXT,                   -- contract: YYYY-MM-DD
  total_rounds             INTEGER,                -- contract: published number of rounds
  tracking_enabled         INTEGER NOT NULL DEFAULT 0 CHECK (tracking_enabled IN (0, 1)), -- contract
  refresh_interval_seconds INTEGER,                -- contract
  next_refresh_at          TEXT,                   -- contract: timestamp
  created_at               TEXT    NOT NULL,       -- contract: first local snapshot
  last_scraped_at          TEXT    NOT NULL,       -- contract: last fetch of the source
  last_source_change_at    TEXT,                   -- contract: last meaningful source change
  is_draft                 INTEGER NOT NULL DEFAULT 0 CHECK (is_draft IN (0, 1)), -- drafts are never published
  pairing_system           TEXT    NOT NULL DEFAULT 'swiss' CHECK (pairing_system IN ('swiss', 'round-robin')),
  tiebreaks                TEXT    NOT NULL DEFAULT '', -- FIDE C.07 acronyms, comma separated, in order: 'DE,BH-C1,BH'
  tiebreak_rules           TEXT    NOT NULL DEFAULT 'fide-2023' CHECK (tiebreak_rules IN ('fide-2023', 'fide-2026', 'pre-2023')),
  -- Version 3: the pairing program whose known tie-break practice the standings follow, where it
  -- departs from the written rules (docs/design/tiebreaks.md); NULL follows the written rules.
  tiebreak_practice        TEXT    CHECK (tiebreak_practice IN ('swiss-manager', 'vega', 'vega-de-score', 'vega-sb-bye-zero', 'chessmanager')),
  points_win               REAL    NOT NULL DEFAULT 1,
  points_draw              REAL    NOT NULL DEFAULT 0.5,
  points_loss              REAL    NOT NULL DEFAULT 0,
  points_forfeit_win       REAL    NOT NULL DEFAULT 1,
  points_forfeit_loss      REAL    NOT NULL DEFAULT 0,
  points_pairing_bye       REAL    NOT NULL DEFAULT 1,   -- pairing-allocated bye (TRF U)
  points_full_bye          REAL    NOT NULL DEFAULT 1,   -- requested full-point bye (TRF F)
  points_half_bye          REAL    NOT NULL DEFAULT 0.5, -- half-point bye (TRF H)
  points_zero_bye          REAL    NOT NULL DEFAULT 0,   -- zero-point bye / absent (TRF Z)
  internal_notes           TEXT                    -- private: operator notes
);

-- Players: the tournament-local player directory.
CREATE TABLE players (
  tournament_id        INTEGER NOT NULL REFERENCES tournaments (tournament_id),
  source_player_number INTEGER NOT NULL,           -- contract: tournament-local identifier (> 0)
  starting_rank        INTEGER,                    -- contract
  fide_id              INTEGER,                    -- contract (int64)
  name                 TEXT    NOT NULL,           -- contract
  title                TEXT,                       -- contract: GM, IM, WGM, FM, ...
  rating               INTEGER,                    -- contract: international rating
  national_rating      INTEGER,                    -- contract (computed standings)
  federation           TEXT,                       -- contract
  club                 TEXT,                       -- contract
  gender               TEXT,                       -- contract (computed standings): as the source writes it
  player_type          TEXT,                       -- contract (computed standings): e.g. U18, S50
  player_group         TEXT,                       -- contract (computed standings)
  birth_date           TEXT,                       -- private: never published
  email                TEXT,                       -- private: never published
  PRIMARY KEY (tournament_id, source_player_number)
) WITHOUT ROWID;

-- Rounds as retrieved. A round without games has no published pairings yet.
CREATE TABLE rounds (
  tournament_id         INTEGER NOT NULL REFERENCES tournaments (tournament_id),
  round_number          INTEGER NOT NULL,          -- contract: source round number (>= 1)
  first_scraped_at      TEXT    NOT NULL,          -- contract
  last_scraped_at       TEXT    NOT NULL,          -- contract
  last_source_change_at TEXT,                      -- contract
  PRIMARY KEY (tournament_id, round_number)
) WITHOUT ROWID;

-- Boards of a round: pairings, bye rows (one player, result 'Bye') and their results.
CREATE TABLE games (
  tournament_id       INTEGER NOT NULL,
  round_number        INTEGER NOT NULL,
  board_number        INTEGER NOT NULL,            -- contract: positive, unique within the round
  white_player_number INTEGER,                     -- contract: null when not assigned
  black_player_number INTEGER,                     -- contract: null when not assigned
  raw_result          TEXT,                        -- contract: the source's text, unmodified
  result              TEXT,                        -- contract: normalized GameResult; NULL = normalize raw_result at build time
  bye_kind            TEXT CHECK (bye_kind IN ('pab', 'full', 'half', 'zero')), -- how a Bye scores; NULL = from raw_result
  provisional_points  REAL,                        -- contract: source-published points of an unfinished game
  first_seen_at       TEXT    NOT NULL,            -- contract
  last_seen_at        TEXT    NOT NULL,            -- contract
  result_changed_at   TEXT,                        -- contract
  PRIMARY KEY (tournament_id, round_number, board_number),
  FOREIGN KEY (tournament_id, round_number) REFERENCES rounds (tournament_id, round_number)
) WITHOUT ROWID;

-- The source's own standings after a round (header labels of the tie-break columns).
CREATE TABLE source_standings (
  tournament_id    INTEGER NOT NULL REFERENCES tournaments (tournament_id),
  after_round      INTEGER NOT NULL,
  retrieved_at     TEXT    NOT NULL,
  tie_break_labels TEXT    NOT NULL,               -- JSON array of strings: ["TB1", "TB2"]
  PRIMARY KEY (tournament_id, after_round)
) WITHOUT ROWID;

-- One row of the source's standings table.
CREATE TABLE source_standing_rows (
  tournament_id        INTEGER NOT NULL,
  after_round          INTEGER NOT NULL,
  source_player_number INTEGER NOT NULL,
  rank                 INTEGER NOT NULL,
  name                 TEXT    NOT NULL,
  title                TEXT,
  international_rating INTEGER,
  national_rating      INTEGER,
  gender               TEXT,
  player_type          TEXT,
  player_group         TEXT,
  federation           TEXT,
  club                 TEXT,
  points               REAL,
  tie_break_values     TEXT    NOT NULL,           -- JSON array of strings, one per label
  PRIMARY KEY (tournament_id, after_round, source_player_number),
  FOREIGN KEY (tournament_id, after_round) REFERENCES source_standings (tournament_id, after_round)
) WITHOUT ROWID;

-- Stored narratives. build-api only reads them; drafts never reach the snapshot.
CREATE TABLE recaps (
  recap_id      INTEGER PRIMARY KEY,               -- private: local row id, also the tie order
  tournament_id INTEGER NOT NULL REFERENCES tournaments (tournament_id),
  language      TEXT    NOT NULL,                  -- contract: see the language pattern
  kind          TEXT    NOT NULL CHECK (kind IN ('Preview', 'Round', 'Final')), -- contract
  round_number  INTEGER,                           -- contract: round; set for kind 'Round'
  headline      TEXT    NOT NULL,                  -- contract
  preview       TEXT,                              -- contract: teaser text
  paragraphs    TEXT    NOT NULL,                  -- contract: JSON array of strings
  is_draft      INTEGER NOT NULL DEFAULT 0 CHECK (is_draft IN (0, 1)),
  generator     TEXT                               -- private: what wrote the recap
);

-- A club's catalog: which tournaments an (enabled) club lists, in which order.
CREATE TABLE club_tournaments (
  club_id       INTEGER NOT NULL REFERENCES clubs (club_id),
  tournament_id INTEGER NOT NULL REFERENCES tournaments (tournament_id),
  display_order INTEGER NOT NULL DEFAULT 0,       -- contract: ascending order in the catalog
  PRIMARY KEY (club_id, tournament_id)
) WITHOUT ROWID;

CREATE TABLE club_tournament_tags (
  club_id       INTEGER NOT NULL,
  tournament_id INTEGER NOT NULL,
  tag           TEXT    NOT NULL,                  -- contract: see the tag pattern
  PRIMARY KEY (club_id, tournament_id, tag),
  FOREIGN KEY (club_id, tournament_id) REFERENCES club_tournaments (club_id, tournament_id)
) WITHOUT ROWID;

-- The operator's publications on the global surface /api/public/v1.
CREATE TABLE publications (
  tournament_id INTEGER PRIMARY KEY REFERENCES tournaments (tournament_id),
  published_at  TEXT NOT NULL                      -- private: audit only
);

CREATE TABLE publication_tags (
  tournament_id INTEGER NOT NULL REFERENCES publications (tournament_id),
  tag           TEXT    NOT NULL,                  -- contract: see the tag pattern
  PRIMARY KEY (tournament_id, tag)
) WITHOUT ROWID;

CREATE INDEX recaps_by_tournament ON recaps (tournament_id, language);
CREATE INDEX club_tournaments_by_tournament ON club_tournaments (tournament_id);
-- The build reads the vocabulary (every distinct tag and recap language it publishes) through
-- these, one seek per distinct value. A store made before they existed is read by scanning every
-- tag and recap row; `build-api upgrade-store` adds them.
CREATE INDEX publication_tags_by_tag ON publication_tags (tag);
CREATE INDEX club_tournament_tags_by_tag ON club_tournament_tags (tag);
CREATE INDEX recaps_by_language ON recaps (language);

-- Revisions (schema version 2; stamps since version 4), kept by the triggers below; nothing else
-- writes them. Every insert, update or delete of a row keyed by a tournament counts one change in
-- the store ('all'), draws a random stamp for it, and gives that tournament the count and the
-- stamp as its revision; a change of a clubs row does the same for 'clubs'. So a revision is never
-- reused within a file's history, even by a tournament deleted and created again, and the stamp
-- (64 random bits per change) is not shared with another file's history: a store copied over this
-- one (cp, sqlite3 .restore) shows other revisions even where the counts are equal. build-api
-- compares revisions with the ones its previous snapshot was built from and renders again only
-- what changed. A store without these tables or any of these triggers (version 1, or a trigger
-- dropped or altered), or of a version before 4, is read by hashing its rows instead. A writer
-- must not turn off, drop or bypass the triggers, nor write these two tables (see
-- docs/guide/the-store.md#revisions).
CREATE TABLE tournament_revisions (
  tournament_id INTEGER PRIMARY KEY,               -- bookkeeping: the tournament's row id
  revision      INTEGER NOT NULL,                  -- bookkeeping: the store's count at its last change
  stamp         BLOB                               -- bookkeeping (version 4): that change's random stamp
);
-- A tick reads the tournaments changed since a count, and the ones changed last, through it.
CREATE INDEX tournament_revisions_by_revision ON tournament_revisions (revision);

CREATE TABLE store_revisions (
  scope    TEXT PRIMARY KEY,                       -- bookkeeping: 'all' (every change) or 'clubs'
  revision INTEGER NOT NULL,                       -- bookkeeping: changes counted / the count at the last change
  stamp    BLOB                                    -- bookkeeping (version 4): the random stamp of that change
) WITHOUT ROWID;

INSERT INTO store_revisions (scope, revision, stamp) VALUES ('all', 0, randomblob(8)), ('clubs', 0, randomblob(8));

CREATE TRIGGER tournaments_revision_insert AFTER INSERT ON tournaments BEGIN
  INSERT INTO store_revisions (scope, revision, stamp) VALUES ('all', 1, randomblob(8))
    ON CONFLICT (scope) DO UPDATE SET revision = revision + 1, stamp = excluded.stamp;
  INSERT INTO tournament_revisions (tournament_id, revision, stamp)
    SELECT NEW.tournament_id, revision, stamp FROM store_revisions WHERE scope = 'all'
    ON CONFLICT (tournament_id) DO UPDATE SET revision = excluded.revision, stamp = excluded.stamp;
END;
CREATE TRIGGER tournaments_revision_update AFTER UPDATE ON tournaments BEGIN
  INSERT INTO store_revisions (scope, revision, stamp) VALUES ('all', 1, randomblob(8))
    ON CONFLICT (scope) DO UPDATE SET revision = revision + 1, stamp = excluded.stamp;
  INSERT INTO tournament_revisions (tournament_id, revision, stamp)
    SELECT OLD.tournament_id, revision, stamp FROM store_revisions WHERE scope = 'all'
    ON CONFLICT (tournament_id) DO UPDATE SET revision = excluded.revision, stamp = excluded.stamp;
  INSERT INTO tournament_revisions (tournament_id, revision, stamp)
    SELECT NEW.tournament_id, revision, stamp FROM store_revisions WHERE scope = 'all'
    ON CONFLICT (tournament_id) DO UPDATE SET revision = excluded.revision, stamp = excluded.stamp;
END;
CREATE TRIGGER tournaments_revision_delete AFTER DELETE ON tournaments BEGIN
  INSERT INTO store_revisions (scope, revision, stamp) VALUES ('all', 1, randomblob(8))
    ON CONFLICT (scope) DO UPDATE SET revision = revision + 1, stamp = excluded.stamp;
  INSERT INTO tournament_revisions (tournament_id, revision, stamp)
    SELECT OLD.tournament_id, revision, stamp FROM store_revisions WHERE scope = 'all'
    ON CONFLICT (tournament_id) DO UPDATE SET revision = excluded.revision, stamp = excluded.stamp;
END;
CREATE TRIGGER players_revision_insert AFTER INSERT ON players BEGIN
  INSERT INTO store_revisions (scope, revision, stamp) VALUES ('all', 1, randomblob(8))
    ON CONFLICT (scope) DO UPDATE SET revision = revision + 1, stamp = excluded.stamp;
  INSERT INTO tournament_revisions (tournament_id, revision, stamp)
    SELECT NEW.tournament_id, revision, stamp FROM store_revisions WHERE scope = 'all'
    ON CONFLICT (tournament_id) DO UPDATE SET revision = excluded.revision, stamp = excluded.stamp;
END;
CREATE TRIGGER players_revision_update AFTER UPDATE ON players BEGIN
  INSERT INTO store_revisions (scope, revision, stamp) VALUES ('all', 1, randomblob(8))
    ON CONFLICT (scope) DO UPDATE SET revision = revision + 1, stamp = excluded.stamp;
  INSERT INTO tournament_revisions (tournament_id, revision, stamp)
    SELECT OLD.tournament_id, revision, stamp FROM store_revisions WHERE scope = 'all'
    ON CONFLICT (tournament_id) DO UPDATE SET revision = excluded.revision, stamp = excluded.stamp;
  INSERT INTO tournament_revisions (tournament_id, revision, stamp)
    SELECT NEW.tournament_id, revision, stamp FROM store_revisions WHERE scope = 'all'
    ON CONFLICT (tournament_id) DO UPDATE SET revision = excluded.revision, stamp = excluded.stamp;
END;
CREATE TRIGGER players_revision_delete AFTER DELETE ON players BEGIN
  INSERT INTO store_revisions (scope, revision, stamp) VALUES ('all', 1, randomblob(8))
    ON CONFLICT (scope) DO UPDATE SET revision = revision + 1, stamp = excluded.stamp;
  INSERT INTO tournament_revisions (tournament_id, revision, stamp)
    SELECT OLD.tournament_id, revision, stamp FROM store_revisions WHERE scope = 'all'
    ON CONFLICT (tournament_id) DO UPDATE SET revision = excluded.revision, stamp = excluded.stamp;
END;
CREATE TRIGGER rounds_revision_insert AFTER INSERT ON rounds BEGIN
  INSERT INTO store_revisions (scope, revision, stamp) VALUES ('all', 1, randomblob(8))
    ON CONFLICT (scope) DO UPDATE SET revision = revision + 1, stamp = excluded.stamp;
  INSERT INTO tournament_revisions (tournament_id, revision, stamp)
    SELECT NEW.tournament_id, revision, stamp FROM store_revisions WHERE scope = 'all'
    ON CONFLICT (tournament_id) DO UPDATE SET revision = excluded.revision, stamp = excluded.stamp;
END;
CREATE TRIGGER rounds_revision_update AFTER UPDATE ON rounds BEGIN
  INSERT INTO store_revisions (scope, revision, stamp) VALUES ('all', 1, randomblob(8))
    ON CONFLICT (scope) DO UPDATE SET revision = revision + 1, stamp = excluded.stamp;
  INSERT INTO tournament_revisions (tournament_id, revision, stamp)
    SELECT OLD.tournament_id, revision, stamp FROM store_revisions WHERE scope = 'all'
    ON CONFLICT (tournament_id) DO UPDATE SET revision = excluded.revision, stamp = excluded.stamp;
  INSERT INTO tournament_revisions (tournament_id, revision, stamp)
    SELECT NEW.tournament_id, revision, stamp FROM store_revisions WHERE scope = 'all'
    ON CONFLICT (tournament_id) DO UPDATE SET revision = excluded.revision, stamp = excluded.stamp;
END;
CREATE TRIGGER rounds_revision_delete AFTER DELETE ON rounds BEGIN
  INSERT INTO store_revisions (scope, revision, stamp) VALUES ('all', 1, randomblob(8))
    ON CONFLICT (scope) DO UPDATE SET revision = revision + 1, stamp = excluded.stamp;
  INSERT INTO tournament_revisions (tournament_id, revision, stamp)
    SELECT OLD.tournament_id, revision, stamp FROM store_revisions WHERE scope = 'all'
    ON CONFLICT (tournament_id) DO UPDATE SET revision = excluded.revision, stamp = excluded.stamp;
END;
CREATE TRIGGER games_revision_insert AFTER INSERT ON games BEGIN
  INSERT INTO store_revisions (scope, revision, stamp) VALUES ('all', 1, randomblob(8))
    ON CONFLICT (scope) DO UPDATE SET revision = revision + 1, stamp = excluded.stamp;
  INSERT INTO tournament_revisions (tournament_id, revision, stamp)
    SELECT NEW.tournament_id, revision, stamp FROM store_revisions WHERE scope = 'all'
    ON CONFLICT (tournament_id) DO UPDATE SET revision = excluded.revision, stamp = excluded.stamp;
END;
CREATE TRIGGER games_revision_update AFTER UPDATE ON games BEGIN
  INSERT INTO store_revisions (scope, revision, stamp) VALUES ('all', 1, randomblob(8))
    ON CONFLICT (scope) DO UPDATE SET revision = revision + 1, stamp = excluded.stamp;
  INSERT INTO tournament_revisions (tournament_id, revision, stamp)
    SELECT OLD.tournament_id, revision, stamp FROM store_revisions WHERE scope = 'all'
    ON CONFLICT (tournament_id) DO UPDATE SET revision = excluded.revision, stamp = excluded.stamp;
  INSERT INTO tournament_revisions (tournament_id, revision, stamp)
    SELECT NEW.tournament_id, revision, stamp FROM store_revisions WHERE scope = 'all'
    ON CONFLICT (tournament_id) DO UPDATE SET revision = excluded.revision, stamp = excluded.stamp;
END;
CREATE TRIGGER games_revision_delete AFTER DELETE ON games BEGIN
  INSERT INTO store_revisions (scope, revision, stamp) VALUES ('all', 1, randomblob(8))
    ON CONFLICT (scope) DO UPDATE SET revision = revision + 1, stamp = excluded.stamp;
  INSERT INTO tournament_revisions (tournament_id, revision, stamp)
    SELECT OLD.tournament_id, revision, stamp FROM store_revisions WHERE scope = 'all'
    ON CONFLICT (tournament_id) DO UPDATE SET revision = excluded.revision, stamp = excluded.stamp;
END;
CREATE TRIGGER source_standings_revision_insert AFTER INSERT ON source_standings BEGIN
  INSERT INTO store_revisions (scope, revision, stamp) VALUES ('all', 1, randomblob(8))
    ON CONFLICT (scope) DO UPDATE SET revision = revision + 1, stamp = excluded.stamp;
  INSERT INTO tournament_revisions (tournament_id, revision, stamp)
    SELECT NEW.tournament_id, revision, stamp FROM store_revisions WHERE scope = 'all'
    ON CONFLICT (tournament_id) DO UPDATE SET revision = excluded.revision, stamp = excluded.stamp;
END;
CREATE TRIGGER source_standings_revision_update AFTER UPDATE ON source_standings BEGIN
  INSERT INTO store_revisions (scope, revision, stamp) VALUES ('all', 1, randomblob(8))
    ON CONFLICT (scope) DO UPDATE SET revision = revision + 1, stamp = excluded.stamp;
  INSERT INTO tournament_revisions (tournament_id, revision, stamp)
    SELECT OLD.tournament_id, revision, stamp FROM store_revisions WHERE scope = 'all'
    ON CONFLICT (tournament_id) DO UPDATE SET revision = excluded.revision, stamp = excluded.stamp;
  INSERT INTO tournament_revisions (tournament_id, revision, stamp)
    SELECT NEW.tournament_id, revision, stamp FROM store_revisions WHERE scope = 'all'
    ON CONFLICT (tournament_id) DO UPDATE SET revision = excluded.revision, stamp = excluded.stamp;
END;
CREATE TRIGGER source_standings_revision_delete AFTER DELETE ON source_standings BEGIN
  INSERT INTO store_revisions (scope, revision, stamp) VALUES ('all', 1, randomblob(8))
    ON CONFLICT (scope) DO UPDATE SET revision = revision + 1, stamp = excluded.stamp;
  INSERT INTO tournament_revisions (tournament_id, revision, stamp)
    SELECT OLD.tournament_id, revision, stamp FROM store_revisions WHERE scope = 'all'
    ON CONFLICT (tournament_id) DO UPDATE SET revision = excluded.revision, stamp = excluded.stamp;
END;
CREATE TRIGGER source_standing_rows_revision_insert AFTER INSERT ON source_standing_rows BEGIN
  INSERT INTO store_revisions (scope, revision, stamp) VALUES ('all', 1, randomblob(8))
    ON CONFLICT (scope) DO UPDATE SET revision = revision + 1, stamp = excluded.stamp;
  INSERT INTO tournament_revisions (tournament_id, revision, stamp)
    SELECT NEW.tournament_id, revision, stamp FROM store_revisions WHERE scope = 'all'
    ON CONFLICT (tournament_id) DO UPDATE SET revision = excluded.revision, stamp = excluded.stamp;
END;
CREATE TRIGGER source_standing_rows_revision_update AFTER UPDATE ON source_standing_rows BEGIN
  INSERT INTO store_revisions (scope, revision, stamp) VALUES ('all', 1, randomblob(8))
    ON CONFLICT (scope) DO UPDATE SET revision = revision + 1, stamp = excluded.stamp;
  INSERT INTO tournament_revisions (tournament_id, revision, stamp)
    SELECT OLD.tournament_id, revision, stamp FROM store_revisions WHERE scope = 'all'
    ON CONFLICT (tournament_id) DO UPDATE SET revision = excluded.revision, stamp = excluded.stamp;
  INSERT INTO tournament_revisions (tournament_id, revision, stamp)
    SELECT NEW.tournament_id, revision, stamp FROM store_revisions WHERE scope = 'all'
    ON CONFLICT (tournament_id) DO UPDATE SET revision = excluded.revision, stamp = excluded.stamp;
END;
CREATE TRIGGER source_standing_rows_revision_delete AFTER DELETE ON source_standing_rows BEGIN
  INSERT INTO store_revisions (scope, revision, stamp) VALUES ('all', 1, randomblob(8))
    ON CONFLICT (scope) DO UPDATE SET revision = revision + 1, stamp = excluded.stamp;
  INSERT INTO tournament_revisions (tournament_id, revision, stamp)
    SELECT OLD.tournament_id, revision, stamp FROM store_revisions WHERE scope = 'all'
    ON CONFLICT (tournament_id) DO UPDATE SET revision = excluded.revision, stamp = excluded.stamp;
END;
CREATE TRIGGER recaps_revision_insert AFTER INSERT ON recaps BEGIN
  INSERT INTO store_revisions (scope, revision, stamp) VALUES ('all', 1, randomblob(8))
    ON CONFLICT (scope) DO UPDATE SET revision = revision + 1, stamp = excluded.stamp;
  INSERT INTO tournament_revisions (tournament_id, revision, stamp)
    SELECT NEW.tournament_id, revision, stamp FROM store_revisions WHERE scope = 'all'
    ON CONFLICT (tournament_id) DO UPDATE SET revision = excluded.revision, stamp = excluded.stamp;
END;
CREATE TRIGGER recaps_revision_update AFTER UPDATE ON recaps BEGIN
  INSERT INTO store_revisions (scope, revision, stamp) VALUES ('all', 1, randomblob(8))
    ON CONFLICT (scope) DO UPDATE SET revision = revision + 1, stamp = excluded.stamp;
  INSERT INTO tournament_revisions (tournament_id, revision, stamp)
    SELECT OLD.tournament_id, revision, stamp FROM store_revisions WHERE scope = 'all'
    ON CONFLICT (tournament_id) DO UPDATE SET revision = excluded.revision, stamp = excluded.stamp;
  INSERT INTO tournament_revisions (tournament_id, revision, stamp)
    SELECT NEW.tournament_id, revision, stamp FROM store_revisions WHERE scope = 'all'
    ON CONFLICT (tournament_id) DO UPDATE SET revision = excluded.revision, stamp = excluded.stamp;
END;
CREATE TRIGGER recaps_revision_delete AFTER DELETE ON recaps BEGIN
  INSERT INTO store_revisions (scope, revision, stamp) VALUES ('all', 1, randomblob(8))
    ON CONFLICT (scope) DO UPDATE SET revision = revision + 1, stamp = excluded.stamp;
  INSERT INTO tournament_revisions (tournament_id, revision, stamp)
    SELECT OLD.tournament_id, revision, stamp FROM store_revisions WHERE scope = 'all'
    ON CONFLICT (tournament_id) DO UPDATE SET revision = excluded.revision, stamp = excluded.stamp;
END;
CREATE TRIGGER club_tournaments_revision_insert AFTER INSERT ON club_tournaments BEGIN
  INSERT INTO store_revisions (scope, revision, stamp) VALUES ('all', 1, randomblob(8))
    ON CONFLICT (scope) DO UPDATE SET revision = revision + 1, stamp = excluded.stamp;
  INSERT INTO tournament_revisions (tournament_id, revision, stamp)
    SELECT NEW.tournament_id, revision, stamp FROM store_revisions WHERE scope = 'all'
    ON CONFLICT (tournament_id) DO UPDATE SET revision = excluded.revision, stamp = excluded.stamp;
END;
CREATE TRIGGER club_tournaments_revision_update AFTER UPDATE ON club_tournaments BEGIN
  INSERT INTO store_revisions (scope, revision, stamp) VALUES ('all', 1, randomblob(8))
    ON CONFLICT (scope) DO UPDATE SET revision = revision + 1, stamp = excluded.stamp;
  INSERT INTO tournament_revisions (tournament_id, revision, stamp)
    SELECT OLD.tournament_id, revision, stamp FROM store_revisions WHERE scope = 'all'
    ON CONFLICT (tournament_id) DO UPDATE SET revision = excluded.revision, stamp = excluded.stamp;
  INSERT INTO tournament_revisions (tournament_id, revision, stamp)
    SELECT NEW.tournament_id, revision, stamp FROM store_revisions WHERE scope = 'all'
    ON CONFLICT (tournament_id) DO UPDATE SET revision = excluded.revision, stamp = excluded.stamp;
END;
CREATE TRIGGER club_tournaments_revision_delete AFTER DELETE ON club_tournaments BEGIN
  INSERT INTO store_revisions (scope, revision, stamp) VALUES ('all', 1, randomblob(8))
    ON CONFLICT (scope) DO UPDATE SET revision = revision + 1, stamp = excluded.stamp;
  INSERT INTO tournament_revisions (tournament_id, revision, stamp)
    SELECT OLD.tournament_id, revision, stamp FROM store_revisions WHERE scope = 'all'
    ON CONFLICT (tournament_id) DO UPDATE SET revision = excluded.revision, stamp = excluded.stamp;
END;
CREATE TRIGGER club_tournament_tags_revision_insert AFTER INSERT ON club_tournament_tags BEGIN
  INSERT INTO store_revisions (scope, revision, stamp) VALUES ('all', 1, randomblob(8))
    ON CONFLICT (scope) DO UPDATE SET revision = revision + 1, stamp = excluded.stamp;
  INSERT INTO tournament_revisions (tournament_id, revision, stamp)
    SELECT NEW.tournament_id, revision, stamp FROM store_revisions WHERE scope = 'all'
    ON CONFLICT (tournament_id) DO UPDATE SET revision = excluded.revision, stamp = excluded.stamp;
END;
CREATE TRIGGER club_tournament_tags_revision_update AFTER UPDATE ON club_tournament_tags BEGIN
  INSERT INTO store_revisions (scope, revision, stamp) VALUES ('all', 1, randomblob(8))
    ON CONFLICT (scope) DO UPDATE SET revision = revision + 1, stamp = excluded.stamp;
  INSERT INTO tournament_revisions (tournament_id, revision, stamp)
    SELECT OLD.tournament_id, revision, stamp FROM store_revisions WHERE scope = 'all'
    ON CONFLICT (tournament_id) DO UPDATE SET revision = excluded.revision, stamp = excluded.stamp;
  INSERT INTO tournament_revisions (tournament_id, revision, stamp)
    SELECT NEW.tournament_id, revision, stamp FROM store_revisions WHERE scope = 'all'
    ON CONFLICT (tournament_id) DO UPDATE SET revision = excluded.revision, stamp = excluded.stamp;
END;
CREATE TRIGGER club_tournament_tags_revision_delete AFTER DELETE ON club_tournament_tags BEGIN
  INSERT INTO store_revisions (scope, revision, stamp) VALUES ('all', 1, randomblob(8))
    ON CONFLICT (scope) DO UPDATE SET revision = revision + 1, stamp = excluded.stamp;
  INSERT INTO tournament_revisions (tournament_id, revision, stamp)
    SELECT OLD.tournament_id, revision, stamp FROM store_revisions WHERE scope = 'all'
    ON CONFLICT (tournament_id) DO UPDATE SET revision = excluded.revision, stamp = excluded.stamp;
END;
CREATE TRIGGER publications_revision_insert AFTER INSERT ON publications BEGIN
  INSERT INTO store_revisions (scope, revision, stamp) VALUES ('all', 1, randomblob(8))
    ON CONFLICT (scope) DO UPDATE SET revision = revision + 1, stamp = excluded.stamp;
  INSERT INTO tournament_revisions (tournament_id, revision, stamp)
    SELECT NEW.tournament_id, revision, stamp FROM store_revisions WHERE scope = 'all'
    ON CONFLICT (tournament_id) DO UPDATE SET revision = excluded.revision, stamp = excluded.stamp;
END;
CREATE TRIGGER publications_revision_update AFTER UPDATE ON publications BEGIN
  INSERT INTO store_revisions (scope, revision, stamp) VALUES ('all', 1, randomblob(8))
    ON CONFLICT (scope) DO UPDATE SET revision = revision + 1, stamp = excluded.stamp;
  INSERT INTO tournament_revisions (tournament_id, revision, stamp)
    SELECT OLD.tournament_id, revision, stamp FROM store_revisions WHERE scope = 'all'
    ON CONFLICT (tournament_id) DO UPDATE SET revision = excluded.revision, stamp = excluded.stamp;
  INSERT INTO tournament_revisions (tournament_id, revision, stamp)
    SELECT NEW.tournament_id, revision, stamp FROM store_revisions WHERE scope = 'all'
    ON CONFLICT (tournament_id) DO UPDATE SET revision = excluded.revision, stamp = excluded.stamp;
END;
CREATE TRIGGER publications_revision_delete AFTER DELETE ON publications BEGIN
  INSERT INTO store_revisions (scope, revision, stamp) VALUES ('all', 1, randomblob(8))
    ON CONFLICT (scope) DO UPDATE SET revision = revision + 1, stamp = excluded.stamp;
  INSERT INTO tournament_revisions (tournament_id, revision, stamp)
    SELECT OLD.tournament_id, revision, stamp FROM store_revisions WHERE scope = 'all'
    ON CONFLICT (tournament_id) DO UPDATE SET revision = excluded.revision, stamp = excluded.stamp;
END;
CREATE TRIGGER publication_tags_revision_insert AFTER INSERT ON publication_tags BEGIN
  INSERT INTO store_revisions (scope, revision, stamp) VALUES ('all', 1, randomblob(8))
    ON CONFLICT (scope) DO UPDATE SET revision = revision + 1, stamp = excluded.stamp;
  INSERT INTO tournament_revisions (tournament_id, revision, stamp)
    SELECT NEW.tournament_id, revision, stamp FROM store_revisions WHERE scope = 'all'
    ON CONFLICT (tournament_id) DO UPDATE SET revision = excluded.revision, stamp = excluded.stamp;
END;
CREATE TRIGGER publication_tags_revision_update AFTER UPDATE ON publication_tags BEGIN
  INSERT INTO store_revisions (scope, revision, stamp) VALUES ('all', 1, randomblob(8))
    ON CONFLICT (scope) DO UPDATE SET revision = revision + 1, stamp = excluded.stamp;
  INSERT INTO tournament_revisions (tournament_id, revision, stamp)
    SELECT OLD.tournament_id, revision, stamp FROM store_revisions WHERE scope = 'all'
    ON CONFLICT (tournament_id) DO UPDATE SET revision = excluded.revision, stamp = excluded.stamp;
  INSERT INTO tournament_revisions (tournament_id, revision, stamp)
    SELECT NEW.tournament_id, revision, stamp FROM store_revisions WHERE scope = 'all'
    ON CONFLICT (tournament_id) DO UPDATE SET revision = excluded.revision, stamp = excluded.stamp;
END;
CREATE TRIGGER publication_tags_revision_delete AFTER DELETE ON publication_tags BEGIN
  INSERT INTO store_revisions (scope, revision, stamp) VALUES ('all', 1, randomblob(8))
    ON CONFLICT (scope) DO UPDATE SET revision = revision + 1, stamp = excluded.stamp;
  INSERT INTO tournament_revisions (tournament_id, revision, stamp)
    SELECT OLD.tournament_id, revision, stamp FROM store_revisions WHERE scope = 'all'
    ON CONFLICT (tournament_id) DO UPDATE SET revision = excluded.revision, stamp = excluded.stamp;
END;
CREATE TRIGGER clubs_revision_insert AFTER INSERT ON clubs BEGIN
  INSERT INTO store_revisions (scope, revision, stamp) VALUES ('all', 1, randomblob(8))
    ON CONFLICT (scope) DO UPDATE SET revision = revision + 1, stamp = excluded.stamp;
  INSERT INTO store_revisions (scope, revision, stamp)
    SELECT 'clubs', revision, stamp FROM store_revisions WHERE scope = 'all'
    ON CONFLICT (scope) DO UPDATE SET revision = excluded.revision, stamp = excluded.stamp;
END;
CREATE TRIGGER clubs_revision_update AFTER UPDATE ON clubs BEGIN
  INSERT INTO store_revisions (scope, revision, stamp) VALUES ('all', 1, randomblob(8))
    ON CONFLICT (scope) DO UPDATE SET revision = revision + 1, stamp = excluded.stamp;
  INSERT INTO store_revisions (scope, revision, stamp)
    SELECT 'clubs', revision, stamp FROM store_revisions WHERE scope = 'all'
    ON CONFLICT (scope) DO UPDATE SET revision = excluded.revision, stamp = excluded.stamp;
END;
CREATE TRIGGER clubs_revision_delete AFTER DELETE ON clubs BEGIN
  INSERT INTO store_revisions (scope, revision, stamp) VALUES ('all', 1, randomblob(8))
    ON CONFLICT (scope) DO UPDATE SET revision = revision + 1, stamp = excluded.stamp;
  INSERT INTO store_revisions (scope, revision, stamp)
    SELECT 'clubs', revision, stamp FROM store_revisions WHERE scope = 'all'
    ON CONFLICT (scope) DO UPDATE SET revision = excluded.revision, stamp = excluded.stamp;
END;

-- Round schedule (schema version 3): when each round is scheduled to start, as the organizer
-- announced it (TRF record 132). Local date and time of the venue, no time zone; either may be
-- NULL when not announced. A round may be scheduled before it has a row in rounds.
CREATE TABLE round_schedule (
  tournament_id  INTEGER NOT NULL REFERENCES tournaments (tournament_id),
  round_number   INTEGER NOT NULL,                 -- contract: 1..99, at most total_rounds
  scheduled_date TEXT,                             -- contract: YYYY-MM-DD, local
  scheduled_time TEXT,                             -- contract: HH:MM (24 h), local
  PRIMARY KEY (tournament_id, round_number)
) WITHOUT ROWID;

CREATE TRIGGER round_schedule_revision_insert AFTER INSERT ON round_schedule BEGIN
  INSERT INTO store_revisions (scope, revision, stamp) VALUES ('all', 1, randomblob(8))
    ON CONFLICT (scope) DO UPDATE SET revision = revision + 1, stamp = excluded.stamp;
  INSERT INTO tournament_revisions (tournament_id, revision, stamp)
    SELECT NEW.tournament_id, revision, stamp FROM store_revisions WHERE scope = 'all'
    ON CONFLICT (tournament_id) DO UPDATE SET revision = excluded.revision, stamp = excluded.stamp;
END;
CREATE TRIGGER round_schedule_revision_update AFTER UPDATE ON round_schedule BEGIN
  INSERT INTO store_revisions (scope, revision, stamp) VALUES ('all', 1, randomblob(8))
    ON CONFLICT (scope) DO UPDATE SET revision = revision + 1, stamp = excluded.stamp;
  INSERT INTO tournament_revisions (tournament_id, revision, stamp)
    SELECT OLD.tournament_id, revision, stamp FROM store_revisions WHERE scope = 'all'
    ON CONFLICT (tournament_id) DO UPDATE SET revision = excluded.revision, stamp = excluded.stamp;
  INSERT INTO tournament_revisions (tournament_id, revision, stamp)
    SELECT NEW.tournament_id, revision, stamp FROM store_revisions WHERE scope = 'all'
    ON CONFLICT (tournament_id) DO UPDATE SET revision = excluded.revision, stamp = excluded.stamp;
END;
CREATE TRIGGER round_schedule_revision_delete AFTER DELETE ON round_schedule BEGIN
  INSERT INTO store_revisions (scope, revision, stamp) VALUES ('all', 1, randomblob(8))
    ON CONFLICT (scope) DO UPDATE SET revision = revision + 1, stamp = excluded.stamp;
  INSERT INTO tournament_revisions (tournament_id, revision, stamp)
    SELECT OLD.tournament_id, revision, stamp FROM store_revisions WHERE scope = 'all'
    ON CONFLICT (tournament_id) DO UPDATE SET revision = excluded.revision, stamp = excluded.stamp;
END;

-- Replaced rows (schema version 4). INSERT OR REPLACE (REPLACE), UPDATE OR REPLACE and an upsert
-- that falls back to REPLACE delete the rows they conflict with without running their DELETE
-- triggers (unless PRAGMA recursive_triggers is on). In every table but two, each UNIQUE key holds
-- tournament_id (or the table is clubs, whose every change counts for 'clubs'), so the replaced row
-- belongs to the tournament that the INSERT or UPDATE trigger above already counts. recaps.recap_id
-- and tournaments.external_id are keys without tournament_id: the row they replace can belong to
-- another tournament, whose revision these triggers move before the row goes.
CREATE TRIGGER recaps_revision_replace_insert BEFORE INSERT ON recaps
  WHEN EXISTS (SELECT 1 FROM recaps WHERE recap_id = NEW.recap_id AND tournament_id IS NOT NEW.tournament_id) BEGIN
  INSERT INTO store_revisions (scope, revision, stamp) VALUES ('all', 1, randomblob(8))
    ON CONFLICT (scope) DO UPDATE SET revision = revision + 1, stamp = excluded.stamp;
  INSERT INTO tournament_revisions (tournament_id, revision, stamp)
    SELECT r.tournament_id, s.revision, s.stamp FROM recaps AS r, store_revisions AS s
    WHERE r.recap_id = NEW.recap_id AND s.scope = 'all'
    ON CONFLICT (tournament_id) DO UPDATE SET revision = excluded.revision, stamp = excluded.stamp;
END;
CREATE TRIGGER recaps_revision_replace_update BEFORE UPDATE OF recap_id ON recaps
  WHEN EXISTS (SELECT 1 FROM recaps WHERE recap_id = NEW.recap_id AND recap_id IS NOT OLD.recap_id
    AND tournament_id IS NOT NEW.tournament_id) BEGIN
  INSERT INTO store_revisions (scope, revision, stamp) VALUES ('all', 1, randomblob(8))
    ON CONFLICT (scope) DO UPDATE SET revision = revision + 1, stamp = excluded.stamp;
  INSERT INTO tournament_revisions (tournament_id, revision, stamp)
    SELECT r.tournament_id, s.revision, s.stamp FROM recaps AS r, store_revisions AS s
    WHERE r.recap_id = NEW.recap_id AND s.scope = 'all'
    ON CONFLICT (tournament_id) DO UPDATE SET revision = excluded.revision, stamp = excluded.stamp;
END;
CREATE TRIGGER tournaments_revision_replace_insert BEFORE INSERT ON tournaments
  WHEN EXISTS (SELECT 1 FROM tournaments WHERE external_id = NEW.external_id AND tournament_id IS NOT NEW.tournament_id) BEGIN
  INSERT INTO store_revisions (scope, revision, stamp) VALUES ('all', 1, randomblob(8))
    ON CONFLICT (scope) DO UPDATE SET revision = revision + 1, stamp = excluded.stamp;
  INSERT INTO tournament_revisions (tournament_id, revision, stamp)
    SELECT t.tournament_id, s.revision, s.stamp FROM tournaments AS t, store_revisions AS s
    WHERE t.external_id = NEW.external_id AND s.scope = 'all'
    ON CONFLICT (tournament_id) DO UPDATE SET revision = excluded.revision, stamp = excluded.stamp;
END;
CREATE TRIGGER tournaments_revision_replace_update BEFORE UPDATE OF external_id ON tournaments
  WHEN EXISTS (SELECT 1 FROM tournaments WHERE external_id = NEW.external_id AND tournament_id IS NOT OLD.tournament_id
    AND tournament_id IS NOT NEW.tournament_id) BEGIN
  INSERT INTO store_revisions (scope, revision, stamp) VALUES ('all', 1, randomblob(8))
    ON CONFLICT (scope) DO UPDATE SET revision = revision + 1, stamp = excluded.stamp;
  INSERT INTO tournament_revisions (tournament_id, revision, stamp)
    SELECT t.tournament_id, s.revision, s.stamp FROM tournaments AS t, store_revisions AS s
    WHERE t.external_id = NEW.external_id AND s.scope = 'all'
    ON CONFLICT (tournament_id) DO UPDATE SET revision = excluded.revision, stamp = excluded.stamp;
END;

-- Team events (schema version 5). A team event is an individual tournament (players, rounds and
-- games as above: every board game is a games row) whose players are members of teams. The team
-- matches are not stored: they follow from the games (the members of two teams who met in a
-- round). What no board game says is stored here: the teams and their members in board order, the
-- match-point scoring, the byes of whole teams and the matches decided without play
-- (docs/guide/the-store.md, "Team events"). A tournament without a team_events row is individual.
CREATE TABLE team_events (
  tournament_id    INTEGER PRIMARY KEY REFERENCES tournaments (tournament_id),
  primary_score    TEXT NOT NULL DEFAULT 'MP' CHECK (primary_score IN ('MP', 'GP')), -- computation: what ranks teams first
  match_win        REAL NOT NULL DEFAULT 2,        -- computation: match points for a match won (TRF 362 TW)
  match_draw       REAL NOT NULL DEFAULT 1,        -- computation: for a match drawn (TD)
  match_loss       REAL NOT NULL DEFAULT 0,        -- computation: for a match lost (TL)
  pab_match_points REAL,                           -- computation: what a pairing-allocated bye gives (TRF 320); NULL: a win
  pab_game_points  REAL,                           -- computation: NULL: one game point per board
  team_tiebreaks   TEXT NOT NULL DEFAULT '[]'      -- contract: JSON array of C.07 team acronyms ("BH:MP", "EMGSB/C1")
);

CREATE TABLE teams (
  tournament_id INTEGER NOT NULL REFERENCES tournaments (tournament_id),
  team_number   INTEGER NOT NULL,                  -- contract: 1..99,999 (TRF 310 team number)
  name          TEXT NOT NULL,                     -- contract
  short_name    TEXT,                              -- contract
  PRIMARY KEY (tournament_id, team_number)
) WITHOUT ROWID;

-- A team's members in board order (board_order 1 = first board); a player is in one team at most.
CREATE TABLE team_members (
  tournament_id        INTEGER NOT NULL REFERENCES tournaments (tournament_id),
  team_number          INTEGER NOT NULL,
  board_order          INTEGER NOT NULL,           -- contract: 1..99
  source_player_number INTEGER NOT NULL,           -- contract: a players row of the tournament
  PRIMARY KEY (tournament_id, team_number, board_order),
  UNIQUE (tournament_id, source_player_number)
) WITHOUT ROWID;

-- A whole team's bye in a round: 'pab' pairing-allocated (TRF 320), 'full' / 'half' / 'zero'
-- requested or justified (TRF 240 F / H / Z).
CREATE TABLE team_byes (
  tournament_id INTEGER NOT NULL REFERENCES tournaments (tournament_id),
  round_number  INTEGER NOT NULL,                  -- contract: 1..99
  team_number   INTEGER NOT NULL,
  kind          TEXT NOT NULL CHECK (kind IN ('pab', 'full', 'half', 'zero')), -- contract
  PRIMARY KEY (tournament_id, round_number, team_number)
) WITHOUT ROWID;

-- A match decided without play (TRF 330): '+-' the white team wins, '-+' the black team, '--' neither.
CREATE TABLE team_forfeited_matches (
  tournament_id INTEGER NOT NULL REFERENCES tournaments (tournament_id),
  round_number  INTEGER NOT NULL,                  -- contract: 1..99
  white_team    INTEGER NOT NULL,                  -- contract: the first-named team
  black_team    INTEGER NOT NULL,                  -- contract
  result        TEXT NOT NULL CHECK (result IN ('+-', '-+', '--')), -- contract
  PRIMARY KEY (tournament_id, round_number, white_team)
) WITHOUT ROWID;

CREATE TRIGGER team_events_revision_insert AFTER INSERT ON team_events BEGIN
  INSERT INTO store_revisions (scope, revision, stamp) VALUES ('all', 1, randomblob(8))
    ON CONFLICT (scope) DO UPDATE SET revision = revision + 1, stamp = excluded.stamp;
  INSERT INTO tournament_revisions (tournament_id, revision, stamp)
    SELECT NEW.tournament_id, revision, stamp FROM store_revisions WHERE scope = 'all'
    ON CONFLICT (tournament_id) DO UPDATE SET revision = excluded.revision, stamp = excluded.stamp;
END;
CREATE TRIGGER team_events_revision_update AFTER UPDATE ON team_events BEGIN
  INSERT INTO store_revisions (scope, revision, stamp) VALUES ('all', 1, randomblob(8))
    ON CONFLICT (scope) DO UPDATE SET revision = revision + 1, stamp = excluded.stamp;
  INSERT INTO tournament_revisions (tournament_id, revision, stamp)
    SELECT OLD.tournament_id, revision, stamp FROM store_revisions WHERE scope = 'all'
    ON CONFLICT (tournament_id) DO UPDATE SET revision = excluded.revision, stamp = excluded.stamp;
  INSERT INTO tournament_revisions (tournament_id, revision, stamp)
    SELECT NEW.tournament_id, revision, stamp FROM store_revisions WHERE scope = 'all'
    ON CONFLICT (tournament_id) DO UPDATE SET revision = excluded.revision, stamp = excluded.stamp;
END;
CREATE TRIGGER team_events_revision_delete AFTER DELETE ON team_events BEGIN
  INSERT INTO store_revisions (scope, revision, stamp) VALUES ('all', 1, randomblob(8))
    ON CONFLICT (scope) DO UPDATE SET revision = revision + 1, stamp = excluded.stamp;
  INSERT INTO tournament_revisions (tournament_id, revision, stamp)
    SELECT OLD.tournament_id, revision, stamp FROM store_revisions WHERE scope = 'all'
    ON CONFLICT (tournament_id) DO UPDATE SET revision = excluded.revision, stamp = excluded.stamp;
END;
CREATE TRIGGER teams_revision_insert AFTER INSERT ON teams BEGIN
  INSERT INTO store_revisions (scope, revision, stamp) VALUES ('all', 1, randomblob(8))
    ON CONFLICT (scope) DO UPDATE SET revision = revision + 1, stamp = excluded.stamp;
  INSERT INTO tournament_revisions (tournament_id, revision, stamp)
    SELECT NEW.tournament_id, revision, stamp FROM store_revisions WHERE scope = 'all'
    ON CONFLICT (tournament_id) DO UPDATE SET revision = excluded.revision, stamp = excluded.stamp;
END;
CREATE TRIGGER teams_revision_update AFTER UPDATE ON teams BEGIN
  INSERT INTO store_revisions (scope, revision, stamp) VALUES ('all', 1, randomblob(8))
    ON CONFLICT (scope) DO UPDATE SET revision = revision + 1, stamp = excluded.stamp;
  INSERT INTO tournament_revisions (tournament_id, revision, stamp)
    SELECT OLD.tournament_id, revision, stamp FROM store_revisions WHERE scope = 'all'
    ON CONFLICT (tournament_id) DO UPDATE SET revision = excluded.revision, stamp = excluded.stamp;
  INSERT INTO tournament_revisions (tournament_id, revision, stamp)
    SELECT NEW.tournament_id, revision, stamp FROM store_revisions WHERE scope = 'all'
    ON CONFLICT (tournament_id) DO UPDATE SET revision = excluded.revision, stamp = excluded.stamp;
END;
CREATE TRIGGER teams_revision_delete AFTER DELETE ON teams BEGIN
  INSERT INTO store_revisions (scope, revision, stamp) VALUES ('all', 1, randomblob(8))
    ON CONFLICT (scope) DO UPDATE SET revision = revision + 1, stamp = excluded.stamp;
  INSERT INTO tournament_revisions (tournament_id, revision, stamp)
    SELECT OLD.tournament_id, revision, stamp FROM store_revisions WHERE scope = 'all'
    ON CONFLICT (tournament_id) DO UPDATE SET revision = excluded.revision, stamp = excluded.stamp;
END;
CREATE TRIGGER team_members_revision_insert AFTER INSERT ON team_members BEGIN
  INSERT INTO store_revisions (scope, revision, stamp) VALUES ('all', 1, randomblob(8))
    ON CONFLICT (scope) DO UPDATE SET revision = revision + 1, stamp = excluded.stamp;
  INSERT INTO tournament_revisions (tournament_id, revision, stamp)
    SELECT NEW.tournament_id, revision, stamp FROM store_revisions WHERE scope = 'all'
    ON CONFLICT (tournament_id) DO UPDATE SET revision = excluded.revision, stamp = excluded.stamp;
END;
CREATE TRIGGER team_members_revision_update AFTER UPDATE ON team_members BEGIN
  INSERT INTO store_revisions (scope, revision, stamp) VALUES ('all', 1, randomblob(8))
    ON CONFLICT (scope) DO UPDATE SET revision = revision + 1, stamp = excluded.stamp;
  INSERT INTO tournament_revisions (tournament_id, revision, stamp)
    SELECT OLD.tournament_id, revision, stamp FROM store_revisions WHERE scope = 'all'
    ON CONFLICT (tournament_id) DO UPDATE SET revision = excluded.revision, stamp = excluded.stamp;
  INSERT INTO tournament_revisions (tournament_id, revision, stamp)
    SELECT NEW.tournament_id, revision, stamp FROM store_revisions WHERE scope = 'all'
    ON CONFLICT (tournament_id) DO UPDATE SET revision = excluded.revision, stamp = excluded.stamp;
END;
CREATE TRIGGER team_members_revision_delete AFTER DELETE ON team_members BEGIN
  INSERT INTO store_revisions (scope, revision, stamp) VALUES ('all', 1, randomblob(8))
    ON CONFLICT (scope) DO UPDATE SET revision = revision + 1, stamp = excluded.stamp;
  INSERT INTO tournament_revisions (tournament_id, revision, stamp)
    SELECT OLD.tournament_id, revision, stamp FROM store_revisions WHERE scope = 'all'
    ON CONFLICT (tournament_id) DO UPDATE SET revision = excluded.revision, stamp = excluded.stamp;
END;
CREATE TRIGGER team_byes_revision_insert AFTER INSERT ON team_byes BEGIN
  INSERT INTO store_revisions (scope, revision, stamp) VALUES ('all', 1, randomblob(8))
    ON CONFLICT (scope) DO UPDATE SET revision = revision + 1, stamp = excluded.stamp;
  INSERT INTO tournament_revisions (tournament_id, revision, stamp)
    SELECT NEW.tournament_id, revision, stamp FROM store_revisions WHERE scope = 'all'
    ON CONFLICT (tournament_id) DO UPDATE SET revision = excluded.revision, stamp = excluded.stamp;
END;
CREATE TRIGGER team_byes_revision_update AFTER UPDATE ON team_byes BEGIN
  INSERT INTO store_revisions (scope, revision, stamp) VALUES ('all', 1, randomblob(8))
    ON CONFLICT (scope) DO UPDATE SET revision = revision + 1, stamp = excluded.stamp;
  INSERT INTO tournament_revisions (tournament_id, revision, stamp)
    SELECT OLD.tournament_id, revision, stamp FROM store_revisions WHERE scope = 'all'
    ON CONFLICT (tournament_id) DO UPDATE SET revision = excluded.revision, stamp = excluded.stamp;
  INSERT INTO tournament_revisions (tournament_id, revision, stamp)
    SELECT NEW.tournament_id, revision, stamp FROM store_revisions WHERE scope = 'all'
    ON CONFLICT (tournament_id) DO UPDATE SET revision = excluded.revision, stamp = excluded.stamp;
END;
CREATE TRIGGER team_byes_revision_delete AFTER DELETE ON team_byes BEGIN
  INSERT INTO store_revisions (scope, revision, stamp) VALUES ('all', 1, randomblob(8))
    ON CONFLICT (scope) DO UPDATE SET revision = revision + 1, stamp = excluded.stamp;
  INSERT INTO tournament_revisions (tournament_id, revision, stamp)
    SELECT OLD.tournament_id, revision, stamp FROM store_revisions WHERE scope = 'all'
    ON CONFLICT (tournament_id) DO UPDATE SET revision = excluded.revision, stamp = excluded.stamp;
END;
CREATE TRIGGER team_forfeited_matches_revision_insert AFTER INSERT ON team_forfeited_matches BEGIN
  INSERT INTO store_revisions (scope, revision, stamp) VALUES ('all', 1, randomblob(8))
    ON CONFLICT (scope) DO UPDATE SET revision = revision + 1, stamp = excluded.stamp;
  INSERT INTO tournament_revisions (tournament_id, revision, stamp)
    SELECT NEW.tournament_id, revision, stamp FROM store_revisions WHERE scope = 'all'
    ON CONFLICT (tournament_id) DO UPDATE SET revision = excluded.revision, stamp = excluded.stamp;
END;
CREATE TRIGGER team_forfeited_matches_revision_update AFTER UPDATE ON team_forfeited_matches BEGIN
  INSERT INTO store_revisions (scope, revision, stamp) VALUES ('all', 1, randomblob(8))
    ON CONFLICT (scope) DO UPDATE SET revision = revision + 1, stamp = excluded.stamp;
  INSERT INTO tournament_revisions (tournament_id, revision, stamp)
    SELECT OLD.tournament_id, revision, stamp FROM store_revisions WHERE scope = 'all'
    ON CONFLICT (tournament_id) DO UPDATE SET revision = excluded.revision, stamp = excluded.stamp;
  INSERT INTO tournament_revisions (tournament_id, revision, stamp)
    SELECT NEW.tournament_id, revision, stamp FROM store_revisions WHERE scope = 'all'
    ON CONFLICT (tournament_id) DO UPDATE SET revision = excluded.revision, stamp = excluded.stamp;
END;
CREATE TRIGGER team_forfeited_matches_revision_delete AFTER DELETE ON team_forfeited_matches BEGIN
  INSERT INTO store_revisions (scope, revision, stamp) VALUES ('all', 1, randomblob(8))
    ON CONFLICT (scope) DO UPDATE SET revision = revision + 1, stamp = excluded.stamp;
  INSERT INTO tournament_revisions (tournament_id, revision, stamp)
    SELECT OLD.tournament_id, revision, stamp FROM store_revisions WHERE scope = 'all'
    ON CONFLICT (tournament_id) DO UPDATE SET revision = excluded.revision, stamp = excluded.stamp;
END;
