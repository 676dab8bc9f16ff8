-- How a game starts (issue 37): NULL, its clock ran from its creation (every game stored
-- before this column); otherwise the arbiter's start policy as text, such as `abort:30000`
-- (the clocks wait for both first moves, each due within 30 s, or the game is aborted).
ALTER TABLE games ADD COLUMN start_policy TEXT;
