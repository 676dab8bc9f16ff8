//! The result of a game (RULES.md §5, §6), as PGN writes it (the termination marker and the
//! `Result` tag, PGN standard §8.2.6).
//!
//! One type for every crate: the position decides some results by itself
//! ([`Position::result`](crate::Position::result)), the PGN reader reads them, the arbiter
//! declares them, the store keeps them and the server shows them.

use core::fmt;
use core::str::FromStr;

use crate::Color;

/// The result of a game: `1-0`, `0-1`, `1/2-1/2`, or `*` for none.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// `1-0` or `0-1`: a side won.
    Win(Color),
    /// `1/2-1/2`.
    Draw,
    /// `*`: no result. A game aborted before it began (no points, no rating change), or, in a
    /// PGN file, one unfinished or whose result is unknown.
    NoResult,
}

/// Text that is none of the four results.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseGameResultError {
    /// The offending text.
    pub text: String,
}

impl fmt::Display for ParseGameResultError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "not a game result (1-0, 0-1, 1/2-1/2 or *): {:?}", self.text)
    }
}

impl std::error::Error for ParseGameResultError {}

impl GameResult {
    /// All four results, in the order PGN lists them.
    pub const ALL: [GameResult; 4] = [
        GameResult::Win(Color::White),
        GameResult::Win(Color::Black),
        GameResult::Draw,
        GameResult::NoResult,
    ];

    /// Reads a result exactly as PGN spells it.
    pub fn from_ascii(text: &[u8]) -> Option<GameResult> {
        match text {
            b"1-0" => Some(GameResult::Win(Color::White)),
            b"0-1" => Some(GameResult::Win(Color::Black)),
            b"1/2-1/2" => Some(GameResult::Draw),
            b"*" => Some(GameResult::NoResult),
            _ => None,
        }
    }

    /// The PGN text: `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub const fn as_str(self) -> &'static str {
        match self {
            GameResult::Win(Color::White) => "1-0",
            GameResult::Win(Color::Black) => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::NoResult => "*",
        }
    }

    /// The side that won, if one did.
    pub const fn winner(self) -> Option<Color> {
        match self {
            GameResult::Win(c) => Some(c),
            _ => None,
        }
    }

    /// `true` for a win or a draw: a result that counts.
    pub const fn is_decided(self) -> bool {
        !matches!(self, GameResult::NoResult)
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.as_str())
    }
}

impl FromStr for GameResult {
    type Err = ParseGameResultError;

    fn from_str(s: &str) -> Result<GameResult, ParseGameResultError> {
        GameResult::from_ascii(s.as_bytes())
            .ok_or_else(|| ParseGameResultError { text: s.to_owned() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips() {
        for r in GameResult::ALL {
            assert_eq!(r.as_str().parse::<GameResult>(), Ok(r));
            assert_eq!(GameResult::from_ascii(r.to_string().as_bytes()), Some(r));
        }
        for bad in ["", "1-1", "½-½", "1/2", "* ", "draw"] {
            assert!(bad.parse::<GameResult>().is_err(), "{bad}");
        }
        assert_eq!(GameResult::Win(Color::Black).winner(), Some(Color::Black));
        assert!(!GameResult::NoResult.is_decided());
    }
}
