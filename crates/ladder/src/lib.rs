#![doc = include_str!("../README.md")]

mod award;
mod glicko2;
mod level;
mod points;
mod standings;

pub use award::{award, Band, PairResult, ParsePairResultError};
pub use glicko2::{Glicko2, Glicko2Error, RatedGame, Rating};
pub use level::{Language, Level, LevelName, ParseLevelError};
pub use points::{ParsePointsError, ParsePointsErrorKind, Points};
pub use standings::{Ladder, Player, RecordError, StandingsRow};
