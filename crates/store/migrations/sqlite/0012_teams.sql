-- Keep equivalent to ../postgres/0012_teams.sql.
--
-- Team tournaments (issue 54): `format` may be 'team_swiss' or 'team_round_robin'. SQLite
-- cannot change a CHECK constraint in place: the table is rebuilt, as in 0011_knockout.sql (https://www.sqlite.org/lang_altertable.html,
-- "Making Other Kinds Of Table Schema Changes"). The migration runs in a transaction, where
-- foreign keys cannot be turned off, and dropping the old table deletes its rows first, which
-- would cascade to the log and be refused for the games that name a tournament: both are
-- kept aside (the games' references set to NULL meanwhile) and put back once the new table
-- has the name, each reference checked as it is written.
CREATE TABLE tournaments_new (
    id            TEXT    PRIMARY KEY,
    name          TEXT    NOT NULL,
    format        TEXT    NOT NULL CHECK (format IN ('swiss', 'round_robin', 'double_round_robin', 'arena', 'knockout', 'team_swiss', 'team_round_robin')),
    settings      TEXT    NOT NULL,
    status        TEXT    NOT NULL CHECK (status IN ('upcoming', 'running', 'finished', 'cancelled')),
    created_by    INTEGER NOT NULL REFERENCES users (id),
    created_at_ms INTEGER NOT NULL,
    starts_at_ms  INTEGER,
    players       INTEGER NOT NULL DEFAULT 0,
    rounds_paired INTEGER NOT NULL DEFAULT 0,
    owner         TEXT,
    epoch         INTEGER NOT NULL DEFAULT 0
) STRICT;
INSERT INTO tournaments_new (id, name, format, settings, status, created_by, created_at_ms,
                             starts_at_ms, players, rounds_paired, owner, epoch)
    SELECT id, name, format, settings, status, created_by, created_at_ms,
           starts_at_ms, players, rounds_paired, owner, epoch
    FROM tournaments;
CREATE TEMP TABLE tournament_log_kept AS SELECT * FROM tournament_log;
CREATE TEMP TABLE tournament_games_kept AS
    SELECT id, tournament_id FROM games WHERE tournament_id IS NOT NULL;
UPDATE games SET tournament_id = NULL WHERE tournament_id IS NOT NULL;
DROP TABLE tournaments;
ALTER TABLE tournaments_new RENAME TO tournaments;
CREATE INDEX tournaments_status ON tournaments (status, starts_at_ms);
INSERT INTO tournament_log SELECT * FROM temp.tournament_log_kept;
UPDATE games SET tournament_id =
    (SELECT k.tournament_id FROM temp.tournament_games_kept k WHERE k.id = games.id)
    WHERE id IN (SELECT id FROM temp.tournament_games_kept);
DROP TABLE temp.tournament_log_kept;
DROP TABLE temp.tournament_games_kept;
