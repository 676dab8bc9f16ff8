#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

pub mod clock;
pub mod dead;
pub mod event;
pub mod game;
pub mod outcome;
mod record;
pub mod repetition;
pub mod rules;
pub mod start;
pub mod time_control;

pub use clock::{Clock, ClockError, ClockState, MoveReport};
pub use dead::{can_ever_mate, is_dead, winnability, Budget, Winnability};
pub use event::{ActionResult, DrawClaim, Event, MoveInput, Obligation, Rejected, Rejection};
pub use game::{Game, GameSpec, GameSpecError, PlyRecord};
pub use outcome::{GameResult, Outcome, Termination};
pub use repetition::Repetitions;
pub use rules::{DrawPolicy, IllegalMovePolicy, RuleSet, RuleSetName};
pub use start::{MissedStart, ParseStartPolicyError, StartPolicy};
pub use time_control::{ParseTimeControlError, Speed, TimeControl};
