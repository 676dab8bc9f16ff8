//! UCI move text (`e2e4`, `e7e8q`, castling as the king's move `e1g1` in standard chess and as
//! the king taking its rook `e1h1` in Chess960, the null move `0000`), both ways, and long
//! algebraic notation for people (`e2-e4`, `Ng1xf3`, `e7-e8=Q`).

use core::fmt;
use core::str::FromStr;

use crate::{Move, MoveKind, Position, Role, Square};

/// A move in UCI notation, parsed but not yet checked against a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UciMove {
    /// From, to and an optional promotion role.
    Normal {
        /// Where the piece starts.
        from: Square,
        /// Where it lands.
        to: Square,
        /// The promotion role.
        promotion: Option<Role>,
    },
    /// `0000`, the null move (UCI's "no move").
    Null,
}

/// Text that is not a UCI move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseUciMoveError {
    /// The offending text.
    pub text: String,
}

impl fmt::Display for ParseUciMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "not a UCI move (like e2e4 or e7e8q): {:?}", self.text)
    }
}

impl std::error::Error for ParseUciMoveError {}

/// A UCI move that is not legal in the position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalUciMove {
    /// The move.
    pub uci: UciMove,
    /// The position's FEN.
    pub fen: String,
}

impl fmt::Display for IllegalUciMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "illegal move {} in {}", self.uci, self.fen)
    }
}

impl std::error::Error for IllegalUciMove {}

impl UciMove {
    /// Parses UCI text: two squares and an optional lower-case promotion letter, or `0000`.
    ///
    /// # Errors
    /// [`ParseUciMoveError`] for anything else.
    pub fn from_ascii(text: &[u8]) -> Result<UciMove, ParseUciMoveError> {
        let err = || ParseUciMoveError { text: String::from_utf8_lossy(text).into_owned() };
        if text == b"0000" {
            return Ok(UciMove::Null);
        }
        if !(4..=5).contains(&text.len()) {
            return Err(err());
        }
        let from = Square::from_ascii(&text[0..2]).map_err(|_| err())?;
        let to = Square::from_ascii(&text[2..4]).map_err(|_| err())?;
        let promotion = match text.get(4) {
            None => None,
            Some(&c) if c.is_ascii_lowercase() => match Role::from_char(c as char) {
                Some(role) if Role::PROMOTIONS.contains(&role) => Some(role),
                _ => return Err(err()),
            },
            Some(_) => return Err(err()),
        };
        Ok(UciMove::Normal { from, to, promotion })
    }

    /// The UCI form of a move (castling as the position that made it writes it: `e1g1` in
    /// standard chess, `e1h1` in Chess960).
    pub fn from_move(m: Move) -> UciMove {
        UciMove::Normal { from: m.from(), to: m.to(), promotion: m.promotion_role() }
    }

    /// The legal move this names in `pos`.
    ///
    /// # Errors
    /// [`IllegalUciMove`] when no legal move matches (the null move never does).
    pub fn to_move(&self, pos: &Position) -> Result<Move, IllegalUciMove> {
        let illegal = || IllegalUciMove { uci: *self, fen: pos.to_fen() };
        let UciMove::Normal { from, to, promotion } = *self else { return Err(illegal()) };
        if promotion.is_none() && from == pos.king_of(pos.turn()) {
            if let Some(side) = crate::legality::castling_geometry(pos, from, to) {
                return pos.castling_move(side).filter(|&m| pos.is_legal(m)).ok_or_else(illegal);
            }
        }
        let kind = match (promotion, pos.board().role_at(from)) {
            (Some(role), _) => MoveKind::Promotion(role),
            (None, Some(Role::Pawn))
                if from.file() != to.file()
                    && pos.ep_square() == Some(to)
                    && !pos.board().occupied().contains(to) =>
            {
                MoveKind::EnPassant
            }
            _ => MoveKind::Normal,
        };
        let m = Move::new(from, to, kind);
        if pos.is_legal(m) {
            Ok(m)
        } else {
            Err(illegal())
        }
    }
}

impl From<Move> for UciMove {
    fn from(m: Move) -> UciMove {
        UciMove::from_move(m)
    }
}

impl fmt::Display for UciMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            UciMove::Null => f.write_str("0000"),
            UciMove::Normal { from, to, promotion } => {
                write!(f, "{from}{to}")?;
                if let Some(role) = promotion {
                    write!(f, "{}", role.char())?;
                }
                Ok(())
            }
        }
    }
}

