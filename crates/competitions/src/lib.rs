#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

mod actor;
pub mod board_record;
mod book;
mod calendar;
mod export;
mod fixed_boards;
#[cfg(test)]
mod fixtures;
#[cfg(test)]
mod golden;
mod handle;
mod host;
pub mod knockout;
pub mod log;
mod log_view;
mod message;
mod ports;
mod print;
mod refusal;
mod registry;
mod request;
pub mod roster;
pub mod settings;
pub mod standings;
pub mod team;
mod text;
pub mod view;

pub use book::Tour;
pub use export::Export;
pub use handle::{Answer, TournamentHandle, Update, Who};
pub use message::{Clock, GameNotice, ResultNews, SocketError, TournamentMessage, YourGame};
pub use ports::{Acted, Claims, GameHost, Host, Lobby, TournamentClaim};
pub use print::{Document, Lang, PrintRequest};
pub use refusal::{PairSide, RefusalClass, TournamentError, TournamentRefusal};
pub use registry::{Finished, Tournaments};
pub use request::{ArbiterAction, IncidentReport, Op};

/// The time of day: read by the actors' loops only (the outermost loop of a tournament), and
/// passed in to everything below them.
pub(crate) use rookery_store::now_ms;
