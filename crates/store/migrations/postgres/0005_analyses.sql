-- Keep equivalent to ../sqlite/0005_analyses.sql.
--
-- The engine's analysis of a finished game (issue 38): one row per game, asked for once and
-- computed once by the server's background worker. `result` is the server's JSON, opaque to
-- the store. A row left `queued` or `running` by a stopped server is taken up again when it
-- restarts.
CREATE TABLE analyses (
    game_id         TEXT    COLLATE "C" PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    status          TEXT    NOT NULL CHECK (status IN ('queued', 'running', 'done', 'failed')),
    nodes           BIGINT  NOT NULL CHECK (nodes > 0),
    requested_at_ms BIGINT  NOT NULL,
    finished_at_ms  BIGINT,
    result          TEXT,
    error           TEXT,
    -- A finished analysis has its result (or the reason it failed) and its time.
    CHECK ((status = 'done') = (result IS NOT NULL)),
    CHECK ((status IN ('done', 'failed')) = (finished_at_ms IS NOT NULL))
);

CREATE INDEX analyses_pending ON analyses (status, requested_at_ms);
