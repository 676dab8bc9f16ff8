-- Keep equivalent to ../sqlite/0004_tournament_counts.sql.
--
-- The list of tournaments (issue 40) reads these rather than folding every tournament's log:
-- how many players have entered and how many rounds (an arena: games) have been paired, kept
-- up to date by the tournament's actor.
ALTER TABLE tournaments ADD COLUMN players BIGINT NOT NULL DEFAULT 0;
ALTER TABLE tournaments ADD COLUMN rounds_paired BIGINT NOT NULL DEFAULT 0;
