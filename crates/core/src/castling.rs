//! Castling rights (RULES.md §3): which of the four castlings are still possible in principle.

use core::fmt;

use crate::{Color, Square};

/// The side of the board a castling goes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CastlingSide {
    /// Short castling, towards the h-file (`O-O`).
    KingSide,
    /// Long castling, towards the a-file (`O-O-O`).
    QueenSide,
}

impl CastlingSide {
    /// Both sides, king side first.
    pub const ALL: [CastlingSide; 2] = [CastlingSide::KingSide, CastlingSide::QueenSide];

    /// Where the king starts: `e1` or `e8`.
    #[inline]
    pub const fn king_from(color: Color) -> Square {
        match color {
            Color::White => Square::E1,
            Color::Black => Square::E8,
        }
    }

    /// Where the king lands: `g1`, `c1`, `g8` or `c8`.
    #[inline]
    pub const fn king_to(self, color: Color) -> Square {
        match (self, color) {
            (CastlingSide::KingSide, Color::White) => Square::G1,
            (CastlingSide::QueenSide, Color::White) => Square::C1,
            (CastlingSide::KingSide, Color::Black) => Square::G8,
            (CastlingSide::QueenSide, Color::Black) => Square::C8,
        }
    }

    /// Where the rook starts: a corner.
    #[inline]
    pub const fn rook_from(self, color: Color) -> Square {
        match (self, color) {
            (CastlingSide::KingSide, Color::White) => Square::H1,
            (CastlingSide::QueenSide, Color::White) => Square::A1,
            (CastlingSide::KingSide, Color::Black) => Square::H8,
            (CastlingSide::QueenSide, Color::Black) => Square::A8,
        }
    }

    /// Where the rook lands: the square the king passed (`f1`, `d1`, `f8`, `d8`).
    #[inline]
    pub const fn rook_to(self, color: Color) -> Square {
        match (self, color) {
            (CastlingSide::KingSide, Color::White) => Square::F1,
            (CastlingSide::QueenSide, Color::White) => Square::D1,
            (CastlingSide::KingSide, Color::Black) => Square::F8,
            (CastlingSide::QueenSide, Color::Black) => Square::D8,
        }
    }
}

/// A set of the four castling rights, as in the FEN castling field (`KQkq`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct CastlingRights(u8);

impl CastlingRights {
    /// No castling right.
    pub const NONE: CastlingRights = CastlingRights(0);
    /// All four rights.
    pub const ALL: CastlingRights = CastlingRights(0b1111);
    /// White may castle short (`K`).
    pub const WHITE_KING_SIDE: CastlingRights = CastlingRights(0b0001);
    /// White may castle long (`Q`).
    pub const WHITE_QUEEN_SIDE: CastlingRights = CastlingRights(0b0010);
    /// Black may castle short (`k`).
    pub const BLACK_KING_SIDE: CastlingRights = CastlingRights(0b0100);
    /// Black may castle long (`q`).
    pub const BLACK_QUEEN_SIDE: CastlingRights = CastlingRights(0b1000);

    /// The right of `color` to castle on `side`.
    #[inline]
    pub const fn single(color: Color, side: CastlingSide) -> CastlingRights {
        let bit = match side {
            CastlingSide::KingSide => 0,
            CastlingSide::QueenSide => 1,
        };
        CastlingRights(1 << (2 * color as u8 + bit))
    }

    /// The rights as four bits: `K` = 1, `Q` = 2, `k` = 4, `q` = 8.
    #[inline]
    pub const fn bits(self) -> u8 {
        self.0
    }

    /// `true` if every right in `other` is in `self`.
    #[inline]
    pub const fn contains(self, other: CastlingRights) -> bool {
        self.0 & other.0 == other.0
    }

    /// `true` if `color` may still castle on `side`.
    #[inline]
    pub const fn has(self, color: Color, side: CastlingSide) -> bool {
        self.contains(CastlingRights::single(color, side))
    }

    /// `true` if no right is left.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The rights of `color` only.
    #[inline]
    pub const fn of(self, color: Color) -> CastlingRights {
        CastlingRights(self.0 & (0b11 << (2 * color as u8)))
    }

    /// Both sets together.
    #[inline]
    pub const fn union(self, other: CastlingRights) -> CastlingRights {
        CastlingRights(self.0 | other.0)
    }

    /// `self` without the rights in `other`.
    #[inline]
    pub const fn without(self, other: CastlingRights) -> CastlingRights {
        CastlingRights(self.0 & !other.0)
    }

    /// The rights that survive a move touching `sq` (from or to): moving the king or a rook, or
    /// capturing a rook on its corner, ends the rights that depend on it (§3).
    #[inline]
    pub fn after_touching(self, sq: Square) -> CastlingRights {
        CastlingRights(self.0 & KEEP[sq.index()])
    }
}

const fn keep_table() -> [u8; 64] {
    let mut t = [0b1111; 64];
    t[Square::E1 as usize] = 0b1100;
    t[Square::H1 as usize] = 0b1110;
    t[Square::A1 as usize] = 0b1101;
    t[Square::E8 as usize] = 0b0011;
    t[Square::H8 as usize] = 0b1011;
    t[Square::A8 as usize] = 0b0111;
    t
}

static KEEP: [u8; 64] = keep_table();

impl fmt::Display for CastlingRights {
    /// The FEN castling field: `KQkq`, a subset of it, or `-`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("-");
        }
        for (bit, c) in [(1, 'K'), (2, 'Q'), (4, 'k'), (8, 'q')] {
            if self.0 & bit != 0 {
                write!(f, "{c}")?;
            }
        }
        Ok(())
    }
}
