//! Why a line is not a UCI command or message: one error type for every line parser, each
//! variant naming the offending token.

use core::fmt;

use rookery_core::uci::ParseUciMoveError;
use rookery_core::ParseFenError;

/// A line that does not parse as a UCI command or engine message.
///
/// Syntax only: a `position` whose moves are well-formed but illegal parses fine, and is
/// rejected later against the position (see [`crate::UciMove::to_move`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// Nothing but white space.
    Empty,
    /// The first token is no command or message the protocol knows.
    UnknownCommand(String),
    /// A keyword needs something after it that is missing or malformed.
    Expected {
        /// The keyword, such as `depth` or `position`.
        after: &'static str,
        /// What should follow, such as `a number`.
        expected: &'static str,
        /// What was found instead; `None` at the end of the line.
        found: Option<String>,
    },
    /// A token that has no place in the command.
    Unexpected {
        /// The command or message, such as `go`.
        command: &'static str,
        /// The token.
        token: String,
    },
    /// A token that should be a move in UCI notation (`e2e4`, `e7e8q`, `0000`) and is not.
    BadMove(String),
    /// The FEN of `position fen` does not parse.
    BadFen {
        /// The FEN text.
        fen: String,
        /// Why.
        error: ParseFenError,
    },
}

impl From<ParseUciMoveError> for ParseError {
    fn from(e: ParseUciMoveError) -> ParseError {
        ParseError::BadMove(e.text)
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::Empty => f.write_str("empty line"),
            ParseError::UnknownCommand(token) => write!(f, "unknown command \"{token}\""),
            ParseError::Expected { after, expected, found: Some(found) } => {
                write!(f, "expected {expected} after \"{after}\", found \"{found}\"")
            }
            ParseError::Expected { after, expected, found: None } => {
                write!(f, "expected {expected} after \"{after}\", found the end of the line")
            }
            ParseError::Unexpected { command, token } => {
                write!(f, "unexpected \"{token}\" in \"{command}\"")
            }
            ParseError::BadMove(token) => write!(f, "invalid move \"{token}\""),
            ParseError::BadFen { fen, error } => write!(f, "invalid FEN \"{fen}\": {error}"),
        }
    }
}

impl std::error::Error for ParseError {}

/// The tokens of one line: UCI separates tokens by any amount of white space.
pub(crate) struct Tokens<'a> {
    tokens: Vec<&'a str>,
    next: usize,
}

impl<'a> Tokens<'a> {
    pub(crate) fn new(line: &'a str) -> Tokens<'a> {
        Tokens { tokens: line.split_ascii_whitespace().collect(), next: 0 }
    }

    pub(crate) fn next(&mut self) -> Option<&'a str> {
        let token = self.tokens.get(self.next).copied();
        self.next += usize::from(token.is_some());
        token
    }

    pub(crate) fn peek(&self) -> Option<&'a str> {
        self.tokens.get(self.next).copied()
    }

    /// The rest of the line joined by single spaces (`None` if nothing is left).
    pub(crate) fn rest(&mut self) -> Option<String> {
        let rest = self.tokens.get(self.next..).filter(|r| !r.is_empty())?.join(" ");
        self.next = self.tokens.len();
        Some(rest)
    }

    /// The tokens up to (not including) the first for which `stop` is true, joined by single
    /// spaces.
    pub(crate) fn until(&mut self, stop: impl Fn(&str) -> bool) -> String {
        let start = self.next;
        while self.peek().is_some_and(|t| !stop(t)) {
            self.next += 1;
        }
        self.tokens[start..self.next].join(" ")
    }

    /// The next token read as a number, for the value of `key`.
    pub(crate) fn number<T: core::str::FromStr>(
        &mut self,
        key: &'static str,
    ) -> Result<T, ParseError> {
        let token = self.next();
        token.and_then(|t| t.parse().ok()).ok_or_else(|| ParseError::Expected {
            after: key,
            expected: "a number",
            found: token.map(str::to_owned),
        })
    }

    /// The end of the line, or an error naming the first extra token.
    pub(crate) fn end(&mut self, command: &'static str) -> Result<(), ParseError> {
        match self.next() {
            None => Ok(()),
            Some(token) => Err(ParseError::Unexpected { command, token: token.to_owned() }),
        }
    }
}
