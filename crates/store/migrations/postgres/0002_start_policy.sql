-- How a game starts (issue 37). Keep equivalent to ../sqlite/0002_start_policy.sql.
ALTER TABLE games ADD COLUMN start_policy TEXT;
