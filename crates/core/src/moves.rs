//! Moves in a compact 16-bit form, and a move list that lives on the stack.

use core::fmt;
use core::ops::Deref;

use crate::{CastlingSide, Role, Square};

/// What kind of move a [`Move`] is, beyond its from and to squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// Any move that is not one of the special kinds below, captures and double pawn steps
    /// included.
    Normal,
    /// A pawn capturing en passant (RULES.md §3).
    EnPassant,
    /// Castling: from the king's square to its landing square in standard chess (`e1g1`), to
    /// its own rook's square in Chess960 (`e1h1`), as the position writes it.
    Castle,
    /// A pawn move to the last rank, becoming the given role (§3).
    Promotion(Role),
}

/// A move: from, to and kind packed in 16 bits (6 + 6 + 4).
///
/// A `Move` only means something together with the position it was generated in; it does not
/// say which piece moves or what it captures.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move(u16);

const KIND_NORMAL: u16 = 0;
const KIND_EN_PASSANT: u16 = 1;
const KIND_CASTLE: u16 = 2;
/// Promotions are 4 + role index − 1: knight 4, bishop 5, rook 6, queen 7.
const KIND_PROMOTION: u16 = 3;

impl Move {
    #[inline]
    const fn pack(from: Square, to: Square, kind: u16) -> Move {
        Move(from as u16 | (to as u16) << 6 | kind << 12)
    }

    /// A normal move (including captures and pawn double steps).
    #[inline]
    pub const fn normal(from: Square, to: Square) -> Move {
        Move::pack(from, to, KIND_NORMAL)
    }

    /// An en passant capture by the pawn on `from` to the empty square `to`.
    #[inline]
    pub const fn en_passant(from: Square, to: Square) -> Move {
        Move::pack(from, to, KIND_EN_PASSANT)
    }

    /// Castling, given by the king's square and, as the position writes castling, the king's
    /// landing square (standard chess) or the rook's square (Chess960); see
    /// [`crate::Position::castling_move`].
    #[inline]
    pub const fn castle(king_from: Square, king_to: Square) -> Move {
        Move::pack(king_from, king_to, KIND_CASTLE)
    }

    /// A promotion to `role`, which should be a knight, bishop, rook or queen.
    #[inline]
    pub const fn promotion(from: Square, to: Square, role: Role) -> Move {
        Move::pack(from, to, KIND_PROMOTION + role as u16)
    }

    /// A normal move, or a promotion to `promotion` (a knight, bishop, rook or queen) when
    /// given: [`Move::new`] for the kinds SAN reads, without a branch on the kind.
    #[inline(always)]
    pub(crate) const fn normal_or_promotion(
        from: Square,
        to: Square,
        promotion: Option<Role>,
    ) -> Move {
        let kind = match promotion {
            Some(role) => KIND_PROMOTION + role as u16,
            None => KIND_NORMAL,
        };
        Move::pack(from, to, kind)
    }

    /// A move of the given kind.
    #[inline]
    pub const fn new(from: Square, to: Square, kind: MoveKind) -> Move {
        match kind {
            MoveKind::Normal => Move::normal(from, to),
            MoveKind::EnPassant => Move::en_passant(from, to),
            MoveKind::Castle => Move::castle(from, to),
            MoveKind::Promotion(role) => Move::promotion(from, to, role),
        }
    }

    /// The square the piece leaves (the king's square for castling).
    #[inline]
    pub const fn from(self) -> Square {
        Square::from_index_wrapping(self.0 as u32)
    }

    /// The square the piece lands on (for castling: the king's landing square in standard
    /// chess, the rook's square in Chess960).
    #[inline]
    pub const fn to(self) -> Square {
        Square::from_index_wrapping((self.0 >> 6) as u32)
    }

    /// The move's kind.
    #[inline]
    pub const fn kind(self) -> MoveKind {
        match self.0 >> 12 {
            KIND_NORMAL => MoveKind::Normal,
            KIND_EN_PASSANT => MoveKind::EnPassant,
            KIND_CASTLE => MoveKind::Castle,
            k => MoveKind::Promotion(Role::ALL[((k - KIND_PROMOTION) as usize) % 6]),
        }
    }

