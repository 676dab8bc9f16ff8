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
mod uci_move;

pub use command::{Command, Registration, StartPosition};
pub use error::ParseError;
pub use go::Go;
pub use info::{InfoField, Score, ScoreBound, ScoreValue};
pub use message::{Message, Status};
pub use option::{OptionDecl, OptionKind};
pub use session::{best_move_message, info_message, run, ENGINE_AUTHOR, ENGINE_NAME};
pub use settings::{OptionError, MAX_HASH_MB, MAX_THREADS};
pub use uci_move::{IllegalMove, UciMove};
