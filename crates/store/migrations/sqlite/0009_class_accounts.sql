-- Keep equivalent to ../postgres/0009_class_accounts.sql (INTEGER here, BIGINT there).
--
-- Accounts an organiser creates for a class or a club at once (issue 51): each starts at the
-- §11 points of the level the organiser gave, with no password, and is claimed once with a
-- printed first-log-in code, when its player chooses a password. The row stays after the
-- claim (code_hash NULL), so the organiser can list the class and see who has logged in.
CREATE TABLE class_accounts (
    user_id       INTEGER PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    organiser_id  INTEGER NOT NULL REFERENCES users (id),
    created_at_ms INTEGER NOT NULL,
    code_hash     TEXT,                            -- SHA-256 of the code, never the code
    expires_at_ms INTEGER NOT NULL                 -- the code is refused from then on
) STRICT;

CREATE INDEX class_accounts_organiser ON class_accounts (organiser_id, created_at_ms);
