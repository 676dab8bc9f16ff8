-- Keep equivalent to ../sqlite/0007_tournament_berserk.sql (BIGINT here, INTEGER there).
--
-- Whether a tournament game may be played berserk (an arena with berserk on, issue 40): the
-- game's page offers the button only there. Games stored before it: 0.
ALTER TABLE games ADD COLUMN tournament_berserk BIGINT NOT NULL DEFAULT 0;
