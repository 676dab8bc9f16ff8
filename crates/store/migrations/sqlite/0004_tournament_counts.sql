-- Keep equivalent to ../postgres/0004_tournament_counts.sql (INTEGER here, BIGINT there).
--
-- The list of tournaments (issue 40) reads these rather than folding every tournament's log:
-- how many players have entered and how many rounds (an arena: games) have been paired, kept
-- up to date by the tournament's actor.
ALTER TABLE tournaments ADD COLUMN players INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tournaments ADD COLUMN rounds_paired INTEGER NOT NULL DEFAULT 0;
