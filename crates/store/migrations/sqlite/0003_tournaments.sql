-- Tournaments (issue 40, RULES.md §12). Keep equivalent to ../postgres/0003_tournaments.sql.
--
-- A tournament is its settings and the append-only log of what happened to it: every action
-- of the competition (join, pairing, publication, result …) and every arbiter decision with
-- its author, time and reason. The server rebuilds a tournament by folding its log, and shows
-- the log to users as the audit log. (tournament_id, seq) is the primary key, so an entry is
-- written once: a second writer, or a replay after a crash, cannot append it twice.
CREATE TABLE tournaments (
    id            TEXT    PRIMARY KEY,
    name          TEXT    NOT NULL,
    format        TEXT    NOT NULL CHECK (format IN ('swiss', 'round_robin', 'double_round_robin', 'arena')),
    settings      TEXT    NOT NULL,                -- the server's JSON of the settings
    status        TEXT    NOT NULL CHECK (status IN ('upcoming', 'running', 'finished', 'cancelled')),
    created_by    INTEGER NOT NULL REFERENCES users (id),
    created_at_ms INTEGER NOT NULL,
    starts_at_ms  INTEGER                          -- NULL: started by hand
) STRICT;

CREATE INDEX tournaments_status ON tournaments (status, starts_at_ms);

CREATE TABLE tournament_log (
    tournament_id TEXT    NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    seq           INTEGER NOT NULL CHECK (seq >= 0),
    at_ms         INTEGER NOT NULL,
    by_user       INTEGER REFERENCES users (id),   -- NULL: the server (a game's result, a schedule)
    kind          TEXT    NOT NULL,
    data          TEXT    NOT NULL,
    reason        TEXT,
    PRIMARY KEY (tournament_id, seq)
) STRICT;

-- A tournament's games: which tournament, round and board (an arena's game number as board,
-- round NULL). One game per (tournament, round, board, generation) is enforced by the game id,
-- which the server derives from them.
ALTER TABLE games ADD COLUMN tournament_id TEXT REFERENCES tournaments (id);
ALTER TABLE games ADD COLUMN tournament_round INTEGER;
ALTER TABLE games ADD COLUMN tournament_board INTEGER;
CREATE INDEX games_tournament ON games (tournament_id, tournament_round, tournament_board);
