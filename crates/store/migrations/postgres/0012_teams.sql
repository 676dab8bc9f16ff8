-- Keep equivalent to ../sqlite/0012_teams.sql.
--
-- Team tournaments (issue 54): `format` may be 'team_swiss' or 'team_round_robin'.
ALTER TABLE tournaments DROP CONSTRAINT tournaments_format_check;
ALTER TABLE tournaments ADD CONSTRAINT tournaments_format_check
    CHECK (format IN ('swiss', 'round_robin', 'double_round_robin', 'arena', 'knockout', 'team_swiss', 'team_round_robin'));
