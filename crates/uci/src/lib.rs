#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

mod command;
mod error;
mod go;
mod info;
mod message;
mod option;
mod session;
mod settings;
mod wdl;

use core::fmt;

pub use command::{Command, Registration, StartPosition};
pub use error::ParseError;
pub use go::Go;
pub use info::{InfoField, Score, ScoreBound, ScoreValue};
pub use message::{Message, Status};
pub use option::{OptionDecl, OptionKind};
/// Moves in UCI's long algebraic notation (`e2e4`, `e7e8q`, castling as the king's move
/// `e1g1`, or as the king taking its rook `e1h1` in Chess960, the null move `0000`):
/// rookery-core's one UCI move type, syntax only until [`UciMove::to_move`] checks it against
/// a position.
pub use rookery_core::uci::{IllegalUciMove, UciMove};
pub use session::{best_move_message, info_message, run, ENGINE_AUTHOR, ENGINE_NAME};
pub use settings::{OptionError, MAX_HASH_MB, MAX_THREADS};
pub use wdl::WdlModel;

/// Writes moves, each after a space.
pub(crate) fn write_moves(f: &mut fmt::Formatter<'_>, moves: &[UciMove]) -> fmt::Result {
    for m in moves {
        write!(f, " {m}")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use rookery_core::Position;

    use crate::{Command, Message, ParseError, UciMove};

    /// One UCI move type (issue 37): the protocol's moves are rookery-core's, so this
    /// compiles only while both names are the same type.
    #[test]
    fn moves_are_rookery_cores() {
        let core: rookery_core::UciMove = "e7e8q".parse().unwrap();
        let ours: UciMove = core;
        assert_eq!(ours.to_string(), "e7e8q");
        let castle: Position = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1".parse().unwrap();
        assert!("e1c1".parse::<UciMove>().unwrap().to_move(&castle).unwrap().is_castle());
        for bad in ["e2e9", "e7e8k", "e7e8Q", "i2i4", "e2e4e5", "00000"] {
            let line = format!("position startpos moves e2e4 {bad}");
            assert_eq!(line.parse::<Command>(), Err(ParseError::BadMove(bad.into())), "{bad}");
        }
        let best = "bestmove 0000".parse::<Message>().unwrap();
        assert_eq!(best, Message::BestMove { best: UciMove::Null, ponder: None });
    }
}
