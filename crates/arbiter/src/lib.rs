#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

pub mod clock;
pub mod dead;
pub mod event;
pub mod game;
pub mod outcome;
pub mod record;
pub mod repetition;
pub mod rules;
pub mod start;
pub mod time_control;

pub use clock::{Clock, ClockError, ClockState, MoveReport};
pub use dead::{can_ever_mate, is_dead, winnability, Budget, Winnability};
pub use event::{
    ActionResult, DrawClaim, Event, MoveInput, Obligation, ParseMoveError, Rejected, Rejection,
};
pub use game::{Game, GameSpec, GameSpecError, PlyRecord};
pub use outcome::{Outcome, Termination};
pub use record::{GameRecord, RecordError, RecordedPly, TERMINATION_TAG};
pub use repetition::Repetitions;
/// The result of a game: rookery-core's one result type.
pub use rookery_core::GameResult;
pub use rules::{DrawPolicy, IllegalMovePolicy, RuleSet, RuleSetName};
pub use start::{MissedStart, ParseStartPolicyError, StartPolicy};
pub use time_control::{FideCategory, ParseTimeControlError, Speed, TimeControl};
