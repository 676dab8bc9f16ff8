-- Keep equivalent to ../sqlite/0011_knockout.sql.
--
-- Knockout tournaments (issue 54): `format` may be 'knockout'.
ALTER TABLE tournaments DROP CONSTRAINT tournaments_format_check;
ALTER TABLE tournaments ADD CONSTRAINT tournaments_format_check
    CHECK (format IN ('swiss', 'round_robin', 'double_round_robin', 'arena', 'knockout'));
