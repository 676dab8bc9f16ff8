#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

pub mod adjudication;
mod engine;
pub mod game;
pub mod opening;
mod runner;
mod spec;
pub mod sprt;
pub mod stats;

use std::time::Instant;

pub use adjudication::{DrawRule, ResignRule};
pub use engine::{EngineError, EngineProcess, Reply};
pub use game::{GameSettings, ENGINE_RULES};
pub use opening::{Opening, OpeningError};
pub use runner::{pgn_date, run, Finished, MatchConfig, MatchError, MatchReport, SprtState};
pub use spec::{EngineSpec, SpecError};
pub use sprt::{Sprt, SprtDecision};
pub use stats::{EloEstimate, Failures, Wdl};

/// The match's one clock: milliseconds since a fixed moment. Every reading the arbiter sees
/// comes from here, so tests (and replays) can stand a fake clock in.
pub trait Timer {
    /// Milliseconds since the timer's epoch; never decreasing.
    fn now_ms(&self) -> u64;
}

/// Real time: milliseconds since the timer was made, from one monotonic [`Instant`].
#[derive(Clone, Copy, Debug)]
pub struct MonotonicTimer {
    epoch: Instant,
}

impl MonotonicTimer {
    /// A timer whose epoch is now.
    pub fn new() -> MonotonicTimer {
        MonotonicTimer { epoch: Instant::now() }
    }
}

impl Default for MonotonicTimer {
    fn default() -> MonotonicTimer {
        MonotonicTimer::new()
    }
}

impl Timer for MonotonicTimer {
    fn now_ms(&self) -> u64 {
        self.epoch.elapsed().as_millis() as u64
    }
}
