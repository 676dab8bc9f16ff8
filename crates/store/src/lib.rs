#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

mod account;
mod analysis;
mod class;
mod cluster;
mod commit;
mod error;
mod game;
mod ladder;
mod store;
mod tournament;
mod writer;

pub use account::{User, UserId};
pub use analysis::{AnalysisStatus, StoredAnalysis};
pub use class::{ClassAccount, NewClassAccount};
pub use cluster::{Claim, Heartbeat, PreviousOwner};
pub use error::StoreError;
pub use game::{
    Action, GameStatus, GameSummary, NewGame, Player, PlayerKind, StoredGame, TournamentSeat,
};
pub use ladder::{Finish, HistoryPoint, RatingChange, RatingChanges};
pub use store::{Backend, Store};
pub use tournament::{
    LogEntry, StoredTournament, TournamentGame, TournamentRow, TournamentStatus, TournamentSummary,
};
pub use writer::{Writer, Written};
