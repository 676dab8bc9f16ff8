-- Rookery store schema, SQLite dialect. Keep equivalent to ../postgres/0001_initial.sql:
-- the same tables, columns, constraints and indexes, spelt for SQLite.
--
-- Types: integers are INTEGER (64-bit), floats REAL, flags INTEGER 0/1 (the sqlx Any driver
-- has no SQLite BOOLEAN). Ladder points are integer hundredths, never floats. STRICT tables
-- make SQLite enforce the declared types as PostgreSQL does.

CREATE TABLE users (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    username      TEXT    NOT NULL,                -- as typed at sign-up
    username_key  TEXT    NOT NULL,                -- lowercased: uniqueness ignores case
    password_hash TEXT    NOT NULL,
    created_at_ms INTEGER NOT NULL,
    points        INTEGER NOT NULL DEFAULT 0,      -- RULES.md §11 points, in hundredths
    rating        REAL    NOT NULL,                -- Glicko-2
    deviation     REAL    NOT NULL,
    volatility    REAL    NOT NULL,
    wins          INTEGER NOT NULL DEFAULT 0,
    draws         INTEGER NOT NULL DEFAULT 0,
    losses        INTEGER NOT NULL DEFAULT 0
) STRICT;

CREATE UNIQUE INDEX users_username_key ON users (username_key);
CREATE INDEX users_leaderboard ON users (points DESC, rating DESC, username_key);

CREATE TABLE sessions (
    token_hash    TEXT    PRIMARY KEY,
    user_id       INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at_ms INTEGER NOT NULL,
    expires_at_ms INTEGER NOT NULL
) STRICT;

CREATE INDEX sessions_user ON sessions (user_id);
CREATE INDEX sessions_expiry ON sessions (expires_at_ms);

CREATE TABLE games (
    id                 TEXT    PRIMARY KEY,
    white_kind         TEXT    NOT NULL CHECK (white_kind IN ('user', 'anonymous', 'engine')),
    white_user_id      INTEGER REFERENCES users (id),
    white_name         TEXT    NOT NULL,
    white_engine_level INTEGER CHECK (white_engine_level BETWEEN 0 AND 255),
    black_kind         TEXT    NOT NULL CHECK (black_kind IN ('user', 'anonymous', 'engine')),
    black_user_id      INTEGER REFERENCES users (id),
    black_name         TEXT    NOT NULL,
    black_engine_level INTEGER CHECK (black_engine_level BETWEEN 0 AND 255),
    rules              TEXT    NOT NULL,
    time_control       TEXT    NOT NULL,
    rated              INTEGER NOT NULL CHECK (rated IN (0, 1)),
    initial_fen        TEXT,
    created_at_ms      INTEGER NOT NULL,
    status             TEXT    NOT NULL CHECK (status IN ('live', 'finished', 'aborted')),
    result             TEXT    CHECK (result IN ('1-0', '0-1', '1/2-1/2', '*')),
    termination        TEXT,
    pgn                TEXT,
    ended_at_ms        INTEGER,
    -- A user player has an account id, and only a user player has one.
    CHECK ((white_kind = 'user') = (white_user_id IS NOT NULL)),
    CHECK ((black_kind = 'user') = (black_user_id IS NOT NULL)),
    -- A live game has no ending; an ended game has its result and time.
    CHECK ((status = 'live') = (result IS NULL AND ended_at_ms IS NULL))
) STRICT;

CREATE INDEX games_live ON games (status) WHERE status = 'live';
CREATE INDEX games_ended ON games (status, ended_at_ms);
CREATE INDEX games_white ON games (white_user_id, ended_at_ms);
CREATE INDEX games_black ON games (black_user_id, ended_at_ms);

CREATE TABLE actions (
    game_id TEXT    NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq     INTEGER NOT NULL CHECK (seq >= 0),
    at_ms   INTEGER NOT NULL,
    kind    TEXT    NOT NULL,
    data    TEXT    NOT NULL,
    PRIMARY KEY (game_id, seq)
) STRICT;

CREATE TABLE rating_history (
    id           INTEGER PRIMARY KEY AUTOINCREMENT, -- the order the changes were applied in
    user_id      INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    game_id      TEXT    NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    at_ms        INTEGER NOT NULL,
    points       INTEGER NOT NULL,                  -- after the game, in hundredths
    points_delta INTEGER NOT NULL,
    rating       REAL    NOT NULL,                  -- Glicko-2 after the game
    deviation    REAL    NOT NULL,
    volatility   REAL    NOT NULL,
    UNIQUE (user_id, game_id)
) STRICT;

CREATE INDEX rating_history_user ON rating_history (user_id, id);
CREATE INDEX rating_history_game ON rating_history (game_id);
