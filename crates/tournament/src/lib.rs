#![doc = include_str!("../README.md")]

pub mod acceleration;
pub mod arena;
pub mod berger;
pub mod burstein;
pub mod competition;
pub mod dutch;
pub mod fide_rating;
pub mod generator;
pub mod knockout;
pub mod matching;
mod model;
mod score;
pub mod standings;
mod swiss;
pub mod swiss_system;
pub mod team;
pub mod tiebreak;
pub mod trf;

pub use model::{
    AbnormalPoints, Acceleration, AnnouncedBye, ByeKind, ForbiddenPairs, Outcome, Pair, Player,
    PlayerId, ResultCode, RoundEntry, RoundPairing, Scoring, TeamRecord, Tournament,
};
pub use score::Score;
pub use standings::{standings, Standings};
pub use swiss_system::{SwissPairError, SwissSystem};
pub use tiebreak::{Regulations, Tiebreak};
