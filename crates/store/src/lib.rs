#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

mod account;
mod error;
mod game;
mod ladder;
mod store;
mod writer;

pub use account::{User, UserId};
pub use error::StoreError;
pub use game::{Action, GameStatus, GameSummary, NewGame, Player, PlayerKind, StoredGame};
pub use ladder::{Finish, HistoryPoint, RatingChange, RatingChanges};
pub use store::{Backend, Store};
