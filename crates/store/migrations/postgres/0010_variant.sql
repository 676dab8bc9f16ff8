-- Keep equivalent to ../sqlite/0010_variant.sql.
--
-- What a game is played as (issue 55): `standard`, or `chess960` (RULES.md §13), whose start
-- position is then the game's initial_fen and whose moves are read in Chess960's castling
-- mode (`e1h1`, the king taking its own rook). Every game stored before it: standard.
ALTER TABLE games ADD COLUMN variant TEXT NOT NULL DEFAULT 'standard'
    CHECK (variant IN ('standard', 'chess960'));
