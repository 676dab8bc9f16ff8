//! Moves as UCI writes them: long algebraic notation, checked for syntax only.

use core::fmt;
use core::str::FromStr;

use rookery_core::{Move, Position, Role, Square};

use crate::ParseError;

/// A move in UCI's long algebraic notation: `e2e4`, `e7e8q`, castling as the king's move
/// `e1g1`, and the null move `0000`.
///
/// Syntax only: whether the move is legal is a question for a position, answered by
/// [`UciMove::to_move`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UciMove {
    /// A move from one square to another, with the role a pawn promotes to.
    Normal {
        /// The square the piece leaves.
        from: Square,
        /// The square it lands on.
        to: Square,
        /// The promotion role (`q`, `r`, `b` or `n`).
        promotion: Option<Role>,
    },
    /// `0000`: no move. An engine answers `bestmove 0000` when it has no legal move.
    Null,
}

/// A well-formed UCI move that is not legal in the position it was played in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IllegalMove(pub UciMove);

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "illegal move {}", self.0)
    }
}

impl std::error::Error for IllegalMove {}

impl UciMove {
    /// Reads a move; `None` unless `text` is `0000` or two squares and an optional promotion
    /// letter among `q r b n`.
    pub fn from_ascii(text: &[u8]) -> Option<UciMove> {
        if text == b"0000" {
            return Some(UciMove::Null);
        }
        let (squares, promotion) = match text.len() {
            4 => (text, None),
            5 => {
                let role = match text[4] {
                    b'q' => Role::Queen,
                    b'r' => Role::Rook,
                    b'b' => Role::Bishop,
                    b'n' => Role::Knight,
                    _ => return None,
                };
                (&text[..4], Some(role))
            }
            _ => return None,
        };
        let from = Square::from_ascii(&squares[..2]).ok()?;
        let to = Square::from_ascii(&squares[2..]).ok()?;
        Some(UciMove::Normal { from, to, promotion })
    }

    /// The UCI form of a move.
    pub fn from_move(m: Move) -> UciMove {
        UciMove::Normal { from: m.from(), to: m.to(), promotion: m.promotion_role() }
    }

    /// The legal move of `pos` that this denotes.
    ///
    /// # Errors
    /// [`IllegalMove`] if no legal move of `pos` is written this way (the null move never is).
    pub fn to_move(self, pos: &Position) -> Result<Move, IllegalMove> {
        let mut found = None;
        pos.for_each_legal_move(|m| {
            if UciMove::from_move(m) == self {
                found = Some(m);
            }
        });
        found.ok_or(IllegalMove(self))
    }
}

impl From<Move> for UciMove {
    fn from(m: Move) -> UciMove {
        UciMove::from_move(m)
    }
}

impl FromStr for UciMove {
    type Err = ParseError;

    fn from_str(s: &str) -> Result<UciMove, ParseError> {
        UciMove::from_ascii(s.as_bytes()).ok_or_else(|| ParseError::BadMove(s.to_owned()))
    }
}

impl fmt::Display for UciMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UciMove::Normal { from, to, promotion } => {
                write!(f, "{from}{to}")?;
                if let Some(role) = promotion {
                    write!(f, "{}", role.char())?;
                }
                Ok(())
            }
            UciMove::Null => f.write_str("0000"),
        }
    }
}

/// Writes moves separated by single spaces.
pub(crate) fn write_moves(f: &mut fmt::Formatter<'_>, moves: &[UciMove]) -> fmt::Result {
    for m in moves {
        write!(f, " {m}")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_formats() {
        for text in ["e2e4", "e7e8q", "a2a1n", "e1g1", "0000", "h7h8r", "b2b1b"] {
            let m: UciMove = text.parse().unwrap();
            assert_eq!(m.to_string(), text);
        }
        for bad in ["", "e2", "e2e9", "e7e8k", "e7e8Q", "i2i4", "e2e4e5", "00000"] {
            assert_eq!(bad.parse::<UciMove>(), Err(ParseError::BadMove(bad.to_owned())), "{bad}");
        }
    }

    #[test]
    fn resolves_against_a_position() {
        let pos = Position::new();
        let m = "g1f3".parse::<UciMove>().unwrap().to_move(&pos).unwrap();
        assert_eq!(m.to_uci(), "g1f3");
        let bad: UciMove = "e2e5".parse().unwrap();
        assert_eq!(bad.to_move(&pos), Err(IllegalMove(bad)));
        assert_eq!(UciMove::Null.to_move(&pos), Err(IllegalMove(UciMove::Null)));
        let castle: Position = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1".parse().expect("valid FEN");
        let m = "e1c1".parse::<UciMove>().unwrap().to_move(&castle).unwrap();
        assert!(m.is_castle());
    }
}
