-- Keep equivalent to ../sqlite/0009_class_accounts.sql (BIGINT here, INTEGER there).
--
-- Accounts an organiser creates for a class or a club at once (issue 51): each starts at the
-- §11 points of the level the organiser gave, with no password, and is claimed once with a
-- printed first-log-in code, when its player chooses a password. The row stays after the
-- claim (code_hash NULL), so the organiser can list the class and see who has logged in.
CREATE TABLE class_accounts (
    user_id       BIGINT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    organiser_id  BIGINT NOT NULL REFERENCES users (id),
    created_at_ms BIGINT NOT NULL,
    code_hash     TEXT COLLATE "C",                -- SHA-256 of the code, never the code
    expires_at_ms BIGINT NOT NULL                  -- the code is refused from then on
);

CREATE INDEX class_accounts_organiser ON class_accounts (organiser_id, created_at_ms);
