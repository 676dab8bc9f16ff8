//! Where a token sits in the input, and what can be wrong with a game's text.

use std::fmt;

use rookery_core::san::ParseSanError;

/// A place in the input: 1-based line and column. Columns count bytes, so a multi-byte UTF-8
/// character before the place counts more than once.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Location {
    /// The line, from 1; lines end at `\n` (a `\r` before it is white space).
    pub line: u64,
    /// The byte within the line, from 1.
    pub column: u64,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}", self.line, self.column)
    }
}

/// A syntax error in one game. The reader reports it to the visitor
/// ([`Visitor::error`](crate::Visitor::error)), skips the rest of that game's movetext and goes
/// on with the next game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadError {
    /// The game, from 1, counted in the order of the input.
    pub game: u64,
    /// Where the offending token starts.
    pub location: Location,
    /// The offending token (lossily decoded, shortened when long); empty when the problem is a
    /// missing token.
    pub token: String,
    /// What is wrong.
    pub kind: ReadErrorKind,
}

/// What is wrong with a game's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadErrorKind {
    /// A token that looks like a move is not SAN (§8.2.3).
    InvalidSan(ParseSanError),
    /// A token that is no PGN token at all.
    UnexpectedToken,
    /// `$` not followed by a number from 0 to 255 (§8.2.4).
    InvalidNag,
    /// A tag pair that does not read as `[Name "value"]` (§8.1), with the reason.
    MalformedTag(&'static str),
    /// A tag pair longer than the reader's buffer.
    TagTooLong,
    /// A `{` comment not closed before the end of the input (§5).
    UnterminatedComment,
    /// A `)` with no variation open (§8.2.5).
    UnmatchedClose,
    /// Variations still open at the end of the game (§8.2.5).
    UnclosedVariation,
}

impl ReadError {
    /// Longest token kept in an error, in characters.
    const MAX_TOKEN_CHARS: usize = 40;

    pub(crate) fn new(game: u64, location: Location, token: &[u8], kind: ReadErrorKind) -> Self {
        // A comment's token may run over lines; its first line is enough.
        let token = token.split(|&b| b == b'\n').next().unwrap_or(token);
        let token = token.strip_suffix(b"\r").unwrap_or(token);
        let text = String::from_utf8_lossy(token);
        let token = if text.chars().count() > Self::MAX_TOKEN_CHARS {
            let mut short: String = text.chars().take(Self::MAX_TOKEN_CHARS).collect();
            short.push('…');
            short
        } else {
            text.into_owned()
        };
        ReadError { game, location, token, kind }
    }
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "game {}, {}: ", self.game, self.location)?;
        let token = &self.token;
        match &self.kind {
            ReadErrorKind::InvalidSan(e) => write!(f, "{e}"),
            ReadErrorKind::UnexpectedToken => write!(f, "unexpected token {token:?}"),
            ReadErrorKind::InvalidNag => write!(f, "invalid NAG {token:?} (expected $0 to $255)"),
            ReadErrorKind::MalformedTag(why) => write!(f, "malformed tag pair {token:?}: {why}"),
            ReadErrorKind::TagTooLong => write!(f, "tag pair {token:?} longer than the buffer"),
            ReadErrorKind::UnterminatedComment => write!(f, "comment {token:?} is never closed"),
            ReadErrorKind::UnmatchedClose => f.write_str("\")\" closes no variation"),
            ReadErrorKind::UnclosedVariation => {
                f.write_str("variation not closed before the end of the game")
            }
        }
    }
}

impl std::error::Error for ReadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            ReadErrorKind::InvalidSan(e) => Some(e),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_game_place_and_token() {
        let at = Location { line: 12, column: 5 };
        let e = ReadError::new(3, at, b"&&", ReadErrorKind::UnexpectedToken);
        assert_eq!(e.to_string(), r#"game 3, line 12, column 5: unexpected token "&&""#);
        let long = [b'x'; 100];
        let e = ReadError::new(1, at, &long, ReadErrorKind::UnexpectedToken);
        assert_eq!(e.token.chars().count(), ReadError::MAX_TOKEN_CHARS + 1);
    }
}
