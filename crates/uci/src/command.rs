//! Commands from the GUI to the engine.

use core::fmt;
use core::str::FromStr;

use rookery_core::Fen;

use crate::error::Tokens;
use crate::{write_moves, Go, ParseError, UciMove};

/// A command from the GUI to the engine: one line of the engine's input (UCI, "GUI to
/// engine"), plus Stockfish's extensions `go perft N` and `bench`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `uci`: switch to UCI; the engine answers with `id`, `option` lines and `uciok`.
    Uci,
    /// `debug on` / `debug off`.
    Debug(bool),
    /// `isready`: the engine answers `readyok`, also while searching.
    IsReady,
    /// `setoption name <name> [value <value>]`.
    SetOption {
        /// The option's name, which may contain spaces.
        name: String,
        /// The value, as written (`None` for buttons).
        value: Option<String>,
    },
    /// `register later` or `register name <name> code <code>`.
    Register(Registration),
    /// `ucinewgame`: the next search is from a different game.
    UciNewGame,
    /// `position startpos|fen <fen> [moves <m1> … <mi>]`.
    Position {
        /// The position before the moves.
        start: StartPosition,
        /// The moves played from there.
        moves: Vec<UciMove>,
    },
    /// `go …`: start searching (or count, for `go perft`).
    Go(Go),
    /// `stop`: stop searching and answer `bestmove`.
    Stop,
    /// `ponderhit`: the opponent played the expected move; the ponder search goes on as a
    /// normal one.
    PonderHit,
    /// `quit`.
    Quit,
    /// `bench [depth]`: search a fixed set of positions and print the node count, the
    /// engine's signature (an extension, as in Stockfish).
    Bench {
        /// The depth, instead of the engine's default.
        depth: Option<u32>,
    },
}

/// Where a `position` command starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StartPosition {
    /// `startpos`: the standard starting position.
    Standard,
    /// `fen <fen>`: a position, not yet checked for legality.
    Fen(Fen),
}

/// The argument of `register`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Registration {
    /// `register later`.
    Later,
    /// `register name <name> code <code>`.
    Now {
        /// The name, which may contain spaces.
        name: String,
        /// The code.
        code: String,
    },
}

impl FromStr for Command {
    type Err = ParseError;

    /// Reads one line of engine input.
    fn from_str(line: &str) -> Result<Command, ParseError> {
        let mut tokens = Tokens::new(line);
        let Some(first) = tokens.next() else { return Err(ParseError::Empty) };
        let (name, command) = match first {
            "uci" => ("uci", Command::Uci),
            "debug" => match tokens.next() {
                Some("on") => ("debug", Command::Debug(true)),
                Some("off") => ("debug", Command::Debug(false)),
                found => {
                    return Err(ParseError::Expected {
                        after: "debug",
                        expected: "on or off",
                        found: found.map(str::to_owned),
                    })
                }
            },
            "isready" => ("isready", Command::IsReady),
            "setoption" => ("setoption", parse_setoption(&mut tokens)?),
            "register" => ("register", Command::Register(parse_register(&mut tokens)?)),
            "ucinewgame" => ("ucinewgame", Command::UciNewGame),
            "position" => ("position", parse_position(&mut tokens)?),
            "go" => ("go", Command::Go(Go::parse(&mut tokens)?)),
            "stop" => ("stop", Command::Stop),
            "ponderhit" => ("ponderhit", Command::PonderHit),
            "quit" => ("quit", Command::Quit),
            "bench" => {
                let depth = match tokens.peek() {
                    Some(_) => Some(tokens.number("bench")?),
                    None => None,
                };
                ("bench", Command::Bench { depth })
            }
            other => return Err(ParseError::UnknownCommand(other.to_owned())),
        };
        tokens.end(name)?;
        Ok(command)
    }
}

fn parse_setoption(tokens: &mut Tokens<'_>) -> Result<Command, ParseError> {
    match tokens.next() {
        Some("name") => {}
        found => {
            return Err(ParseError::Expected {
                after: "setoption",
                expected: "name",
                found: found.map(str::to_owned),
            })
        }
    }
    let name = tokens.until(|t| t == "value");
    if name.is_empty() {
        return Err(ParseError::Expected {
            after: "name",
            expected: "an option name",
            found: tokens.peek().map(str::to_owned),
        });
    }
    let value = tokens.next().map(|_| tokens.rest().unwrap_or_default());
    Ok(Command::SetOption { name, value })
}

fn parse_register(tokens: &mut Tokens<'_>) -> Result<Registration, ParseError> {
    match tokens.next() {
        Some("later") => Ok(Registration::Later),
        Some("name") => {
            let name = tokens.until(|t| t == "code");
            match tokens.next() {
                Some(_) => Ok(Registration::Now { name, code: tokens.rest().unwrap_or_default() }),
                None => {
                    Err(ParseError::Expected { after: "register", expected: "code", found: None })
                }
            }
        }
        found => Err(ParseError::Expected {
            after: "register",
            expected: "later or name",
            found: found.map(str::to_owned),
        }),
    }
}

fn parse_position(tokens: &mut Tokens<'_>) -> Result<Command, ParseError> {
    let start = match tokens.next() {
        Some("startpos") => StartPosition::Standard,
        Some("fen") => {
            let text = tokens.until(|t| t == "moves");
            let fen = Fen::parse(&text)
                .map_err(|error| ParseError::BadFen { fen: text.clone(), error })?;
            StartPosition::Fen(fen)
        }
        found => {
            return Err(ParseError::Expected {
                after: "position",
                expected: "startpos or fen",
                found: found.map(str::to_owned),
            })
        }
    };
    let mut moves = Vec::new();
    match tokens.next() {
        None => {}
        Some("moves") => {
            while let Some(token) = tokens.next() {
                moves.push(token.parse()?);
            }
        }
        Some(other) => {
            return Err(ParseError::Unexpected { command: "position", token: other.to_owned() })
        }
    }
    Ok(Command::Position { start, moves })
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Uci => f.write_str("uci"),
            Command::Debug(on) => f.write_str(if *on { "debug on" } else { "debug off" }),
            Command::IsReady => f.write_str("isready"),
            Command::SetOption { name, value: None } => write!(f, "setoption name {name}"),
            Command::SetOption { name, value: Some(value) } => {
                write!(f, "setoption name {name} value {value}")
            }
            Command::Register(Registration::Later) => f.write_str("register later"),
            Command::Register(Registration::Now { name, code }) => {
                write!(f, "register name {name} code {code}")
            }
            Command::UciNewGame => f.write_str("ucinewgame"),
            Command::Position { start, moves } => {
                match start {
                    StartPosition::Standard => f.write_str("position startpos")?,
                    StartPosition::Fen(fen) => write!(f, "position fen {fen}")?,
                }
                if !moves.is_empty() {
                    f.write_str(" moves")?;
                    write_moves(f, moves)?;
                }
                Ok(())
            }
            Command::Go(go) => write!(f, "{go}"),
            Command::Stop => f.write_str("stop"),
            Command::PonderHit => f.write_str("ponderhit"),
            Command::Quit => f.write_str("quit"),
            Command::Bench { depth: None } => f.write_str("bench"),
            Command::Bench { depth: Some(depth) } => write!(f, "bench {depth}"),
        }
    }
}
