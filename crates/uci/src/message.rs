//! Messages from the engine to the GUI.

use core::fmt;
use core::str::FromStr;

use crate::error::Tokens;
use crate::{InfoField, OptionDecl, ParseError, UciMove};

/// A message from the engine to the GUI: one line of the engine's output (UCI, "Engine to
/// GUI").
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Message {
    /// `id name <name>`.
    IdName(String),
    /// `id author <author>`.
    IdAuthor(String),
    /// `uciok`: the answer to `uci`, after the `id` and `option` lines.
    UciOk,
    /// `readyok`: the answer to `isready`.
    ReadyOk,
    /// `bestmove <move> [ponder <move>]`; `bestmove 0000` when there is no legal move.
    BestMove {
        /// The move to play ([`UciMove::Null`] if there is none). Stockfish's
        /// `bestmove (none)` reads as the null move too.
        best: UciMove,
        /// The reply the engine expects, to ponder on.
        ponder: Option<UciMove>,
    },
    /// `copyprotection checking|ok|error`.
    CopyProtection(Status),
    /// `registration checking|ok|error`.
    Registration(Status),
    /// `info …`: search information, in the order the fields were written.
    Info(Vec<InfoField>),
    /// `option name … type …`.
    Option(OptionDecl),
}

/// The state of copy protection or registration.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// `checking`.
    Checking,
    /// `ok`.
    Ok,
    /// `error`.
    Error,
}

impl Message {
    /// An `info string` message.
    pub fn info_string(text: impl Into<String>) -> Message {
        Message::Info(vec![InfoField::String(text.into())])
    }
}

fn status(tokens: &mut Tokens<'_>, after: &'static str) -> Result<Status, ParseError> {
    match tokens.next() {
        Some("checking") => Ok(Status::Checking),
        Some("ok") => Ok(Status::Ok),
        Some("error") => Ok(Status::Error),
        found => Err(ParseError::Expected {
            after,
            expected: "checking, ok or error",
            found: found.map(str::to_owned),
        }),
    }
}

fn uci_move(tokens: &mut Tokens<'_>, after: &'static str) -> Result<UciMove, ParseError> {
    match tokens.next() {
        Some("(none)") if after == "bestmove" => Ok(UciMove::Null),
        Some(token) => Ok(token.parse()?),
        None => Err(ParseError::Expected { after, expected: "a move", found: None }),
    }
}

impl FromStr for Message {
    type Err = ParseError;

    /// Reads one line of engine output.
    fn from_str(line: &str) -> Result<Message, ParseError> {
        let mut tokens = Tokens::new(line);
        let Some(first) = tokens.next() else { return Err(ParseError::Empty) };
        let (name, message) = match first {
            "id" => match tokens.next() {
                Some("name") => ("id", Message::IdName(tokens.rest().unwrap_or_default())),
                Some("author") => ("id", Message::IdAuthor(tokens.rest().unwrap_or_default())),
                found => {
                    return Err(ParseError::Expected {
                        after: "id",
                        expected: "name or author",
                        found: found.map(str::to_owned),
                    })
                }
            },
            "uciok" => ("uciok", Message::UciOk),
            "readyok" => ("readyok", Message::ReadyOk),
            "bestmove" => {
                let best = uci_move(&mut tokens, "bestmove")?;
                let ponder = match tokens.next() {
                    Some("ponder") => Some(uci_move(&mut tokens, "ponder")?),
                    Some(other) => {
                        return Err(ParseError::Unexpected {
                            command: "bestmove",
                            token: other.to_owned(),
                        })
                    }
                    None => None,
                };
                ("bestmove", Message::BestMove { best, ponder })
            }
            "copyprotection" => {
                ("copyprotection", Message::CopyProtection(status(&mut tokens, "copyprotection")?))
            }
            "registration" => {
                ("registration", Message::Registration(status(&mut tokens, "registration")?))
            }
            "info" => ("info", Message::Info(InfoField::parse_all(&mut tokens)?)),
            "option" => ("option", Message::Option(OptionDecl::parse(&mut tokens)?)),
            other => return Err(ParseError::UnknownCommand(other.to_owned())),
        };
        tokens.end(name)?;
        Ok(message)
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Status::Checking => "checking",
            Status::Ok => "ok",
            Status::Error => "error",
        })
    }
}

impl fmt::Display for Message {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Message::IdName(name) => write!(f, "id name {name}"),
            Message::IdAuthor(author) => write!(f, "id author {author}"),
            Message::UciOk => f.write_str("uciok"),
            Message::ReadyOk => f.write_str("readyok"),
            Message::BestMove { best, ponder: None } => write!(f, "bestmove {best}"),
            Message::BestMove { best, ponder: Some(ponder) } => {
                write!(f, "bestmove {best} ponder {ponder}")
            }
            Message::CopyProtection(status) => write!(f, "copyprotection {status}"),
            Message::Registration(status) => write!(f, "registration {status}"),
            Message::Info(fields) => {
                f.write_str("info")?;
                for field in fields {
                    write!(f, " {field}")?;
                }
                Ok(())
            }
            Message::Option(decl) => write!(f, "option {decl}"),
        }
    }
}