    /// The role promoted to, for promotions.
    #[inline]
    pub const fn promotion_role(self) -> Option<Role> {
        match self.kind() {
            MoveKind::Promotion(role) => Some(role),
            _ => None,
        }
    }

    /// `true` for castling.
    #[inline]
    pub const fn is_castle(self) -> bool {
        self.0 >> 12 == KIND_CASTLE
    }

    /// `true` for en passant captures.
    #[inline]
    pub const fn is_en_passant(self) -> bool {
        self.0 >> 12 == KIND_EN_PASSANT
    }

    /// The side of a castling move.
    pub const fn castling_side(self) -> Option<CastlingSide> {
        if !self.is_castle() {
            None
        } else if (self.to() as u8) > (self.from() as u8) {
            Some(CastlingSide::KingSide)
        } else {
            Some(CastlingSide::QueenSide)
        }
    }

    /// The raw 16 bits, for compact storage (transposition tables, files).
    #[inline]
    pub const fn to_bits(self) -> u16 {
        self.0
    }

    /// The move with these raw bits, as given by [`Move::to_bits`]. Bits that do not come from
    /// a real move make a move that no position will accept as legal.
    #[inline]
    pub const fn from_bits(bits: u16) -> Move {
        Move(bits)
    }

    /// The move in UCI long algebraic notation: `e2e4`, `e7e8q`, castling as `e1g1`
    /// (RULES.md §10). Equal to the [`Display`](fmt::Display) form.
    pub fn to_uci(self) -> String {
        self.to_string()
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())?;
        if let Some(role) = self.promotion_role() {
            write!(f, "{}", role.char())?;
        }
        Ok(())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Move({self})")
    }
}

/// The most moves a legal position can have is 218; positions are validated so that no
/// position has more (see [`crate::PositionError::TooMuchMaterial`]).
pub const MAX_LEGAL_MOVES: usize = 256;

/// A list of moves with room for every legal move of any position, on the stack: generating
/// moves into it never allocates.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_LEGAL_MOVES],
    len: usize,
}

impl MoveList {
    /// An empty list.
    #[inline]
    pub const fn new() -> MoveList {
        MoveList { moves: [Move(0); MAX_LEGAL_MOVES], len: 0 }
    }

    /// Appends `m`.
    ///
    /// # Panics
    /// If the list already holds [`MAX_LEGAL_MOVES`] moves, which no legal position produces.
    #[inline]
    pub fn push(&mut self, m: Move) {
        self.moves[self.len] = m;
        self.len += 1;
    }

    /// Empties the list.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Keeps only the moves for which `f` is true, in order.
    pub fn retain(&mut self, mut f: impl FnMut(Move) -> bool) {
        let mut kept = 0;
        for i in 0..self.len {
            let m = self.moves[i];
            if f(m) {
                self.moves[kept] = m;
                kept += 1;
            }
        }
        self.len = kept;
    }

    /// The moves as a mutable slice (for sorting).
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }
}

impl Default for MoveList {
    fn default() -> MoveList {
        MoveList::new()
    }
}

impl Deref for MoveList {
    type Target = [Move];

    #[inline]
    fn deref(&self) -> &[Move] {
        &self.moves[..self.len]
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = core::slice::Iter<'a, Move>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packs_and_unpacks() {
        for from in Square::ALL {
            for to in [Square::A1, Square::H8, Square::E4] {
                for kind in [
                    MoveKind::Normal,
                    MoveKind::EnPassant,
                    MoveKind::Castle,
                    MoveKind::Promotion(Role::Knight),
                    MoveKind::Promotion(Role::Queen),
                ] {
                    let m = Move::new(from, to, kind);
                    assert_eq!((m.from(), m.to(), m.kind()), (from, to, kind));
                    assert_eq!(Move::from_bits(m.to_bits()), m);
                }
            }
        }
        assert_eq!(Move::promotion(Square::E7, Square::E8, Role::Queen).to_uci(), "e7e8q");
        assert_eq!(Move::castle(Square::E1, Square::G1).to_string(), "e1g1");
    }
}
