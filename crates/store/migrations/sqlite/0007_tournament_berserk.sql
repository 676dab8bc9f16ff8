-- Keep equivalent to ../postgres/0007_tournament_berserk.sql (INTEGER here, BIGINT there).
--
-- Whether a tournament game may be played berserk (an arena with berserk on, issue 40): the
-- game's page offers the button only there. Games stored before it: 0.
ALTER TABLE games ADD COLUMN tournament_berserk INTEGER NOT NULL DEFAULT 0;
