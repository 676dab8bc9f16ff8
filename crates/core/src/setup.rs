//! A position as written down, not yet checked: the raw twin of [`crate::Position`].

use crate::{Board, Castles, Color, Square};

/// Everything a FEN says, without any guarantee that it describes a legal position.
/// [`crate::Position::from_setup`] is the one way from here to a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    /// The pieces.
    pub board: Board,
    /// The side to move.
    pub turn: Color,
    /// The castling rights, with the rook of each.
    pub castling: Castles,
    /// The square a pawn just passed over with a double step, if any.
    pub ep_square: Option<Square>,
    /// Plies since the last capture or pawn move (RULES.md §6.6).
    pub halfmoves: u32,
    /// The move number, starting at 1 and incremented after Black's move.
    pub fullmoves: u32,
}

impl Setup {
    /// The standard starting position.
    pub const fn standard() -> Setup {
        Setup {
            board: Board::standard(),
            turn: Color::White,
            castling: Castles::STANDARD,
            ep_square: None,
            halfmoves: 0,
            fullmoves: 1,
        }
    }

    /// An empty board, White to move, no rights.
    pub const fn empty() -> Setup {
        Setup {
            board: Board::empty(),
            turn: Color::White,
            castling: Castles::NONE,
            ep_square: None,
            halfmoves: 0,
            fullmoves: 1,
        }
    }
}

impl Default for Setup {
    fn default() -> Setup {
        Setup::standard()
    }
}
