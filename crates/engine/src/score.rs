//! Search values: centipawns inside the search, mate distances at the edges.
//!
//! The search works on plain `i32` values. Mates are `MATE - ply` (mating) and `-MATE + ply`
//! (getting mated) counted from the root, so that shorter mates score higher; the
//! transposition table stores them relative to the node instead (see [`value_to_tt`]).

use core::fmt;

/// The deepest ply the search reaches (also the length of its stacks).
pub const MAX_PLY: usize = 128;

/// The value of delivering mate at the root; mate in `n` plies is `MATE - n`.
pub(crate) const MATE: i32 = 32_000;
/// Greater than every value.
pub(crate) const INFINITE: i32 = 32_001;
/// Values at or above this are mates found in the tree.
pub(crate) const MATE_IN_MAX_PLY: i32 = MATE - MAX_PLY as i32;
/// The value of a draw.
pub(crate) const DRAW: i32 = 0;

/// `true` for values that announce a mate, for either side.
pub(crate) const fn is_mate(value: i32) -> bool {
    value.abs() >= MATE_IN_MAX_PLY
}

/// Mate values made relative to the node at `ply`, for storing in the transposition table: a
/// mate found through a transposition is as far from that node as it was when stored.
pub(crate) const fn value_to_tt(value: i32, ply: usize) -> i32 {
    if value >= MATE_IN_MAX_PLY {
        value + ply as i32
    } else if value <= -MATE_IN_MAX_PLY {
        value - ply as i32
    } else {
        value
    }
}

/// The inverse of [`value_to_tt`]. A mate score that would lie beyond the root's reach while
/// the fifty-move counter runs out is clamped to just below a mate, as Stockfish does
/// (`value_from_tt`), so that a stale mate never outlives a draw by the fifty-move rule.
pub(crate) const fn value_from_tt(value: i32, ply: usize, halfmoves: u32) -> i32 {
    if value >= MATE_IN_MAX_PLY {
        if MATE - value > 99 - halfmoves as i32 {
            MATE_IN_MAX_PLY - 1
        } else {
            value - ply as i32
        }
    } else if value <= -MATE_IN_MAX_PLY {
        if MATE + value > 99 - halfmoves as i32 {
            -MATE_IN_MAX_PLY + 1
        } else {
            value + ply as i32
        }
    } else {
        value
    }
}

/// A search result for people: centipawns from the side to move's point of view, or a mate
/// in moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Score {
    /// Centipawns (a pawn is about 100).
    Centipawns(i32),
    /// Mate in this many moves (not plies); negative when the side to move gets mated.
    /// `Mate(0)` is never produced: a mated side has no move to search.
    Mate(i32),
}

impl Score {
    /// The score of a search value.
    pub(crate) const fn from_value(value: i32) -> Score {
        if value >= MATE_IN_MAX_PLY {
            Score::Mate((MATE - value + 1) / 2)
        } else if value <= -MATE_IN_MAX_PLY {
            Score::Mate(-(MATE + value) / 2)
        } else {
            Score::Centipawns(value)
        }
    }

    /// `true` for a mate in favour of the side to move.
    pub const fn is_winning_mate(self) -> bool {
        matches!(self, Score::Mate(n) if n > 0)
    }
}

impl fmt::Display for Score {
    /// `+0.35`, `-1.20`, `#3`, `#-2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Score::Centipawns(cp) => {
                let sign = if cp < 0 { "-" } else { "+" };
                write!(f, "{sign}{}.{:02}", cp.abs() / 100, cp.abs() % 100)
            }
            Score::Mate(n) => write!(f, "#{n}"),
        }
    }
}

/// What a search value says about the true value of a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bound {
    /// The true value: the search stayed inside its window.
    Exact,
    /// At least this: the search failed high.
    Lower,
    /// At most this: the search failed low.
    Upper,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_values_become_moves() {
        assert_eq!(Score::from_value(MATE - 1), Score::Mate(1));
        assert_eq!(Score::from_value(MATE - 3), Score::Mate(2));
        assert_eq!(Score::from_value(MATE - 5), Score::Mate(3));
        assert_eq!(Score::from_value(-MATE + 2), Score::Mate(-1));
        assert_eq!(Score::from_value(-MATE + 4), Score::Mate(-2));
        assert_eq!(Score::from_value(35), Score::Centipawns(35));
        assert_eq!(Score::Centipawns(-120).to_string(), "-1.20");
        assert_eq!(Score::Centipawns(5).to_string(), "+0.05");
        assert_eq!(Score::Mate(-2).to_string(), "#-2");
    }

    #[test]
    fn tt_values_round_trip() {
        for value in [MATE - 17, -MATE + 18, 123, -45] {
            for ply in [0, 3, 10] {
                assert_eq!(value_from_tt(value_to_tt(value, ply), ply, 0), value);
            }
        }
        // A mate stored near a fifty-move draw no longer counts as a mate.
        assert!(value_from_tt(MATE - 20, 0, 95) < MATE_IN_MAX_PLY);
    }
}
