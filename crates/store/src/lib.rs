#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

mod account;
mod analysis;
mod class;
mod cluster;
mod commit;
mod correction;
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
pub use ladder::{Finish, HistoryPoint, LadderSpan, RatingChange, RatingChanges};
pub use store::{Backend, Store};
pub use tournament::{
    LogEntry, StoredTournament, TournamentGame, TournamentRow, TournamentStatus, TournamentSummary,
};
pub use writer::{Writer, Written};

/// Wall-clock time in milliseconds since the Unix epoch, as the store's `*_at_ms` columns
/// record it: the one reading of the time of day for the server and the crates it hosts
/// (live games, tournaments, the cluster, analyses), each of which passes it in below its
/// outermost loop.
pub fn now_ms() -> u64 {
    use std::time::{SystemTime, UNIX_EPOCH};
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64)
}
