//! Castling (RULES.md §3, §13): which of the four castlings are still possible in principle,
//! with which rook, and how castling moves are written (the castling mode).

use core::fmt;

use crate::{Color, File, Rank, Square};

/// How a position writes castling: as the king's two-square move (`e1g1`, standard chess), or
/// as the king taking its own rook (`e1h1`, Chess960, RULES.md §13), which also allows castling
/// rights with rooks on any file of the back rank.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum CastlingMode {
    /// Standard chess: the king starts on the e-file and castles with the corner rooks.
    #[default]
    Standard,
    /// Chess960 (Fischer random): king and rooks anywhere on the back rank, the king between
    /// its rooks.
    Chess960,
}

impl CastlingMode {
    /// `true` for Chess960.
    #[inline]
    pub const fn is_chess960(self) -> bool {
        matches!(self, CastlingMode::Chess960)
    }
}

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

    /// Where the king starts in standard chess: `e1` or `e8` (in Chess960 wherever it stands
    /// while it keeps a castling right).
    #[inline]
    pub const fn standard_king_from(color: Color) -> Square {
        match color {
            Color::White => Square::E1,
            Color::Black => Square::E8,
        }
    }

    /// The file of the standard rook of this side: `h` or `a`.
    #[inline]
    pub const fn standard_rook_file(self) -> File {
        match self {
            CastlingSide::KingSide => File::H,
            CastlingSide::QueenSide => File::A,
        }
    }

    /// Where the rook of this side starts in standard chess: a corner.
    #[inline]
    pub const fn standard_rook_from(self, color: Color) -> Square {
        match (self, color) {
            (CastlingSide::KingSide, Color::White) => Square::H1,
            (CastlingSide::QueenSide, Color::White) => Square::A1,
            (CastlingSide::KingSide, Color::Black) => Square::H8,
            (CastlingSide::QueenSide, Color::Black) => Square::A8,
        }
    }

    /// The side a rook on `rook` castles to with a king on `king` (same rank): king side when
    /// the rook is towards the h-file.
    #[inline]
    pub const fn of_rook(king: Square, rook: Square) -> CastlingSide {
        if (rook as u8) > (king as u8) {
            CastlingSide::KingSide
        } else {
            CastlingSide::QueenSide
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

    /// The rights that survive a move touching `from` and `to` in standard chess, where every
    /// right's king stands on e1/e8 and its rook in a corner: a table lookup a square, the
    /// cheap case of [`Castles::after_move`] for every move of a standard game.
    #[inline]
    pub fn after_touching_standard(self, from: Square, to: Square) -> CastlingRights {
        CastlingRights(self.0 & KEEP[from.index()] & KEEP[to.index()])
    }

    /// The index of a single right (0–3: `K`, `Q`, `k`, `q`).
    #[inline]
    const fn index(color: Color, side: CastlingSide) -> usize {
        2 * color as usize
            + match side {
                CastlingSide::KingSide => 0,
                CastlingSide::QueenSide => 1,
            }
    }
}

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

/// The castling rights together with the rook each right castles with (RULES.md §3, §13): in
/// standard chess always the corner rooks, in Chess960 any rook of the back rank on that side
/// of the king.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Castles {
    rights: CastlingRights,
    /// The rook's file of each right (by [`CastlingRights::index`]); the standard file for a
    /// right not held, so that equal rights compare equal.
    files: [File; 4],
}

const STANDARD_FILES: [File; 4] = [File::H, File::A, File::H, File::A];

impl Castles {
    /// No castling right.
    pub const NONE: Castles = Castles { rights: CastlingRights::NONE, files: STANDARD_FILES };
    /// The four rights of the standard start, with the corner rooks.
    pub const STANDARD: Castles = Castles { rights: CastlingRights::ALL, files: STANDARD_FILES };

    /// The rights, without their rooks.
    #[inline]
    pub const fn rights(self) -> CastlingRights {
        self.rights
    }

    /// The rook `color` castles with on `side`, if it keeps that right.
    #[inline]
    pub const fn rook(self, color: Color, side: CastlingSide) -> Option<Square> {
        if self.rights.has(color, side) {
            let rank = match color {
                Color::White => Rank::First,
                Color::Black => Rank::Eighth,
            };
            Some(Square::from_coords(self.files[CastlingRights::index(color, side)], rank))
        } else {
            None
        }
    }

    /// These rights and the right of `color` to castle on `side` with the rook on `file`.
    #[inline]
    pub const fn with(mut self, color: Color, side: CastlingSide, file: File) -> Castles {
        self.rights = self.rights.union(CastlingRights::single(color, side));
        self.files[CastlingRights::index(color, side)] = file;
        self
    }

    /// These rights without those in `lost`.
    #[inline]
    pub const fn without(mut self, lost: CastlingRights) -> Castles {
        self.rights = self.rights.without(lost);
        let mut i = 0;
        while i < 4 {
            if lost.0 & (1 << i) != 0 {
                self.files[i] = STANDARD_FILES[i];
            }
            i += 1;
        }
        self
    }

    /// Keeps only `kept` of the rights of a standard-chess position, whose rooks are all in the
    /// corners already: the files need no reset, which [`Castles::without`] would spend a loop
    /// on at every move that ends a right.
    #[inline]
    pub(crate) fn keep_standard(&mut self, kept: CastlingRights) {
        self.rights = kept;
    }

    /// `true` if every right castles with a corner rook, as in standard chess.
    #[inline]
    pub fn is_standard(self) -> bool {
        self.files == STANDARD_FILES
    }

    /// The rights that survive a move from `from` to `to` by `mover` (RULES.md §3): moving the
    /// king ends both of its side's rights, moving a castling rook or capturing it ends its
    /// right.
    #[inline]
    pub fn after_move(self, mover: Color, king_moved: bool, from: Square, to: Square) -> Castles {
        if self.rights.is_empty() {
            return self;
        }
        let mut lost =
            if king_moved { CastlingRights::ALL.of(mover) } else { CastlingRights::NONE };
        let mut i = 0;
        while i < 4 {
            if self.rights.0 & (1 << i) != 0 {
                let rank = if i < 2 { Rank::First } else { Rank::Eighth };
                let rook = Square::from_coords(self.files[i], rank);
                if rook as u8 == from as u8 || rook as u8 == to as u8 {
                    lost = lost.union(CastlingRights(1 << i));
                }
            }
            i += 1;
        }
        if lost.is_empty() {
            self
        } else {
            self.without(lost)
        }
    }
}

/// The rights a standard-chess move keeps when it touches each square: all but those of a
/// king's home square (both of its side's) and of a corner (that rook's).
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
