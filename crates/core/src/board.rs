//! Piece placement: which piece stands on which square.

use core::fmt;

use crate::{Bitboard, Color, File, Piece, Rank, Role, Square};

/// The placement of the pieces, one bitboard per role and per colour. Any placement can be
/// represented, legal or not; [`crate::Position`] is where legality is checked.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    by_role: [Bitboard; 6],
    by_color: [Bitboard; 2],
}

impl Board {
    /// A board with no pieces.
    pub const fn empty() -> Board {
        Board { by_role: [Bitboard::EMPTY; 6], by_color: [Bitboard::EMPTY; 2] }
    }

    /// The board of the twelve piece sets, indexed by colour then role; the sets must not
    /// overlap.
    pub(crate) fn from_piece_sets(sets: &[[Bitboard; 6]; 2]) -> Board {
        let mut board = Board::empty();
        for color in Color::ALL {
            for role in Role::ALL {
                let set = sets[color.index()][role.index()];
                board.by_role[role.index()] |= set;
                board.by_color[color.index()] |= set;
            }
        }
        board
    }

    /// The standard starting placement (RULES.md §1).
    pub const fn standard() -> Board {
        Board {
            by_role: [
                Bitboard(0x00ff_0000_0000_ff00),
                Bitboard(0x4200_0000_0000_0042),
                Bitboard(0x2400_0000_0000_0024),
                Bitboard(0x8100_0000_0000_0081),
                Bitboard(0x0800_0000_0000_0008),
                Bitboard(0x1000_0000_0000_0010),
            ],
            by_color: [Bitboard(0xffff), Bitboard(0xffff_0000_0000_0000)],
        }
    }

    /// All occupied squares.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// The squares holding pieces of `color`.
    #[inline]
    pub fn by_color(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// The squares holding pieces of `role`, of either colour.
    #[inline]
    pub fn by_role(&self, role: Role) -> Bitboard {
        self.by_role[role.index()]
    }

    /// The squares holding `piece`.
    #[inline]
    pub fn by_piece(&self, piece: Piece) -> Bitboard {
        self.by_role(piece.role) & self.by_color(piece.color)
    }

    /// Bishops and queens (the diagonal sliders) of either colour.
    #[inline]
    pub fn diagonal_sliders(&self) -> Bitboard {
        self.by_role(Role::Bishop) | self.by_role(Role::Queen)
    }

    /// Rooks and queens (the orthogonal sliders) of either colour.
    #[inline]
    pub fn orthogonal_sliders(&self) -> Bitboard {
        self.by_role(Role::Rook) | self.by_role(Role::Queen)
    }

    /// The square of the king of `color`, if there is exactly one.
    #[inline]
    pub fn king_of(&self, color: Color) -> Option<Square> {
        (self.by_role(Role::King) & self.by_color(color)).single_square()
    }

    /// The colour of the piece on `sq`, if any.
    #[inline]
    pub fn color_at(&self, sq: Square) -> Option<Color> {
        if self.by_color[0].contains(sq) {
            Some(Color::White)
        } else if self.by_color[1].contains(sq) {
            Some(Color::Black)
        } else {
            None
        }
    }

    /// The role of the piece on `sq`, if any.
    #[inline]
    pub fn role_at(&self, sq: Square) -> Option<Role> {
        if !self.occupied().contains(sq) {
            return None;
        }
        Role::ALL.into_iter().find(|role| self.by_role[role.index()].contains(sq))
    }

    /// The piece on `sq`, if any.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        Some(Piece { color: self.color_at(sq)?, role: self.role_at(sq)? })
    }

    /// Puts `piece` on the empty square `sq`. Putting a piece on an occupied square leaves the
    /// board inconsistent: use [`Board::set_piece_at`] when unsure.
    #[inline]
    pub fn put(&mut self, piece: Piece, sq: Square) {
        self.by_role[piece.role.index()].toggle(sq);
        self.by_color[piece.color.index()].toggle(sq);
    }

    /// Removes `piece` from `sq`, where it stands.
    #[inline]
    pub fn take(&mut self, piece: Piece, sq: Square) {
        self.put(piece, sq);
    }

    /// Moves `piece` from `from` to the empty square `to`.
    #[inline]
    pub fn shift(&mut self, piece: Piece, from: Square, to: Square) {
        let mask = Bitboard::from_square(from) | Bitboard::from_square(to);
        self.by_role[piece.role.index()] ^= mask;
        self.by_color[piece.color.index()] ^= mask;
    }

    /// Removes whatever stands on `sq` and returns it.
    pub fn remove_piece_at(&mut self, sq: Square) -> Option<Piece> {
        let piece = self.piece_at(sq)?;
        self.take(piece, sq);
        Some(piece)
    }

    /// Places `piece` on `sq`, replacing whatever stood there.
    pub fn set_piece_at(&mut self, sq: Square, piece: Piece) {
        self.remove_piece_at(sq);
        self.put(piece, sq);
    }

    /// Every piece with its square, `a1` first.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.occupied().into_iter().filter_map(|sq| Some((sq, self.piece_at(sq)?)))
    }
}

impl Default for Board {
    fn default() -> Board {
        Board::standard()
    }
}

impl fmt::Debug for Board {
    /// Eight lines of FEN letters, rank 8 first, `.` for empty squares.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in Rank::ALL.iter().rev() {
            for file in File::ALL {
                let sq = Square::from_coords(file, *rank);
                write!(f, "{}", self.piece_at(sq).map_or('.', Piece::char))?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}