impl FromStr for UciMove {
    type Err = ParseUciMoveError;

    fn from_str(s: &str) -> Result<UciMove, ParseUciMoveError> {
        UciMove::from_ascii(s.as_bytes())
    }
}

impl Position {
    /// Reads a move in UCI notation and finds it among the legal moves.
    ///
    /// # Errors
    /// A message naming the text and why it is not a legal move here.
    pub fn parse_uci(&self, text: &str) -> Result<Move, UciMoveError> {
        let uci = UciMove::from_ascii(text.as_bytes()).map_err(UciMoveError::Parse)?;
        uci.to_move(self).map_err(UciMoveError::Illegal)
    }

    /// The move in long algebraic notation, for people: `e2-e4`, `Ng1xf3`, `e7-e8=Q`, `O-O`
    /// (with `+` or `#`).
    pub fn lan(&self, m: Move) -> String {
        let mut out = match m.castling_side() {
            Some(crate::CastlingSide::KingSide) => "O-O".to_owned(),
            Some(crate::CastlingSide::QueenSide) => "O-O-O".to_owned(),
            None => {
                let mut s = String::with_capacity(8);
                if let Some(role) = self.board().role_at(m.from()).filter(|&r| r != Role::Pawn) {
                    s.push(role.upper_char());
                }
                s.push_str(&m.from().to_string());
                s.push(if self.is_capture(m) { 'x' } else { '-' });
                s.push_str(&m.to().to_string());
                if let Some(role) = m.promotion_role() {
                    s.push('=');
                    s.push(role.upper_char());
                }
                s
            }
        };
        let mut after = *self;
        after.play_unchecked(m);
        if after.is_checkmate() {
            out.push('#');
        } else if after.is_check() {
            out.push('+');
        }
        out
    }
}

/// A UCI move that is unreadable or not legal here.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UciMoveError {
    /// Not UCI text.
    Parse(ParseUciMoveError),
    /// Not legal in the position.
    Illegal(IllegalUciMove),
}

impl fmt::Display for UciMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UciMoveError::Parse(e) => e.fmt(f),
            UciMoveError::Illegal(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for UciMoveError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_every_legal_move() {
        for fen in [
            crate::fen::STARTING_FEN,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "8/8/8/2k5/3pP3/8/8/4K3 b - e3 0 1",
        ] {
            let pos: Position = fen.parse().unwrap();
            for &m in pos.legal_moves().iter() {
                let text = m.to_uci();
                assert_eq!(UciMove::from_move(m).to_string(), text);
                assert_eq!(pos.parse_uci(&text), Ok(m), "{text} in {fen}");
            }
        }
    }

    #[test]
    fn reads_and_rejects() {
        let pos = Position::new();
        assert_eq!("0000".parse::<UciMove>(), Ok(UciMove::Null));
        for bad in ["", "e2", "e2e", "e2e4qq", "e2e4k", "e2e4Q", "i2e4", "e2-e4"] {
            assert!(matches!(pos.parse_uci(bad), Err(UciMoveError::Parse(_))), "{bad}");
        }
        for illegal in ["e2e5", "e1g1", "0000", "e7e5"] {
            assert!(matches!(pos.parse_uci(illegal), Err(UciMoveError::Illegal(_))), "{illegal}");
        }
        assert_eq!(
            pos.parse_uci("e2e5").unwrap_err().to_string(),
            "illegal move e2e5 in rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        );
    }

    #[test]
    fn writes_lan() {
        let pos = Position::new();
        assert_eq!(pos.lan(pos.parse_uci("e2e4").unwrap()), "e2-e4");
        assert_eq!(pos.lan(pos.parse_uci("g1f3").unwrap()), "Ng1-f3");
        let p: Position = "4k3/1P6/8/8/8/8/8/R3K2R w KQ - 0 1".parse().unwrap();
        assert_eq!(p.lan(p.parse_uci("b7b8q").unwrap()), "b7-b8=Q+");
        assert_eq!(p.lan(p.parse_uci("e1c1").unwrap()), "O-O-O");
        let c: Position = "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1".parse().unwrap();
        assert_eq!(c.lan(c.parse_uci("e4d5").unwrap()), "e4xd5");
    }
}
