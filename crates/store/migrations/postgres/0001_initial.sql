-- Rookery store schema, PostgreSQL dialect. Keep equivalent to ../sqlite/0001_initial.sql:
-- the same tables, columns, constraints and indexes, spelt for PostgreSQL.
--
-- Types: integers are BIGINT, floats DOUBLE PRECISION, flags BIGINT 0/1 (as on SQLite, so
-- that one set of queries reads both). Ladder points are integer hundredths, never floats.
-- Keys that are compared or sorted (usernames, game ids) use the "C" collation: byte order,
-- as SQLite's BINARY, whatever locale the database was created with.

CREATE TABLE users (
    id            BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    username      TEXT             NOT NULL,      -- as typed at sign-up
    username_key  TEXT COLLATE "C" NOT NULL,      -- lowercased: uniqueness ignores case
    password_hash TEXT             NOT NULL,
    created_at_ms BIGINT           NOT NULL,
    points        BIGINT           NOT NULL DEFAULT 0, -- RULES.md §11 points, in hundredths
    rating        DOUBLE PRECISION NOT NULL,      -- Glicko-2
    deviation     DOUBLE PRECISION NOT NULL,
    volatility    DOUBLE PRECISION NOT NULL,
    wins          BIGINT           NOT NULL DEFAULT 0,
    draws         BIGINT           NOT NULL DEFAULT 0,
    losses        BIGINT           NOT NULL DEFAULT 0
);

CREATE UNIQUE INDEX users_username_key ON users (username_key);
CREATE INDEX users_leaderboard ON users (points DESC, rating DESC, username_key);

CREATE TABLE sessions (
    token_hash    TEXT   PRIMARY KEY,
    user_id       BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at_ms BIGINT NOT NULL,
    expires_at_ms BIGINT NOT NULL
);

CREATE INDEX sessions_user ON sessions (user_id);
CREATE INDEX sessions_expiry ON sessions (expires_at_ms);

CREATE TABLE games (
    id                 TEXT   COLLATE "C" PRIMARY KEY,
    white_kind         TEXT   NOT NULL CHECK (white_kind IN ('user', 'anonymous', 'engine')),
    white_user_id      BIGINT REFERENCES users (id),
    white_name         TEXT   NOT NULL,
    white_engine_level BIGINT CHECK (white_engine_level BETWEEN 0 AND 255),
    black_kind         TEXT   NOT NULL CHECK (black_kind IN ('user', 'anonymous', 'engine')),
    black_user_id      BIGINT REFERENCES users (id),
    black_name         TEXT   NOT NULL,
    black_engine_level BIGINT CHECK (black_engine_level BETWEEN 0 AND 255),
    rules              TEXT   NOT NULL,
    time_control       TEXT   NOT NULL,
    rated              BIGINT NOT NULL CHECK (rated IN (0, 1)),
    initial_fen        TEXT,
    created_at_ms      BIGINT NOT NULL,
    status             TEXT   NOT NULL CHECK (status IN ('live', 'finished', 'aborted')),
    result             TEXT   CHECK (result IN ('1-0', '0-1', '1/2-1/2', '*')),
    termination        TEXT,
    pgn                TEXT,
    ended_at_ms        BIGINT,
    -- A user player has an account id, and only a user player has one.
    CHECK ((white_kind = 'user') = (white_user_id IS NOT NULL)),
    CHECK ((black_kind = 'user') = (black_user_id IS NOT NULL)),
    -- A live game has no ending; an ended game has its result and time.
    CHECK ((status = 'live') = (result IS NULL AND ended_at_ms IS NULL))
);

CREATE INDEX games_live ON games (status) WHERE status = 'live';
CREATE INDEX games_ended ON games (status, ended_at_ms);
CREATE INDEX games_white ON games (white_user_id, ended_at_ms);
CREATE INDEX games_black ON games (black_user_id, ended_at_ms);

CREATE TABLE actions (
    game_id TEXT   COLLATE "C" NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq     BIGINT NOT NULL CHECK (seq >= 0),
    at_ms   BIGINT NOT NULL,
    kind    TEXT   NOT NULL,
    data    TEXT   NOT NULL,
    PRIMARY KEY (game_id, seq)
);

CREATE TABLE rating_history (
    id           BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY, -- the order of application
    user_id      BIGINT           NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    game_id      TEXT COLLATE "C" NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    at_ms        BIGINT           NOT NULL,
    points       BIGINT           NOT NULL,       -- after the game, in hundredths
    points_delta BIGINT           NOT NULL,
    rating       DOUBLE PRECISION NOT NULL,       -- Glicko-2 after the game
    deviation    DOUBLE PRECISION NOT NULL,
    volatility   DOUBLE PRECISION NOT NULL,
    UNIQUE (user_id, game_id)
);

CREATE INDEX rating_history_user ON rating_history (user_id, id);
CREATE INDEX rating_history_game ON rating_history (game_id);
